"""What both Council of Four presenter modules draw with: the colours of the pieces and the words of
cities, Councils, Permits and bonuses (the engine's own words: ``sentences.bonus_words`` and
``permit_words``). No rule here: numbers come from the engine."""

from __future__ import annotations

from games.engines.council_of_four.board import BALCONY_WORDS, CITIES, PERMITS
from games.engines.council_of_four.sentences import bonus_words, permit_words
from games.engines.kernel.words import count

UNKNOWN_HEX = "#999"
CITY_HEX = {
    "gold": "#d4a72c",
    "silver": "#a9adb3",
    "bronze": "#b0723a",
    "iron": "#5b6775",
    "grey": "#8c7f9a",
}
COUNCILOR_HEX = {
    "black": "#1d1d1d",
    "white": "#f5f3ee",
    "orange": "#e07b1a",
    "pink": "#e07aa5",
    "purple": "#7a3f9d",
    "blue": "#2b67b9",
    "joker": "conic-gradient(#e07b1a, #e07aa5, #7a3f9d, #2b67b9, #1d1d1d, #f5f3ee, #e07b1a)",
}
REGION_FILL = {"coast": "#dbe9ef", "hills": "#e6ecd5", "mountains": "#ece2d6"}


def councilor_hex(colour: str) -> str:
    return COUNCILOR_HEX.get(colour, UNKNOWN_HEX)


def city_hex(letter: str) -> str:
    return CITY_HEX.get(CITIES[letter]["colour"], UNKNOWN_HEX)


def city_name(letter: str) -> str:
    return str(CITIES[letter]["name"]) if letter in CITIES else str(letter)


def balcony_name(balcony: str) -> str:
    return BALCONY_WORDS.get(balcony, f"{str(balcony).capitalize()} Balcony")


def bonus_text(bonus: dict[str, int] | None) -> str:
    return bonus_words(bonus) if bonus else ""


def permit_cities(permit_id: str) -> str:
    """The cities of a Permit, as its tile shows them ("Arkon, Dorful, Esti")."""
    return ", ".join(city_name(c) for c in PERMITS[permit_id]["cities"])


def permit_text(permit_id: object, *, bonus: bool = True) -> str:
    """A Permit by its cities and bonus, as the tile reads (the engine's ``permit_words``), never by
    the data file's id."""
    if not isinstance(permit_id, str) or permit_id not in PERMITS:
        return "a Permit"
    return permit_words(permit_id, bonus=bonus)


def coins(n: int) -> str:
    return count(n, "Coin")


def servants(n: int) -> str:
    return count(n, "Servant")
