"""Dilemma cards as the table types them (card texts are never shipped: DESIGN.md section 5).

A card: ``{"number": 12, "title": "...", "aye": OUTCOME, "nay": OUTCOME}`` with
``OUTCOME = {"resources": [["wealth", 1], ["morale", -1]], "sticker": {"number": 43, "row": "influence",
"positive": true} | None, "envelope": 5 | None}``. Resource moves apply in order, left to right.
A card met before (in ``known_cards`` or earlier this game) may be typed as ``{"number": 12}`` alone.
"""

from __future__ import annotations

import random

from games.engine.errors import RuleError
from games.kings_dilemma import messages as msg
from games.kings_dilemma.data import RESOURCES
from games.kings_dilemma.flow import is_int

SIDES = ("aye", "nay")
MAX_TITLE = 120


def _outcome(raw, side: str, tracks: dict) -> dict:
    if not isinstance(raw, dict):
        raise RuleError(msg.OUTCOME_FORMAT.format(side=side.upper()))
    moves = raw.get("resources", [])
    if not isinstance(moves, list):
        raise RuleError(msg.OUTCOME_FORMAT.format(side=side.upper()))
    top = tracks["resource_track"]["rows"]
    clean_moves = []
    for move in moves:
        if not isinstance(move, (list, tuple)) or len(move) != 2:
            raise RuleError(msg.RESOURCE_MOVE.format(top=top))
        row, amount = move
        if row not in RESOURCES:
            raise RuleError(msg.RESOURCE_ROW.format(row=row))
        if not is_int(amount, -top, top) or amount == 0:
            raise RuleError(msg.RESOURCE_MOVE.format(top=top))
        clean_moves.append([row, amount])
    sticker = raw.get("sticker")
    if sticker is not None:
        count = tracks["stickers"]
        if (
            not isinstance(sticker, dict)
            or not is_int(sticker.get("number"), 1, count)
            or sticker.get("row") not in RESOURCES
            or not isinstance(sticker.get("positive"), bool)
        ):
            raise RuleError(msg.STICKER_FORMAT.format(count=count))
        sticker = {"number": sticker["number"], "row": sticker["row"], "positive": sticker["positive"]}
    envelope = raw.get("envelope")
    if envelope is not None and not is_int(envelope, 0, tracks["envelopes"] - 1):
        raise RuleError(msg.ENVELOPE_NUMBER.format(top=tracks["envelopes"] - 1))
    return {"resources": clean_moves, "sticker": sticker, "envelope": envelope}


def normalise_card(raw, known: dict, tracks: dict) -> dict:
    """Validate a typed card; a bare ``{"number": n}`` takes the stored outcomes of ``known``."""
    if not isinstance(raw, dict):
        raise RuleError(msg.CARD_FORMAT)
    number = raw.get("number")
    if not is_int(number, 1):
        raise RuleError(msg.CARD_NUMBER)
    if "aye" not in raw and "nay" not in raw:
        stored = known.get(str(number))
        if stored is None:
            raise RuleError(msg.CARD_UNKNOWN.format(number=number))
        return dict(stored)
    title = raw.get("title", "")
    if title is None:
        title = ""
    if not isinstance(title, str) or len(title) > MAX_TITLE:
        raise RuleError(msg.CARD_TITLE)
    card = {"number": number, "title": title.strip()}
    for side in SIDES:
        card[side] = _outcome(raw.get(side), side, tracks)
    return card


def synthetic_card(state: dict) -> dict:
    """A concrete card for bots and property tests (DESIGN.md section 3: the one table action that is
    not fully enumerable). Derived from the public state only, never from the seed."""
    taken = {int(n) for n in state["known_cards"]} | {int(n) for n in state["cards_met"]}
    taken |= set(state["dilemma_deck"])
    number = max(taken, default=0) + 1
    positions = [state["resources"][r]["position"] for r in RESOURCES]
    rng = random.Random(f"{state['step']}:{state['stability']}:{positions}")
    card = {"number": number, "title": f"Dilemma {number}"}
    for side in SIDES:
        rows = rng.sample(RESOURCES, rng.randint(1, 3))
        moves = [[row, rng.choice([-2, -1, 1, 2])] for row in rows]
        sticker = None
        if rng.random() < 0.3:
            sticker = {"number": rng.randint(1, state["tracks"]["stickers"]), "row": rng.choice(RESOURCES)}
            sticker["positive"] = rng.random() < 0.5
        top = state["tracks"]["envelopes"] - 1
        envelope = rng.randint(min(1, top), top) if top >= 0 and rng.random() < 0.2 else None
        card[side] = {"resources": moves, "sticker": sticker, "envelope": envelope}
    return card
