"""What each seat (or the table screen) may see: the declared shapes of the views and ``view``.

Everything public is in the table's view; a seat's view adds ``private``, what only that seat sees
(its Politics hand). Other hands show as counts; the order of the Politics deck and of the Permit
decks never leaves the engine. The pages read only these keys (games.engines.kernel.contract checks
them key by key)."""

from typing import NotRequired, TypedDict

from games.engines.council_of_four.board import (
    CARDS,
    CITIES,
    CITY_TOKENS,
    COLOUR_REWARDS,
    COUNCILOR_COLOURS,
    MERCHANTS,
    NOBILITY,
    NOBILITY_LAST,
    PERMITS,
    REGION_REWARDS,
    REGIONS,
    ROADS,
    colour_cities,
)
from games.engines.council_of_four.bonuses import pending_options
from games.engines.council_of_four.merchants import merchants_of
from games.engines.council_of_four.turn import DEAL, to_act
from games.engines.kernel.contract import BaseView

Bonus = dict[str, int]  # a bonus as the board shows it: {"coins": 2, "victory_points": 1}


class PermitFace(TypedDict):
    id: str
    region: str
    cities: list[str]  # city letters
    bonus: Bonus


class OwnedPermit(PermitFace):
    face_up: bool  # face down once used to place a Merchant


class Reward(TypedDict):
    kind: str  # "region", "colour" or "queen"
    name: str
    victory_points: int


class CouncilOfFourSeatEntry(TypedDict):
    """One seat as everyone sees it."""

    index: int
    name: str
    coins: int
    servants: int
    victory: int
    nobility: int
    hand_count: int
    merchants: list[str]  # letters of the cities holding its Merchants
    merchants_left: int
    permits: list[OwnedPermit]
    rewards: list[Reward]
    is_current: bool


class Turn(TypedDict):
    seat: int
    name: str
    phase: str
    main_left: int
    quick_left: int
    mains_done: int
    can_end: bool


class Pending(TypedDict):
    """The bonus choice the seat must answer first (bonuses.py)."""

    kind: str  # "city_token", "permit_bonus" or "free_permit"
    seat: int
    count: NotRequired[int]  # City tokens: how many
    options: list[str]  # city letters or Permit ids


class CityToken(TypedDict):
    id: int
    bonus: Bonus


class City(TypedDict):
    letter: str
    name: str
    region: str
    colour: str
    token: CityToken | None
    merchants: list[int]  # seats, in the order they placed
    neutral: bool
    queen: bool


class RegionPermits(TypedDict):
    face_up: list[PermitFace]
    deck_count: int


class Politics(TypedDict):
    deck_count: int
    discard_count: int


class RegionReward(TypedDict):
    region: str
    victory_points: int


class ColourReward(TypedDict):
    colour: str
    cities: int
    victory_points: int


class Rewards(TypedDict):
    regions: list[RegionReward]
    colours: list[ColourReward]
    queen: list[int]  # the Queen's Reward tiles left, the next first


class NobilitySpace(TypedDict):
    space: int
    bonus: Bonus


class NobilityTrack(TypedDict):
    last_space: int
    bonuses: list[NobilitySpace]


class Final(TypedDict):
    by: int
    name: str


class ScoreBreakdown(TypedDict):
    track: int
    rewards: int
    nobility: int
    permits: int
    total: int


class CouncilOfFourResult(TypedDict):
    winners: list[int]
    scores: list[int]
    ranking: list[int]
    positions: list[int]
    tiebreak: list[int]  # Servants plus Politics cards
    breakdown: list[ScoreBreakdown]


class PoliticsCard(TypedDict):
    id: str
    colour: str


class CouncilOfFourPrivate(TypedDict):
    """What only the viewing seat sees."""

    hand: list[PoliticsCard]


class CouncilOfFourTableView(BaseView):
    """The table's view (``you`` None), everything public."""

    game: str
    seats: list[CouncilOfFourSeatEntry]
    turn: Turn | None
    pending: Pending | None
    cities: list[City]
    roads: list[list[str]]
    queen: str  # the letter of the Queen's city
    balconies: dict[str, list[str]]  # Balcony -> Councilors' colours, the newest first
    councilors: dict[str, int]  # colour -> Councilors beside the board
    councilor_colours: list[str]
    permits: dict[str, RegionPermits]
    politics: Politics
    rewards: Rewards
    nobility_track: NobilityTrack
    final: Final | None
    over: bool
    result: CouncilOfFourResult | None


class CouncilOfFourSeatView(CouncilOfFourTableView):
    """A seat's view: the table's, with ``you`` its index and its ``private`` part."""

    private: CouncilOfFourPrivate


