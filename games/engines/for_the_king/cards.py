"""The 108 cards, read from ``data/cards.csv`` (the engine never hard-codes a card).

A card is a plain dict: ``id``, ``kind`` (government, gold, king), ``colour``, ``office``,
``value`` (int or None), ``effect`` (King cards), ``letter`` (Government tie-break) and
``mark`` (the printed player count, int or None).
"""

import csv
from pathlib import Path
from typing import Any

from games.engines.kernel.messages import gettext_noop

DATA_FILE = Path(__file__).parent / "data" / "cards.csv"

GOVERNMENT = "government"
GOLD = "gold"
KING = "king"


def _int_or_none(text: str) -> int | None:
    text = text.strip()
    return int(text) if text else None


def load_cards(path: Path = DATA_FILE) -> dict[str, dict]:
    cards: dict[str, dict] = {}
    with path.open(newline="", encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            card: dict[str, Any] = {
                "id": row["id"].strip(),
                "kind": row["kind"].strip(),
                "colour": row["colour"].strip() or None,
                "office": row["office"].strip() or None,
                "value": _int_or_none(row["value"]),
                "effect": row["effect"].strip() or None,
                "letter": row["letter"].strip() or None,
                "mark": _int_or_none(row["mark"]),
            }
            cards[card["id"]] = card
    return cards


CARDS: dict[str, dict] = load_cards()
CARD_IDS: list[str] = list(CARDS)

# Board order of the offices and the colour of each, in the order the data file lists them.
OFFICE_COLOURS: dict[str, str] = {}
for _card in CARDS.values():
    if _card["kind"] == GOVERNMENT and _card["office"] not in OFFICE_COLOURS:
        OFFICE_COLOURS[_card["office"]] = _card["colour"]

# 'End of the Game': the final tie-break looks at the offices in this order.
TIE_BREAK_OFFICES = ["diplomacy", "entertainment", "livestock", "architecture", "military", "provisions"]

KING_EFFECT_WORDS = {
    "plus1": gettext_noop("+1 on one Primary Duty tile"),
    "minus1": gettext_noop("-1 on one Primary Duty tile"),
    "plus_or_minus1": gettext_noop("+1 or -1 on one Primary Duty tile"),
    "plus1_two": gettext_noop("+1 on two different Primary Duty tiles"),
    "minus1_two": gettext_noop("-1 on two different Primary Duty tiles"),
    "plus1_minus1_two": gettext_noop("+1 on one Primary Duty tile and -1 on a different one"),
}

# The offices as the Government board names them (the data file's keys are lower case).
OFFICE_WORDS = {
    "diplomacy": gettext_noop("Diplomacy"),
    "entertainment": gettext_noop("Entertainment"),
    "livestock": gettext_noop("Livestock"),
    "architecture": gettext_noop("Architecture"),
    "military": gettext_noop("Military"),
    "provisions": gettext_noop("Provisions"),
}

# A card in words: 'Military 3 (E)', 'Gold 2', 'King card (+1 on one Primary Duty tile)'.
GOVERNMENT_LABEL = gettext_noop("{office} {value} ({letter})")
GOLD_LABEL = gettext_noop("Gold {value}")
KING_LABEL = gettext_noop("King card ({effect})")


def office_word(office: Any) -> str:
    """An office's name; one the data file adds without words here reads as its key, capitalised."""
    return OFFICE_WORDS.get(office) or str(office).capitalize()


def card(card_id: str) -> dict:
    return CARDS[card_id]


def kind(card_id: str) -> str:
    return CARDS[card_id]["kind"]


def is_gold(card_id: str) -> bool:
    return CARDS[card_id]["kind"] == GOLD


def is_king(card_id: str) -> bool:
    return CARDS[card_id]["kind"] == KING


def gold_value(card_ids: list[str]) -> int:
    return sum(CARDS[c]["value"] for c in card_ids if CARDS[c]["kind"] == GOLD)


def in_play(player_count: int) -> list[str]:
    """'Setup' step 4: cards marked with a number higher than the player count go back to the box."""
    return [c for c in CARD_IDS if CARDS[c]["mark"] is None or CARDS[c]["mark"] <= player_count]


def offices_in_play(player_count: int) -> list[str]:
    present = {CARDS[c]["office"] for c in in_play(player_count) if CARDS[c]["kind"] == GOVERNMENT}
    return [office for office in OFFICE_COLOURS if office in present]


def face(card_id: str) -> dict:
    """What a face-up card shows (the player-count mark is of no use once the game is set up)."""
    c = CARDS[card_id]
    return {k: c[k] for k in ("id", "kind", "colour", "office", "value", "effect", "letter")}


def label(card_id: str) -> str:
    """The card in words, e.g. 'Military 3 (E)', 'Gold 2', 'King card (+1 on one Primary Duty tile)'."""
    c = CARDS[card_id]
    if c["kind"] == GOVERNMENT:
        return GOVERNMENT_LABEL.format(office=office_word(c["office"]), value=c["value"], letter=c["letter"])
    if c["kind"] == GOLD:
        return GOLD_LABEL.format(value=c["value"])
    return KING_LABEL.format(effect=KING_EFFECT_WORDS.get(c["effect"], c["effect"]))
