"""What the table screen and each House see: ``view(state, seat)`` and its declared shapes.

Public (on the table): the Realm board, the Dilemma card in play, the Vote cards with the Power and the
PASS Coins on them, the Leader and Moderator tokens, Open Agenda tokens, Prestige, the general pool.
Behind a House screen (its own view only, under ``private``): its Power, Coins, Secret Agenda and the
draft offer it saw. Nobody sees the removed Secret Agenda; the Secret Agendas are revealed by the
end-of-game scoring. The table's view (``you`` None) adds what the host's forms fill in from the
campaign: the stored back of the winning side and the fronts of the cards met before.
"""

from typing import NotRequired, TypedDict, cast

from games.engines.kernel.contract import BaseView
from games.engines.kings_dilemma.cards import public_card
from games.engines.kings_dilemma.data import RESOURCES
from games.engines.kings_dilemma.realm import (
    cards_on_lightning,
    draw_refusal,
    drawn_numbers,
    known_outcome,
    out_of_deck,
    prestige_now,
)
from games.engines.kings_dilemma.sentences import news_lines
from games.engines.kings_dilemma.turn import drafting_seat, to_act
from games.engines.kings_dilemma.voting import totals

# ---- the cards (cards.py documents their fields) ----------------------------------------------


class FrontSide(TypedDict):
    resources: list[list[str]]  # [row, "up" | "down"], in order
    sticker: str | None  # "positive" | "negative"


class CardFront(TypedDict):
    aye: FrontSide
    nay: FrontSide


class Sticker(TypedDict):
    number: int
    row: str
    positive: bool


class Outcome(TypedDict):
    resources: list[list[str | int]]  # [row, spaces], in order
    sticker: Sticker | None
    envelope: int | None
    lightning: bool
    note: str


class CardBack(TypedDict):
    aye: Outcome | None
    nay: Outcome | None


class PublicCard(TypedDict):
    """A Dilemma card as everyone may see it: its front only."""

    number: int
    title: str
    question: str
    front: CardFront


class StoredCard(PublicCard):
    """A card met tonight, front and back as typed (in the result only)."""

    back: CardBack


# ---- what the host types from the card (the ``typed`` parameters of draw_dilemma and read_outcome) ----


class TypedFrontSide(TypedDict, total=False):
    resources: list[list[str]]  # [row, "up" | "down"], in order
    sticker: str | None  # "positive" | "negative"


class DilemmaFront(TypedDict):
    """The front of the card drawn, as typed at the draw (cards.py ``normalise_front``): a new card's
    number, title, question and the Outcome tokens of each side; a card met before by its number alone."""

    number: int
    title: NotRequired[str]
    question: NotRequired[str]
    aye: NotRequired[TypedFrontSide | None]
    nay: NotRequired[TypedFrontSide | None]


class DilemmaOutcome(TypedDict, total=False):
    """The back of the winning side, typed after the vote (cards.py ``normalise_outcome``): one with
    nothing in it is refused."""

    resources: list[list[str | int]]  # [row, spaces], in order
    sticker: Sticker | None
    envelope: int | None
    lightning: bool
    note: str


TYPED_PARAMS: dict[str, type] = {"dilemma_front": DilemmaFront, "dilemma_outcome": DilemmaOutcome}
TYPED_EXAMPLES: dict[str, object] = {
    "dilemma_front": {
        "number": 12,
        "title": "Bread taxes",
        "question": "Shall the Crown cut the taxes on bread?",
        "aye": {"resources": [["wealth", "down"], ["morale", "up"]], "sticker": "negative"},
        "nay": {"resources": [["welfare", "down"]], "sticker": None},
    },
    "dilemma_outcome": {
        "resources": [["wealth", -2], ["morale", 1]],
        "sticker": {"number": 43, "row": "influence", "positive": True},
        "envelope": 5,
        "lightning": False,
        "note": "",
    },
}


# ---- the Realm board ----------------------------------------------------------------------------


class ResourceMarker(TypedDict):
    position: int
    momentum: str  # "up" | "down"
    marker: bool  # a Momentum marker attached


class StickerPlaced(Sticker):
    signer: int  # the Leader who signed it
    dilemma: int


class EnvelopeOpened(TypedDict):
    number: int
    opened_by: int
    dilemma: int | None
    grand_finale: NotRequired[bool]  # Envelope 70, opened by the sixth Mystery sticker


class Board(TypedDict):
    resources: dict[str, ResourceMarker]  # by row (data.RESOURCES)
    resource_rows: int
    stability: int
    stability_spaces: int
    abdicated: str | None  # "top" | "bottom"
    time_counter: list[int]  # card numbers, in order
    time_counter_spaces: int
    cards_on_lightning: int
    king_dead: bool
    event_cards: list[int]
    balance: int  # Power on the Balance
    stickers: list[StickerPlaced]
    envelopes: list[EnvelopeOpened]
    mystery_stickers: list[str]  # letters attached tonight


class Pool(TypedDict):
    power: int
    coins: int


