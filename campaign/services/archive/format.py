"""The campaign archive's format: its name and versions, the sections each version carries, and
what each section's rows hold (plain fields, the archive's own keys, links by number, dates), with
the row limits that follow from the largest file the import reads. The exporter writes these
declarations and the importer holds every row to them; docs/archive.md is generated from them.
Also the checks of an archive's top level, shared by the import and by the export's own check."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy

from campaign.models import (
    Achievement,
    CampaignEvent,
    ChronicleGame,
    ChronicleScore,
    ChronicleSticker,
    DilemmaCard,
    Envelope,
    House,
    LedgerEntry,
    MysterySticker,
    StoryCard,
)
from campaign.services.archive.value_checks import (
    ARCHIVE_VALUE,
    GAME_NUMBER_MAX,
)
from campaign.services.common import STORY_CARD_FIELDS
from config.json_limits import json_depth_exceeds
from games.engines.kernel.messages import gettext_noop
from games.engines.kings_dilemma.data import (
    ENVELOPE_COUNT,
    HOUSE_NUMBERS,
    MYSTERY_LETTERS,
    STICKER_COUNT,
)
from games.models import GameSession, Seat, SessionAction

ARCHIVE_FORMAT = "chronicle-campaign"


# Version 2 adds every date (games, stickers, envelopes, Mystery stickers, ledger, events) and the
# actor of each event; version 3 adds the game sessions (sessions, seats, actions); version 4 leaves
# a session's cached state out (written as {}: the importer replays its log), so a Chronicle that
# would trust the state of a version 3 file refuses a version 4 one; version 5 adds each log line's
# message (an action's ``label_data``), so a night's log reads in each reader's language (an older
# archive's line reads its English); version 6 adds the message of each event's summary and of each
# ledger entry's reason (``summary_data``, ``reason_data``), so the history reads in each reader's
# language too. Versions 1 to 5 are still read.
ARCHIVE_VERSION = 6


ARCHIVE_VERSIONS = (1, 2, 3, 4, 5, 6)


# The largest archive file the import reads (the upload is refused above it).
ARCHIVE_MAX_BYTES = 32 * 1024 * 1024


# A message: the failed export keeps it (error_data) and says it in each reader's language.
ARCHIVE_EXPORT_TOO_LARGE = gettext_noop(
    "This campaign is larger than an archive may be ({problem}): the export would not import again."
)


# Rows inserted per statement (each bulk insert also respects the database's parameter limit).
ARCHIVE_BATCH = 2_000


ARCHIVE_MAX_DEPTH = 12  # nesting of the typed card data (outcomes, effects, event details)


ARCHIVE_NOT_AN_OBJECT = gettext_lazy("The archive is damaged: it is not a JSON object.")


ARCHIVE_WRONG_FORMAT = gettext_lazy("This file is not a Chronicle campaign archive.")


ARCHIVE_WRONG_VERSION = gettext_lazy(
    "Archive version {version!r} is not supported (this Chronicle reads versions 1 to 6)."
)


ARCHIVE_DAMAGED = ARCHIVE_VALUE  # one sentence for every refusal (value_checks.py)


ARCHIVE_TOO_DEEP = format_lazy(
    gettext_lazy("The archive is damaged: it nests deeper than {limit} levels."), limit=ARCHIVE_MAX_DEPTH
)


ARCHIVE_TOO_MANY = gettext_lazy("more than {limit} rows")


ARCHIVE_TWICE = gettext_lazy("{what} appears twice")


ARCHIVE_UNKNOWN_KEYS = gettext_lazy("unknown field(s) {keys}")


ARCHIVE_SESSION_LOG = gettext_lazy("its log does not replay ({problem})")


# Per section: the model and the plain fields copied as they are.
FIELDS = {
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
    "ledger": (LedgerEntry, ["kind", "amount", "reason", "reason_data", "source"]),
    "stickers": (
        ChronicleSticker,
        ["number", "row", "positive", "title", "text", "slot", "marks", "covered"],
    ),
    "envelopes": (Envelope, ["number", "special"]),
    "story_cards": (StoryCard, [*STORY_CARD_FIELDS, "order"]),
    "dilemma_cards": (DilemmaCard, ["number", "kind", "place", "title", "outcomes"]),
    "mystery_stickers": (MysterySticker, ["letter", "storyline"]),
    "events": (CampaignEvent, ["kind", "summary", "summary_data", "data"]),
    # Version 3: the game sessions of the campaign. Each carries its number in the archive (1, 2,
    # ...), by which its seats and actions refer to it.
    "sessions": (
        GameSession,
        ["game", "config", "seed", "status", "version", "state", "last_seq", "has_bots"],
    ),
    "seats": (Seat, ["index", "name", "colour", "is_bot"]),
    "actions": (
        SessionAction,
        ["seq", "seat", "payload", "label", "label_data", "idempotency_key", "version", "undone", "undoable"],
    ),
}


# The fields a row carries from one version on (an older archive's row has none: the model's default).
ADDED_IN = {("actions", "label_data"): 5, ("ledger", "reason_data"): 6, ("events", "summary_data"): 6}


def fields_of(section: str, version: int) -> list[str]:
    """The plain fields of ``section`` a row of an archive of ``version`` carries."""
    return [f for f in FIELDS[section][1] if version >= ADDED_IN.get((section, f), 0)]


# The sections each version carries (an older archive has none of the later ones).
SESSION_SECTIONS = ("sessions", "seats", "actions")
SECTIONS_OF = {
    1: [s for s in FIELDS if s not in SESSION_SECTIONS],
    2: [s for s in FIELDS if s not in SESSION_SECTIONS],
    3: list(FIELDS),
    4: list(FIELDS),
    5: list(FIELDS),
    6: list(FIELDS),
}


# Keys of a row that are the archive's own (no model field): the number a session is known by.
KEYS = {"sessions": ["number"]}


# Version 2: the dates of each section, restored on import (they are set to "now" on creation).
DATES = {
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
LINKS = {
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
LINK_TARGETS = {
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
REQUIRED_LINKS = {
    ("achievements", "house"),
    ("scores", "game"),
    ("scores", "house"),
    ("ledger", "house"),
    ("seats", "session"),
    ("actions", "session"),
}
HEAD = {"name", "settings", "grand_finale_ready", "closed", "created_at"}


def smallest_row(section: str) -> int:
    """The fewest bytes a row of ``section`` takes in the compact archive: each of its keys with a
    value of one character (``{"seq":1,"seat":0,...}``), and the comma before the next row."""
    keys = [*FIELDS[section][1], *LINKS[section], *DATES.get(section, []), *KEYS.get(section, [])]
    return sum(len(key) + 4 for key in keys) + 2


# The rows each section may hold. What the box allows for its pieces (12 Houses, 177 stickers, 75
# Envelopes, the Mystery letters); for what grows with the nights played (games, their scores and
# ledger, the sessions and their logs, the history), as many as an archive of ARCHIVE_MAX_BYTES can
# hold: the campaign grows, and the limit of its archive with it, so whatever fits the file fits
# its sections, and a campaign is never refused its export for a count of rows. Games are numbered
# 1 to GAME_NUMBER_MAX (its next night's number must fit).
ARCHIVE_SECTION_ROWS = {section: ARCHIVE_MAX_BYTES // smallest_row(section) for section in FIELDS}
ARCHIVE_SECTION_ROWS.update(
    houses=HOUSE_NUMBERS,
    stickers=STICKER_COUNT,
    envelopes=ENVELOPE_COUNT,
    mystery_stickers=len(MYSTERY_LETTERS),
    games=min(ARCHIVE_SECTION_ROWS["games"], GAME_NUMBER_MAX),
)


def houses_mapped(value: Any, house_of: Callable[[Any], Any]) -> Any:
    """``value`` (a session's config or state) with each House it names (under the key "house")
    mapped by ``house_of``: the engine keeps the campaign's House ids there; the archive keeps House
    numbers. Returns a new value; the one given is left as it was."""
    if isinstance(value, dict):
        return {
            key: house_of(item) if key == "house" and is_int(item) else houses_mapped(item, house_of)
            for key, item in value.items()
        }
    if isinstance(value, list):
        return [houses_mapped(item, house_of) for item in value]
    return value


def damaged(where: str, problem: object) -> ValidationError:
    if isinstance(problem, ValidationError):
        if hasattr(problem, "error_dict"):
            problem = "; ".join(
                f"{field}: {' '.join(messages)}" if field != "__all__" else " ".join(messages)
                for field, messages in problem.message_dict.items()
            )
        else:
            problem = "; ".join(problem.messages)
    return ValidationError(ARCHIVE_DAMAGED.format(where=where, problem=problem))


def is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _section_limit(section: str) -> int:
    return ARCHIVE_SECTION_ROWS[section]


def check_top(archive: object) -> int:
    if not isinstance(archive, dict):
        raise ValidationError(ARCHIVE_NOT_AN_OBJECT)
    if archive.get("format") != ARCHIVE_FORMAT:
        raise ValidationError(ARCHIVE_WRONG_FORMAT)
    version = archive.get("version")
    if not is_int(version) or version not in ARCHIVE_VERSIONS:
        raise ValidationError(ARCHIVE_WRONG_VERSION.format(version=version))
    sections = SECTIONS_OF[version]
    unknown = sorted(
        str(k) for k in archive if k not in {"format", "version", "exported_at", "campaign", *sections}
    )
    if unknown:
        raise damaged("archive", ARCHIVE_UNKNOWN_KEYS.format(keys=", ".join(unknown)))
    for section in ["campaign", *sections]:
        expected = dict if section == "campaign" else list
        if not isinstance(archive.get(section), expected):
            raise damaged(section, "missing or of the wrong kind")
        if expected is list and len(archive[section]) > _section_limit(section):
            raise damaged(section, ARCHIVE_TOO_MANY.format(limit=_section_limit(section)))
    # Sections (2) hold rows (3) whose typed data may nest ARCHIVE_MAX_DEPTH levels.
    if json_depth_exceeds(archive, ARCHIVE_MAX_DEPTH + 3):
        raise ValidationError(ARCHIVE_TOO_DEEP)
    return version
