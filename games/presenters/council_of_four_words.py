"""What both Council of Four presenter modules draw with: the colours of the pieces and the words of
cities, Councils, Permits and bonuses (the engine's own words: ``sentences.bonus_words`` and
``permit_words``). No rule here: numbers come from the engine."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext_lazy

from games.engines.council_of_four.board import CITIES, PERMITS
from games.engines.council_of_four.sentences import bonus_words, permit_words
from games.translation import say_to_reader

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


# The pieces' colours and the regions in words (the cities' names are the map's, the same in every
# edition).
COLOUR_WORDS = {
    "black": pgettext_lazy("councilor colour", "black"),
    "white": pgettext_lazy("councilor colour", "white"),
    "orange": pgettext_lazy("councilor colour", "orange"),
    "pink": pgettext_lazy("councilor colour", "pink"),
    "purple": pgettext_lazy("councilor colour", "purple"),
    "blue": pgettext_lazy("councilor colour", "blue"),
    "joker": pgettext_lazy("councilor colour", "joker"),
}
A_COUNCILOR = {
    "black": gettext_lazy("a black Councilor"),
    "white": gettext_lazy("a white Councilor"),
    "orange": gettext_lazy("an orange Councilor"),
    "pink": gettext_lazy("a pink Councilor"),
    "purple": gettext_lazy("a purple Councilor"),
    "blue": gettext_lazy("a blue Councilor"),
}
CITY_COLOUR_WORDS = {
    "gold": pgettext_lazy("city colour", "gold"),
    "silver": pgettext_lazy("city colour", "silver"),
    "bronze": pgettext_lazy("city colour", "bronze"),
    "iron": pgettext_lazy("city colour", "iron"),
    "grey": pgettext_lazy("city colour", "grey"),
}
REGION_WORDS = {
    "coast": pgettext_lazy("region", "Coast"),
    "hills": pgettext_lazy("region", "Hills"),
    "mountains": pgettext_lazy("region", "Mountains"),
}
BALCONY_NAMES = {
    "coast": gettext_lazy("Coast Balcony"),
    "hills": gettext_lazy("Hills Balcony"),
    "mountains": gettext_lazy("Mountains Balcony"),
    "queen": gettext_lazy("Queen's Balcony"),
}


def colour_word(colour: str) -> str:
    """A Councilor's (or a Politics card's) colour in the reader's language."""
    return str(COLOUR_WORDS.get(colour) or colour)


def city_colour_word(colour: str) -> str:
    return str(CITY_COLOUR_WORDS.get(colour) or colour)


def region_word(region: str) -> str:
    return str(REGION_WORDS.get(region) or str(region).capitalize())


def a_councilor(colour: str) -> str:
    """ "a black Councilor", "an orange Councilor"."""
    said = A_COUNCILOR.get(colour)
    return str(said) if said else _("a {colour} Councilor").format(colour=colour_word(colour))


def councilor_hex(colour: str) -> str:
    return COUNCILOR_HEX.get(colour, UNKNOWN_HEX)


def city_hex(letter: str) -> str:
    return CITY_HEX.get(CITIES[letter]["colour"], UNKNOWN_HEX)


def city_name(letter: str) -> str:
    return str(CITIES[letter]["name"]) if letter in CITIES else str(letter)


def balcony_name(balcony: str) -> str:
    said = BALCONY_NAMES.get(balcony)
    return str(said) if said else _("{region} Balcony").format(region=region_word(str(balcony)))


def bonus_text(bonus: dict[str, int] | None) -> str:
    return say_to_reader(bonus_words(bonus)) if bonus else ""


def permit_cities(permit_id: str) -> str:
    """The cities of a Permit, as its tile shows them ("Arkon, Dorful, Esti")."""
    return ", ".join(city_name(c) for c in PERMITS[permit_id]["cities"])


def permit_text(permit_id: object, *, bonus: bool = True) -> str:
    """A Permit by its cities and bonus, as the tile reads (the engine's ``permit_words``), never by
    the data file's id."""
    if not isinstance(permit_id, str) or permit_id not in PERMITS:
        return _("a Permit")
    return say_to_reader(permit_words(permit_id, bonus=bonus))


def coins(n: int) -> str:
    return ngettext("{n} Coin", "{n} Coins", n).format(n=n)


def servants(n: int) -> str:
    return ngettext("{n} Servant", "{n} Servants", n).format(n=n)