# ---- the vote --------------------------------------------------------------------------------


class Vote(TypedDict):
    """The Vote cards during the Voting Phase and its resolution (seat order lists)."""

    turn: int | None  # None once every turn is over (a tie or the Leader token to decide)
    choice: list[str | None]  # "aye" | "nay" | "gather" | "moderator" | None
    committed: list[int]  # Power on the Vote card
    pass_coin: list[int]  # the Coin on a PASS card
    moderator_pass: int | None
    undecided: str | None  # "tie" | "all_pass"
    aye: int
    nay: int


class LastVote(TypedDict):
    choice: list[str | None]
    committed: list[int]
    aye: int
    nay: int
    side: str
    undecided: str | None
    shared: int  # Power of the Balance each gatherer took
    gatherers: list[int]
    leader: int


# ---- the end ---------------------------------------------------------------------------------


class PrestigeCraveEffect(TypedDict):
    seat: int
    prestige: int
    crave: int
    label: str


class ScoreRow(TypedDict):
    """One House's scores (scoring.finish documents each)."""

    house: int | None
    name: str
    secret_agenda: str
    agenda_points: int
    coins_points: int
    open_agenda_points: int
    power_points: int
    coins: int
    power: int
    total: int
    position: int
    last: bool
    rebel_crave: int
    prestige_award: int
    crave_award: int


class Scores(TypedDict):
    seats: list[ScoreRow]
    winners: list[int]


class Shortfall(TypedDict):
    what: str
    amount: int
    step: int


class KingsDilemmaResult(TypedDict):
    """What the campaign records (``state["result"]``, documented in ``scoring.finish``)."""

    end: str
    king_name: str
    seats: list[ScoreRow]
    winners: list[int]
    heir: int
    stickers: list[StickerPlaced]
    envelopes: list[EnvelopeOpened]
    resolved_dilemmas: list[int]
    event_cards: list[int]
    cards_to_deck: NotRequired[
        list[int]
    ]  # put into the Dilemma deck by a printed effect (not in older results)
    cards_met: dict[str, StoredCard]
    prestige_crave_effects: list[PrestigeCraveEffect]
    mystery_stickers: list[str]
    resources_final: dict[str, int]
    stability_final: int
    pool_shortfalls: list[Shortfall]


# ---- the views -------------------------------------------------------------------------------


class OpenAgendaToken(TypedDict):
    row: str
    positive: bool


class KingsDilemmaSeatEntry(TypedDict):
    """One House as everyone sees it."""

    index: int
    name: str
    house: int | None  # the campaign's House id
    house_name: str | None
    house_number: int
    prestige: int  # with what the table gave or took tonight
    open_agendas: list[OpenAgendaToken]
    has_secret_agenda: bool
    leader: bool
    moderator: bool


class KingsDilemmaPrivate(TypedDict):
    """Behind one House's screen."""

    power: int
    coins: int
    pass_coin: int  # 'PASS': the Coin lies on the PASS card until the vote ends
    secret_agenda: str | None
    draft_offer: list[str] | None  # the cards offered to this House in the draft


class KingsDilemmaView(BaseView):
    """What everyone sees (the table's and every seat's view share it)."""

    seats: list[KingsDilemmaSeatEntry]
    round: int
    king_name: str
    leader: int
    moderator: int
    board: Board
    pool: Pool
    card: PublicCard | None  # the front only, before and after the vote
    outcome: Outcome | None  # the back read, during the resolution
    winning_side: str | None
    vote: Vote | None
    last_vote: LastVote | None
    leader_candidates: list[int] | None
    heir_candidates: list[int] | None
    drafting: int | None
    dilemma_deck_size: int
    cards_drawn: list[int]
    prestige_crave_effects: list[PrestigeCraveEffect]
    news: list[str]  # what the last action did, one sentence per consequence
    end: str | None  # "king_died" | "abdicated_top" | "abdicated_bottom"
    scores: Scores | None
    result: KingsDilemmaResult | None
    over: bool


class KingsDilemmaTableView(KingsDilemmaView):
    """The table's screen (``you`` None): what the host's forms fill in from the campaign."""

    known_outcome: Outcome | None  # the stored back of the winning side, once the vote has ended
    known_fronts: list[PublicCard]  # at the draw, the fronts of the cards met before
    # At the draw, the numbers the table cannot draw and why (already drawn tonight, or out of the
    # Dilemma deck): the host's form refuses them at the number, before the front is typed.
    undrawable: dict[str, str]


class KingsDilemmaSeatView(KingsDilemmaView):
    """One House's phone (``you`` its index)."""

    private: KingsDilemmaPrivate


def _seat_entry(state: dict, index: int) -> KingsDilemmaSeatEntry:
    seat = state["seats"][index]
    return {
        "index": index,
        "name": seat["name"],
        "house": seat["house"],
        "house_name": seat["house_name"],
        "house_number": seat["house_number"],
        "prestige": prestige_now(state, index),
        "open_agendas": [{"row": t["row"], "positive": t["positive"]} for t in seat["open_agendas"]],
        "has_secret_agenda": seat["secret_agenda"] is not None,
        "leader": state["leader"] == index,
        "moderator": state["moderator"] == index,
    }


