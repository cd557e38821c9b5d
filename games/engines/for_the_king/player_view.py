"""What each seat (or the table screen) may see, and its declared shape.

Hands, personal decks, the deck, the box, the Favor deck and face-down discards show only as counts;
a seat sees its own cards (and, as Adviser, the card it drew) under ``private``, nowhere else.
"""

from typing import Literal, TypedDict, cast

from games.engines.for_the_king.cards import (
    CARDS,
    GOLD,
    KING_EFFECT_WORDS,
    OFFICE_COLOURS,
    face,
    gold_value,
    kind,
)
from games.engines.for_the_king.scoring import tie_notes
from games.engines.for_the_king.turn import limits, to_act
from games.engines.kernel.contract import BaseView


class CardFace(TypedDict):
    """A face-up card (``cards.face``): ``kind`` is government, gold or king."""

    id: str
    kind: str
    colour: str | None
    office: str | None
    value: int | None
    effect: str | None
    letter: str | None


class DutyChange(TypedDict):
    """One Duty tile a King card moves (board.py ``as_action_changes``): ``change`` is 1 or -1."""

    office: str
    change: int


# The objects a ``pick`` offers: a King card's options are lists of Duty changes.
PARAM_OPTIONS = (list[DutyChange],)


class ForTheKingSeatEntry(TypedDict):
    """One seat as everyone sees it."""

    index: int
    name: str
    personal_deck_count: int
    hand_count: int
    is_adviser: bool
    is_first_player: bool


class ForTheKingPrivate(TypedDict):
    """What only the viewing seat sees: its cards, their Gold, the card it drew as Adviser."""

    personal_deck: list[CardFace]
    hand: list[CardFace]
    gold: int
    drawn: CardFace | None


class GovernmentTile(TypedDict):
    """One office of the Government board and its Duty tiles (no Secondary tile: None)."""

    office: str
    colour: str
    primary: int
    secondary: int | None


class Areas(TypedDict):
    """'Distribute Cards': a count per area (placed so far, or the limit)."""

    personal: int
    middle: int
    favor: int


class PendingKingCard(TypedDict):
    seat: int
    card: CardFace
    effect: str  # KING_EFFECT_WORDS


class Bidding(TypedDict):
    turn: int | None
    high_bid: int
    high_bidder: int | None
    passed: list[int]
    excluded: list[int]
    last_bids: list[int | None]


class Payment(TypedDict):
    """The winner's payment: in Gold, or in cards for a Gold card won; ``cannot_pay``: they cannot."""

    seat: int
    owed: int
    paid: int
    pays_with: Literal["gold", "cards"]
    cannot_pay: bool


class DutyHolders(TypedDict):
    primary: int | None
    secondary: int | None


class DutyTile(TypedDict):
    office: str
    duty: str  # primary or secondary
    value: int


class ForTheKingResult(TypedDict):
    """'End of the Game' (``scoring.final_result``): per seat, by index, and per office."""

    winners: list[int]
    scores: list[int]
    ranking: list[int]
    positions: list[int]
    gold: list[int]
    duties: dict[str, DutyHolders]
    office_sums: dict[str, list[int]]
    tiles: list[list[DutyTile]]
    tie_notes: list[str]


class ForTheKingTableView(BaseView):
    """What everyone sees: ``phase`` (turn.py), ``part`` (the rulebook's phase: setup,
    share_influence, gain_esteem, end), ``you`` None at the table."""

    game: str
    part: str
    seats: list[ForTheKingSeatEntry]
    government: list[GovernmentTile]
    deck_count: int
    box_count: int
    favor_deck_count: int
    middle: list[CardFace]
    offer: CardFace | None
    discard: list[CardFace]
    discard_face_down_count: int
    king_cards_used: list[CardFace]
    adviser: int | None
    adviser_holds_card: bool
    placed: Areas
    limits: Areas
    choosers: list[int]
    king_card: PendingKingCard | None
    first_player: int | None
    bidding: Bidding | None
    payment: Payment | None
    over: bool
    result: ForTheKingResult | None


class ForTheKingSeatView(ForTheKingTableView):
    """A seat's view: the table's, ``you`` its index, and what only it sees."""

    private: ForTheKingPrivate


