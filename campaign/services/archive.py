"""Campaign export and import: a versioned JSON archive of everything the campaign keeps, the game
sessions played at the table included (their seats, their logs, their cached state and result).

``campaign_archive`` only reads. ``campaign_import`` first checks every part of the archive in
memory, with no transaction open (on SQLite every transaction holds the write lock from its start),
then writes the whole campaign in one short transaction of bulk inserts: a damaged archive is refused
with a clear message and nothing is written, and no half-written campaign is ever seen.
The export file is written by a Celery task (``campaign_export_write``), as compact JSON.

What does not travel: secrets and accounts. A restored session's seats get fresh join tokens (a
phone joins again with the new code; no account is linked to a seat); the read-only story links
(StoryLink) are not carried, live or revoked, since their tokens are secrets: a member makes a new
link in one click. The importer hosts the restored sessions, as they host the campaign."""

from __future__ import annotations

import datetime
import json
import logging
import os
import threading
from pathlib import Path
from typing import Any

import redis
from django.conf import settings as django_settings
from django.core.exceptions import ValidationError
from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection, models, transaction
from django.utils import timezone
from kombu.exceptions import KombuError

from campaign import legacy
from campaign.access import demo_adds_no_campaign
from campaign.models import (
    RESOURCE_ROWS,
    Achievement,
    Campaign,
    CampaignEvent,
    CampaignExport,
    ChronicleGame,
    ChronicleScore,
    ChronicleSticker,
    DilemmaCard,
    Envelope,
    House,
    LedgerEntry,
    Membership,
    MysterySticker,
    StoryCard,
)
from campaign.selectors import campaign_setting
from campaign.services.archive_values import (
    ARCHIVE_VALUE,
    GAME_NUMBER_MAX,
    check_bool,
    check_campaign_ready,
    check_datetime,
    check_field,
    check_session_consistent,
    check_text,
    replayed_session_state,
)
from campaign.services.archive_values import check_effects as check_effect_values
from campaign.services.common import EFFECT_KEYS, STORY_CARD_FIELDS, record_event, task_named
from config.json_limits import json_depth_exceeds, json_loads_strict
from games.engines.kernel.errors import RuleError
from games.engines.kernel.registry import get_game, slugs
from games.engines.kernel.text import has_control_characters
from games.engines.kings_dilemma.data import (
    ENVELOPE_COUNT,
    HOUSE_NUMBERS,
    MYSTERY_LETTERS,
    RESOURCE_TRACK_ROWS,
    STICKER_COUNT,
)
from games.engines.kings_dilemma.story import night_story
from games.models import GameSession, Seat, SessionAction, state_parts

ARCHIVE_FORMAT = "chronicle-campaign"


# Version 2 adds every date (games, stickers, envelopes, Mystery stickers, ledger, events) and the
# actor of each event; version 3 adds the game sessions (sessions, seats, actions); version 4 leaves
# a session's cached state out (written as {}: the importer replays its log), so a Chronicle that
# would trust the state of a version 3 file refuses a version 4 one. Versions 1 to 3 are still read.
ARCHIVE_VERSION = 4


ARCHIVE_VERSIONS = (1, 2, 3, 4)


# The largest archive file the import reads (the upload is refused above it).
ARCHIVE_MAX_BYTES = 32 * 1024 * 1024


ARCHIVE_EXPORT_TOO_LARGE = (
    "This campaign is larger than an archive may be ({problem}): the export would not import again."
)


# Rows inserted per statement (each bulk insert also respects the database's parameter limit).
ARCHIVE_BATCH = 2_000


ARCHIVE_MAX_DEPTH = 12  # nesting of the typed card data (outcomes, effects, event details)


ARCHIVE_NOT_AN_OBJECT = "The archive is damaged: it is not a JSON object."


ARCHIVE_WRONG_FORMAT = "This file is not a Chronicle campaign archive."


ARCHIVE_WRONG_VERSION = "Archive version {version!r} is not supported (this Chronicle reads versions 1 to 4)."


ARCHIVE_DAMAGED = ARCHIVE_VALUE  # one sentence for every refusal (campaign/services/archive_values.py)


ARCHIVE_TOO_DEEP = f"The archive is damaged: it nests deeper than {ARCHIVE_MAX_DEPTH} levels."


ARCHIVE_TOO_MANY = "more than {limit} rows"


ARCHIVE_TWICE = "{what} appears twice"


ARCHIVE_UNKNOWN_KEYS = "unknown field(s) {keys}"


ARCHIVE_SESSION_LOG = "its log does not replay ({problem})"


# Per section: the model and the plain fields copied as they are.
_FIELDS = {
    "houses": (House, ["number", "name", "player_name"]),
    "achievements": (
        Achievement,
        ["kind", "agenda", "name", "condition", "spaces", "marked", "effects", "ability_text"],
    ),
    "games": (
        ChronicleGame,
        ["number", "king_name", "played_on", "end", "recorded", "revision", "resources_final", "conflicts"],
    ),
    "scores": (
        ChronicleScore,
        [
            "revision",
            "secret_agenda",
            "agenda_points",
            "open_agenda_points",
            "coins_points",
            "power_points",
            "total",
            "position",
            "last",
            "prestige",
            "crave",
        ],
    ),
    "ledger": (LedgerEntry, ["kind", "amount", "reason", "source"]),
    "stickers": (
        ChronicleSticker,
        ["number", "row", "positive", "title", "text", "slot", "marks", "covered"],
    ),
    "envelopes": (Envelope, ["number", "special"]),
    "story_cards": (StoryCard, [*STORY_CARD_FIELDS, "order"]),
    "dilemma_cards": (DilemmaCard, ["number", "kind", "place", "title", "outcomes"]),
    "mystery_stickers": (MysterySticker, ["letter", "storyline"]),
    "events": (CampaignEvent, ["kind", "summary", "data"]),
    # Version 3: the game sessions of the campaign. Each carries its number in the archive (1, 2,
    # ...), by which its seats and actions refer to it.
    "sessions": (
        GameSession,
        ["game", "config", "seed", "status", "version", "state", "last_seq", "has_bots"],
    ),
    "seats": (Seat, ["index", "name", "colour", "is_bot"]),
    "actions": (
        SessionAction,
        ["seq", "seat", "payload", "label", "idempotency_key", "version", "undone", "undoable"],
    ),
}