def _vote(state: dict) -> Vote | None:
    vote_ = state["vote"]
    if vote_ is None:
        return None
    sums = totals(vote_)
    return {
        "turn": vote_["turn"],
        "choice": list(vote_["choice"]),
        "committed": list(vote_["committed"]),
        "pass_coin": list(vote_["pass_coin"]),
        "moderator_pass": vote_["moderator_pass"],
        "undecided": vote_.get("undecided"),
        "aye": sums["aye"],
        "nay": sums["nay"],
    }


def _board(state: dict) -> Board:
    tracks = state["tracks"]
    return {
        "resources": {r: dict(state["resources"][r]) for r in RESOURCES},  # type: ignore[misc]
        "resource_rows": tracks["resource_track"]["rows"],
        "stability": state["stability"],
        "stability_spaces": tracks["stability_track"]["spaces"],
        "abdicated": state["abdicated"],
        "time_counter": list(state["time_counter"]),
        "time_counter_spaces": tracks["time_counter"]["spaces"],
        "cards_on_lightning": cards_on_lightning(state),
        "king_dead": state["king_dead"],
        "event_cards": list(state["event_cards"]),
        "balance": state["balance"],
        "stickers": list(state["stickers"]),
        "envelopes": list(state["envelopes"]),
        "mystery_stickers": [m["letter"] for m in state["mystery_stickers"]],
    }


def public_view(state: dict, you: int | None) -> KingsDilemmaView:
    return {
        "phase": state["phase"],
        "to_act": to_act(state),
        "you": you,
        "round": state["round"],
        "king_name": state["king_name"],
        "seats": [_seat_entry(state, i) for i in range(len(state["seats"]))],
        "leader": state["leader"],
        "moderator": state["moderator"],
        "board": _board(state),
        "pool": {"power": state["pool"]["power"], "coins": state["pool"]["coins"]},
        # The front only: nothing of the back is shown before the vote ends (rulebook "1. Draw and
        # Read a Card": "don't accidentally show the back").
        "card": public_card(state["card"]) if state["card"] else None,  # type: ignore[typeddict-item]
        "outcome": state["outcome"],
        "winning_side": state["winning_side"],
        "vote": _vote(state),
        "last_vote": state["last_vote"],
        "leader_candidates": state["leader_candidates"],
        "heir_candidates": state["heir_candidates"],
        "drafting": drafting_seat(state) if state["phase"] == "draft" else None,
        "dilemma_deck_size": len(state["dilemma_deck"]),
        "cards_drawn": sorted(int(n) for n in state["cards_met"]),
        "prestige_crave_effects": list(state["prestige_crave_effects"]),
        "news": news_lines(state),  # messages: each reader reads them in their language
        "end": state["end"],
        "scores": state["scores"],
        "result": state["result"],
        "over": state["over"],
    }


def private_part(state: dict, seat: int) -> KingsDilemmaPrivate:
    mine = state["seats"][seat]
    return {
        "power": mine["power"],
        "coins": mine["coins"],
        "pass_coin": state["vote"]["pass_coin"][seat] if state["vote"] else 0,
        "secret_agenda": mine["secret_agenda"],
        "draft_offer": list(mine["draft_offer"]) if mine["draft_offer"] is not None else None,
    }


def table_view(state: dict) -> KingsDilemmaTableView:
    return {
        **public_view(state, None),
        # Once the vote has ended, the table is offered the stored back of a card met before.
        "known_outcome": cast(Outcome | None, known_outcome(state)),
        # At the draw, the fronts of the cards met before (never their backs) fill in the host's form.
        "known_fronts": known_fronts(state) if state["phase"] == "draw" else [],
        "undrawable": undrawable(state) if state["phase"] == "draw" else {},
    }


def seat_view(state: dict, seat: int) -> KingsDilemmaSeatView:
    return {**public_view(state, seat), "private": private_part(state, seat)}


def view(state: dict, seat: int | None) -> KingsDilemmaTableView | KingsDilemmaSeatView:
    """The table's view (``seat`` None) or one House's."""
    return table_view(state) if seat is None else seat_view(state, seat)


def known_fronts(state: dict) -> list[PublicCard]:
    """The cards the campaign met before that may be drawn now, front only (``public_card``)."""
    gone = drawn_numbers(state) | {int(n) for n in out_of_deck(state)}
    cards = state["known_cards"]
    return [public_card(cards[n]) for n in sorted(cards, key=int) if int(n) not in gone]  # type: ignore[misc]


def undrawable(state: dict) -> dict[str, str]:
    """Each number the draw would refuse from the number alone, with the draw's own sentence."""
    drawn, out = drawn_numbers(state), out_of_deck(state)
    numbers = sorted(drawn | {int(n) for n in out})
    return {str(n): refusal for n in numbers if (refusal := draw_refusal(n, drawn=drawn, out=out))}
