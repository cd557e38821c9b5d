"""Setup, the deal and the Share Influence phase (and the use of King cards, in either phase)."""

from typing import Any

from games.engines.for_the_king import messages as msg
from games.engines.for_the_king.board import as_action_changes, king_options, new_duties, use_king_card
from games.engines.for_the_king.cards import CARD_IDS, in_play, offices_in_play
from games.engines.for_the_king.flow import (
    AREAS,
    actor,
    advance,
    drew_a_card,
    expect_turn,
    limits,
    next_round,
    receive,
)
from games.engines.kernel.choices import Choice, choice, pick
from games.engines.kernel.errors import RuleError
from games.engines.kernel.rules import config_seat_names

# 'Setup' step 5: cards put back in the box at random, by player count.
RANDOM_REMOVALS = {2: 22, 3: 13, 4: 8, 5: 0}
MIN_SEATS = 2
MAX_SEATS = 5


def new_state(config: dict, seed: int) -> dict:
    names = config_seat_names(config, MIN_SEATS, MAX_SEATS, msg)
    seats = config["seats"]
    count = len(seats)
    offices = offices_in_play(count)
    return {
        "seed": seed,
        "step": 0,
        "over": False,
        "result": None,
        "seats": [{"name": n, "personal_deck": [], "hand": []} for n in names],
        "phase": "setup",
        "stage": "deal",
        "offices": offices,
        "duties": new_duties(offices, count),
        "deck": [],
        "box": [],
        "favor_deck": [],
        "middle": [],
        "discard": [],
        "discard_face_down": [],
        "king_cards_used": [],
        "adviser": None,
        "last_adviser": None,
        "drawn": None,
        "placed": dict.fromkeys(AREAS, 0),
        "choosers": [],
        "king_card": None,
        "first_player": None,
        "offer": None,
        "bidding": None,
        "payment": None,
    }


def deal(state: dict, action: dict, rng) -> None:
    """'Setup' steps 4 to 7: marked cards and random cards back to the box, a face-down deck, a
    random first Adviser."""
    expect_turn(state, action, phases=("deal",), acting=actor, what="deal the cards")
    count = len(state["seats"])
    cards = in_play(count)
    kept = set(cards)
    state["box"] = [c for c in CARD_IDS if c not in kept]
    rng.shuffle(cards)
    removed = RANDOM_REMOVALS[count]
    state["box"].extend(cards[:removed])
    deck = cards[removed:]
    rng.shuffle(deck)
    state["deck"] = deck
    state["adviser"] = rng.randrange(count)
    state["phase"] = "share_influence"
    state["stage"] = "distribute"
    advance(state, rng)


AREA_FULL = {"personal": msg.PERSONAL_FULL, "middle": msg.MIDDLE_FULL, "favor": msg.FAVOR_FULL}


def place(state: dict, action: dict, rng) -> None:
    """'Distribute Cards': in front of yourself, in the middle (face up) or on the Favor deck; the
    next card is then drawn by itself (``advance``) while the Adviser has cards to distribute."""
    seat = expect_turn(state, action, phases=("distribute",), acting=actor, what="place a card")
    area = action.get("area")
    if area not in AREAS:
        raise RuleError(msg.UNKNOWN_AREA)
    if state["placed"][area] >= limits(state)[area]:
        raise RuleError(AREA_FULL[area])
    card_id = state["drawn"]
    state["drawn"] = None
    state["placed"][area] += 1
    if area == "personal":
        receive(state, seat, card_id, then="distribute")
    elif area == "middle":
        state["middle"].append(card_id)
    else:
        state["favor_deck"].insert(0, card_id)
    advance(state, rng)


def place_reveals(before: dict, action: dict, after: dict) -> bool:
    """'Distribute Cards': a card placed in the middle is face up; a King card kept in front of
    yourself is revealed at once ('Receiving King cards', DESIGN 8); the next card drawn is seen by
    the Adviser. Face down, with no card drawn after it, a card stays hidden."""
    return (
        action.get("area") == "middle" or after["king_card"] is not None or drew_a_card(before, action, after)
    )


def choose(state: dict, action: dict, rng) -> None:
    """'Choose Central Cards': each opponent, from the Adviser's left, takes one middle card."""
    seat = expect_turn(state, action, phases=("choose",), acting=actor, what="choose a card from the middle")
    card_id: Any = action.get("card")
    if card_id not in state["middle"]:
        raise RuleError(msg.NOT_IN_MIDDLE)
    state["middle"].remove(card_id)
    state["choosers"].pop(0)
    receive(state, seat, card_id, then="choose")
    advance(state, rng)


def king_card(state: dict, action: dict, rng) -> None:
    """'Receiving King cards': change Primary Duty tiles as the card shows, then it goes back to
    the box."""
    expect_turn(state, action, phases=("king_card",), acting=actor, what="use a King card")
    pending = state["king_card"]
    use_king_card(state, pending["card"], action.get("changes"))
    state["king_cards_used"].append(pending["card"])
    state["king_card"] = None
    if pending["then"] == "next_round":
        next_round(state)
    else:
        state["stage"] = pending["then"]
    advance(state, rng)


def legal(state: dict, seat: int | None) -> list[Choice]:
    """The choice of this stage with its parameters: an area with room, a card of the middle, one of
    the ways this King card may change the Primary Duty tiles (a short, rule-bounded list)."""
    stage = state["stage"]
    if stage == "deal":
        return [choice("deal", None)]
    if stage == "distribute":
        room = limits(state)
        return [choice("place", seat, area=pick([a for a in AREAS if state["placed"][a] < room[a]]))]
    if stage == "choose":
        return [choice("choose", seat, card=pick(state["middle"]))]
    if stage == "king_card":
        options = king_options(state, state["king_card"]["card"])
        return [choice("king_card", seat, changes=pick([as_action_changes(o) for o in options]))]
    return []
