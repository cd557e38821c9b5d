"""A tap: one action of a seat (or of the table) checked, applied by the engine and logged, with a
repeated idempotency key answered by the action it logged. Every writer of a session shares the
tap's pieces, kept here so a tap's path stays in one module: its rules, the row locked and kept in
step with the caller's object, JSON as the database gives it back, and what follows a change (the
nudge, the bots woken), sent after the commit."""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import OuterRef, QuerySet, Subquery
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from config.celery import app as celery_app
from config.json_limits import STORED_JSON_MAX_DEPTH, json_depth_exceeds, json_number_out_of_range
from games import versions
from games.engines.kernel.choices import unknown_keys
from games.engines.kernel.errors import RuleError
from games.engines.kernel.messages import Message, to_data
from games.engines.kernel.registry import get_game
from games.engines.kernel.rules import GameRules
from games.engines.kernel.text import has_control_characters, json_text_refused
from games.live import nudges
from games.models import GameSession, Seat, SessionAction, SessionSnapshot

if TYPE_CHECKING:
    pass

logger = logging.getLogger(__name__)

# The bots' task, sent by its name: the tasks import the services (in their bodies), never the other
# way round, so the two modules make no circle (games/tasks.py registers it; GamesConfig.ready()).
BOT_MOVE_TASK = "games.tasks.bot_move_task"
UNKNOWN_GAME = gettext_noop("There is no game called {slug!r}.")
GAME_NOT_READY = gettext_noop("{slug} cannot be played yet: its rules are not installed.")
SEAT_NOT_IN_SESSION = gettext_noop("This seat belongs to another session.")
ACTION_NOT_JSON = gettext_noop("An action must be plain JSON.")


def rules_named(slug: str) -> GameRules:
    try:
        return get_game(slug)
    except KeyError:
        raise ValidationError(gettext(UNKNOWN_GAME).format(slug=slug)) from None
    except (ImportError, AttributeError):
        raise ValidationError(gettext(GAME_NOT_READY).format(slug=slug)) from None


def session_rules(session: GameSession) -> GameRules:
    return rules_named(session.game)


def plain_json(value: Any, message: str) -> Any:
    """What the database will give back: the engine sees exactly what the log stores. (PostgreSQL
    JSON cannot hold a NUL character, so none gets that far.)"""
    try:
        text = json.dumps(value)
    except (TypeError, ValueError):
        raise ValidationError(gettext(message)) from None
    if "\\u0000" in text:
        raise ValidationError(gettext(message))
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


MAX_IDEMPOTENCY_KEY = 100
SNAPSHOT_EVERY = 100  # a snapshot of the state every this many logged actions (undo replays from it)
SESSION_NOT_RUNNING = gettext_noop("This session is not running (it is {status}).")
ACTION_NOT_AN_OBJECT = gettext_noop("An action must be an object with a 'type'.")
IDEMPOTENCY_KEY_TOO_LONG = gettext_noop("An idempotency key has at most 100 characters.")
IDEMPOTENCY_KEY_OTHER_SEAT = gettext_noop("This idempotency key was already used by another seat.")
IDEMPOTENCY_KEY_OTHER_BODY = gettext_noop(
    "This idempotency key was already used for another action: use a new key for a new action."
)
BOT_KEY_PREFIX = "bot:"
IDEMPOTENCY_KEY_RESERVED = gettext_noop("Idempotency keys starting with 'bot:' are kept for the bots.")
ACTION_FAILED = gettext_noop("That action could not be applied.")
ACTION_UNKNOWN_KEYS = gettext_noop(
    "This action has no {keys}: send only its type, seat and parameters ({known})."
)
ACTION_NOT_STORABLE = gettext_noop(
    "An action nests at most {depth} levels and holds whole numbers of at most 64 bits."
)
ACTION_TEXT_CONTROL = gettext_noop(
    "The action's {key} cannot hold control characters (such as NUL, ESC or U+202E) or half a "
    "character (a lone surrogate)."
)
STALE_VERSION = gettext_noop("The table moved on: here is the new state.")


class IdempotencyKeyReused(ValidationError):
    """A key sent again with another action (the API answers 422, Stripe's rule)."""

    def __init__(self) -> None:
        super().__init__(gettext(IDEMPOTENCY_KEY_OTHER_BODY))


