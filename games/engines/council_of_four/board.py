"""The board data of Council of Four, read from ``data/`` (the engine never hard-codes board data),
and the fixed pieces of the box: 24 Councilors and 90 Politics cards."""

import json
from collections import deque
from pathlib import Path

from games.engines.kernel.messages import gettext_noop

DATA_DIR = Path(__file__).parent / "data"


def _load(name: str) -> dict:
    with open(DATA_DIR / name, encoding="utf-8") as handle:
        return json.load(handle)


_BOARD = _load("board.json")
_PERMITS = _load("permits.json")
_NOBILITY = _load("nobility.json")
_REWARDS = _load("rewards.json")

# Regions in board order, and the fourth Balcony: the Queen's (the King's in the data files).
REGIONS: tuple[str, ...] = tuple(dict.fromkeys(c["region"] for c in _BOARD["cities"]))
QUEEN = "queen"
BALCONIES: tuple[str, ...] = (*REGIONS, QUEEN)
# The regions' and the Balconies' names (the data file's keys are lower case); a region the data
# file adds without words here reads as its key.
REGION_WORDS = {
    "coast": gettext_noop("Coast"),
    "hills": gettext_noop("Hills"),
    "mountains": gettext_noop("Mountains"),
}
_BALCONY_NAMES = {
    "coast": gettext_noop("Coast Balcony"),
    "hills": gettext_noop("Hills Balcony"),
    "mountains": gettext_noop("Mountains Balcony"),
    QUEEN: gettext_noop("Queen's Balcony"),
}
BALCONY_WORDS = {b: _BALCONY_NAMES.get(b) or f"{b.capitalize()} Balcony" for b in (*REGIONS, QUEEN)}


def region_word(region: str) -> str:
    return REGION_WORDS.get(region) or region.capitalize()


CITIES: dict[str, dict] = {
    c["letter"]: {"letter": c["letter"], "name": c["name"], "region": c["region"], "colour": c["colour"]}
    for c in _BOARD["cities"]
}
CITY_LETTERS: tuple[str, ...] = tuple(CITIES)
QUEEN_CITY: str = _BOARD["king_city"]
GREY = CITIES[QUEEN_CITY]["colour"]
# The cities' colours as their Reward tiles name them (the Queen's city is grey and has none).
CITY_COLOUR_WORDS = {
    "gold": gettext_noop("Gold"),
    "silver": gettext_noop("Silver"),
    "bronze": gettext_noop("Bronze"),
    "iron": gettext_noop("Iron"),
    "grey": gettext_noop("Grey"),
}
ROADS: tuple[tuple[str, str], ...] = tuple((a, b) for a, b in _BOARD["roads"])
NEIGHBOURS: dict[str, tuple[str, ...]] = {
    letter: tuple(sorted({b for a, b in ROADS if a == letter} | {a for a, b in ROADS if b == letter}))
    for letter in CITIES
}

CITY_TOKENS: dict[int, dict] = {t["id"]: dict(t["bonus"]) for t in _BOARD["city_tokens"]["tokens"]}

PERMITS: dict[str, dict] = {
    tile["id"]: {
        "id": tile["id"],
        "region": tile["region"],
        "cities": list(tile["cities"]),
        "bonus": dict(tile["bonus"]),
    }
    for region in REGIONS
    for tile in _PERMITS["regions"][region]
}

NOBILITY: dict[int, dict] = {
    s["space"]: {k: v for k, v in s["bonus"].items() if k != "note"}
    for s in _NOBILITY["spaces"]
    if s["bonus"]
}
NOBILITY_LAST = _NOBILITY["last_space"]

REGION_REWARDS: dict[str, int] = {r["region"]: r["victory_points"] for r in _REWARDS["region_rewards"]}
COLOUR_REWARDS: dict[str, int] = {r["colour"]: r["victory_points"] for r in _REWARDS["colour_rewards"]}
QUEEN_REWARDS: list[int] = [
    r["victory_points"] for r in sorted(_REWARDS["king_rewards"], key=lambda r: r["order"])
]

