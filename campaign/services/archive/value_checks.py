"""The checks of every value a campaign archive brings, before anything is written: an import that
cannot hurt.

Each value is held to what the rules allow and to what *both* databases and Python can store and
compute with: an integer within PostgreSQL's range of its column even on SQLite (which stores 64
bits in any column), a date and time whose UTC and local values stay far from year 1 and year 9999
(Python's date arithmetic overflows there, so a page or the admin list would answer 500 for good),
texts without NUL (PostgreSQL refuses it) or control characters, JSON without NaN, Infinity or
numbers past 64 bits. Every refusal is a ``ValidationError`` saying where (section, row, field) and
why, in the one sentence the import page and the API show.

The value checks are pure; ``night_problems`` runs the King's Dilemma engine's own setup (pure too)
so that an accepted campaign can always start a night."""

from __future__ import annotations

import datetime
import json
import math
import re
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.backends.base.operations import BaseDatabaseOperations
from django.utils.dateparse import parse_datetime
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy

from campaign.legacy import MAX_SPACES
from campaign.models import Campaign, DilemmaCard
from campaign.services.chronicles import legacy_setup_compute
from config.json_limits import STORED_JSON_MAX_DEPTH, STORED_JSON_MAX_INT
from games.engines.kernel.errors import RuleError
from games.engines.kernel.registry import get_game
from games.engines.kernel.text import has_control_characters
from games.engines.kings_dilemma.data import (
    DEFAULT_TRACKS,
    HOUSE_NUMBERS,
    LIMITS,
    MAX_SEATS,
    MIN_SEATS,
    MYSTERY_STICKERS_PER_CAMPAIGN,
)
from games.models import GameSession

ARCHIVE_VALUE = gettext_lazy("The archive is damaged: {where}: {problem}")

# Why a value is refused (the ``problem`` of ARCHIVE_VALUE).
DATETIME_FORMAT = gettext_lazy("must be a date and time (ISO 8601, e.g. 2026-11-24T20:30:00+01:00)")
DATE_FORMAT = gettext_lazy("must be a date (YYYY-MM-DD)")
DATE_RANGE = gettext_lazy(
    "must be a date between the years {low} and {high} (in UTC and in its own time zone)"
)
WHOLE_NUMBER = gettext_lazy("must be a whole number")
NUMBER_RANGE = gettext_lazy("must be a whole number from {low} to {high}")
TRUE_OR_FALSE = gettext_lazy("must be true or false")
TEXT_KIND = gettext_lazy("must be a text")
TEXT_TOO_LONG = gettext_lazy("must be a text of at most {limit} characters")
TEXT_CONTROL = gettext_lazy("cannot hold control characters (NUL, escape, direction marks)")
JSON_OBJECT = gettext_lazy("must be an object")
JSON_OBJECTS = gettext_lazy("must be a list of objects")
JSON_TOO_LARGE = gettext_lazy("holds more than {limit} characters of data")
JSON_TOO_DEEP = gettext_lazy("nests deeper than {limit} levels")
JSON_NUMBER = gettext_lazy("holds a number that is not finite or past 64 bits")
JSON_KEY = gettext_lazy("holds a key that is not a text without control characters")
JSON_VALUE = gettext_lazy("holds a value that is not text, a number, true, false, null, a list or an object")
EFFECT_UNKNOWN = gettext_lazy(
    "{key!r} is not an ability effect (start_power, start_coins, prestige, crave, power or coins)"
)
NIGHT_IMPOSSIBLE = gettext_lazy("a night could never start with this campaign: {reason}")
SESSION_LOG_REFUSED = gettext_lazy("its log does not replay under this Chronicle's rules ({reason})")
MYSTERY_TOO_MANY = gettext_lazy("a campaign attaches at most {count} Mystery stickers")
FINALE_MISMATCH = gettext_lazy(
    "the campaign is closed for the Grand Finale only once its {count} Mystery stickers are attached "
    "(grand_finale_ready and closed are both true then, both false before)"
)

# Dates: far inside what Python, PostgreSQL and SQLite can all hold and compute with (a date near
# year 1 or 9999 overflows when converted to another time zone or moved by a day).
DATE_MIN_YEAR, DATE_MAX_YEAR = 1900, 9000
DATETIME_MAX_CHARS = 40

# Texts without a max_length in the model (TextField): far above what the pages let a player type.
TEXT_MAX_CHARS = 5000