# The sections each version carries (an older archive has none of the later ones).
_SESSION_SECTIONS = ("sessions", "seats", "actions")
_SECTIONS_OF = {
    1: [s for s in _FIELDS if s not in _SESSION_SECTIONS],
    2: [s for s in _FIELDS if s not in _SESSION_SECTIONS],
    3: list(_FIELDS),
    4: list(_FIELDS),
}


# Keys of a row that are the archive's own (no model field): the number a session is known by.
_KEYS = {"sessions": ["number"]}


# Version 2: the dates of each section, restored on import (they are set to "now" on creation).
_DATES = {
    "games": ["created_at"],
    "ledger": ["created_at"],
    "stickers": ["attached_at"],
    "envelopes": ["opened_at"],
    "mystery_stickers": ["attached_at"],
    "events": ["created_at"],
    "sessions": ["created", "updated", "last_activity"],
    "actions": ["created"],
}


# The links of each section: House numbers, game numbers, Envelope and sticker numbers, usernames.
_LINKS = {
    "houses": [],
    "achievements": ["house", "unlocked_in"],
    "games": [],
    "scores": ["game", "house"],
    "ledger": ["house", "game"],
    "stickers": ["signer", "game", "covered_by"],
    "envelopes": ["opened_by", "game"],
    "story_cards": ["signer", "envelope", "game"],
    "dilemma_cards": ["envelope", "resolved_in"],
    "mystery_stickers": ["game"],
    "events": ["house", "game", "actor"],
    "sessions": ["chronicle_game"],
    "seats": ["session"],
    "actions": ["session"],
}


# What each link refers to: (table of numbers already imported, the word for it). A House or game
# link is required where the row cannot exist without it.
_LINK_TARGETS = {
    "house": ("houses", "House"),
    "opened_by": ("houses", "House"),
    "signer": ("houses", "House"),
    "game": ("games", "game"),
    "unlocked_in": ("games", "game"),
    "resolved_in": ("games", "game"),
    "envelope": ("envelopes", "Envelope"),
    "chronicle_game": ("games", "game"),
    "session": ("sessions", "session"),
}
_REQUIRED_LINKS = {
    ("achievements", "house"),
    ("scores", "game"),
    ("scores", "house"),
    ("ledger", "house"),
    ("seats", "session"),
    ("actions", "session"),
}
_HEAD = {"name", "settings", "grand_finale_ready", "closed", "created_at"}


def _smallest_row(section: str) -> int:
    """The fewest bytes a row of ``section`` takes in the compact archive: each of its keys with a
    value of one character (``{"seq":1,"seat":0,...}``), and the comma before the next row."""
    keys = [*_FIELDS[section][1], *_LINKS[section], *_DATES.get(section, []), *_KEYS.get(section, [])]
    return sum(len(key) + 4 for key in keys) + 2


