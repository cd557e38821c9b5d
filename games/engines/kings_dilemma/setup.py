"""Game Setup (rulebook "Game Setup", steps 1-9, with the legacy setup the campaign computed):
``setup(config, seed)`` checks the config and returns the state, everything public. The Secret Agenda
draft (step 6) waits for the table's ``deal`` (``draft.py``)."""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict

from games.engines.kernel.errors import RuleError
from games.engines.kernel.rng import seeded_rng
from games.engines.kings_dilemma import messages as msg
from games.engines.kings_dilemma.cards import normalise_known
from games.engines.kings_dilemma.data import LIMITS, MAX_SEATS, MIN_SEATS, RESOURCES, tracks_for
from games.engines.kings_dilemma.turn import is_int

MAX_NAME = 80  # a House's and a King's name in the campaign (80 characters) always fit
SETUP_STEP = -1  # the public randomness of setup (Momentum sides) uses seeded_rng(seed, -1)


# ---- The settings a session is created with (its ``config``; rules.py documents each) ----------


class OpenAgendaSetting(TypedDict):
    row: str
    positive: bool
    sticker: NotRequired[int | None]


class KingsDilemmaSeatSettings(TypedDict):
    """One House, in table order (the session's seat names fill ``name``)."""

    name: NotRequired[str]
    house: NotRequired[int | None]
    house_name: NotRequired[str | None]
    house_number: NotRequired[int]
    prestige: NotRequired[int]
    power: NotRequired[int]
    coins: NotRequired[int]
    open_agendas: NotRequired[list[OpenAgendaSetting]]


class KingsDilemmaSettings(TypedDict, total=False):
    """A game night's legacy setup, as the campaign computes it (every key optional)."""

    king_name: str
    seats: list[KingsDilemmaSeatSettings]
    resources: dict[str, int]  # Resource legacy: offset from the centre row
    leader: int | None
    moderator: int | None
    dilemma_deck: list[int]
    known_cards: dict[str, dict[str, Any]]  # cards.py: a stored card, older forms read too
    mystery_stickers: list[str]
    envelopes_opened: list[int]
    stickers_attached: list[int]
    cards_out_of_deck: dict[str, str]  # number -> trash | event_area | story_slot
    event_area: list[int]
    tracks: dict[str, Any]  # overrides of data/tracks.json, checked by data.tracks_for


SETTINGS = KingsDilemmaSettings


def _seat(raw: Any, index: int, tracks: dict) -> dict:
    if not isinstance(raw, dict):
        raise RuleError(msg.SEAT_FORMAT)
    name = raw.get("name")
    if not isinstance(name, str) or not name.strip() or len(name.strip()) > MAX_NAME:
        raise RuleError(msg.SEAT_NAME.format(most=MAX_NAME))
    seat = {"name": name.strip(), "house": raw.get("house")}
    defaults = {
        "house_number": index + 1,
        "prestige": 0,
        "power": tracks["start_stock"]["power"],
        "coins": tracks["start_stock"]["coins"],
    }
    bounds = {
        "house_number": (1, LIMITS["house_number"]),
        "prestige": (0, LIMITS["prestige"]),
        # Power and Coins are tokens: a House cannot hold more than the box has.
        "power": (0, tracks["general_pool"]["power"]),
        "coins": (0, tracks["general_pool"]["coins"]),
    }
    for field, default in defaults.items():
        value = raw.get(field, default)
        low, high = bounds[field]
        if not is_int(value, low, high):
            raise RuleError(
                msg.SEAT_NUMBER.format(name=seat["name"], field=msg.SEAT_FIELDS[field], low=low, high=high),
                {"field": f"seats[{index}].{field}"},
            )
        seat[field] = value
    seat["house_name"] = raw.get("house_name") if isinstance(raw.get("house_name"), str) else None
    tokens = raw.get("open_agendas", [])
    if not isinstance(tokens, list):
        raise RuleError(msg.OPEN_AGENDA_FORMAT)
    clean = []
    for token in tokens:
        if (
            not isinstance(token, dict)
            or token.get("row") not in RESOURCES
            or not isinstance(token.get("positive"), bool)
        ):
            raise RuleError(msg.OPEN_AGENDA_FORMAT)
        clean.append({"row": token["row"], "positive": token["positive"], "sticker": token.get("sticker")})
    for positive in (True, False):
        if sum(1 for t in clean if t["positive"] == positive) > 2:
            raise RuleError(msg.OPEN_AGENDA_LIMIT)
    seat["open_agendas"] = clean
    seat["secret_agenda"] = None
    seat["draft_offer"] = None
    return seat