class StaleVersion(Exception):
    """The client acted on an old version of the table (the API answers 409)."""

    def __init__(self, current_version: int, message: str = STALE_VERSION):
        message = gettext(message)  # in the language of the request being answered
        super().__init__(message)
        self.message = message
        self.current_version = current_version
        self.extra = {"version": current_version}


def _action_checked(session: GameSession, rules: GameRules, action: dict) -> None:
    """What every tap is held to before the rules see it, whoever sends it (a page, the API, a
    bot): keys the offered choice names, texts the campaign archive takes again (one rule:
    ``has_control_characters``). ValidationError: nothing is written."""
    if json_depth_exceeds(action, STORED_JSON_MAX_DEPTH) or json_number_out_of_range(action):
        raise ValidationError(gettext(ACTION_NOT_STORABLE).format(depth=STORED_JSON_MAX_DEPTH))
    for key, value in action.items():
        if has_control_characters(key):
            raise ValidationError(gettext(ACTION_TEXT_CONTROL).format(key="key"))
        if json_text_refused(value) is not None:
            raise ValidationError(gettext(ACTION_TEXT_CONTROL).format(key=repr(key[:40])))
    choices = rules.legal_actions(session.state, action.get("seat"))
    unknown = unknown_keys(choices, action)
    if unknown:
        known = sorted({k for c in choices if c["type"] == action["type"] for k in c["params"]})
        raise ValidationError(
            gettext(ACTION_UNKNOWN_KEYS).format(
                keys=", ".join(repr(k[:40]) for k in unknown), known=", ".join(["type", "seat", *known])
            )
        )


MALFORMED = (KeyError, IndexError, TypeError, ValueError, AttributeError)


def _label(session: GameSession, rules: GameRules, action: dict, new_state: dict) -> str:
    """The log's words for ``action``, which takes the session's state to ``new_state``: a
    ``Message`` when the engine says one (its English is the label; ``to_data`` keeps the rest)."""
    try:
        said = rules.describe(session.state, action, new_state)
        most = SessionAction._meta.get_field("label").max_length
        return said if most is None or len(said) <= most else said[:most]
    except Exception:  # a label must never lose an action
        logger.exception("Engine %s could not describe %r", session.game, action)
        return str(action.get("type", "?")).replace("_", " ")


def _label_data(label: str) -> Any:
    """What the log keeps of a label besides its English: the message's data, so each reader reads
    it in their own language; None for plain words (and a label cut short)."""
    if not isinstance(label, Message):
        return None
    try:
        return plain_json(to_data(label), ACTION_NOT_JSON)
    except ValidationError:  # a parameter that is no JSON: the English stays, always
        return None


def _undoable(session: GameSession, rules: GameRules, action: dict, new_state: dict) -> bool:
    """Whether the host may undo ``action``, taking the session's state to ``new_state``: never when
    it showed something hidden (the engine declares what reveals). Asked once, as it is applied:
    what the players saw then stays seen. An engine that cannot tell keeps the action."""
    try:
        return bool(rules.undoable(session.state, action, new_state))
    except Exception:
        logger.exception("Engine %s could not say whether %r may be undone", session.game, action)
        return False


def _changes(session: GameSession, rules: GameRules, new_state: dict) -> dict[str, Any]:
    """The session's fields once one more action is logged."""
    now = timezone.now()
    over = rules.is_over(new_state)
    return {
        "version": session.version + 1,
        "last_seq": session.last_seq + 1,
        "state": new_state,
        "last_activity": now,
        "updated": now,
        "status": GameSession.Status.FINISHED if over else session.status,
    }


class EngineFailed(RuleError):
    """A malformed action tripped the engine: a 400 for the player, a traceback for us (logged
    where the error leaves the service: the locked path, the opening deal)."""

    def __init__(self) -> None:
        super().__init__(gettext(ACTION_FAILED))


@dataclass(frozen=True)
class Tap:
    """One action as it will be written: the payload, the state after it (as the database will
    give it back), its label, whether the host may undo it, and the session's new fields."""

    payload: dict
    state: dict
    label: str
    label_data: Any
    undoable: bool
    changes: dict[str, Any]