# JSON fields (the typed card data, effects, the history's details).
JSON_MAX_CHARS = 1024 * 1024  # a session's cached state included
JSON_MAX_DEPTH = STORED_JSON_MAX_DEPTH  # what a tap may store (games/services.py), the same
JSON_MAX_INT = STORED_JSON_MAX_INT

# What the rules allow, beyond the model's own validators (section, field) -> (low, high).
GAME_NUMBER_MAX = 9999  # far above a campaign's nights; the next night's number must still fit
REVISION_MAX = 999  # corrections of one night; each correction adds one
POINTS_MAX = 999  # as the API's result rows
EFFECT_MAX = 99  # as the API's effects
PLAYERS_MAX = MAX_SEATS
SESSION_COUNTER_MAX = 10**6  # actions of one session: far above a night (100 to 250)
MAX_SEATS_ANY_GAME = 12  # seats of a session of any game (the largest game seats 5)
RULE_RANGES: dict[tuple[str, str], tuple[int, int]] = {
    ("houses", "number"): (1, HOUSE_NUMBERS),
    ("achievements", "spaces"): (1, MAX_SPACES),
    ("achievements", "marked"): (0, MAX_SPACES),
    ("games", "number"): (1, GAME_NUMBER_MAX),
    ("games", "revision"): (0, REVISION_MAX),
    ("scores", "revision"): (0, REVISION_MAX),
    ("scores", "agenda_points"): (-POINTS_MAX, POINTS_MAX),
    ("scores", "open_agenda_points"): (-POINTS_MAX, POINTS_MAX),
    ("scores", "coins_points"): (-POINTS_MAX, POINTS_MAX),
    ("scores", "power_points"): (-POINTS_MAX, POINTS_MAX),
    ("scores", "total"): (-4 * POINTS_MAX, 4 * POINTS_MAX),
    ("scores", "position"): (1, PLAYERS_MAX),
    ("scores", "prestige"): (0, LIMITS["prestige"]),
    ("scores", "crave"): (0, LIMITS["prestige"]),
    ("ledger", "amount"): (-POINTS_MAX, POINTS_MAX),
    ("stickers", "number"): (1, DEFAULT_TRACKS["stickers"]),
    ("stickers", "slot"): (0, MAX_SPACES - 1),
    ("stickers", "marks"): (0, MAX_SPACES),
    ("envelopes", "number"): (0, DEFAULT_TRACKS["envelopes"] - 1),
    ("story_cards", "number"): (1, 9999),
    ("story_cards", "order"): (0, 9999),
    ("story_cards", "cohesion"): (0, 99),
    ("story_cards", "dissent"): (0, 99),
    ("dilemma_cards", "number"): (1, DEFAULT_TRACKS["dilemma_card_max"]),
    # A session's counters grow by one with each action: far below their column's end.
    ("sessions", "version"): (0, SESSION_COUNTER_MAX),
    ("sessions", "last_seq"): (0, SESSION_COUNTER_MAX),
    ("sessions", "seed"): (0, 2**63 - 1),
    ("seats", "index"): (0, MAX_SEATS_ANY_GAME - 1),
    ("actions", "seq"): (1, SESSION_COUNTER_MAX),
    ("actions", "version"): (0, SESSION_COUNTER_MAX),
    ("actions", "seat"): (0, MAX_SEATS_ANY_GAME - 1),
}

_ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def refused(where: str, problem: str | Promise) -> ValidationError:
    return ValidationError(ARCHIVE_VALUE.format(where=where, problem=problem), code="archive_value")


# ---- Dates ----------------------------------------------------------------------------------


def _year_ok(year: int) -> bool:
    return DATE_MIN_YEAR <= year <= DATE_MAX_YEAR


def _date_range() -> str:
    return DATE_RANGE.format(low=DATE_MIN_YEAR, high=DATE_MAX_YEAR)


def check_datetime(where: str, value: Any) -> datetime.datetime:
    """An aware date and time (a value without an offset is UTC) whose local and UTC values lie in
    the safe window."""
    if not isinstance(value, str) or len(value) > DATETIME_MAX_CHARS:
        raise refused(where, DATETIME_FORMAT)
    try:
        parsed = parse_datetime(value)
    except ValueError:  # well formed but impossible (month 13, hour 25)
        parsed = None
    if parsed is None:
        raise refused(where, DATETIME_FORMAT)
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=datetime.UTC)
    try:
        utc = parsed.astimezone(datetime.UTC)
    except OverflowError:
        raise refused(where, _date_range()) from None
    if not (_year_ok(parsed.year) and _year_ok(utc.year)):
        raise refused(where, _date_range())
    return parsed


