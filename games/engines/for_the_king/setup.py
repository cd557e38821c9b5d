"""'Setup': a new game from its config (the seats' names) and its seed. The cards are dealt by the
table's first action (``influence.deal``), so the deck order never shows in the initial state."""

from typing import NotRequired, TypedDict

from games.engines.for_the_king import messages as msg
from games.engines.for_the_king.board import new_duties
from games.engines.for_the_king.cards import offices_in_play
from games.engines.for_the_king.turn import AREAS
from games.engines.kernel.rules import config_seat_names

MIN_SEATS = 2
MAX_SEATS = 5


class ForTheKingSeatSettings(TypedDict):
    """One seat, in table order (the session's seat names fill ``name``)."""

    name: NotRequired[str]


class ForTheKingSettings(TypedDict, total=False):
    """The session's ``config``: nothing but its seats (2 to 5)."""

    seats: list[ForTheKingSeatSettings]


SETTINGS = ForTheKingSettings


def setup(config: dict, seed: int) -> dict:
    """The state before the deal: 2 to 5 named seats, the Duty tiles of the offices in play."""
    names = config_seat_names(config, MIN_SEATS, MAX_SEATS, msg)
    count = len(names)
    offices = offices_in_play(count)
    return {
        "seed": seed,
        "step": 0,
        "over": False,
        "result": None,
        "seats": [{"name": n, "personal_deck": [], "hand": []} for n in names],
        "part": "setup",
        "phase": "deal",
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
