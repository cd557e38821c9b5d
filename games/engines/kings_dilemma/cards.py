"""Dilemma cards as the table types them, front then back (card texts are never shipped: docs/architecture.md
sections 5 and 8, "The Dilemma card as the rulebook plays it").

The front, typed at the draw (rulebook "1. Draw and Read a Card", "2. Place the Outcome Tokens on the
Balance")::

    {"number": 12, "title": "Bread taxes", "question": "Shall we cut them?",
     "aye": FRONT, "nay": FRONT}
    FRONT = {"resources": [["wealth", "down"]], "sticker": "negative" | "positive" | None}

Outcome tokens say which Resources go up or down and whether a Chronicle sticker follows; never by
how much (that is on the back).

The back of the winning side, typed after the vote (rulebook "A. Reading the outcome")::

    OUTCOME = {"resources": [["wealth", -2], ["morale", 1]],   # in order, left to right
               "sticker": {"number": 43, "row": "influence", "positive": True} | None,
               "envelope": 5 | None,
               "lightning": False,        # the lightning on the central space of the back
               "note": ""}                # other printed effects, applied by hand

A card met before (in ``known_cards``, from the campaign) is typed by its number alone; what is known
of its back is offered again only at the resolution. Stored form of a known card::

    {"number": 12, "title": ..., "question": ..., "front": {"aye": FRONT, "nay": FRONT},
     "back": {"aye": OUTCOME | None, "nay": OUTCOME | None}}
"""

from __future__ import annotations

import random
from typing import Any

from games.engines.kernel.errors import RuleError
from games.engines.kernel.text import LINE_BREAKS
from games.engines.kings_dilemma import messages as msg
from games.engines.kings_dilemma.data import RESOURCES
from games.engines.kings_dilemma.messages import side_name
from games.engines.kings_dilemma.turn import is_int

SIDES = ("aye", "nay")
DIRECTIONS = ("up", "down")
STICKER_TOKENS = ("positive", "negative")
MAX_TITLE = 120
MAX_QUESTION = 300
MAX_NOTE = 200
MAX_MOVES = 8  # resource moves on one side of a card: the back has room for a few


def _text(raw: Any, limit: int, message: str) -> str:
    if raw is None:
        return ""
    if not isinstance(raw, str) or len(raw.strip()) > limit:
        raise RuleError(message)
    return raw.strip()


def _title(raw: Any) -> str:
    """A card's title: one line (the campaign keeps it as its name, and its archive holds a name to
    one line: games/engines/kernel/text.py)."""
    title = _text(raw, MAX_TITLE, msg.CARD_TITLE)
    if any(char in LINE_BREAKS for char in title):
        raise RuleError(msg.CARD_TITLE)
    return title


def card_number(raw: Any, tracks: dict) -> int:
    top = tracks["dilemma_card_max"]
    if not is_int(raw, 1, top):
        raise RuleError(msg.CARD_NUMBER.format(top=top))
    return raw


# ---- The front -----------------------------------------------------------------------------


def front_side(raw: Any, side: str) -> dict:
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        raise RuleError(msg.FRONT_FORMAT.format(side=side_name(side)))
    moves = raw.get("resources") or []
    if not isinstance(moves, list) or len(moves) > len(RESOURCES):
        raise RuleError(msg.FRONT_FORMAT.format(side=side_name(side)))
    clean: list[Any] = []
    for move in moves:
        if not isinstance(move, (list, tuple)) or len(move) != 2:
            raise RuleError(msg.FRONT_FORMAT.format(side=side_name(side)))
        row, direction = move
        if row not in RESOURCES:
            raise RuleError(msg.RESOURCE_ROW.format(row=row))
        if direction not in DIRECTIONS:
            raise RuleError(msg.FRONT_DIRECTION)
        if any(row == seen for seen, _ in clean):
            raise RuleError(msg.FRONT_ROW_TWICE.format(row=msg.resource_name(row), side=side_name(side)))
        clean.append([row, direction])
    sticker = raw.get("sticker")
    if sticker is not None and sticker not in STICKER_TOKENS:
        raise RuleError(msg.FRONT_STICKER)
    return {"resources": clean, "sticker": sticker}


def normalise_front(raw: Any, tracks: dict) -> dict:
    """The front as typed at the draw: number, title (required the first time), question and the
    Outcome tokens of each side (possibly none: "not all consequences will be explicitly indicated")."""
    if not isinstance(raw, dict):
        raise RuleError(msg.CARD_FORMAT)
    number = card_number(raw.get("number"), tracks)
    title = _title(raw.get("title"))
    if not title:
        raise RuleError(msg.CARD_TITLE_MISSING.format(number=number))
    question = _text(raw.get("question"), MAX_QUESTION, msg.CARD_QUESTION)
    return {
        "number": number,
        "title": title,
        "question": question,
        "front": {side: front_side(raw.get(side), side) for side in SIDES},
    }


# ---- The back ------------------------------------------------------------------------------


def normalise_outcome(raw: Any, tracks: dict, *, allow_empty: bool = False) -> dict:
    """The winning side's outcome as typed from the back. One with nothing in it is refused, unless
    it is a remembered back whose every part is already on the board (``allow_empty``)."""
    if not isinstance(raw, dict):
        raise RuleError(msg.OUTCOME_FORMAT)
    moves = raw.get("resources") or []
    top = tracks["resource_track"]["rows"]
    if not isinstance(moves, list) or len(moves) > MAX_MOVES:
        raise RuleError(msg.OUTCOME_FORMAT)
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
    lightning = raw.get("lightning", False)
    if not isinstance(lightning, bool):
        raise RuleError(msg.LIGHTNING_FORMAT)
    note = _text(raw.get("note"), MAX_NOTE, msg.OUTCOME_NOTE)
    outcome = {
        "resources": clean_moves,
        "sticker": sticker,
        "envelope": envelope,
        "lightning": lightning,
        "note": note,
    }
    if applies_nothing(outcome) and not allow_empty:
        raise RuleError(msg.OUTCOME_EMPTY)
    return outcome


