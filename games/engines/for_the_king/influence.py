"""The deal and the Share Influence phase (and the use of King cards, in either phase). The kernel
checks each move's phase and seat (``rules.py``) before its body runs."""

import random
from typing import Any

from games.engines.for_the_king import messages as msg
from games.engines.for_the_king.board import receive, use_king_card
from games.engines.for_the_king.cards import CARD_IDS, in_play
from games.engines.for_the_king.turn import AREAS, advance, limits, next_round
from games.engines.kernel.errors import RuleError

# 'Setup' step 5: cards put back in the box at random, by player count.
RANDOM_REMOVALS = {2: 22, 3: 13, 4: 8, 5: 0}


def deal(state: dict, action: dict, rng: random.Random) -> None:
    """'Setup' steps 4 to 7: marked cards and random cards back to the box, a face-down deck, a
    random first Adviser."""
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
    state["part"] = "share_influence"
    state["phase"] = "distribute"
    advance(state, rng)


AREA_FULL = {"personal": msg.PERSONAL_FULL, "middle": msg.MIDDLE_FULL, "favor": msg.FAVOR_FULL}


def place(state: dict, action: dict, rng: random.Random) -> None:
    """'Distribute Cards': in front of yourself, in the middle (face up) or on the Favor deck; the
    next card is then drawn by itself (``advance``) while the Adviser has cards to distribute."""
    area = action.get("area")
    if area not in AREAS:
        raise RuleError(msg.UNKNOWN_AREA)
    if state["placed"][area] >= limits(state)[area]:
        raise RuleError(AREA_FULL[area])
    card_id = state["drawn"]
    state["drawn"] = None
    state["placed"][area] += 1
    if area == "personal":
        receive(state, action["seat"], card_id, then="distribute")
    elif area == "middle":
        state["middle"].append(card_id)
    else:
        state["favor_deck"].insert(0, card_id)
    advance(state, rng)


def drew_a_card(before: dict, action: dict, after: dict) -> bool:
    """The action ended with the Adviser's compulsory draw ('Distribute Cards'): the card drawn was
    seen by its Adviser, so the action is never undone (and its label says so)."""
    return after["drawn"] is not None and after["drawn"] != before["drawn"]


def place_reveals(before: dict, action: dict, after: dict) -> bool:
    """'Distribute Cards': a card placed in the middle is face up; a King card kept in front of
    yourself is revealed at once ('Receiving King cards'); the next card drawn is seen by
    the Adviser. Face down, with no card drawn after it, a card stays hidden."""
    return (
        action.get("area") == "middle" or after["king_card"] is not None or drew_a_card(before, action, after)
    )


def choose(state: dict, action: dict, rng: random.Random) -> None:
    """'Choose Central Cards': each opponent, from the Adviser's left, takes one middle card."""
    card_id: Any = action.get("card")
    if card_id not in state["middle"]:
        raise RuleError(msg.NOT_IN_MIDDLE)
    state["middle"].remove(card_id)
    state["choosers"].pop(0)
    receive(state, action["seat"], card_id, then="choose")
    advance(state, rng)


def king_card(state: dict, action: dict, rng: random.Random) -> None:
    """'Receiving King cards': change Primary Duty tiles as the card shows, then it goes back to
    the box."""
    pending = state["king_card"]
    use_king_card(state, pending["card"], action.get("changes"))
    state["king_cards_used"].append(pending["card"])
    state["king_card"] = None
    if pending["then"] == "next_round":
        next_round(state)
    else:
        state["phase"] = pending["then"]
    advance(state, rng)