def check_date(where: str, value: Any) -> datetime.date:
    if not isinstance(value, str) or not _ISO_DATE.match(value):
        raise refused(where, DATE_FORMAT)
    try:
        parsed = datetime.date.fromisoformat(value)
    except ValueError:
        raise refused(where, DATE_FORMAT) from None
    if not _year_ok(parsed.year):
        raise refused(where, _date_range())
    return parsed


# ---- Numbers, booleans, texts ---------------------------------------------------------------


def check_int(where: str, value: Any, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise refused(where, WHOLE_NUMBER)
    if not low <= value <= high:
        raise refused(where, NUMBER_RANGE.format(low=low, high=high))
    return value


def field_range(field: models.Field, rule: tuple[int, int] | None = None) -> tuple[int, int]:
    """The range an integer field may hold on every database (PostgreSQL's range of its column,
    whatever the database in use), its validators' and the rule's."""
    low, high = BaseDatabaseOperations.integer_field_ranges[field.get_internal_type()]
    for validator in field.validators:
        if isinstance(validator, MinValueValidator):
            low = max(low, validator.limit_value)
        elif isinstance(validator, MaxValueValidator):
            high = min(high, validator.limit_value)
    if rule is not None:
        low, high = max(low, rule[0]), min(high, rule[1])
    return low, high


def check_bool(where: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise refused(where, TRUE_OR_FALSE)
    return value


def check_text(where: str, value: Any, *, limit: int, multiline: bool = False) -> str:
    if not isinstance(value, str):
        raise refused(where, TEXT_KIND)
    if len(value) > limit:
        raise refused(where, TEXT_TOO_LONG.format(limit=limit))
    if has_control_characters(value, multiline=multiline):
        raise refused(where, TEXT_CONTROL)
    return value


# ---- JSON -----------------------------------------------------------------------------------


def check_json(
    where: str, value: Any, *, limit: int = JSON_MAX_CHARS, depth: int = JSON_MAX_DEPTH, objects: bool = False
) -> Any:
    """An object (or with ``objects``, a list of objects) of plain JSON both databases store as it
    is: texts without NUL or control characters (line breaks allowed), finite numbers within 64
    bits, at most ``depth`` levels and ``limit`` characters."""
    if objects:
        if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
            raise refused(where, JSON_OBJECTS)
    elif not isinstance(value, dict):
        raise refused(where, JSON_OBJECT)
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict | list) and level > depth:
            raise refused(where, JSON_TOO_DEEP.format(limit=depth))
        if isinstance(item, dict):
            for key in item:
                if not isinstance(key, str) or has_control_characters(key):
                    raise refused(where, JSON_KEY)
            stack.extend((child, level + 1) for child in item.values())
        elif isinstance(item, list):
            stack.extend((child, level + 1) for child in item)
        elif isinstance(item, str):
            if has_control_characters(item, multiline=True):
                raise refused(where, TEXT_CONTROL)
        elif isinstance(item, bool) or item is None:
            continue
        elif isinstance(item, int | float):
            if not math.isfinite(item) or abs(item) > JSON_MAX_INT:
                raise refused(where, JSON_NUMBER)
        else:
            raise refused(where, JSON_VALUE)
    if len(json.dumps(value)) > limit:
        raise refused(where, JSON_TOO_LARGE.format(limit=limit))
    return value


def check_effects(where: str, value: Any, keys: set[str]) -> dict:
    """Ability effects: known keys, each a whole number in the API's range."""
    if not isinstance(value, dict):
        raise refused(where, JSON_OBJECT)
    for key, amount in value.items():
        if key not in keys:
            raise refused(where, EFFECT_UNKNOWN.format(key=key))
        check_int(f"{where}.{key}", amount, -EFFECT_MAX, EFFECT_MAX)
    return value


# ---- One model field -------------------------------------------------------------------------


def check_field(section: str, where: str, field: Any, value: Any) -> Any:
    """The value of one model field from the archive, of the right JSON type and in every range
    (the model's validators run afterwards too)."""
    if isinstance(field, models.BooleanField):
        return check_bool(where, value)
    if isinstance(field, models.IntegerField):
        low, high = field_range(field, RULE_RANGES.get((section, field.name)))
        return check_int(where, value, low, high)
    if isinstance(field, models.CharField):
        return check_text(where, value, limit=field.max_length or TEXT_MAX_CHARS)
    if isinstance(field, models.TextField):
        return check_text(where, value, limit=field.max_length or TEXT_MAX_CHARS, multiline=True)
    if isinstance(field, models.DateTimeField):
        return check_datetime(where, value)
    if isinstance(field, models.DateField):
        return check_date(where, value)
    if isinstance(field, models.JSONField):
        return check_json(where, value, objects=field.default is list)  # ChronicleGame.conflicts: a list
    raise refused(where, "cannot be imported")  # pragma: no cover (every field kind is listed above)


# ---- The campaign as a whole: it can start a night ------------------------------------------


def night_problems(seats: list[dict], deck: list[int], known_cards: dict[str, dict]) -> list[str]:
    """Why the engine would refuse to set up a night with these Houses (each seat: name,
    house_number, prestige, power, coins, open_agendas) and this Dilemma deck; empty if it would
    not. The deck is set up with stand-ins, then each House with two, through the engine's setup."""
    rules = get_game("kings_dilemma")
    problems: list[str] = []
    groups = [[], *([seat] for seat in seats)]  # the deck with stand-ins only, then each House
    for index, group in enumerate(groups):
        numbers = {s["house_number"] for s in group}
        stand_ins = [n for n in range(1, HOUSE_NUMBERS + 1) if n not in numbers][: MIN_SEATS - len(group)]
        config = {
            "king_name": "Archive check",
            "seats": group + [{"name": f"Stand-in {n}", "house_number": n} for n in stand_ins],
            "dilemma_deck": deck if index == 0 else [],
            "known_cards": known_cards if index == 0 else {},
        }
        try:
            rules.setup(config, 0)
        except RuleError as error:
            who = f"House {group[0]['name']}: " if group else ""
            problems.append(NIGHT_IMPOSSIBLE.format(reason=f"{who}{error}"))
    return problems


def check_campaign_ready(campaign: Campaign) -> None:
    """After every row is in (inside the import's transaction): the Grand Finale flags agree with
    the Mystery stickers, and the engine would set up a night with each House and the deck."""
    count = campaign.mystery_stickers.count()
    if count > MYSTERY_STICKERS_PER_CAMPAIGN:
        raise refused("mystery_stickers", MYSTERY_TOO_MANY.format(count=MYSTERY_STICKERS_PER_CAMPAIGN))
    finale = count == MYSTERY_STICKERS_PER_CAMPAIGN
    if campaign.grand_finale_ready != finale or campaign.closed != finale:
        raise refused("campaign", FINALE_MISMATCH.format(count=MYSTERY_STICKERS_PER_CAMPAIGN))
    houses = list(campaign.houses.all())
    seats = []
    if houses:
        setup = legacy_setup_compute(campaign=campaign, houses=houses)
        seats = [
            {
                "name": house.name,
                "house_number": house.number,
                "prestige": setup["prestige"][house.pk],
                "power": setup["start"][house.pk]["power"],
                "coins": setup["start"][house.pk]["coins"],
                "open_agendas": [
                    {"row": row, "positive": positive} for row, positive in setup["open_agendas"][house.pk]
                ],
            }
            for house in houses
        ]
    cards = list(campaign.dilemma_cards.order_by("number"))
    deck = [card.number for card in cards if card.place == DilemmaCard.Place.DECK]
    known = {str(card.number): {"number": card.number, **card.outcomes} for card in cards if card.outcomes}
    problems = night_problems(seats, deck, known)
    if problems:
        raise refused("campaign", " ".join(problems))


def replayed_session_state(where: str, *, game: str, config: dict, seed: int, log: list) -> dict:
    """A session's cached state is a fold of its log (docs/architecture.md), and the session's pages
    replay the log (its table asks whether the last action may be undone): the log must replay under
    this Chronicle's rules, and the state it replays to is the one kept. The archive's own state is
    never trusted: an archive written before the engines changed shape holds a state in
    the old shape, and a crafted one may hold anything."""
    rules = get_game(game)
    try:
        replayed = rules.setup(config, seed)
        for payload in log:
            replayed = rules.apply(replayed, payload)
    except RuleError as error:
        raise refused(where, SESSION_LOG_REFUSED.format(reason=error.message)) from None
    except Exception as error:  # a payload of the wrong kind
        raise refused(where, SESSION_LOG_REFUSED.format(reason=type(error).__name__)) from None
    return json.loads(json.dumps(replayed))


# Why a session's values do not agree with its log, its seats or its campaign (an accepted archive
# must be able to go on: the next tap, an undo, the save of a night).
SESSION_LAST_SEQ = gettext_lazy("last_seq is {value}, but the last action of its log is number {last}")
SESSION_VERSION = gettext_lazy("version is {value}, but its log has already reached version {least}")
SESSION_ACTION_SEAT = gettext_lazy(
    "action {seq} is logged for seat {seat} but its payload names seat {payload!r}"
)
SESSION_SEATS = gettext_lazy("its seats are {got}, but its game is set up for {count} (seats 0 to {last})")
SESSION_OVER = gettext_lazy(
    "is {status}, but its log ends the game (a session whose game is over is finished)"
)
SESSION_NOT_OVER = gettext_lazy("is finished, but its log does not end the game")
SESSION_BOTS = gettext_lazy("has_bots is {value}, but {count} of its seats are played by a bot")
SESSION_HOUSE = gettext_lazy(
    "config.seats[{index}].house must be the number of a House of the archive, each House once "
    "(a campaign night's seat is a House); got {value!r}"
)
SESSION_STATUSES_OVER = ("finished",)


def _session_counters(where: str, session: GameSession, actions: list) -> None:
    """The next action is numbered ``last_seq + 1`` and the next version ``version + 1``: a counter
    below its log would give the next tap a number already taken (a 500 for every tap)."""
    last = max((action.seq for action in actions), default=0)
    if session.last_seq != last:
        raise refused(f"{where}.last_seq", SESSION_LAST_SEQ.format(value=session.last_seq, last=last))
    # Each action and each undo moved the version on by one; no action is past its session.
    least = max([len(actions) + sum(1 for a in actions if a.undone), *(a.version for a in actions)])
    if session.version < least:
        raise refused(f"{where}.version", SESSION_VERSION.format(value=session.version, least=least))
    for action in actions:
        payload_seat = action.payload.get("seat") if isinstance(action.payload, dict) else None
        if payload_seat != action.seat:
            raise refused(
                where, SESSION_ACTION_SEAT.format(seq=action.seq, seat=action.seat, payload=payload_seat)
            )


def _session_seats(where: str, session: GameSession, seats: list) -> None:
    count = len(session.config.get("seats") or [])
    indices = sorted(seat.index for seat in seats)
    if indices != list(range(count)):
        raise refused(
            f"{where}.seats", SESSION_SEATS.format(got=indices or "none", count=count, last=count - 1)
        )
    bots = sum(1 for seat in seats if seat.is_bot)
    if session.has_bots != (bots > 0):
        raise refused(f"{where}.has_bots", SESSION_BOTS.format(value=session.has_bots, count=bots))


def _session_houses(where: str, session: GameSession, houses: set[int]) -> None:
    """A King's Dilemma session of a campaign is one of its nights: each seat is one of its Houses
    (the save writes each seat's result to its House)."""
    taken: set[int] = set()
    for index, seat in enumerate(session.config.get("seats") or []):
        value = seat.get("house") if isinstance(seat, dict) else None
        if (
            not (isinstance(value, int) and not isinstance(value, bool))
            or value not in houses
            or value in taken
        ):
            raise refused(f"{where}.config", SESSION_HOUSE.format(index=index, value=value))
        taken.add(value)


def check_session_consistent(
    where: str, *, session: GameSession, seats: list, actions: list, houses: set[int]
) -> None:
    """A session's values agree with its log (``actions``: every action, undone ones included, in
    order; ``session.state`` already replayed from it), its seats and its campaign's Houses, so an
    imported session can always go on: the next tap, an undo, and, for a night, its save."""
    _session_counters(where, session, actions)
    _session_seats(where, session, seats)
    if session.game == "kings_dilemma":
        _session_houses(where, session, houses)
    over = get_game(session.game).is_over(session.state)
    if over and session.status not in SESSION_STATUSES_OVER:
        raise refused(f"{where}.status", SESSION_OVER.format(status=session.status))
    if not over and session.status == "finished":
        raise refused(f"{where}.status", SESSION_NOT_OVER)