def _tap(session: GameSession, rules: GameRules, payload: dict) -> Tap:
    """``payload`` checked and applied to the session's state as read (nothing written):
    RuleError (EngineFailed for a malformed action) or ValidationError when refused."""
    _action_checked(session, rules, payload)
    try:
        after = rules.apply(session.state, payload)
    except RuleError:
        raise
    except MALFORMED as exc:
        raise EngineFailed() from exc
    state = plain_json(after, ACTION_NOT_JSON)
    label = _label(session, rules, payload, state)
    return Tap(
        payload=payload,
        state=state,
        label=str(label),
        label_data=_label_data(label),
        undoable=_undoable(session, rules, payload, state),
        changes=_changes(session, rules, state),
    )


def _engine_failure_logged(session: GameSession, payload: dict) -> None:
    logger.exception("Engine %s failed on %r", session.game, payload)


def _written(
    session: GameSession, tap: Tap, *, seat_index: int | None, key: str | None
) -> SessionAction | None:
    """The tap written on the session's row as it was read: one UPDATE conditional on its version
    (and on the kept part of its state), the INSERT of the action, then ``session`` brought to the
    new version. None, with nothing written, when the UPDATE matched no row (another writer moved
    the table on). Under the row's lock, or in the transaction that created it, it always matches."""
    columns = {**tap.changes, **session.state_columns(tap.state)}  # the kept part as read with the row
    rows = GameSession.objects.filter(pk=session.pk, version=session.version)
    if not rows.filter(state_kept_digest=session.state_kept_digest).update(**columns):
        return None
    logged = SessionAction.objects.create(
        session=session,
        seq=tap.changes["last_seq"],
        seat=seat_index,
        payload=tap.payload,
        label=tap.label,
        label_data=tap.label_data,
        undoable=tap.undoable,
        idempotency_key=key,
        version=tap.changes["version"],
    )
    if logged.seq % SNAPSHOT_EVERY == 0:
        SessionSnapshot.objects.create(session=session, seq=logged.seq, state=tap.state)
    for name, value in tap.changes.items():  # only once both writes are in: a refusal leaves it as read
        setattr(session, name, value)
    session.state_kept_digest = columns.get("state_kept_digest", session.state_kept_digest)
    return logged


def _told(session: GameSession, rules: GameRules, *, before: str, logged: SessionAction) -> None:
    """What follows a tap, after the commit: the new version's facts kept, the clients nudged, a
    bot woken when one can act."""
    versions.version_facts_after_commit(session=session, before=before, logged=logged)
    after_change(session, rules)


def action_append(
    *,
    session: GameSession,
    rules: GameRules,
    action: dict,
    seat_index: int | None,
    idempotency_key: str | None = None,
) -> SessionAction:
    """Apply ``action`` to a session its caller alone can write (the one a transaction is
    creating) and log it, as a tap is (RuleError: nothing written)."""
    try:
        tap = _tap(session, rules, action)
    except EngineFailed:
        _engine_failure_logged(session, action)
        raise
    logged = _written(session, tap, seat_index=seat_index, key=idempotency_key)
    if logged is None:  # a row nobody else sees yet cannot have moved on
        raise StaleVersion(session.version)
    return logged


def session_submit_action(
    *,
    session: GameSession,
    seat: Seat | None,
    action: dict,
    expected_version: int | None,
    idempotency_key: str | None = None,
) -> SessionAction:
    """Apply one action for ``seat`` (None: the table/host) and log it.

    A repeated ``idempotency_key`` returns the stored action (never applied twice, even when the
    table moved on). A stale ``expected_version`` raises StaleVersion; a broken rule raises
    RuleError; either way nothing is written. ``action["seat"]`` is always the submitter's seat.

    One write path, tried first without a lock: the action is applied to the state as ``session``
    was read (``_tap``), written by one UPDATE conditional on that version (``_written``), and
    followed by the facts kept and the nudge (``_told``). When that cannot answer (the table moved
    on, a refusal, a key already used), the same steps run again on the row locked, which gives
    the answer: the stored action of a key, a stale version, or the refusal with the row in hand.
    """
    if idempotency_key is not None and len(idempotency_key) > MAX_IDEMPOTENCY_KEY:
        raise ValidationError(gettext(IDEMPOTENCY_KEY_TOO_LONG))
    if (
        idempotency_key
        and idempotency_key.startswith(BOT_KEY_PREFIX)
        and not (seat is not None and seat.is_bot)
    ):
        raise ValidationError(gettext(IDEMPOTENCY_KEY_RESERVED))
    if seat is not None and seat.session_id != session.pk:
        raise ValidationError(gettext(SEAT_NOT_IN_SESSION))
    seat_index = None if seat is None else seat.index
    key = idempotency_key or None
    logged = _submit_unchanged(session, action, expected_version, seat_index=seat_index, key=key)
    if logged is None:
        logged = _submit_locked(session, action, expected_version, seat_index=seat_index, key=key)
    return logged


