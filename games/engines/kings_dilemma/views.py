"""What the table screen and each House see, and the human label of each action.

Public (on the table): the Realm board, the Dilemma card in play, the Vote cards with the Power and the
PASS Coins on them, the Leader and Moderator tokens, Open Agenda tokens, Prestige, the general pool.
Behind a House screen (its own view only): its Power, Coins, Secret Agenda and the draft offer it saw.
Nobody sees the removed Secret Agenda; the Secret Agendas are revealed by the end-of-game scoring.
"""

from __future__ import annotations

from typing import Any

from games.engines.kernel.contract import BaseView
from games.engines.kernel.describe import sentence
from games.engines.kernel.words import count
from games.engines.kings_dilemma.cards import public_card
from games.engines.kings_dilemma.data import RESOURCES
from games.engines.kings_dilemma.flow import name
from games.engines.kings_dilemma.realm import (
    cards_on_lightning,
    drawn_numbers,
    known_outcome,
    out_of_deck,
    prestige_now,
)
from games.engines.kings_dilemma.start import drafting_seat
from games.engines.kings_dilemma.voting import totals


class KingsDilemmaView(BaseView):
    round: int
    king_name: str
    leader: int
    moderator: int
    board: dict[str, Any]
    pool: dict[str, int]
    card: dict[str, Any] | None
    winning_side: str | None
    vote: dict[str, Any] | None
    last_vote: dict[str, Any] | None
    leader_candidates: list[int] | None
    heir_candidates: list[int] | None
    drafting: int | None
    dilemma_deck_size: int
    cards_drawn: list[int]
    prestige_crave_effects: list[dict[str, Any]]
    news: list[str]
    # The table's view (seat None) also carries ``known_outcome`` (the stored back of the winning side,
    # once the vote has ended) and ``known_fronts`` (at the draw, the fronts of the cards met before).
    end: str | None
    scores: list[dict[str, Any]] | None
    result: dict[str, Any] | None
    over: bool


def _public_seat(state: dict, index: int) -> dict:
    seat = state["seats"][index]
    return {
        "seat": index,
        "name": seat["name"],
        "house": seat["house"],
        "house_name": seat["house_name"],
        "house_number": seat["house_number"],
        "prestige": prestige_now(state, index),  # with what the table gave or took tonight
        "open_agendas": [{"row": t["row"], "positive": t["positive"]} for t in seat["open_agendas"]],
        "has_secret_agenda": seat["secret_agenda"] is not None,
        "leader": state["leader"] == index,
        "moderator": state["moderator"] == index,
    }


def _vote(state: dict) -> dict | None:
    vote_ = state["vote"]
    if vote_ is None:
        return None
    return {
        "turn": vote_["turn"],
        "choice": list(vote_["choice"]),
        "committed": list(vote_["committed"]),
        "pass_coin": list(vote_["pass_coin"]),
        "moderator_pass": vote_["moderator_pass"],
        "undecided": vote_.get("undecided"),
        **totals(vote_),
    }


def to_act(state: dict) -> list[int | None]:
    """Who the game waits for (gifts of Coins aside): the table (None), a seat, or nobody."""
    phase = state["phase"]
    if phase == "draft":
        return [drafting_seat(state)]
    if phase == "voting":
        return [state["vote"]["turn"]]
    if phase in ("tie_break", "leader_choice", "heir"):
        return [state["moderator"]]
    return [] if state["over"] else [None]


def view(state: dict, seat: int | None) -> dict:
    tracks = state["tracks"]
    out = {
        "phase": state["phase"],
        "to_act": to_act(state),
        "round": state["round"],
        "king_name": state["king_name"],
        "seats": [_public_seat(state, i) for i in range(len(state["seats"]))],
        "leader": state["leader"],
        "moderator": state["moderator"],
        "board": {
            "resources": {r: dict(state["resources"][r]) for r in RESOURCES},
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
        },
        "pool": dict(state["pool"]),
        # The front only: nothing of the back is shown before the vote ends (rulebook "1. Draw and
        # Read a Card": "don't accidentally show the back").
        "card": public_card(state["card"]) if state["card"] else None,
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
        # What the last action did, one sentence per consequence (the table's banner).
        "news": list(state.get("news") or []),
        "end": state["end"],
        "scores": state["scores"],
        "result": state["result"],
        "over": state["over"],
    }
    if seat is None:
        # Once the vote has ended, the table is offered the stored back of a card met before.
        out["known_outcome"] = known_outcome(state)
        # At the draw, the fronts of the cards met before (never their backs) fill in the host's form.
        out["known_fronts"] = known_fronts(state) if state["phase"] == "draw" else []
    if seat is not None and 0 <= seat < len(state["seats"]):
        mine = state["seats"][seat]
        on_pass = state["vote"]["pass_coin"][seat] if state["vote"] else 0
        out["you"] = {
            "seat": seat,
            "power": mine["power"],
            "coins": mine["coins"],
            # 'PASS': the Coin taken lies on your PASS card until the vote ends, then behind your screen.
            "pass_coin": on_pass,
            "secret_agenda": mine["secret_agenda"],
            "draft_offer": list(mine["draft_offer"]) if mine["draft_offer"] is not None else None,
        }
    return out