def setup(config: Any, seed: int) -> dict:
    """Setup: everything public. The Secret Agenda draft waits for the table's ``deal``."""
    if not isinstance(config, dict) or not isinstance(config.get("seats"), list):
        raise RuleError(msg.CONFIG_FORMAT)
    tracks = tracks_for(config.get("tracks"))
    if not MIN_SEATS <= len(config["seats"]) <= MAX_SEATS:
        raise RuleError(msg.SEAT_COUNT)
    seats = [_seat(raw, i, tracks) for i, raw in enumerate(config["seats"])]
    numbers = [s["house_number"] for s in seats]
    for number in numbers:
        if numbers.count(number) > 1:
            raise RuleError(msg.HOUSE_NUMBER_TWICE.format(number=number))
    held = [(t["row"], t["positive"]) for s in seats for t in s["open_agendas"]]
    for row, positive in held:
        if held.count((row, positive)) > 1:
            sign = msg.SIGNS[positive]
            raise RuleError(msg.OPEN_AGENDA_TWICE.format(row=msg.resource_name(row), sign=sign))
    king = config.get("king_name", "")
    if not isinstance(king, str) or len(king) > MAX_NAME:
        raise RuleError(msg.KING_NAME.format(most=MAX_NAME))

    # 'Breaking ties of Prestige': more Prestige is higher; on a tie, the higher House number.
    by_prestige = sorted(range(len(seats)), key=lambda i: (seats[i]["prestige"], seats[i]["house_number"]))
    tokens = {"leader": by_prestige[-1], "moderator": by_prestige[0]}
    for token in tokens:
        if token in config and config[token] is not None:
            if not is_int(config[token], 0, len(seats) - 1):
                raise RuleError(msg.TOKEN_SEAT.format(token=msg.TOKEN_NAMES[token], top=len(seats) - 1))
            tokens[token] = config[token]

    legacy = config.get("resources") or {}
    rows, centre = tracks["resource_track"]["rows"], tracks["resource_track"]["centre"]
    if not isinstance(legacy, dict) or any(
        r not in RESOURCES or not is_int(v, -rows, rows) for r, v in legacy.items()
    ):
        raise RuleError(msg.RESOURCES_FORMAT.format(rows=rows))
    rng = seeded_rng(seed, SETUP_STEP)  # public: the markers are thrown like coins on the table
    resources = {}
    for row in RESOURCES:
        position = min(rows, max(1, centre + legacy.get(row, 0)))
        resources[row] = {"position": position, "momentum": rng.choice(["up", "down"]), "marker": False}

    deck = config.get("dilemma_deck") or []
    top = tracks["dilemma_card_max"]
    if not isinstance(deck, list) or len(deck) > top or not all(is_int(n, 1, top) for n in deck):
        raise RuleError(msg.DECK_FORMAT.format(top=top))
    known_raw = config.get("known_cards") or {}
    if not isinstance(known_raw, dict):
        raise RuleError(msg.KNOWN_CARDS_FORMAT)
    if len(known_raw) > tracks["dilemma_card_max"]:
        raise RuleError(msg.KNOWN_CARDS_FORMAT)
    known = {}
    for key, card in known_raw.items():
        card = normalise_known(_key_number(key), card, tracks)
        known[str(card["number"])] = card

    pool = tracks["general_pool"]
    balance = tracks["balance_start_power"]
    return {
        "seed": seed,
        "step": 0,
        "over": False,
        "result": None,
        "phase": "deal",
        "king_name": king.strip(),
        "tracks": tracks,
        "seats": seats,
        "leader": tokens["leader"],
        "moderator": tokens["moderator"],
        "resources": resources,
        "stability": tracks["stability_track"]["middle"],
        "abdicated": None,
        "king_dead": False,
        "balance": balance,
        "pool": {
            "power": pool["power"] - balance - sum(s["power"] for s in seats),
            "coins": pool["coins"] - sum(s["coins"] for s in seats),
        },
        "shortfalls": [],
        "removed_agenda": None,
        "draft": None,
        "dilemma_deck": list(deck),
        "known_cards": known,
        "round": 0,
        "card": None,
        "outcome": None,
        "vote": None,
        "winning_side": None,
        "last_vote": None,
        "leader_candidates": None,
        "time_counter": [],
        "event_cards": _numbers(config, "event_area", 1, top),
        "stickers": [],
        "envelopes": [],
        "mystery_stickers": [],
        "mystery_before": _mystery_before(config, tracks),
        **campaign_before(config, tracks),
        "prestige_crave_effects": [],
        "cards_met": {},
        "end": None,
        "scores": None,
        "heir_candidates": None,
    }


def _key_number(key: Any) -> int:
    try:
        return int(key)
    except (TypeError, ValueError):
        raise RuleError(msg.KNOWN_CARDS_FORMAT) from None


def _numbers(config: dict, key: str, low: int, high: int) -> list[int]:
    raw = config.get(key) or []
    if not isinstance(raw, list) or len(raw) > high - low + 1 or not all(is_int(n, low, high) for n in raw):
        raise RuleError(msg.CAMPAIGN_NUMBERS.format(what=msg.CAMPAIGN_LISTS[key], low=low, high=high))
    return sorted(set(raw))


def campaign_before(config: dict, tracks: dict) -> dict:
    """What the campaign already holds, so the table refuses it when typed again (optional keys; a
    session started before they existed plays without them): ``envelopes_opened`` (numbers),
    ``stickers_attached`` (Chronicle sticker numbers on the board, covered ones included) and
    ``cards_out_of_deck`` ({number: "trash" | "event_area" | "story_slot"})."""
    out = config.get("cards_out_of_deck") or {}
    if not isinstance(out, dict) or len(out) > tracks["dilemma_card_max"]:
        raise RuleError(msg.CAMPAIGN_PLACES)
    places = {}
    for key, place in out.items():
        number = int(key) if isinstance(key, str) and key.isascii() and key.isdigit() else key
        if not is_int(number, 1, tracks["dilemma_card_max"]) or place not in msg.OUT_OF_DECK_PLACES:
            raise RuleError(msg.CAMPAIGN_PLACES)
        places[str(number)] = place
    return {
        "envelopes_before": _numbers(config, "envelopes_opened", 0, tracks["envelopes"] - 1),
        "stickers_before": _numbers(config, "stickers_attached", 1, tracks["stickers"]),
        "cards_out_of_deck": places,
    }


def _mystery_before(config: dict, tracks: dict) -> list[str]:
    """Optional ``mystery_stickers``: letters attached in earlier games (so they cannot be attached again)."""
    letters = config.get("mystery_stickers") or []
    if not isinstance(letters, list) or any(
        not isinstance(x, str) or len(x) != 1 or x not in tracks["mystery_letters"] for x in letters
    ):
        raise RuleError(msg.MYSTERY_LETTER)
    return sorted(set(letters))