def _is_action(action: object) -> bool:
    return isinstance(action, dict) and isinstance(action.get("type"), str)


def _submit_unchanged(
    session: GameSession,
    action: dict,
    expected_version: int | None,
    *,
    seat_index: int | None,
    key: str | None,
) -> SessionAction | None:
    """The common tap, when nothing has changed since ``session`` was read: no lock to read first
    (the UPDATE's row lock, and the version every writer bumps, keep concurrent writers apart).
    The engine runs before the transaction begins, so no lock is held while it thinks.

    None, with nothing written, whenever the locked path must answer: a version other than the
    one read, a session not running, an action the rules refuse or that is malformed, another
    writer that moved the table on (the UPDATE matched no row), or a key already used (the INSERT
    broke its unique constraint)."""
    if not session.is_running or expected_version not in (None, session.version) or not _is_action(action):
        return None
    try:
        rules = session_rules(session)
        tap = _tap(session, rules, plain_json({**action, "seat": seat_index}, ACTION_NOT_JSON))
    except (RuleError, ValidationError, *MALFORMED):
        return None
    before = versions.version_key(session)
    try:
        with transaction.atomic():
            logged = _written(session, tap, seat_index=seat_index, key=key)
            if logged is not None:
                _told(session, rules, before=before, logged=logged)
    except IntegrityError:
        return None
    return logged


@transaction.atomic
def _submit_locked(
    session: GameSession,
    action: dict,
    expected_version: int | None,
    *,
    seat_index: int | None,
    key: str | None,
) -> SessionAction:
    """The same steps as ``_submit_unchanged`` on the row locked (its UPDATE always matches), after
    what only the row in hand can answer: the action a key already logged, a session not running,
    a stale version."""
    locked = session_locked(session, idempotency_key=key)
    if key and locked.done_id is not None:  # type: ignore[attr-defined]  # annotated by session_locked
        return _done(session, locked, action, seat_index=seat_index)
    if not locked.is_running:
        raise ValidationError(gettext(SESSION_NOT_RUNNING).format(status=locked.get_status_display().lower()))
    if expected_version is not None and expected_version != locked.version:
        raise StaleVersion(locked.version)
    if not _is_action(action):
        raise ValidationError(gettext(ACTION_NOT_AN_OBJECT))
    payload = plain_json({**action, "seat": seat_index}, ACTION_NOT_JSON)
    rules = session_rules(locked)
    try:
        tap = _tap(locked, rules, payload)
    except EngineFailed:
        _engine_failure_logged(locked, payload)
        raise
    before = versions.version_key(locked)
    logged = _written(locked, tap, seat_index=seat_index, key=key)
    if logged is None:  # the row is locked: nobody can have moved it on
        raise StaleVersion(locked.version)
    _told(locked, rules, before=before, logged=logged)
    keep_in_step(session, locked)
    return logged


def _done(
    session: GameSession, locked: GameSession, action: dict, *, seat_index: int | None
) -> SessionAction:
    """The action a key already logged, when sent again with the same action by the same seat."""
    done = SessionAction.objects.get(pk=locked.done_id)  # type: ignore[attr-defined]  # annotated by session_locked
    if done.seat != seat_index:
        raise ValidationError(gettext(IDEMPOTENCY_KEY_OTHER_SEAT))
    if not isinstance(action, dict) or done.payload != plain_json(
        {**action, "seat": seat_index}, ACTION_NOT_JSON
    ):
        raise IdempotencyKeyReused()
    keep_in_step(session, locked)
    return done
