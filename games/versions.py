"""What a version of a session keeps, in one room: its facts (the seats as the presenters know them
and the newest actions in force), the panels its screens share, and its number for the polling
endpoint. Each is kept in Django's cache (Redis in production, the local-memory cache without it)
by session and version: the writers keep them at the commit, the screens read them (and keep what
they had to read), the selectors never write.
"""

from __future__ import annotations

import hashlib
import json
import logging
import secrets
from collections.abc import Iterable
from dataclasses import dataclass, fields
from typing import Any

from django.core.cache import cache
from django.core.signing import Signer
from django.db import transaction
from django.utils.crypto import constant_time_compare
from django.utils.translation import get_language

from games import selectors
from games.models import GameSession, Seat, SessionAction
from games.presenters.base import seat_hex
from games.translation import say_stored

logger = logging.getLogger(__name__)

# ---- The facts of a version -----------------------------------------------------------------
# The seats (what a presenter knows of each) and the newest actions in force change only with a new
# version (a seat claimed by an account moves the version on too: games.services.seats.session_seat_claim), so
# the screens of one version (each seat's phone, the table) read them once between them. The writer
# of an action makes them from the version before's (the same seats, its action first) and keeps
# them at the commit (games.services.taps), before any screen is nudged; a new session reads its first
# version's at the commit; a screen that finds none (after an undo, a seat claimed, the cache
# emptied) reads them and keeps them. Kept in Django's cache by session, version and the row's last
# write: ``updated`` is in the key, so a version written and rolled back never lends its facts to
# the version that replaces it.

SEAT_LOG = 8  # the newest actions a phone shows ("Latest")
TABLE_LOG = 30  # the newest actions the table shows
FACTS_CACHE_SECONDS = 300


@dataclass(frozen=True, slots=True)
class LoggedAction:
    """An action of the log as the screens show it: never its payload (light to keep and read).
    Kept for every reader of a version, so its ``label`` is said when read, in the reader's
    language, from the English and the message the log stored."""

    seq: int
    seat: int | None
    english: str  # the row's ``label``
    label_data: Any  # the row's ``label_data``
    undoable: bool | None
    version: int

    @property
    def label(self) -> str:
        return say_stored(self.label_data, english=self.english)


# The row's fields, in the order of LoggedAction's.
LOGGED_FIELDS = tuple("label" if f.name == "english" else f.name for f in fields(LoggedAction))


@dataclass(frozen=True)
class VersionFacts:
    infos: dict[int, dict]  # seat index -> what a presenter knows of the seat (``seat_infos``)
    latest: tuple[LoggedAction, ...]  # the TABLE_LOG newest actions in force, newest first


def _player(seat: Seat) -> str:
    """The name of who plays the seat (a campaign night gives each House's seat to its player: their
    display name in the campaign, else their username), when read with the seat: never a query of
    its own."""
    if seat.user_id is None or not type(seat).user.is_cached(seat) or seat.user is None:
        return ""
    return getattr(seat, "member_name", "") or seat.user.get_username()


def seat_infos(seats: Iterable[Seat]) -> dict[int, dict]:
    """Index -> what a presenter knows of a seat (index, name, colour, bot, player), from seats read
    once (``selectors.session_seats``)."""
    return {
        s.index: {
            "index": s.index,
            "name": s.name,
            "hex": seat_hex(s.colour),
            "is_bot": s.is_bot,
            "player": _player(s),
        }
        for s in seats
    }


def version_key(session: GameSession) -> str:
    """The session at its version, as written: what a panel or the facts of a version are kept by."""
    written = session.updated.timestamp() if session.updated else ""
    return f"{session.pk}:{session.version}:{written}"


def version_facts_read(*, session: GameSession) -> VersionFacts:
    """The version's facts from the database (two queries): the seats with their players, and the
    newest actions in force up to this version."""
    latest = session.actions.filter(undone=False, version__lte=session.version).order_by("-seq")
    return VersionFacts(
        infos=seat_infos(selectors.session_seats(session=session)),
        latest=tuple(LoggedAction(*row) for row in latest.values_list(*LOGGED_FIELDS)[:TABLE_LOG]),
    )


def logged_action(logged: SessionAction) -> LoggedAction:
    return LoggedAction(*(getattr(logged, name) for name in LOGGED_FIELDS))


def version_facts_after(*, before: str, action: LoggedAction) -> VersionFacts | None:
    """The facts of the version ``action`` made, from those of the version before it (``before``:
    its ``version_key``) when they are kept: the same seats, ``action`` first. None otherwise."""
    kept = cache.get(f"facts:{before}")
    if kept is None:
        return None
    return VersionFacts(infos=kept.infos, latest=(action, *kept.latest[: TABLE_LOG - 1]))


def version_facts_keep(*, key: str, facts: VersionFacts) -> None:
    cache.set(f"facts:{key}", facts, FACTS_CACHE_SECONDS)