def known_fronts(state: dict) -> list[dict]:
    """The cards the campaign met before that may be drawn now, front only (``public_card``)."""
    gone = drawn_numbers(state) | {int(n) for n in out_of_deck(state)}
    cards = state["known_cards"]
    return [public_card(cards[n]) for n in sorted(cards, key=int) if int(n) not in gone]


def _side(side) -> str:
    return str(side).upper()


# The actions whose label is a fixed sentence.
SENTENCES = {
    "deal": "The table removed one Secret Agenda at random, unseen, and the draft began.",
    "choose_secret_agenda": "{who} chose a Secret Agenda.",
    "stay": "{who} stayed.",
    "pass_gather": "{who} passed and gathers Power (+1 Coin).",
    "pass_moderator": "{who} passed and became the Moderator (+1 Coin).",
    "mystery_sticker": "The table attached Mystery sticker {letter}{label}.",
    "score": "The table revealed the Secret Agendas and scored the game.",
}


def _coins(amount: Any) -> str:
    """ "1 Coin", "3 Coins" (issue 26: "paid 1 Coins")."""
    return count(amount, "Coin") if isinstance(amount, int) else f"{amount} Coins"


def _amount(amount: Any, what: str) -> str:
    """An amount of a House's stock: Coins count one by one; Power, Prestige and Crave do not."""
    return _coins(amount) if what == "Coins" else f"{amount} {what}"


def describe(state: dict, action: dict) -> str:
    """A label for the log, from the state before the action. Never names a Secret Agenda."""
    kind = action.get("type", "?")
    seat = action.get("seat")
    try:
        who = name(state, seat) if seat is None or 0 <= seat < len(state["seats"]) else "?"
    except TypeError:
        who = "?"

    def house(index) -> str:
        try:
            return name(state, index)
        except (TypeError, IndexError):
            return "?"

    label = f" ({action['label']})" if isinstance(action.get("label"), str) else ""
    card = state.get("card") or {}
    said = sentence(SENTENCES, action, who=who, label=label)
    if said is not None:
        return said
    if kind == "draw_dilemma":
        raw: dict = action["card"] if isinstance(action.get("card"), dict) else {}
        number = raw.get("number", "?")
        known = state["known_cards"].get(str(number), {})
        title = raw.get("title") or known.get("title") or ""
        return f"The table drew Dilemma card {number}" + (f": {title}." if title else ".")
    if kind == "read_outcome":
        won = _side(state.get("winning_side"))
        return f"The table turned card {card.get('number', '?')} over and read the {won} outcome."
    if kind == "vote":
        return f"{who} voted {_side(action.get('side'))} with {action.get('power')} Power."
    if kind == "add_power":
        side: str | None
        try:
            side = state["vote"]["choice"][seat]
        except (TypeError, IndexError, KeyError):
            side = None
        return f"{who} added {action.get('power')} Power to their {_side(side)} vote."
    if kind == "give_coins":
        return f"{who} gave {_coins(action.get('coins'))} to {house(action.get('to'))}."
    if kind == "break_tie":
        return f"{who}, the Moderator, decided for {_side(action.get('side'))}."
    if kind == "give_leader":
        return f"{who}, the Moderator, gave the Leader token to {house(action.get('to'))}."
    if kind == "move_resource":
        row = str(action.get("row", "?")).capitalize()
        amount = action.get("amount")
        amount = f"{amount:+d}" if isinstance(amount, int) else "?"
        return f"The table moved {row} {amount}{label}."
    if kind == "adjust":
        amount, what = action.get("amount"), str(action.get("what", "?")).capitalize()
        if isinstance(amount, int) and amount < 0:
            return f"The table took {_amount(-amount, what)} from {house(action.get('target'))}{label}."
        return f"The table gave {_amount(amount, what)} to {house(action.get('target'))}{label}."
    if kind == "to_event_area":
        return f"The table placed card {card.get('number', '?')} in the Event area{label}."
    if kind == "to_time_counter":
        return f"The table placed card {card.get('number', '?')} on the Time Counter."
    if kind == "choose_heir":
        return f"{who}, the Moderator, chose {house(action.get('heir'))} to marry into the royal line."
    return str(kind).replace("_", " ")
