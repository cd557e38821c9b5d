"""A tap: one action of a seat (or of the table) checked, applied by the engine and logged, with a
repeated idempotency key answered by the action it logged."""

from __future__ import annotations

import logging
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from config.json_limits import STORED_JSON_MAX_DEPTH, json_depth_exceeds, json_number_out_of_range
from games import selectors
from games.engines.kernel.choices import unknown_keys
from games.engines.kernel.errors import RuleError
from games.engines.kernel.rules import GameRules
from games.engines.kernel.text import has_control_characters, json_text_refused
from games.models import GameSession, Seat, SessionAction, SessionSnapshot
from games.services.common import (
    ACTION_NOT_JSON,
    SEAT_NOT_IN_SESSION,
    after_change,
    keep_in_step,
    plain_json,
    session_locked,
    session_rules,
)

logger = logging.getLogger(__name__)

MAX_IDEMPOTENCY_KEY = 100
SNAPSHOT_EVERY = 100  # a snapshot of the state every this many logged actions (undo replays from it)
SESSION_NOT_RUNNING = "This session is not running (it is {status})."
ACTION_NOT_AN_OBJECT = "An action must be an object with a 'type'."
IDEMPOTENCY_KEY_TOO_LONG = "An idempotency key has at most 100 characters."
IDEMPOTENCY_KEY_OTHER_SEAT = "This idempotency key was already used by another seat."
IDEMPOTENCY_KEY_OTHER_BODY = (
    "This idempotency key was already used for another action: use a new key for a new action."
)
BOT_KEY_PREFIX = "bot:"
IDEMPOTENCY_KEY_RESERVED = "Idempotency keys starting with 'bot:' are kept for the bots."
ACTION_FAILED = "That action could not be applied."
ACTION_UNKNOWN_KEYS = "This action has no {keys}: send only its type, seat and parameters ({known})."
ACTION_NOT_STORABLE = "An action nests at most {depth} levels and holds whole numbers of at most 64 bits."
ACTION_TEXT_CONTROL = (
    "The action's {key} cannot hold control characters (such as NUL, ESC or U+202E) or half a "
    "character (a lone surrogate)."
)
STALE_VERSION = "The table moved on: here is the new state."


class IdempotencyKeyReused(ValidationError):
    """A key sent again with another action (the API answers 422, Stripe's rule)."""

    def __init__(self):
        super().__init__(IDEMPOTENCY_KEY_OTHER_BODY)


class StaleVersion(Exception):
    """The client acted on an old version of the table (the API answers 409)."""

    def __init__(self, current_version: int, message: str = STALE_VERSION):
        super().__init__(message)
        self.message = message
        self.current_version = current_version
        self.extra = {"version": current_version}


def _keep_version_facts(session: GameSession, *, before: str, logged: SessionAction) -> None:
    """The facts of the version an action just made (its seats, its newest actions), from those of
    the version before (``before``: its key) when a screen or a writer kept them, made and kept at
    the commit (the cache is never asked while the row is locked), before the nudge: the screens
    nudged then find them ready instead of each reading them at once. Without them, the screens
    read them (no query here: a tap's budget). (robust: a cache that fails is a miss for the
    screens, never an error for a committed write.)"""
    key, action = selectors.version_key(session), selectors.logged_action(logged)

    def keep() -> None:
        facts = selectors.version_facts_after(before=before, action=action)
        if facts is not None:
            selectors.version_facts_keep(key=key, facts=facts)

    transaction.on_commit(keep, robust=True)


def _action_checked(session: GameSession, rules: GameRules, action: dict) -> None:
    """What every tap is held to before the rules see it, whoever sends it (a page, the API, a
    bot): keys the offered choice names, texts the campaign archive takes again (one rule:
    ``has_control_characters``). ValidationError: nothing is written."""
    if json_depth_exceeds(action, STORED_JSON_MAX_DEPTH) or json_number_out_of_range(action):
        raise ValidationError(ACTION_NOT_STORABLE.format(depth=STORED_JSON_MAX_DEPTH))
    for key, value in action.items():
        if has_control_characters(key):
            raise ValidationError(ACTION_TEXT_CONTROL.format(key="key"))
        if json_text_refused(value) is not None:
            raise ValidationError(ACTION_TEXT_CONTROL.format(key=repr(key[:40])))
    choices = rules.legal_actions(session.state, action.get("seat"))
    unknown = unknown_keys(choices, action)
    if unknown:
        known = sorted({k for c in choices if c["type"] == action["type"] for k in c["params"]})
        raise ValidationError(
            ACTION_UNKNOWN_KEYS.format(
                keys=", ".join(repr(k[:40]) for k in unknown), known=", ".join(["type", "seat", *known])
            )
        )


def _applied(session: GameSession, rules: GameRules, action: dict) -> tuple[dict, str]:
    """The state after ``action`` (as the database will give it back) and the action's label
    (RuleError: nothing to write)."""
    _action_checked(session, rules, action)
    try:
        new_state = rules.apply(session.state, action)
    except RuleError:
        raise
    except MALFORMED as exc:
        # A malformed action tripped the engine: a 400 for the player, a traceback for us.
        logger.exception("Engine %s failed on %r", session.game, action)
        raise RuleError(ACTION_FAILED) from exc
    return plain_json(new_state, ACTION_NOT_JSON), _label(session, rules, action)


MALFORMED = (KeyError, IndexError, TypeError, ValueError, AttributeError)


def _label(session: GameSession, rules: GameRules, action: dict) -> str:
    try:
        return rules.describe(session.state, action)[: SessionAction._meta.get_field("label").max_length]
    except Exception:  # a label must never lose an action
        logger.exception("Engine %s could not describe %r", session.game, action)
        return str(action.get("type", "?")).replace("_", " ")


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