def applies_nothing(outcome: dict) -> bool:
    return not (
        outcome["resources"] or outcome["sticker"] or outcome["envelope"] is not None or outcome["note"]
    )


# ---- Cards met before ------------------------------------------------------------------------


def _front_from_back(outcome: dict) -> dict:
    """The Outcome tokens a back implies (for cards stored before fronts were typed)."""
    return {
        "resources": [[row, "up" if amount > 0 else "down"] for row, amount in outcome["resources"]][
            : len(RESOURCES)
        ],
        "sticker": None
        if outcome["sticker"] is None
        else ("positive" if outcome["sticker"]["positive"] else "negative"),
    }


def normalise_known(number: int, raw: Any, tracks: dict) -> dict:
    """A card the campaign met before. The older stored form ``{"aye": OUTCOME, "nay": OUTCOME}`` (both
    backs typed at once) is read too."""
    if not isinstance(raw, dict):
        raise RuleError(msg.KNOWN_CARDS_FORMAT)
    number = card_number(number, tracks)
    title = _title(raw.get("title")) or f"Dilemma {number}"
    question = _text(raw.get("question"), MAX_QUESTION, msg.CARD_QUESTION)
    back_raw = raw.get("back") if "front" in raw else {side: raw.get(side) for side in SIDES}
    if not isinstance(back_raw, dict):
        raise RuleError(msg.KNOWN_CARDS_FORMAT)
    back = {}
    for side in SIDES:
        outcome = back_raw.get(side)
        if outcome is not None and not isinstance(outcome, dict):
            raise RuleError(msg.KNOWN_CARDS_FORMAT)
        if isinstance(outcome, dict) and "lightning" not in outcome and "lightning" in raw:
            outcome = {**outcome, "lightning": raw["lightning"]}
        try:
            back[side] = normalise_outcome(outcome, tracks) if outcome else None
        except RuleError:
            back[side] = None  # an empty or damaged stored back is typed again at the resolution
    if "front" in raw:
        front_raw = raw["front"] if isinstance(raw["front"], dict) else {}
        front = {side: front_side(front_raw.get(side), side) for side in SIDES}
    else:
        front = {
            side: _front_from_back(chosen) if (chosen := back[side]) else {"resources": [], "sticker": None}
            for side in SIDES
        }
    return {"number": number, "title": title, "question": question, "front": front, "back": back}


def public_card(card: dict) -> dict:
    """What the table and every phone may see of the card in play: its front only."""
    return {
        "number": card["number"],
        "title": card["title"],
        "question": card["question"],
        "front": card["front"],
    }


# ---- For bots and property tests --------------------------------------------------------------


def _rng(state: dict) -> random.Random:
    positions = [state["resources"][r]["position"] for r in RESOURCES]
    return random.Random(f"{state['step']}:{state['stability']}:{positions}")


def synthetic_front(state: dict) -> dict:
    """A front the table may type (bots and property tests). Derived from the public state only,
    never from the seed. Some fronts repeat a card known to the campaign by its number alone."""
    rng = _rng(state)
    out = {int(n) for n in state.get("cards_out_of_deck") or {}}
    drawn = {int(n) for n in state["cards_met"]}
    known = [int(n) for n in state["known_cards"] if int(n) not in drawn | out]
    if known and rng.random() < 0.5:
        return {"number": rng.choice(sorted(known))}
    taken = drawn | out | {int(n) for n in state["known_cards"]} | set(state["dilemma_deck"])
    number = max(taken, default=0) + 1
    card: dict = {"number": number, "title": f"Dilemma {number}"}
    for side in SIDES:
        rows = rng.sample(RESOURCES, rng.randint(0, 3))
        sticker = rng.choice([None, None, "positive", "negative"])
        card[side] = {"resources": [[row, rng.choice(DIRECTIONS)] for row in rows], "sticker": sticker}
    return card


def _free(state: dict, before: str, tonight: str, numbers: range) -> list[int]:
    """Numbers neither the campaign nor tonight used (a Chronicle sticker or an Envelope exists once)."""
    taken = set(state.get(before) or []) | {item["number"] for item in state[tonight]}
    return [n for n in numbers if n not in taken]


def synthetic_outcome(state: dict, side: str) -> dict:
    """A back for the winning side that agrees with the card's front tokens (amounts of 1 to 2)."""
    rng = _rng(state)
    front = state["card"]["front"][side]
    moves = [
        [row, rng.choice([1, 2]) * (1 if direction == "up" else -1)] for row, direction in front["resources"]
    ]
    sticker = None
    free_stickers = _free(state, "stickers_before", "stickers", range(1, state["tracks"]["stickers"] + 1))
    if front["sticker"] and free_stickers:
        sticker = {
            "number": rng.choice(free_stickers),
            "row": rng.choice(RESOURCES),
            "positive": front["sticker"] == "positive",
        }
    free_envelopes = _free(state, "envelopes_before", "envelopes", range(1, state["tracks"]["envelopes"]))
    envelope = rng.choice(free_envelopes) if free_envelopes and rng.random() < 0.2 else None
    outcome = {
        "resources": moves,
        "sticker": sticker,
        "envelope": envelope,
        "lightning": rng.random() < 0.3,
        "note": "",
    }
    if not (moves or sticker or envelope is not None):
        outcome["note"] = "The court talks of nothing else."
    return outcome