# The rows each section may hold. What the box allows for its pieces (12 Houses, 177 stickers, 75
# Envelopes, the Mystery letters); for what grows with the nights played (games, their scores and
# ledger, the sessions and their logs, the history), as many as an archive of ARCHIVE_MAX_BYTES can
# hold: the campaign grows, and the limit of its archive with it, so whatever fits the file fits
# its sections, and a campaign is never refused its export for a count of rows. Games are numbered
# 1 to GAME_NUMBER_MAX (its next night's number must fit).
ARCHIVE_SECTION_ROWS = {section: ARCHIVE_MAX_BYTES // _smallest_row(section) for section in _FIELDS}
ARCHIVE_SECTION_ROWS.update(
    houses=HOUSE_NUMBERS,
    stickers=STICKER_COUNT,
    envelopes=ENVELOPE_COUNT,
    mystery_stickers=len(MYSTERY_LETTERS),
    games=min(ARCHIVE_SECTION_ROWS["games"], GAME_NUMBER_MAX),
)


def _plain(obj, fields):
    out = {}
    for name in fields:
        value = getattr(obj, name)
        out[name] = value.isoformat() if isinstance(value, datetime.date) else value
    return out


def _number(obj, attr):
    related = getattr(obj, attr)
    return related.number if related is not None else None


def _actor(event) -> str | None:
    if event.actor is not None:
        return event.actor.get_username()
    return event.actor_name or None


def _rows(section, queryset, **links) -> list[dict]:
    """The rows of ``section`` in the order they were written (by id): the copy's ids keep it, so a
    page that breaks a tie by id lists them as the original did."""
    _, fields = _FIELDS[section]
    fields = fields + _DATES.get(section, [])
    if isinstance(queryset, models.QuerySet):
        queryset = queryset.order_by("pk")
    return [{**_plain(obj, fields), **{key: fn(obj) for key, fn in links.items()}} for obj in queryset]


def _number_of(attr):
    return lambda obj: _number(obj, attr)


def _house_sections(campaign: Campaign, house_of) -> dict:
    return {
        "houses": _rows("houses", campaign.houses.all()),
        "achievements": _rows(
            "achievements",
            Achievement.objects.filter(house__campaign=campaign).select_related("unlocked_in"),
            house=house_of("house"),
            unlocked_in=_number_of("unlocked_in"),
        ),
        "games": _rows("games", campaign.games.all()),
        "scores": _rows(
            "scores",
            ChronicleScore.objects.filter(game__campaign=campaign).select_related("game"),
            game=_number_of("game"),
            house=house_of("house"),
        ),
        "ledger": _rows(
            "ledger",
            LedgerEntry.objects.filter(house__campaign=campaign).select_related("game"),
            house=house_of("house"),
            game=_number_of("game"),
        ),
    }


def _board_sections(campaign: Campaign, house_of) -> dict:
    return {
        "stickers": _rows(
            "stickers",
            campaign.stickers.select_related("game", "covered_by"),
            signer=house_of("signer"),
            game=_number_of("game"),
            covered_by=lambda s: s.covered_by.number if s.covered_by else None,
        ),
        "envelopes": _rows(
            "envelopes",
            campaign.envelopes.select_related("game"),
            opened_by=house_of("opened_by"),
            game=_number_of("game"),
        ),
        "story_cards": _rows(
            "story_cards",
            campaign.story_cards.select_related("envelope", "game"),
            signer=house_of("signer"),
            envelope=_number_of("envelope"),
            game=_number_of("game"),
        ),
        "dilemma_cards": _rows(
            "dilemma_cards",
            campaign.dilemma_cards.select_related("envelope", "resolved_in"),
            envelope=_number_of("envelope"),
            resolved_in=_number_of("resolved_in"),
        ),
        "mystery_stickers": _rows(
            "mystery_stickers", campaign.mystery_stickers.select_related("game"), game=_number_of("game")
        ),
        "events": _rows(
            "events",
            campaign.events.select_related("game", "actor"),
            house=house_of("house"),
            game=_number_of("game"),
            actor=_actor,
        ),
    }


def _houses_mapped(value, house_of):
    """``value`` (a session's config or state) with each House it names (under the key "house")
    mapped by ``house_of``: the engine keeps the campaign's House ids there; the archive keeps House
    numbers. Returns a new value; the one given is left as it was."""
    if isinstance(value, dict):
        return {
            key: house_of(item) if key == "house" and _is_int(item) else _houses_mapped(item, house_of)
            for key, item in value.items()
        }
    if isinstance(value, list):
        return [_houses_mapped(item, house_of) for item in value]
    return value


def _session_sections(campaign: Campaign, houses: dict[int, int]) -> dict:
    sessions = list(campaign.sessions.select_related("chronicle_game").order_by("pk"))
    number = {session.pk: i for i, session in enumerate(sessions, start=1)}
    rows = _rows(
        "sessions",
        sessions,
        number=lambda s: number[s.pk],
        chronicle_game=_number_of("chronicle_game"),
    )
    for row in rows:
        row["config"] = _houses_mapped(row["config"], houses.get)
        # The import replays the log and keeps the replay's state, never the archive's: the
        # cached state (up to a few hundred KB a night) is not carried, so the file grows with
        # what was played, not with a copy of it.
        row["state"] = {}
    return {
        "sessions": rows,
        "seats": _rows(
            "seats",
            Seat.objects.filter(session__in=sessions),
            session=lambda s: number[s.session_id],
        ),
        "actions": _rows(
            "actions",
            SessionAction.objects.filter(session__in=sessions),
            session=lambda a: number[a.session_id],
        ),
    }


def campaign_archive(*, campaign: Campaign) -> dict:
    """Everything, keyed by the numbers players know (House number, game number, card numbers);
    the game sessions by their place in the archive."""
    houses = {h.pk: h.number for h in campaign.houses.all()}

    def house_of(attr):
        return lambda obj: houses.get(getattr(obj, f"{attr}_id"))

    return {
        "format": ARCHIVE_FORMAT,
        "version": ARCHIVE_VERSION,
        "exported_at": timezone.now().isoformat(),
        "campaign": {
            "name": campaign.name,
            "settings": campaign.settings,
            "grand_finale_ready": campaign.grand_finale_ready,
            "closed": campaign.closed,
            "created_at": campaign.created_at.isoformat(),
        },
        **_house_sections(campaign, house_of),
        **_board_sections(campaign, house_of),
        **_session_sections(campaign, houses),
    }


def archive_dumps(archive: dict) -> str:
    """The archive as Chronicle writes it: compact JSON (no indent, no spaces)."""
    return json.dumps(archive, separators=(",", ":"), cls=DjangoJSONEncoder)


def _damaged(where: str, problem) -> ValidationError:
    if isinstance(problem, ValidationError):
        if hasattr(problem, "error_dict"):
            problem = "; ".join(
                f"{field}: {' '.join(messages)}" if field != "__all__" else " ".join(messages)
                for field, messages in problem.message_dict.items()
            )
        else:
            problem = "; ".join(problem.messages)
    return ValidationError(ARCHIVE_DAMAGED.format(where=where, problem=problem))


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_stamp(field) -> bool:
    return bool(getattr(field, "auto_now", False) or getattr(field, "auto_now_add", False))


class _AsGiven(models.QuerySet):
    """``bulk_create`` that writes each value as the object holds it, as ``loaddata`` does (a raw
    insert): the archive's dates, where an ordinary insert would stamp "now" (auto_now_add) and a
    second pass would have to put them back."""

    def _insert(self, *args, **kwargs):
        kwargs["raw"] = True
        return super()._insert(*args, **kwargs)  # type: ignore[misc]


# The sections no row links to: their rows are made ready for the database before the write
# transaction begins (``_Prepared``), and inserted in it with one statement per ARCHIVE_BATCH rows.
_LEAVES = (
    "achievements",
    "scores",
    "ledger",
    "story_cards",
    "dilemma_cards",
    "mystery_stickers",
    "events",
    "seats",
    "actions",
)


class _Prepared:
    """One section's INSERT and its rows, each value already as the database takes it, but for
    the ids of the rows it links to (written in the same transaction, just before): the work left
    for the write transaction is filling those in and ``executemany``."""

    def __init__(self, model: type[models.Model], objs: list[models.Model]):
        fields: list[Any] = [f for f in model._meta.concrete_fields if not f.primary_key]
        ops = connection.ops
        self.sql = "INSERT INTO {} ({}) VALUES ({})".format(
            ops.quote_name(model._meta.db_table),
            ", ".join(ops.quote_name(str(f.column)) for f in fields),
            ", ".join(["%s"] * len(fields)),
        )
        self.links = [i for i, f in enumerate(fields) if f.is_relation]
        self.rows = [
            [
                (f.get_cached_value(obj, None) if f.is_cached(obj) else getattr(obj, f.attname))
                if f.is_relation
                else f.get_db_prep_save(getattr(obj, f.attname), connection)
                for f in fields
            ]
            for obj in objs
        ]

    def execute(self, cursor) -> None:
        for row in self.rows:
            for i in self.links:
                if isinstance(row[i], models.Model):
                    row[i] = row[i].pk
        for start in range(0, len(self.rows), ARCHIVE_BATCH):
            cursor.executemany(self.sql, self.rows[start : start + ARCHIVE_BATCH])


# In dependency order: each section links only to sections before it.
_WRITE_ORDER = (
    "houses",
    "games",
    "envelopes",
    "achievements",
    "scores",
    "ledger",
    "stickers",
    "story_cards",
    "dilemma_cards",
    "mystery_stickers",
    "events",
    "sessions",
    "seats",
    "actions",
)


class _Importer:
    """One import in two steps. Reading (``row`` and ``build``) checks each row and keeps the new
    objects in memory, linked to one another; nothing touches the database. ``write`` then inserts
    them section by section with bulk inserts, in one short transaction."""

    def __init__(self, campaign: Campaign, version: int, owner):

        self.campaign, self.version, self.owner = campaign, version, owner
        self.tables: dict[str, dict] = {
            "houses": {},
            "games": {},
            "envelopes": {},
            "stickers": {},
            "sessions": {},
        }
        self.seen: dict[str, set] = {}
        self.dated: dict[type[models.Model], tuple[list, set]] = {}
        self.new: dict[str, list] = {section: [] for section in _FIELDS}
        self.covers: list[tuple[ChronicleSticker, ChronicleSticker]] = []
        self.prepared: dict[str, _Prepared] = {}

    def once(self, where: str, key: str, value, what: str) -> None:
        seen = self.seen.setdefault(key, set())
        if value in seen:
            raise _damaged(where, ARCHIVE_TWICE.format(what=what))
        seen.add(value)

    def link(self, where: str, data: dict, field: str, table: str, what: str, *, optional=True):
        key = data.get(field)
        if key is None and optional:
            return None
        if not _is_int(key):
            raise _damaged(f"{where}.{field}", f"must be the number of a {what}")
        if key not in self.tables[table]:
            raise _damaged(where, f"refers to {what} {key!r}, which is not in the archive")
        return self.tables[table][key]

    def row(self, section: str, index: int, data, **extra):
        """One row of ``section``, its links to Houses, games, Envelopes and sessions resolved first."""
        where = f"{section}[{index}]"
        links = {
            field: self.link(
                where, data, field, *_LINK_TARGETS[field], optional=(section, field) not in _REQUIRED_LINKS
            )
            for field in _LINKS[section]
            if field in _LINK_TARGETS and isinstance(data, dict)
        }
        model = _FIELDS[section][0]
        if any(f.name == "campaign" for f in model._meta.get_fields()):
            links["campaign"] = self.campaign
        return self.build(section, index, data, **links, **extra)

    def build(self, section: str, index: int, data, **links):
        """The new object of one row, checked (types, the model's validators), kept to be written.
        Its links were resolved by ``row`` to objects of this archive: not written yet, they are
        left out of ``full_clean`` (which would look them up in the database)."""
        model, fields = _FIELDS[section]
        where = f"{section}[{index}]"
        if not isinstance(data, dict):
            raise _damaged(where, "not an object")
        dates = _DATES.get(section, []) if self.version >= 2 else []
        allowed = (
            set(fields) | set(_LINKS[section]) | set(_DATES.get(section, [])) | set(_KEYS.get(section, []))
        )
        unknown = sorted(str(k) for k in data if k not in allowed)
        if unknown:
            raise _damaged(where, ARCHIVE_UNKNOWN_KEYS.format(keys=", ".join(unknown)))
        missing = [f for f in [*fields, *dates, *_KEYS.get(section, [])] if f not in data]
        if missing:
            raise _damaged(where, f"missing {', '.join(missing)}")
        values: dict[str, object] = {}
        for name in [*fields, *(d for d in _DATES.get(section, []) if d in data)]:
            field = model._meta.get_field(name)
            if data[name] is None and field.null:
                values[name] = None
                continue
            values[name] = check_field(section, f"{where}.{name}", field, data[name])
        stamps = {d: values.pop(d) for d in _DATES.get(section, []) if d in values}
        obj = model(**values, **links)
        related = [name for name in links if model._meta.get_field(name).is_relation]
        try:
            obj.full_clean(exclude=related, validate_unique=False, validate_constraints=False)
        except ValidationError as error:
            raise _damaged(where, error) from None
        if stamps:
            objs, names = self.dated.setdefault(model, ([], set()))
            objs.append((obj, stamps))
            names.update(stamps)
        self.new[section].append(obj)
        return obj

    def restore_dates(self) -> None:
        """Put the archive's dates on the new objects (``write`` inserts them as they are: no date
        is set to "now" then corrected); a date an older archive does not carry is now."""
        for _model, (objs, _names) in self.dated.items():
            for obj, stamps in objs:
                for name, value in stamps.items():
                    setattr(obj, name, value)
        now = timezone.now()
        for section, objs in self.new.items():
            stamped = [f.attname for f in _FIELDS[section][0]._meta.concrete_fields if _is_stamp(f)]
            for obj in objs:
                for name in stamped:
                    if getattr(obj, name) is None:
                        setattr(obj, name, now)

    def effects(self, where: str, name: str, value: dict) -> None:
        check_effect_values(f"{where}.{name}", value, EFFECT_KEYS)

    def prepare(self) -> None:
        """Before the write transaction: the dates put back, and the rows of the sections no row
        links to made ready for the database (only the ids they link to wait for the write)."""
        self.restore_dates()
        self.prepared = {
            section: _Prepared(_FIELDS[section][0], self.new[section])
            for section in _LEAVES
            if self.new[section]
        }

    def write(self, head: dict) -> None:
        """Everything read, in one transaction of bulk inserts: a number of statements that grows
        with the rows only by one per ``ARCHIVE_BATCH`` of them (``prepare`` first)."""
        campaign, owner = self.campaign, self.owner
        campaign.save()
        if head["created_at"] is not None:
            Campaign.objects.filter(pk=campaign.pk).update(created_at=head["created_at"])
            campaign.created_at = head["created_at"]
        if owner is not None:
            Membership.objects.create(campaign=campaign, user=owner, role=Membership.Role.OWNER)
        houses = self.tables["houses"]
        with connection.cursor() as cursor:
            for section in _WRITE_ORDER:
                objs = self.new[section]
                if section in self.prepared:
                    self.prepared[section].execute(cursor)
                    continue
                if section == "sessions":
                    for session in objs:  # the engine keeps House ids: this campaign's new ones
                        session.config = _houses_mapped(session.config, lambda n: houses[n].pk)
                        state = _houses_mapped(session.state, lambda n: houses[n].pk)
                        # Its columns as save() writes them (a raw insert writes the attributes).
                        session.state, session.state_kept, session.state_kept_digest = state_parts(state)
                if objs:
                    _AsGiven(model=_FIELDS[section][0]).bulk_create(objs, batch_size=ARCHIVE_BATCH)
        for sticker, over in self.covers:
            sticker.covered_by = over
        if self.covers:
            ChronicleSticker.objects.bulk_update(
                [sticker for sticker, _ in self.covers], ["covered_by"], batch_size=ARCHIVE_BATCH
            )


def _check_head(head: dict) -> dict:
    unknown = sorted(str(k) for k in head if k not in _HEAD)
    if unknown:
        raise _damaged("campaign", ARCHIVE_UNKNOWN_KEYS.format(keys=", ".join(unknown)))
    if head.get("name") is not None:
        check_text("campaign.name", head["name"], limit=Campaign._meta.get_field("name").max_length or 0)
    problems = legacy.settings_problems(head.get("settings", {}))
    if problems:
        raise _damaged("campaign.settings", " ".join(problems))
    for flag in ("grand_finale_ready", "closed"):
        check_bool(f"campaign.{flag}", head.get(flag, False))
    created = head.get("created_at")
    if created is not None:
        created = check_datetime("campaign.created_at", created)
    return {**head, "created_at": created}


def _section_limit(section: str) -> int:
    return ARCHIVE_SECTION_ROWS[section]


def _check_top(archive) -> int:
    if not isinstance(archive, dict):
        raise ValidationError(ARCHIVE_NOT_AN_OBJECT)
    if archive.get("format") != ARCHIVE_FORMAT:
        raise ValidationError(ARCHIVE_WRONG_FORMAT)
    version = archive.get("version")
    if not _is_int(version) or version not in ARCHIVE_VERSIONS:
        raise ValidationError(ARCHIVE_WRONG_VERSION.format(version=version))
    sections = _SECTIONS_OF[version]
    unknown = sorted(
        str(k) for k in archive if k not in {"format", "version", "exported_at", "campaign", *sections}
    )
    if unknown:
        raise _damaged("archive", ARCHIVE_UNKNOWN_KEYS.format(keys=", ".join(unknown)))
    for section in ["campaign", *sections]:
        expected = dict if section == "campaign" else list
        if not isinstance(archive.get(section), expected):
            raise _damaged(section, "missing or of the wrong kind")
        if expected is list and len(archive[section]) > _section_limit(section):
            raise _damaged(section, ARCHIVE_TOO_MANY.format(limit=_section_limit(section)))
    # Sections (2) hold rows (3) whose typed data may nest ARCHIVE_MAX_DEPTH levels.
    if json_depth_exceeds(archive, ARCHIVE_MAX_DEPTH + 3):
        raise ValidationError(ARCHIVE_TOO_DEEP)
    return version


def _campaign_built(head: dict, owner, name: str | None) -> Campaign:
    if name is not None and has_control_characters(name):
        raise _damaged("name", "must be a text without control characters")
    campaign = Campaign(
        name=name or str(head.get("name") or "Imported campaign"),
        created_by=owner,
        settings=head.get("settings") or {},
        grand_finale_ready=head.get("grand_finale_ready", False),
        closed=head.get("closed", False),
    )
    campaign.full_clean(exclude=["created_by"])
    return campaign


def _houses_and_games_import(run: _Importer, archive: dict) -> None:
    houses, games = run.tables["houses"], run.tables["games"]
    for i, data in enumerate(archive["houses"]):
        house = run.row("houses", i, data)
        run.once(f"houses[{i}]", "house", house.number, f"House number {house.number}")
        houses[house.number] = house
    rows = RESOURCE_TRACK_ROWS
    for i, data in enumerate(archive["games"]):
        game = run.row("games", i, data)
        run.once(f"games[{i}]", "game", game.number, f"game {game.number}")
        if set(game.resources_final) - set(RESOURCE_ROWS) or not all(
            _is_int(v) and 1 <= v <= rows for v in game.resources_final.values()
        ):
            raise _damaged(f"games[{i}].resources_final", f"rows 1 to {rows} of the Resource rows")
        games[game.number] = game


def _house_rows_import(run: _Importer, archive: dict) -> None:
    """Achievements, scores and the ledger: rows that belong to a House."""
    for i, data in enumerate(archive["achievements"]):
        where = f"achievements[{i}]"
        achievement = run.row("achievements", i, data)
        run.effects(where, "effects", achievement.effects)
        if achievement.marked > achievement.spaces:
            raise _damaged(f"{where}.marked", f"more marks than its {achievement.spaces} spaces")
    for i, data in enumerate(archive["scores"]):
        where = f"scores[{i}]"
        score = run.row("scores", i, data)
        key = (score.game.number, score.revision, score.house.number)
        run.once(where, "score", key, f"the score of House {key[2]} in game {key[0]} (revision {key[1]})")
    for i, data in enumerate(archive["ledger"]):
        run.row("ledger", i, data)


def _envelopes_import(run: _Importer, archive: dict) -> None:
    for i, data in enumerate(archive["envelopes"]):
        where = f"envelopes[{i}]"
        envelope = run.row("envelopes", i, data)
        run.once(where, "envelope", envelope.number, f"Envelope {envelope.number:02d}")
        run.tables["envelopes"][envelope.number] = envelope


def _sticker_checked(run: _Importer, where: str, sticker: ChronicleSticker) -> None:
    capacity = campaign_setting(run.campaign, "row_capacity")
    squares = campaign_setting(run.campaign, "aging_squares")
    run.once(where, "sticker", sticker.number, f"Chronicle sticker {sticker.number}")
    if sticker.slot >= capacity:
        raise _damaged(f"{where}.slot", f"a row has {capacity} spaces (slots 0 to {capacity - 1})")
    if sticker.marks > squares:
        raise _damaged(f"{where}.marks", f"a sticker has {squares} aging squares")
    if not sticker.covered:
        run.once(
            where,
            "space",
            (sticker.row, sticker.slot),
            f"a visible sticker in space {sticker.slot} of {sticker.row}",
        )


def _stickers_import(run: _Importer, archive: dict) -> None:
    covers = []
    for i, data in enumerate(archive["stickers"]):
        where = f"stickers[{i}]"
        sticker = run.row("stickers", i, data)
        _sticker_checked(run, where, sticker)
        covered_by = data.get("covered_by")
        if covered_by is not None:
            if not _is_int(covered_by) or covered_by == sticker.number or not sticker.covered:
                raise _damaged(f"{where}.covered_by", "must be the number of the sticker attached over it")
            covers.append((sticker, covered_by, where))
        run.tables["stickers"][sticker.number] = sticker
    for sticker, number, where in covers:  # written once every sticker has its id (Importer.write)
        over = run.link(where, {"covered_by": number}, "covered_by", "stickers", "sticker")
        run.covers.append((sticker, over))


def _cards_import(run: _Importer, archive: dict) -> None:
    for i, data in enumerate(archive["story_cards"]):
        where = f"story_cards[{i}]"
        card = run.row("story_cards", i, data)
        run.once(where, "story", card.number, f"Story card {card.number}")
        run.once(
            where,
            "story order",
            (card.storyline, card.order),
            f"place {card.order} of storyline {card.storyline}",
        )
        run.effects(where, "effects", card.effects)
        run.effects(where, "majority_signer_bonus", card.majority_signer_bonus)
    for i, data in enumerate(archive["dilemma_cards"]):
        where = f"dilemma_cards[{i}]"
        card = run.row("dilemma_cards", i, data)
        run.once(where, "dilemma", card.number, f"Dilemma card {card.number}")


def _mystery_stickers_import(run: _Importer, archive: dict) -> None:
    for i, data in enumerate(archive["mystery_stickers"]):
        where = f"mystery_stickers[{i}]"
        sticker = run.row("mystery_stickers", i, data)
        if sticker.letter not in MYSTERY_LETTERS:
            raise _damaged(
                f"{where}.letter",
                f"Mystery stickers are lettered {MYSTERY_LETTERS[0]} to {MYSTERY_LETTERS[-1]}",
            )
        run.once(where, "mystery", sticker.letter, f"Mystery sticker {sticker.letter}")


def _events_import(run: _Importer, archive: dict) -> None:
    owner = run.owner
    for i, data in enumerate(archive["events"]):
        where = f"events[{i}]"
        actor = data.get("actor") if isinstance(data, dict) else None
        if actor is not None and (
            not isinstance(actor, str) or len(actor) > 150 or has_control_characters(actor)
        ):
            raise _damaged(f"{where}.actor", "must be a username (a text of at most 150 characters)")
        mine = owner is not None and actor is not None and actor == owner.get_username()
        run.row(
            "events",
            i,
            data,
            actor=owner if mine else None,
            actor_name="" if mine or actor is None else actor,
        )


def _house_number_checked(run: _Importer, where: str):
    def checked(number: int) -> int:
        if number not in run.tables["houses"]:
            raise _damaged(where, f"refers to House {number!r}, which is not in the archive")
        return number

    return checked


def _sessions_import(run: _Importer, archive: dict) -> None:
    """The game sessions: hosted by the importer; each seat with a fresh join token and no phone or
    account joined yet (tokens are secrets: they never travel)."""
    games = set(slugs())
    for i, data in enumerate(archive.get("sessions", [])):
        where = f"sessions[{i}]"
        session = run.row("sessions", i, data, host=run.owner)
        number = data["number"]
        if not _is_int(number) or not 1 <= number <= ARCHIVE_SECTION_ROWS["sessions"]:
            raise _damaged(f"{where}.number", "must be a whole number from 1")
        run.once(where, "session", number, f"session {number}")
        if session.game not in games:
            raise _damaged(f"{where}.game", f"{session.game!r} is not a game of this Chronicle")
        for part in ("config", "state"):
            _houses_mapped(getattr(session, part), _house_number_checked(run, f"{where}.{part}"))
        run.tables["sessions"][number] = session
    seats: dict[int, dict[int, Seat]] = {}
    for i, data in enumerate(archive.get("seats", [])):
        seat = run.row("seats", i, data)
        run.once(f"seats[{i}]", "seat", (id(seat.session), seat.index), f"seat {seat.index} of a session")
        seats.setdefault(id(seat.session), {})[seat.index] = seat
    logs = _session_logs_read(run, archive, seats)
    for i, session in enumerate(run.new["sessions"]):
        actions = sorted(logs.get(id(session), []), key=lambda a: a.seq)
        in_force = [action for action in actions if not action.undone]
        _log_replayed(f"sessions[{i}]", session, in_force)
        session.state = replayed_session_state(
            f"sessions[{i}].state",
            game=session.game,
            config=session.config,
            seed=session.seed,
            log=[action.payload for action in in_force],
        )
        check_session_consistent(
            f"sessions[{i}]",
            session=session,
            seats=list(seats.get(id(session), {}).values()),
            actions=actions,
            houses=set(run.tables["houses"]),
        )


def _session_logs_read(run: _Importer, archive: dict, seats: dict[int, dict[int, Seat]]) -> dict[int, list]:
    """Every action of the archive (undone ones included), by its session, each checked on its own."""
    logs: dict[int, list] = {}
    for i, data in enumerate(archive.get("actions", [])):
        where = f"actions[{i}]"
        action = run.row("actions", i, data)
        key = id(action.session)
        run.once(where, "action", (key, action.seq), f"action {action.seq} of a session")
        if action.idempotency_key is not None:
            run.once(where, "action key", (key, action.idempotency_key), "an idempotency key of a session")
        if action.seat is not None and action.seat not in seats.get(key, {}):
            raise _damaged(f"{where}.seat", f"refers to seat {action.seat}, which is not in its session")
        logs.setdefault(key, []).append(action)
    return logs


def _log_replayed(where: str, session: GameSession, log: list[SessionAction]) -> None:
    """The pages replay a session's log (a night's story, its table): a log the engine refuses is
    told as it can be (the rules may have changed since), but one that breaks the replay is refused."""
    payloads = [action.payload for action in log]
    try:
        if session.game == "kings_dilemma":
            night_story(session.config, session.seed, payloads)
        else:
            rules = get_game(session.game)
            state = rules.setup(session.config, session.seed)
            for payload in payloads:
                state = rules.apply(state, payload)
    except RuleError:
        return
    except Exception as error:  # any other failure: the archive is damaged
        raise _damaged(where, ARCHIVE_SESSION_LOG.format(problem=type(error).__name__)) from None


def campaign_import(*, archive, owner=None, name: str | None = None) -> Campaign:
    """Import an archive into a new campaign (``owner`` becomes its owner). Every row is checked
    (types, the ranges of the rules, duplicates, links, the sessions' logs) in memory, with no
    transaction open; the first problem refuses the whole archive and nothing is written. Then
    everything is written in one short transaction of bulk inserts (on SQLite the write lock is
    held only for those), so no half-written campaign is ever seen; in it, the campaign as a whole
    is checked (it can start a night), and a refusal there rolls the whole write back. The demo
    account imports nothing (PermissionDenied, campaign/access.py)."""
    demo_adds_no_campaign(owner)
    version = _check_top(archive)
    head = _check_head(archive["campaign"])
    campaign = _campaign_built(head, owner, name)
    run = _Importer(campaign, version, owner)
    # In dependency order: each section links only to sections read before it.
    for section_import in (
        _houses_and_games_import,
        _house_rows_import,
        _envelopes_import,
        _stickers_import,
        _cards_import,
        _mystery_stickers_import,
        _events_import,
        _sessions_import,
    ):
        section_import(run, archive)
    run.prepare()
    with transaction.atomic():
        run.write(head)
        check_campaign_ready(campaign)  # the Grand Finale flags; a night can start with every House
        record_event(
            campaign,
            "campaign_imported",
            f"Campaign imported from an archive of {head.get('name')!r}",
            actor=owner,
        )
    return campaign


# Exports that cannot be lost (issue 25): the request sends the task after its commit; a send that
# fails (Redis down) leaves the export pending with EXPORT_NOT_SENT, and beat's sweep sends it again;
# one sent but never written (its worker killed, the message lost) is sent again once stale; after
# CHRONICLE_EXPORT_MAX_ATTEMPTS sendings it fails with EXPORT_GAVE_UP. The page offers "Try again".
EXPORT_NOT_SENT = (
    "Not started yet: the background queue is unreachable. It is tried again automatically, "
    "or press Try again."
)
EXPORT_GAVE_UP = (
    "Not written after {attempts} attempts: no background worker ran it. "
    "Press Try again once the worker runs (see the status page)."
)
EXPORT_ALREADY_READY = "This export is ready: download it below."
EXPORT_WOULD_NOT_IMPORT = "Not offered: this export would not import again. {problem}"
EXPORT_IMPORT_CRASHED = "the import failed on it ({problem})"
EXPORT_NOT_JSON = "The archive is damaged: it is not valid JSON ({problem})."
EXPORT_STILL_RUNNING = "This export is still being prepared: wait a moment before trying again."
EXPORT_TASK = "campaign.tasks.campaign_export_task"  # the task writing an export (sent by name)
# Sending a task: a brief broker hiccup is retried at once; longer outages are the sweep's.
EXPORT_SEND_RETRY = {"max_retries": 2, "interval_start": 0, "interval_step": 0.2, "interval_max": 0.5}

logger = logging.getLogger(__name__)


def _broker_errors() -> tuple[type[BaseException], ...]:
    return (KombuError, redis.exceptions.RedisError, OSError)


def campaign_export_enqueue(*, export_id: int) -> bool:
    """Send a pending export's task (counted in ``attempts``); False when the broker refused it,
    the export then saying so (EXPORT_NOT_SENT) until the sweep or "Try again" sends it again."""
    pending = CampaignExport.objects.filter(pk=export_id, status=CampaignExport.Status.PENDING)
    if not pending.update(attempts=models.F("attempts") + 1, attempted_at=timezone.now(), error=""):
        return False  # written or failed meanwhile: nothing to send
    try:
        task_named(EXPORT_TASK).apply_async(args=[export_id], retry=True, retry_policy=EXPORT_SEND_RETRY)
    except _broker_errors() as error:
        logger.warning(
            "Export %s: its task could not be sent (%s); the sweep sends it again.", export_id, error
        )
        pending.update(error=EXPORT_NOT_SENT)
        return False
    return True


@transaction.atomic
def campaign_export_request(*, campaign: Campaign, requested_by=None) -> CampaignExport:
    export = CampaignExport.objects.create(campaign=campaign, requested_by=requested_by)
    record_event(campaign, "export_requested", "Campaign export requested", actor=requested_by)
    transaction.on_commit(lambda: campaign_export_enqueue(export_id=export.pk), robust=True)
    return export


@transaction.atomic
def campaign_export_retry(*, export: CampaignExport, actor=None) -> CampaignExport:
    """ "Try again" on a stalled or failed export: pending again, its attempts counted afresh, its
    task sent after the commit. A ready export, or one still being prepared, is refused."""
    export = CampaignExport.objects.select_for_update().get(pk=export.pk)
    if export.status == CampaignExport.Status.READY:
        raise ValidationError(EXPORT_ALREADY_READY)
    if not export.retryable:
        raise ValidationError(EXPORT_STILL_RUNNING)
    export.status, export.error, export.path, export.attempts = CampaignExport.Status.PENDING, "", "", 0
    export.full_clean()
    export.save(update_fields=["status", "error", "path", "attempts"])
    record_event(export.campaign, "export_retried", "Campaign export tried again", actor=actor)
    transaction.on_commit(lambda: campaign_export_enqueue(export_id=export.pk), robust=True)
    return export


def campaign_export_sweep(*, now: datetime.datetime | None = None) -> dict[str, int]:
    """celery beat: send again every pending export whose task could not be sent or which was not
    written CHRONICLE_EXPORT_STALE_SECONDS after its last sending; fail (EXPORT_GAVE_UP) those sent
    CHRONICLE_EXPORT_MAX_ATTEMPTS times already. Returns how many were sent and failed."""
    now = now or timezone.now()
    cutoff = now - datetime.timedelta(seconds=django_settings.CHRONICLE_EXPORT_STALE_SECONDS)
    limit = django_settings.CHRONICLE_EXPORT_MAX_ATTEMPTS
    stalled = CampaignExport.objects.filter(status=CampaignExport.Status.PENDING).filter(
        models.Q(attempted_at__lt=cutoff)
        | models.Q(attempted_at__isnull=True, created_at__lt=cutoff)
        | ~models.Q(error="")
    )
    counts = {"sent": 0, "failed": 0}
    for export_id, attempts in stalled.values_list("pk", "attempts"):
        if attempts >= limit:
            counts["failed"] += CampaignExport.objects.filter(
                pk=export_id, status=CampaignExport.Status.PENDING
            ).update(status=CampaignExport.Status.FAILED, error=EXPORT_GAVE_UP.format(attempts=attempts))
        elif campaign_export_enqueue(export_id=export_id):
            counts["sent"] += 1
    return counts


def _export_refusal(archive: dict, text: str) -> str | None:
    """Why the import would refuse this export (its size or a section's rows), or None."""
    size = len(text.encode("utf-8"))
    if size > ARCHIVE_MAX_BYTES:
        return f"{size / 2**20:.1f} MB, the limit is {ARCHIVE_MAX_BYTES // 2**20} MB"
    try:
        _check_top(archive)
    except ValidationError as error:
        return " ".join(error.messages)
    return None


class _DryRun(Exception):
    """Rolls a trial import back (``campaign_import_check``)."""


def campaign_import_check(*, text: str) -> None:
    """Import ``text`` as an uploaded archive is imported (read by the same strict decoder, every
    check of ``campaign_import``, the rows written and the campaign checked as a whole), then roll
    it all back: nothing stays. ValidationError: why the import would refuse it."""
    try:
        archive = json_loads_strict(text)
    except (ValueError, RecursionError) as error:
        raise ValidationError(EXPORT_NOT_JSON.format(problem=error)) from None
    try:
        with transaction.atomic():
            campaign_import(archive=archive, owner=None)
            raise _DryRun
    except _DryRun:
        pass


def _export_reread(text: str) -> str | None:
    """Why the import would refuse this export once written (None: it imports)."""
    try:
        campaign_import_check(text=text)
    except ValidationError as error:
        return " ".join(error.messages)
    except Exception as error:  # a crash of the import is a refusal too: never a "ready" file
        logger.exception("The trial import of an export failed")
        return EXPORT_IMPORT_CRASHED.format(problem=type(error).__name__)
    return None


def _export_failed(export: CampaignExport, error: str) -> str:
    CampaignExport.objects.filter(pk=export.pk).update(status=CampaignExport.Status.FAILED, error=error[:300])
    return ""


def campaign_export_write(*, export_id: int) -> str:
    """Write the archive file (idempotent: a ready export is not written again; the file is
    written to a temporary name and renamed, so a killed worker never leaves half a file). An
    archive the import would refuse is never written: it is imported first, in a transaction
    rolled back, and if refused the export fails and says why (the owner sees it on the page and
    in the API) instead of offering a file that would never restore."""
    export = CampaignExport.objects.select_related("campaign").get(pk=export_id)
    if export.status == CampaignExport.Status.READY and export.path:
        return export.path
    archive = campaign_archive(campaign=export.campaign)
    text = archive_dumps(archive)
    problem = _export_refusal(archive, text)
    if problem is not None:
        return _export_failed(export, ARCHIVE_EXPORT_TOO_LARGE.format(problem=problem))
    problem = _export_reread(text)
    if problem is not None:
        return _export_failed(export, EXPORT_WOULD_NOT_IMPORT.format(problem=problem))
    folder = Path(django_settings.MEDIA_ROOT) / "exports"
    folder.mkdir(parents=True, exist_ok=True)
    name = f"campaign-{export.campaign_id}-export-{export.pk}.json"
    tmp = folder / f".{name}.{os.getpid()}.{threading.get_ident()}.tmp"  # two runs never share one
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, folder / name)
    CampaignExport.objects.filter(pk=export.pk).update(
        status=CampaignExport.Status.READY, path=name, error=""
    )
    return name