def _log(
    session: GameSession,
    changes: dict,
    *,
    action: dict,
    label: str,
    undoable: bool,
    seat_index: int | None,
    key: str | None,
) -> SessionAction:
    logged = SessionAction.objects.create(
        session=session,
        seq=changes["last_seq"],
        seat=seat_index,
        payload=action,
        label=label,
        undoable=undoable,
        idempotency_key=key,
        version=changes["version"],
    )
    if logged.seq % SNAPSHOT_EVERY == 0 and "state" in changes:
        SessionSnapshot.objects.create(session=session, seq=logged.seq, state=changes["state"])
    return logged


def action_append(
    *,
    session: GameSession,
    rules: GameRules,
    action: dict,
    seat_index: int | None,
    idempotency_key: str | None = None,
) -> SessionAction:
    """Apply ``action`` to the locked session and log it (RuleError: nothing written)."""
    new_state, label = _applied(session, rules, action)
    undoable = _undoable(session, rules, action, new_state)
    changes = _changes(session, rules, new_state)
    for name, value in changes.items():
        setattr(session, name, value)
    session.save(update_fields=list(changes))
    return _log(
        session,
        changes,
        action=action,
        label=label,
        undoable=undoable,
        seat_index=seat_index,
        key=idempotency_key,
    )


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

    A tap at the table as ``session`` was read (its version, state and log) is applied to that
    state and written by one UPDATE conditional on that version, with no lock to read first
    (``_submit_unchanged``); everything else, and any doubt, takes the locked path.
    """
    if idempotency_key is not None and len(idempotency_key) > MAX_IDEMPOTENCY_KEY:
        raise ValidationError(IDEMPOTENCY_KEY_TOO_LONG)
    if (
        idempotency_key
        and idempotency_key.startswith(BOT_KEY_PREFIX)
        and not (seat is not None and seat.is_bot)
    ):
        raise ValidationError(IDEMPOTENCY_KEY_RESERVED)
    if seat is not None and seat.session_id != session.pk:
        raise ValidationError(SEAT_NOT_IN_SESSION)
    seat_index = None if seat is None else seat.index
    key = idempotency_key or None
    logged = _submit_unchanged(session, action, expected_version, seat_index=seat_index, key=key)
    if logged is None:
        logged = _submit_locked(session, action, expected_version, seat_index=seat_index, key=key)
    return logged


def _submit_unchanged(
    session: GameSession,
    action: dict,
    expected_version: int | None,
    *,
    seat_index: int | None,
    key: str | None,
) -> SessionAction | None:
    """The common tap, when nothing has changed since ``session`` was read: applied to the state
    read with it, then one UPDATE conditional on its version (the row lock it takes, and the
    version every writer bumps, keep concurrent writers apart) and the INSERT of the action.

    None, with nothing written, whenever the locked path must answer: a version other than the
    one read, a session not running, an action the rules refuse or that is malformed (the locked
    path gives the error, with the row in hand), another writer that moved the table on (the
    UPDATE matched no row), or a key already used (the INSERT broke its unique constraint)."""
    if not session.is_running or expected_version not in (None, session.version):
        return None
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        return None
    try:
        rules = session_rules(session)
        payload = plain_json({**action, "seat": seat_index}, ACTION_NOT_JSON)
        _action_checked(session, rules, payload)
        new_state = plain_json(rules.apply(session.state, payload), ACTION_NOT_JSON)
    except (RuleError, ValidationError, *MALFORMED):
        return None
    changes = _changes(session, rules, new_state)
    label = _label(session, rules, payload)
    undoable = _undoable(session, rules, payload, new_state)
    columns = {**changes, **session.state_columns(new_state)}  # the kept part as read with the row
    try:
        with transaction.atomic():
            rows = GameSession.objects.filter(pk=session.pk, version=session.version)
            if not rows.filter(state_kept_digest=session.state_kept_digest).update(**columns):
                return None
            logged = _log(
                session,
                changes,
                action=payload,
                label=label,
                undoable=undoable,
                seat_index=seat_index,
                key=key,
            )
            before = selectors.version_key(session)
            for name, value in changes.items():
                setattr(session, name, value)
            session.state_kept_digest = columns.get("state_kept_digest", session.state_kept_digest)
            _keep_version_facts(session, before=before, logged=logged)
            after_change(session, rules)
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
    locked = session_locked(session, idempotency_key=key)
    if key and locked.done_id is not None:  # type: ignore[attr-defined]  # annotated by session_locked
        done = SessionAction.objects.get(pk=locked.done_id)  # type: ignore[attr-defined]  # annotated by session_locked
        if done.seat != seat_index:
            raise ValidationError(IDEMPOTENCY_KEY_OTHER_SEAT)
        if not isinstance(action, dict) or done.payload != plain_json(
            {**action, "seat": seat_index}, ACTION_NOT_JSON
        ):
            raise IdempotencyKeyReused()
        keep_in_step(session, locked)
        return done
    if not locked.is_running:
        raise ValidationError(SESSION_NOT_RUNNING.format(status=locked.get_status_display().lower()))
    if expected_version is not None and expected_version != locked.version:
        raise StaleVersion(locked.version)
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise ValidationError(ACTION_NOT_AN_OBJECT)
    payload = plain_json({**action, "seat": seat_index}, ACTION_NOT_JSON)
    rules = session_rules(locked)
    before = selectors.version_key(locked)
    logged = action_append(
        session=locked, rules=rules, action=payload, seat_index=seat_index, idempotency_key=key
    )
    _keep_version_facts(locked, before=before, logged=logged)
    after_change(locked, rules)
    keep_in_step(session, locked)
    return logged
