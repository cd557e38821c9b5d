"""The pieces moved around the board: Politics cards drawn, Councilors elected into a Balcony and
Permits turned face up from their decks (what shows a hidden card: ``shows_hidden``)."""

from collections import Counter
from typing import Any

from games.engines.council_of_four.board import REGIONS


def draw_card(state: dict, seat: int, rng: Any) -> bool:
    """Draw the top Politics card; an empty deck is first rebuilt from the shuffled discards.
    With both empty the draw is skipped (docs/rules-decisions.md)."""
    if not state["deck"]:
        if not state["discard"]:
            return False
        state["deck"] = list(state["discard"])
        state["discard"] = []
        rng.shuffle(state["deck"])
    state["seats"][seat]["hand"].append(state["deck"].pop(0))
    return True


def shows_hidden(before: dict, action: dict, after: dict) -> bool:
    """Whether an action showed a hidden card: a Politics card drawn into a hand (its owner sees it)
    or a Permit turned face up from its deck ('Replace the tile with the top tile of the
    corresponding deck')."""
    for old, new in zip(before["seats"], after["seats"], strict=True):
        if set(new["hand"]) - set(old["hand"]):
            return True
    face_up = {p for region in REGIONS for p in before["face_up"][region]}
    return any(p not in face_up for region in REGIONS for p in after["face_up"][region])


def insert_councilor(state: dict, balcony: str, colour: str) -> str:
    """Push a Councilor in from the arrow side; the one pushed out goes beside the board."""
    line = state["balconies"][balcony]
    state["councilors"][colour] -= 1
    line.insert(0, colour)
    out: str = line.pop()
    state["councilors"][out] += 1
    return out


def councilors_in_play(state: dict) -> Counter:
    """Every Councilor by colour: in the Balconies and beside the board (always 4 of each)."""
    total = Counter(state["councilors"])
    for line in state["balconies"].values():
        total.update(line)
    return total


def refill(state: dict, region: str, slot: int) -> None:
    """Replace the taken face-up Permit with the top of its deck (the slot stays empty when the
    deck is exhausted)."""
    deck = state["permit_decks"][region]
    if deck:
        state["face_up"][region].insert(slot, deck.pop(0))
