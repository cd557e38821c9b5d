"""The setup before the deal (SETUP): the seats with their starting Coins and Servants, and the box
before the table's first action deals the hidden cards (``actions.deal``)."""

from typing import Any, NotRequired, TypedDict

from games.engines.council_of_four import messages as msg
from games.engines.council_of_four.board import (
    BALCONIES,
    CARD_IDS,
    CITIES,
    COLOUR_REWARDS,
    COUNCILOR_COLOURS,
    COUNCILORS_PER_COLOUR,
    PERMITS,
    QUEEN_CITY,
    QUEEN_REWARDS,
    REGION_REWARDS,
    REGIONS,
    START_COINS,
    START_SERVANTS,
)
from games.engines.council_of_four.turn import DEAL, fresh_turn
from games.engines.kernel.rules import config_seat_names

MIN_SEATS = 2
MAX_SEATS = 4


class CouncilOfFourSeatSettings(TypedDict):
    """One seat, in table order (the session's seat names fill ``name``)."""

    name: NotRequired[str]


class CouncilOfFourSettings(TypedDict, total=False):
    """The session's ``config``: nothing but its seats (2 to 4)."""

    seats: list[CouncilOfFourSeatSettings]


SETTINGS = CouncilOfFourSettings


def _seat(name: str, index: int) -> dict[str, Any]:
    return {
        "name": name,
        "coins": START_COINS[index],
        "servants": START_SERVANTS[index],
        "victory": 0,
        "nobility": 0,
        "hand": [],
        "permits": [],  # [{"id": "C03", "face_up": True}] in the order acquired
        "rewards": [],  # [{"kind": "region"|"colour"|"queen", "name": ..., "victory_points": n}]
    }


def setup(config: dict, seed: int) -> dict:
    """The state before the deal: ``config`` is ``{"seats": [{"name": ...}, ...]}`` (2 to 4)."""
    names = config_seat_names(config, MIN_SEATS, MAX_SEATS, msg)
    return {
        "game": "council_of_four",
        "seed": seed,
        "step": 0,
        "seats": [_seat(name, i) for i, name in enumerate(names)],
        "phase": DEAL,  # deal -> actions (each turn starts with its draw, made by itself); "over" at the end
        "current": 0,
        "turn": fresh_turn(),
        "pending": [],
        # The box before the deal: every card in the deck, every Councilor beside the board.
        "deck": list(CARD_IDS),
        "discard": [],
        "balconies": {b: [] for b in BALCONIES},  # colours, the newest (next to the arrow) first
        "councilors": dict.fromkeys(COUNCILOR_COLOURS, COUNCILORS_PER_COLOUR),
        "permit_decks": {r: [p for p, tile in PERMITS.items() if tile["region"] == r] for r in REGIONS},
        "face_up": {r: [] for r in REGIONS},
        "city_tokens": {},
        "queen": QUEEN_CITY,
        "merchants": {c: [] for c in CITIES},  # seats, in the order they placed
        "neutral": [],  # cities holding the neutral colour's Merchant (two players)
        "region_rewards": list(REGION_REWARDS),
        "colour_rewards": list(COLOUR_REWARDS),
        "queen_rewards": list(QUEEN_REWARDS),
        "final": None,  # {"by": seat} once someone placed their 10th Merchant
        "over": False,
        "result": None,
    }
