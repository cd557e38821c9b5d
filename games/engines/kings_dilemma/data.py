"""Track and Secret Agenda data: ``data/tracks.json`` (see docs/rules-sources.md), with a
group's corrections from ``config["tracks"]`` merged over it (a group's printing may differ)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from games.engines.kernel.errors import RuleError
from games.engines.kernel.messages import gettext_noop
from games.engines.kings_dilemma import messages as msg

DATA_FILE = Path(__file__).parent / "data" / "tracks.json"
ENDS = ("king_died", "abdicated_top", "abdicated_bottom")


def _load() -> dict:
    with DATA_FILE.open(encoding="utf-8") as handle:
        data = json.load(handle)
    data.pop("_source", None)
    return data


DEFAULT_TRACKS = _load()
RESOURCES = tuple(DEFAULT_TRACKS["resources"])
AGENDAS = tuple(DEFAULT_TRACKS["secret_agendas"])
# Upper bounds of what a config or a typed card may say: the box holds no more. A group's track
# corrections cannot lift them (they are read from the data file only).
LIMITS = {k: v for k, v in DEFAULT_TRACKS["limits"].items() if not k.startswith("_")}

# The box's numbers, named once; the campaign imports them (a number written twice drifts).
STICKER_COUNT = DEFAULT_TRACKS["stickers"]  # Chronicle stickers 1 to 177
ENVELOPE_COUNT = DEFAULT_TRACKS["envelopes"]  # Envelopes 00 to 74
GRAND_FINALE_ENVELOPE = DEFAULT_TRACKS["grand_finale_envelope"]
# 'Before your first game': Envelope 00 holds a Story card and the starting Dilemma deck.
STARTING_ENVELOPE = 0
MYSTERY_LETTERS = DEFAULT_TRACKS["mystery_letters"]
MYSTERY_STICKERS_PER_CAMPAIGN = DEFAULT_TRACKS["mystery_stickers_per_campaign"]
HOUSE_NUMBERS = LIMITS["house_number"]  # House screens 1 to 12
RESOURCE_TRACK_ROWS = DEFAULT_TRACKS["resource_track"]["rows"]
START_STOCK = DEFAULT_TRACKS["start_stock"]
PRESTIGE_CRAVE = DEFAULT_TRACKS["prestige_crave"]
MIN_SEATS, MAX_SEATS = 3, 5  # Houses at the table in one game


def _merge(base: dict, override: dict) -> dict:
    merged = copy.deepcopy(base)
    for key, value in override.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = _merge(merged[key], value)
        else:
            merged[key] = copy.deepcopy(value)
    return merged


def _int(value: Any, low: int = 0, high: int | None = None) -> bool:
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        return False
    return high is None or value <= high


def _fail(what: str, why: str) -> RuleError:
    return RuleError(msg.TRACKS_FORMAT.format(what=what, why=why))


def tracks_for(override: Any) -> dict:
    """The data file with ``override`` merged in, checked enough that the engine cannot break on it."""
    if override is None:
        override = {}
    if not isinstance(override, dict):
        raise _fail("override", gettext_noop("it must be an object"))
    tracks = _merge(DEFAULT_TRACKS, override)
    tracks["limits"] = copy.deepcopy(DEFAULT_TRACKS["limits"])
    top = LIMITS["track_spaces"]
    if list(tracks.get("resources", [])) != list(RESOURCES):
        raise _fail("resources", gettext_noop("the five rows are {rows}").format(rows=", ".join(RESOURCES)))
    res = tracks["resource_track"]
    if not (_int(res.get("rows"), 3, top) and _int(res.get("centre"), 1) and res["centre"] <= res["rows"]):
        raise _fail(
            "resource_track",
            gettext_noop("rows (3 to {top}) and a centre row between 1 and rows").format(top=top),
        )
    stab = tracks["stability_track"]
    if not (
        _int(stab.get("spaces"), 3, top) and _int(stab.get("middle"), 2) and stab["middle"] < stab["spaces"]
    ):
        raise _fail(
            "stability_track",
            gettext_noop("spaces (3 to {top}) and a middle space strictly between the ends").format(top=top),
        )
    time = tracks["time_counter"]
    spaces = LIMITS["time_counter_spaces"]
    if not (_int(time.get("spaces"), 1, spaces) and _int(time.get("king_death_cards"), 1, spaces)):
        raise _fail(
            "time_counter", gettext_noop("spaces and king_death_cards of 1 to {spaces}").format(spaces=spaces)
        )
    for key in ("balance_start_power", "stickers", "envelopes", "dilemma_card_max"):
        if not _int(tracks.get(key), 0, DEFAULT_TRACKS[key]):
            raise _fail(key, gettext_noop("a whole number from 0 to {top}").format(top=DEFAULT_TRACKS[key]))
    for key in ("power", "coins"):
        most = DEFAULT_TRACKS["general_pool"][key]
        if not _int(tracks["general_pool"].get(key), 0, most) or not _int(
            tracks["start_stock"].get(key), 0, most
        ):
            raise _fail(
                "general_pool/start_stock", gettext_noop("whole numbers from 0 to {most}").format(most=most)
            )
    agendas = tracks["secret_agendas"]
    if not isinstance(agendas, dict) or list(agendas) != list(AGENDAS):
        raise _fail(
            "secret_agendas", gettext_noop("the six agendas are {agendas}").format(agendas=", ".join(AGENDAS))
        )
    for name, agenda in agendas.items():
        ok = (
            isinstance(agenda.get("zones"), list)
            and all(
                isinstance(z, list) and len(z) == 2 and all(_int(v, 1) for v in z) for z in agenda["zones"]
            )
            and (agenda.get("resource") == "distance" or _ints(agenda.get("resource"), 6, signed=True))
            and _ints(agenda.get("coins"), None, signed=True)
        )
        if not ok:
            raise _fail(
                f"secret_agendas.{name}",
                gettext_noop("zones, resource points for 0-5 markers and coin points"),
            )
    for key in ("positive", "negative"):
        if not _ints(tracks["open_agenda"].get(key), None, signed=True):
            raise _fail("open_agenda", gettext_noop("lists of points"))
    if not _ints(tracks["power_majority"], None, signed=True):
        raise _fail("power_majority", gettext_noop("a list of points"))
    table = tracks["prestige_crave"]
    for end in ENDS:
        rows = table.get(end) if isinstance(table, dict) else None
        if not isinstance(rows, dict) or any(
            not _ints(rows.get(k), 2, signed=True) for k in ("1", "2", "3", "4", "last")
        ):
            raise _fail(
                "prestige_crave",
                gettext_noop("{end} needs rows 1, 2, 3, 4 and last, each [prestige, crave]").format(end=end),
            )
    letters = tracks.get("mystery_letters")
    if not isinstance(letters, str) or not letters.isalpha():
        raise _fail("mystery_letters", gettext_noop("a string of letters"))
    return tracks


def _ints(values: Any, length: int | None, signed: bool = False) -> bool:
    if not isinstance(values, list) or (length is not None and len(values) != length):
        return False
    return all(isinstance(v, int) and not isinstance(v, bool) and (signed or v >= 0) for v in values)