def version_facts_after_commit(*, session: GameSession, before: str, logged: SessionAction) -> None:
    """The facts of the version an action just made (its seats, its newest actions), from those of
    the version before (``before``: its key) when a screen or a writer kept them, made and kept at
    the commit (the cache is never asked while the row is locked), before the nudge: the screens
    nudged then find them ready instead of each reading them at once. Without them, the screens
    read them (no query here: a tap's budget). (robust: a cache that fails is a miss for the
    screens, never an error for a committed write.)"""
    key, action = version_key(session), logged_action(logged)

    def keep() -> None:
        facts = version_facts_after(before=before, action=action)
        if facts is not None:
            version_facts_keep(key=key, facts=facts)

    transaction.on_commit(keep, robust=True)


def session_version_facts(*, session: GameSession) -> VersionFacts:
    """The facts of the session's version: as kept by its writer or an earlier screen, else read
    and kept."""
    key = version_key(session)
    facts = cache.get(f"facts:{key}")
    if facts is None:
        facts = version_facts_read(session=session)
        version_facts_keep(key=key, facts=facts)
    return facts


# ---- Panels shared by several screens ------------------------------------------------------
# The table's panel (the host's screen, a campaign owner's), a seat's panel opened on two devices:
# the same answer for everyone who may see it, at one version. It is rendered once and kept in
# Django's cache (Redis in production, the local-memory cache without it) by session, version and
# seat, and by what else it shows that could change without a new version (a night's result
# recorded; the seats' players are the version's, ``session_version_facts``). The caller
# has checked the seat's token or the host before asking:
# the key holds the seat (its index, its row and a digest of its token), so one seat's private
# panel is never another's. What each request has of its own goes into slots, filled per answer:
# its CSRF token and a fresh idempotency key for its taps.

PANEL_CACHE_SECONDS = 300
CSRF_SLOT = "csrf-slot-of-a-shared-panel"
KEY_SLOT = "key-slot-of-a-shared-panel"


def _digest(*parts: object) -> str:
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()[:24]


def panel_cache_key(*, session: GameSession, seat: Seat | None) -> str:
    """The seats' infos are the version's (``session_version_facts``): the version and the
    row's last write stand for them. A panel is written in its reader's language: a phone in
    German never gets the panel drawn for one in Italian."""
    if seat is None:
        who, extra = "table", _digest(session.status, night_recorded(session))
    else:
        who, extra = f"seat-{seat.index}-{seat.pk}-{_digest(seat.token)}", _digest(session.status)
    return f"panel:{version_key(session)}:{who}:{extra}:{get_language() or ''}"


# What a shared panel is drawn with in place of what each answer has of its own.
PANEL_SLOTS = {"csrf_token": CSRF_SLOT, "key": KEY_SLOT}


def shared_panel_kept(*, session: GameSession, seat: Seat | None) -> str | None:
    """The panel's HTML (with its slots) when this version was drawn already for this seat (None:
    the table), else None. Only for a plain panel fetch (no step of a choice, no message or notice
    of its own)."""
    return cache.get(panel_cache_key(session=session, seat=seat))


def shared_panel_keep(*, session: GameSession, seat: Seat | None, html: str) -> None:
    """Keep a panel drawn with ``PANEL_SLOTS`` for the other screens of this version."""
    cache.set(panel_cache_key(session=session, seat=seat), html, PANEL_CACHE_SECONDS)


def shared_panel_answer(html: str, *, csrf_token: str) -> str:
    """A shared panel as one answer: its own CSRF token and a fresh idempotency key in the slots."""
    return html.replace(CSRF_SLOT, csrf_token).replace(KEY_SLOT, secrets.token_urlsafe(12))


def night_recorded(session: GameSession) -> bool | None:
    """None for a table without a campaign; a campaign's night is recorded once it is saved as a
    game of the Realm Chronicles (its game row is written only then)."""
    if session.campaign_id is None:
        return None
    night = session.chronicle_game if session.chronicle_game_id else None
    return night is not None and bool(night.recorded)


# ---- The version number --------------------------------------------------------------------
# The newest version of each session, for the polling endpoint to answer "unchanged" without a query.
# The nudges' transports keep it as they publish (games.live.nudges); a poll that missed it reads the
# database and fills it in.

VERSION_CACHE_TIMEOUT = 60 * 60 * 24


def poll_key(session_id: int) -> str:
    """The key a page that may see session ``session_id`` polls its version with: an HMAC of the
    id (checked without a query), so the version endpoint tells nothing to anyone else."""
    return Signer(salt="chronicle.session-version").signature(str(session_id))


def poll_key_valid(session_id: int, key: str) -> bool:
    return bool(key) and constant_time_compare(key, poll_key(session_id))


def version_cache_key(session_id: int) -> str:
    return f"session-version-{session_id}"


def cached_version(session_id: int) -> int | None:
    """The cached version, or None (a miss, or the cache is down: the caller reads the database)."""
    try:
        return cache.get(version_cache_key(session_id))
    except Exception:  # Redis down: polling falls back to the database
        logger.warning("Version cache unreachable for session-%s", session_id, exc_info=True)
        return None


def remember_version(session_id: int, version: int) -> None:
    """Fill the cache after a miss (the polling endpoint read the version from the database)."""
    try:
        cache.add(version_cache_key(session_id), version, VERSION_CACHE_TIMEOUT)
    except Exception:  # Redis down: the next poll reads the database again
        logger.warning("Version cache unreachable for session-%s", session_id, exc_info=True)
