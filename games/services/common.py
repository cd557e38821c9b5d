"""What every writer of a session shares: its rules, the row locked and kept in step with the
caller's object, JSON as the database gives it back, and what follows a change (the nudge, the bots
woken), sent after the commit."""

from __future__ import annotations

import json
import logging
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import OuterRef, QuerySet, Subquery

from config.celery import app as celery_app
from games.engines.kernel.registry import get_game
from games.engines.kernel.rules import GameRules
from games.live import nudges
from games.models import GameSession, SessionAction

logger = logging.getLogger(__name__)

# The bots' task, sent by its name: the tasks import the services (in their bodies), never the other
# way round, so the two modules make no circle (games/tasks.py registers it; GamesConfig.ready()).
BOT_MOVE_TASK = "games.tasks.bot_move_task"
UNKNOWN_GAME = "There is no game called {slug!r}."
GAME_NOT_READY = "{slug} cannot be played yet: its rules are not installed."
SEAT_NOT_IN_SESSION = "This seat belongs to another session."
ACTION_NOT_JSON = "An action must be plain JSON."


def rules_named(slug: str) -> GameRules:
    try:
        return get_game(slug)
    except KeyError:
        raise ValidationError(UNKNOWN_GAME.format(slug=slug)) from None
    except (ImportError, AttributeError):
        raise ValidationError(GAME_NOT_READY.format(slug=slug)) from None


def session_rules(session: GameSession) -> GameRules:
    return rules_named(session.game)


def plain_json(value: Any, message: str) -> Any:
    """What the database will give back: the engine sees exactly what the log stores. (PostgreSQL
    JSON cannot hold a NUL character, so none gets that far.)"""
    try:
        text = json.dumps(value)
    except (TypeError, ValueError):
        raise ValidationError(message) from None
    if "\\u0000" in text:
        raise ValidationError(message)
    return json.loads(text)


def session_locked(
    session: GameSession, *, idempotency_key: str | None = None, without_state: bool = False
) -> GameSession:
    """The session row, locked. What a submit needs besides lives on that row (``last_seq``,
    ``has_bots``): a ``FOR UPDATE`` that waited for another writer returns them as fresh as the
    rest of the row, with no snapshot to reason about. For a key, the action already logged with
    it (``done_id``) is read in the same statement: one query.

    (PostgreSQL: a ``FOR UPDATE`` that waited returns the newest row, but a subquery still sees
    the database as it was when the statement began. Every writer of an action bumps the version,
    so when the locked row's version is still the one ``session`` was read with (before this
    statement began), nothing was committed meanwhile and ``done_id`` is right; otherwise it is read
    again, now that we hold the lock. SQLite's IMMEDIATE transactions never wait inside a statement.)"""
    rows = GameSession.objects.select_for_update()
    if without_state:  # a writer that rebuilds the state never reads the one it replaces
        rows = rows.defer("state")
    if idempotency_key:
        rows = rows.annotate(done_id=Subquery(_done_with(idempotency_key, OuterRef("pk")).values("pk")[:1]))
    locked = rows.get(pk=session.pk)
    if idempotency_key and locked.version != session.version:
        done = _done_with(idempotency_key, locked.pk).values_list("pk", flat=True)
        locked.done_id = next(iter(done), None)  # type: ignore[attr-defined]  # as annotated
    return locked


def _done_with(idempotency_key: str, session: int | OuterRef) -> QuerySet[SessionAction]:
    """The action logged with this key in the session (at most one: a unique constraint)."""
    return SessionAction.objects.filter(session=session, idempotency_key=idempotency_key).order_by()


def keep_in_step(target: GameSession, source: GameSession) -> None:
    """Keep the caller's object in step with the locked row we changed."""
    for field in ("status", "version", "state", "state_kept_digest", "last_activity", "updated", "last_seq"):
        setattr(target, field, getattr(source, field))


def bot_can_act(session: GameSession, rules: GameRules) -> bool:
    if not session.is_running:
        return False
    if not session.has_bots:  # on the session row: no query
        return False
    active = set(rules.active_seats(session.state))
    return any(s.index in active for s in session.seats.all() if s.is_bot)


def after_change(session: GameSession, rules: GameRules) -> None:
    """Nudge the clients, and wake a bot when one can act (both after the commit)."""
    nudges.notify_session_changed(session)
    if bot_can_act(session, rules):
        session_id, version = session.pk, session.version
        # robust: a broker outage is logged, never turned into an error for a committed action.
        transaction.on_commit(lambda: wake_bots(session_id, version), robust=True)


def wake_bots(session_id: int, version: int) -> None:
    """Send the bots' task by name (eager without a broker, as every task: it is the registered
    task object's ``delay``)."""
    celery_app.tasks[BOT_MOVE_TASK].delay(session_id, version)