def _faces(card_ids: list[str]) -> list[CardFace]:
    return [_face(c) for c in card_ids]


def _face(card_id: str) -> CardFace:
    return face(card_id)  # type: ignore[return-value]


def _seats(state: dict) -> list[ForTheKingSeatEntry]:
    return [
        {
            "index": i,
            "name": s["name"],
            "personal_deck_count": len(s["personal_deck"]),
            "hand_count": len(s["hand"]),
            "is_adviser": state["adviser"] == i,
            "is_first_player": state["first_player"] == i,
        }
        for i, s in enumerate(state["seats"])
    ]


def _private(state: dict, seat: int) -> ForTheKingPrivate:
    own = state["seats"][seat]
    drawn = state["drawn"] if state["adviser"] == seat else None
    return {
        "personal_deck": _faces(own["personal_deck"]),
        "hand": _faces(own["hand"]),
        "gold": gold_value(own["hand"]) + gold_value(own["personal_deck"]),
        "drawn": _face(drawn) if drawn is not None else None,
    }


def _government(state: dict) -> list[GovernmentTile]:
    return [
        {
            "office": office,
            "colour": OFFICE_COLOURS[office],
            "primary": state["duties"][office]["primary"],
            "secondary": state["duties"][office]["secondary"],
        }
        for office in state["offices"]
    ]


def _king_card(state: dict) -> PendingKingCard | None:
    king = state["king_card"]
    if king is None:
        return None
    return {
        "seat": king["seat"],
        "card": _face(king["card"]),
        "effect": KING_EFFECT_WORDS[CARDS[king["card"]]["effect"]],
    }


def _bidding(state: dict) -> Bidding | None:
    bidding = state["bidding"]
    if bidding is None:
        return None
    return {
        "turn": bidding["turn"],
        "high_bid": bidding["high_bid"],
        "high_bidder": bidding["high_bidder"],
        "passed": list(bidding["passed"]),
        "excluded": list(bidding["excluded"]),
        "last_bids": list(bidding["last_bids"]),
    }


def _payment(state: dict) -> Payment | None:
    payment = state["payment"]
    if payment is None:
        return None
    return {
        "seat": payment["seat"],
        "owed": payment["owed"],
        "paid": payment["paid"],
        "pays_with": "cards" if kind(state["offer"]) == GOLD else "gold",
        "cannot_pay": state["phase"] == "cannot_pay",
    }


def _areas(counts: dict[str, int]) -> Areas:
    return {"personal": counts["personal"], "middle": counts["middle"], "favor": counts["favor"]}


def _result(state: dict) -> ForTheKingResult | None:
    """The final scoring, its ties said again from the state: a stored state keeps only their
    English words, the view gives them as messages to say in each reader's language."""
    result = state["result"]
    if result is None:
        return None
    return cast(ForTheKingResult, {**result, "tie_notes": tie_notes(state, result["scores"])})


def table_view(state: dict) -> ForTheKingTableView:
    return {
        "game": "for_the_king",
        "phase": state["phase"],
        "part": state["part"],
        "to_act": to_act(state),
        "you": None,
        "seats": _seats(state),
        "government": _government(state),
        "deck_count": len(state["deck"]),
        "box_count": len(state["box"]),
        "favor_deck_count": len(state["favor_deck"]),
        "middle": _faces(state["middle"]),
        "offer": _face(state["offer"]) if state["offer"] else None,
        "discard": _faces(state["discard"]),
        "discard_face_down_count": len(state["discard_face_down"]),
        "king_cards_used": _faces(state["king_cards_used"]),
        "adviser": state["adviser"],
        "adviser_holds_card": state["drawn"] is not None,
        "placed": _areas(state["placed"]),
        "limits": _areas(limits(state)),
        "choosers": list(state["choosers"]),
        "king_card": _king_card(state),
        "first_player": state["first_player"],
        "bidding": _bidding(state),
        "payment": _payment(state),
        "over": state["over"],
        "result": _result(state),
    }


def view(state: dict, seat: int | None) -> ForTheKingTableView | ForTheKingSeatView:
    """The table's view (``seat`` None), or a seat's: the table's with ``you`` and ``private``."""
    table = table_view(state)
    if seat is None:
        return table
    return {**table, "you": seat, "private": _private(state, seat)}