def permit_face(permit_id: str) -> PermitFace:
    tile = PERMITS[permit_id]
    return {
        "id": permit_id,
        "region": tile["region"],
        "cities": list(tile["cities"]),
        "bonus": dict(tile["bonus"]),
    }


def _seat_entry(state: dict, index: int) -> CouncilOfFourSeatEntry:
    seat = state["seats"][index]
    playing = state["phase"] != DEAL and not state["over"]
    return {
        "index": index,
        "name": seat["name"],
        "coins": seat["coins"],
        "servants": seat["servants"],
        "victory": seat["victory"],
        "nobility": seat["nobility"],
        "hand_count": len(seat["hand"]),
        "merchants": merchants_of(state, index),
        "merchants_left": MERCHANTS - len(merchants_of(state, index)),
        "permits": [{**permit_face(p["id"]), "face_up": p["face_up"]} for p in seat["permits"]],
        "rewards": [
            {"kind": r["kind"], "name": r["name"], "victory_points": r["victory_points"]}
            for r in seat["rewards"]
        ],
        "is_current": playing and state["current"] == index,
    }


def _turn(state: dict) -> Turn | None:
    if state["phase"] == DEAL or state["over"]:
        return None
    turn = state["turn"]
    return {
        "seat": state["current"],
        "name": state["seats"][state["current"]]["name"],
        "phase": state["phase"],
        "main_left": turn["main_left"],
        "quick_left": turn["quick_left"],
        "mains_done": turn["mains_done"],
        "can_end": not state["pending"] and turn["mains_done"] > 0,
    }


def _pending(state: dict) -> Pending | None:
    if not state["pending"]:
        return None
    head = state["pending"][0]
    pending: Pending = {"kind": head["kind"], "seat": head["seat"], "options": pending_options(state, head)}
    if "count" in head:
        pending["count"] = head["count"]
    return pending


def _city(state: dict, letter: str) -> City:
    city = CITIES[letter]
    token = state["city_tokens"].get(letter)
    return {
        "letter": letter,
        "name": city["name"],
        "region": city["region"],
        "colour": city["colour"],
        "token": None if token is None else {"id": token, "bonus": dict(CITY_TOKENS[token])},
        "merchants": list(state["merchants"][letter]),
        "neutral": letter in state["neutral"],
        "queen": state["queen"] == letter,
    }


def _rewards(state: dict) -> Rewards:
    return {
        "regions": [{"region": r, "victory_points": REGION_REWARDS[r]} for r in state["region_rewards"]],
        "colours": [
            {"colour": c, "cities": len(colour_cities(c)), "victory_points": COLOUR_REWARDS[c]}
            for c in state["colour_rewards"]
        ],
        "queen": list(state["queen_rewards"]),
    }


def _final(state: dict) -> Final | None:
    if not state["final"]:
        return None
    by = state["final"]["by"]
    return {"by": by, "name": state["seats"][by]["name"]}


def table_view(state: dict) -> CouncilOfFourTableView:
    return {
        "game": "council_of_four",
        "you": None,
        "phase": state["phase"],
        "to_act": to_act(state),
        "turn": _turn(state),
        "pending": _pending(state),
        "seats": [_seat_entry(state, i) for i in range(len(state["seats"]))],
        "cities": [_city(state, letter) for letter in CITIES],
        "roads": [list(r) for r in ROADS],
        "queen": state["queen"],
        "balconies": {b: list(line) for b, line in state["balconies"].items()},
        "councilors": dict(state["councilors"]),
        "councilor_colours": list(COUNCILOR_COLOURS),
        "permits": {
            r: {
                "face_up": [permit_face(p) for p in state["face_up"][r]],
                "deck_count": len(state["permit_decks"][r]),
            }
            for r in REGIONS
        },
        "politics": {"deck_count": len(state["deck"]), "discard_count": len(state["discard"])},
        "rewards": _rewards(state),
        "nobility_track": {
            "last_space": NOBILITY_LAST,
            "bonuses": [{"space": s, "bonus": dict(b)} for s, b in sorted(NOBILITY.items())],
        },
        "final": _final(state),
        "over": state["over"],
        "result": state["result"],
    }


def view(state: dict, seat: int | None) -> CouncilOfFourTableView | CouncilOfFourSeatView:
    """The table's view (``seat`` None), or a seat's: the table's with ``you`` and ``private``."""
    table = table_view(state)
    if seat is None:
        return table
    hand: list[PoliticsCard] = [{"id": c, "colour": CARDS[c]} for c in sorted(state["seats"][seat]["hand"])]
    seat_view: CouncilOfFourSeatView = {**table, "you": seat, "private": {"hand": hand}}
    return seat_view