# The box: 24 Councilors, 4 in each of 6 colours; 90 Politics cards, 13 per colour and 12 Jokers.
COUNCILOR_COLOURS: tuple[str, ...] = ("black", "white", "orange", "pink", "purple", "blue")
COUNCILORS_PER_COLOUR = 4
COUNCILORS_PER_BALCONY = 4
JOKER = "joker"
# The Politics cards' and the Councilors' colours in words: on their own ("2 Politics cards (black,
# joker)"), first in a payment ("Black + 2 Jokers"), and a Councilor with its article.
COLOUR_WORDS = {
    "black": gettext_noop("black"),
    "white": gettext_noop("white"),
    "orange": gettext_noop("orange"),
    "pink": gettext_noop("pink"),
    "purple": gettext_noop("purple"),
    "blue": gettext_noop("blue"),
    JOKER: gettext_noop("joker"),
}
COLOUR_NAMES = {
    "black": gettext_noop("Black"),
    "white": gettext_noop("White"),
    "orange": gettext_noop("Orange"),
    "pink": gettext_noop("Pink"),
    "purple": gettext_noop("Purple"),
    "blue": gettext_noop("Blue"),
    JOKER: gettext_noop("Joker"),
}
A_COUNCILOR = {
    "black": gettext_noop("a black Councilor"),
    "white": gettext_noop("a white Councilor"),
    "orange": gettext_noop("an orange Councilor"),
    "pink": gettext_noop("a pink Councilor"),
    "purple": gettext_noop("a purple Councilor"),
    "blue": gettext_noop("a blue Councilor"),
}
CARDS_PER_COLOUR = 13
JOKERS = 12


def _politics_cards() -> dict[str, str]:
    colours = [c for c in COUNCILOR_COLOURS for _ in range(CARDS_PER_COLOUR)] + [JOKER] * JOKERS
    return {f"P{i + 1:02d}": colour for i, colour in enumerate(colours)}


CARDS: dict[str, str] = _politics_cards()  # card id -> colour ("joker" for the multi-coloured cards)
CARD_IDS: tuple[str, ...] = tuple(CARDS)

# Seats in turn order start with these Coins and Servants.
START_COINS = (10, 11, 12, 13)
START_SERVANTS = (1, 2, 3, 4)
HAND_SIZE = 6
MERCHANTS = 10
LAST_MERCHANT_VP = 3
FACE_UP_PERMITS = 2

# Main and Quick action prices.
ELECT_COINS = 4
SATISFY_COINS = {1: 10, 2: 7, 3: 4, 4: 0}  # cards played -> Coins, plus 1 per Joker
ROAD_COINS = 2
ENGAGE_COINS = 3
CHANGE_PERMITS_SERVANTS = 1
SEND_SERVANT_SERVANTS = 1
ADDITIONAL_MAIN_SERVANTS = 3

# End of the game.
NOBILITY_FIRST_VP = 5
NOBILITY_SECOND_VP = 2
MOST_PERMITS_VP = 3


def region_cities(region: str) -> list[str]:
    return [c for c, city in CITIES.items() if city["region"] == region]


def colour_cities(colour: str) -> list[str]:
    return [c for c, city in CITIES.items() if city["colour"] == colour]


def distances(start: str) -> dict[str, int]:
    """Roads travelled from ``start`` to every city (breadth first)."""
    seen = {start: 0}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        for there in NEIGHBOURS[here]:
            if there not in seen:
                seen[there] = seen[here] + 1
                queue.append(there)
    return seen


DISTANCES: dict[str, dict[str, int]] = {c: distances(c) for c in CITIES}


def route(start: str, end: str) -> list[str]:
    """One shortest road route from ``start`` to ``end`` (cities in order, both ends included),
    choosing the alphabetically first neighbour where routes tie."""
    path = [start]
    here = start
    while here != end:
        here = min(n for n in NEIGHBOURS[here] if DISTANCES[n][end] == DISTANCES[here][end] - 1)
        path.append(here)
    return path


def city_label(letter: str) -> str:
    return CITIES[letter]["name"]
