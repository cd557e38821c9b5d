"""The only writers of game sessions (docs/architecture.md section 4).

A session's state is the fold of its action log over the engine's setup; the cached ``state`` is
that fold, kept so reads are cheap. Every change runs in one transaction with the session row
locked, bumps ``version`` and nudges the clients after the commit (``games.nudges``).
"""

from __future__ import annotations

import datetime
import json
import logging
import random
import secrets
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import OuterRef, Subquery
from django.utils import timezone

from config.celery import app as celery_app
from config.json_limits import STORED_JSON_MAX_DEPTH, json_depth_exceeds, json_number_out_of_range
from games import nudges, selectors
from games.engines.kernel.bots import bot_choose_action
from games.engines.kernel.choices import unknown_keys
from games.engines.kernel.errors import RuleError
from games.engines.kernel.registry import get_game
from games.engines.kernel.rules import GameRules
from games.engines.kernel.text import has_control_characters, json_text_refused
from games.models import GameSession, Seat, SessionAction, SessionSnapshot, new_seat_token

logger = logging.getLogger(__name__)

SEAT_COLOURS = ["red", "blue", "green", "yellow", "purple", "orange", "teal", "grey"]
MAX_SEAT_NAME = 80
MAX_IDEMPOTENCY_KEY = 100
# What an undo changes on the session row (the rest, config and seed among them, stays as it is).
UNDO_WRITES = ["state", "version", "last_activity", "status", "updated"]
SNAPSHOT_EVERY = 100  # a snapshot of the state every this many logged actions (undo replays from it)
# The bots' task, sent by its name: the tasks import the services (in their bodies), never the other
# way round, so the two modules make no circle (games/tasks.py registers it; GamesConfig.ready()).
BOT_MOVE_TASK = "games.tasks.bot_move_task"

UNKNOWN_GAME = "There is no game called {slug!r}."
GAME_NOT_READY = "{slug} cannot be played yet: its rules are not installed."
SEAT_COUNT = "{game} is played by {min} to {max} players; got {count}."
SEAT_NAME_REQUIRED = "Every seat needs a name."
SEAT_NAME_INVALID = "A seat name cannot hold control characters."
SEAT_NAME_TOO_LONG = f"A seat name has at most {MAX_SEAT_NAME} characters."
SEAT_NAME_TWICE = "Two seats are called {name}."
CONFIG_NOT_A_DICT = "The game settings must be an object."
CONFIG_SEATS = "The game settings list {got} seats for {count} seat names."
BOT_SEAT_UNKNOWN = "There is no seat {index} to give to a bot."
SETUP_REFUSED = "The game could not be set up: {message}"
SESSION_NOT_RUNNING = "This session is not running (it is {status})."
SEAT_NOT_IN_SESSION = "This seat belongs to another session."
ACTION_NOT_AN_OBJECT = "An action must be an object with a 'type'."
ACTION_NOT_JSON = "An action must be plain JSON."
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
NOTHING_TO_UNDO = "There is nothing to undo."
LOG_OF_OLDER_RULES = (
    "This game's log holds a move today's rules no longer have (it was played with an older Chronicle), "
    "so it cannot be replayed to undo: finish the game from here, or abandon it."
)
ONLY_HOST_UNDOES = "Only the host can undo."
NOT_UNDOABLE = "“{label}” cannot be undone: it revealed hidden information."
CANNOT_UNDO_NOW = "An abandoned session cannot be changed."
SESSION_ALREADY_OVER = "This session is already {status}."
SEAT_ALREADY_CLAIMED = "{name}'s seat is already taken."
GAME_OVER_NO_UNDO = "The game is over: its last action cannot be undone."
SEAT_JOINED_BY_PHONE = (
    "{name}'s seat was joined by a phone: only that phone can take it. "
    "To move it to another phone, show its code again or give it a new code first."
)
SEAT_IS_A_BOT = "{name} is played by a bot: a bot seat has no code."
SEAT_CODE_SESSION_OVER = "This session is over: its seats are closed."
SESSION_NOT_ABANDONED = "Only an abandoned session can be resumed; this one is {status}."


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


def _rules(slug: str) -> GameRules:
    try:
        return get_game(slug)
    except KeyError:
        raise ValidationError(UNKNOWN_GAME.format(slug=slug)) from None
    except (ImportError, AttributeError):
        raise ValidationError(GAME_NOT_READY.format(slug=slug)) from None


def session_rules(session: GameSession) -> GameRules:
    return _rules(session.game)


def _plain_json(value: Any, message: str) -> Any:
    """What the database will give back: the engine sees exactly what the log stores. (PostgreSQL
    JSON cannot hold a NUL character, so none gets that far.)"""
    try:
        text = json.dumps(value)
    except (TypeError, ValueError):
        raise ValidationError(message) from None
    if "\\u0000" in text:
        raise ValidationError(message)
    return json.loads(text)


def _lock(
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


def _done_with(idempotency_key: str, session):
    """The action logged with this key in the session (at most one: a unique constraint)."""
    return SessionAction.objects.filter(session=session, idempotency_key=idempotency_key).order_by()


def _sync(target: GameSession, source: GameSession) -> None:
    """Keep the caller's object in step with the locked row we changed."""
    for field in ("status", "version", "state", "state_kept_digest", "last_activity", "updated", "last_seq"):
        setattr(target, field, getattr(source, field))


def _bot_can_act(session: GameSession, rules: GameRules) -> bool:
    if not session.is_running:
        return False
    if not session.has_bots:  # on the session row: no query
        return False
    active = set(rules.active_seats(session.state))
    return any(s.index in active for s in session.seats.all() if s.is_bot)


def _after_change(session: GameSession, rules: GameRules) -> None:
    """Nudge the clients, and wake a bot when one can act (both after the commit)."""
    nudges.notify_session_changed(session)
    if _bot_can_act(session, rules):
        session_id, version = session.pk, session.version
        # robust: a broker outage is logged, never turned into an error for a committed action.
        transaction.on_commit(lambda: _wake_bots(session_id, version), robust=True)


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


def _wake_bots(session_id: int, version: int) -> None:
    """Send the bots' task by name (eager without a broker, as every task: it is the registered
    task object's ``delay``)."""
    celery_app.tasks[BOT_MOVE_TASK].delay(session_id, version)


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
    after = _plain_json(new_state, ACTION_NOT_JSON)
    return after, _label(session, rules, action, after)


MALFORMED = (KeyError, IndexError, TypeError, ValueError, AttributeError)


def _label(session: GameSession, rules: GameRules, action: dict, new_state: dict) -> str:
    """The log's words for ``action``, which takes the session's state to ``new_state``."""
    try:
        said = rules.describe(session.state, action, new_state)
        return said[: SessionAction._meta.get_field("label").max_length]
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


def _append(
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


# ---- Sessions ----------------------------------------------------------------------------


def _seat_names_clean(rules: GameRules, seat_names: list[str]) -> list[str]:
    names = [(n or "").strip() for n in seat_names]
    if not rules.min_seats <= len(names) <= rules.max_seats:
        raise ValidationError(
            SEAT_COUNT.format(game=rules.name, min=rules.min_seats, max=rules.max_seats, count=len(names))
        )
    if not all(names):
        raise ValidationError(SEAT_NAME_REQUIRED)
    if any(has_control_characters(n) for n in names):
        raise ValidationError(SEAT_NAME_INVALID)
    if any(len(n) > MAX_SEAT_NAME for n in names):
        raise ValidationError(SEAT_NAME_TOO_LONG)
    seen: set[str] = set()
    for n in names:
        if n.casefold() in seen:
            raise ValidationError(SEAT_NAME_TWICE.format(name=n))
        seen.add(n.casefold())
    return names


def _config_with_seats(config: dict | None, names: list[str]) -> dict:
    """The engine's config: the given settings, with each seat's extras and its name."""
    extra = dict(config or {}) if isinstance(config or {}, dict) else None
    if extra is None:
        raise ValidationError(CONFIG_NOT_A_DICT)
    seat_extras = extra.pop("seats", None) or [{} for _ in names]
    if not isinstance(seat_extras, list) or len(seat_extras) != len(names):
        got = len(seat_extras) if isinstance(seat_extras, list) else "no"
        raise ValidationError(CONFIG_SEATS.format(got=got, count=len(names)))
    seats_config = [
        {**(x if isinstance(x, dict) else {}), "name": n} for x, n in zip(seat_extras, names, strict=True)
    ]
    return _plain_json({"seats": seats_config, **extra}, CONFIG_NOT_A_DICT)


@transaction.atomic
def session_create(
    *,
    game: str,
    seat_names: list[str],
    host=None,
    config: dict | None = None,
    seed: int | None = None,
    campaign=None,
    chronicle_game=None,
    bot_seats: list[int] | None = None,
) -> GameSession:
    """Set up a game for the named seats (in table order), deal when the engine hides cards
    (logged as action 1, not undoable) and start it. ``config["seats"]`` may carry extra
    per-seat settings; the names always come from ``seat_names``."""
    rules = _rules(game)
    names = _seat_names_clean(rules, seat_names)
    full_config = _config_with_seats(config, names)
    bots = set(bot_seats or [])
    for index in bots:
        if not isinstance(index, int) or not 0 <= index < len(names):
            raise ValidationError(BOT_SEAT_UNKNOWN.format(index=index))
    seed = secrets.randbelow(2**31) if seed is None else seed

    try:
        state = _plain_json(rules.setup(full_config, seed), ACTION_NOT_JSON)
    except RuleError as exc:
        raise ValidationError(SETUP_REFUSED.format(message=exc.message)) from exc

    session = GameSession(
        game=game,
        config=full_config,
        seed=seed,
        status=GameSession.Status.ACTIVE,
        version=0,
        state=state,
        has_bots=bool(bots),
        host=host,
        campaign=campaign,
        chronicle_game=chronicle_game,
    )
    session.full_clean()
    session.save()
    for index, name in enumerate(names):
        Seat.objects.create(
            session=session,
            index=index,
            name=name,
            colour=SEAT_COLOURS[index % len(SEAT_COLOURS)],
            is_bot=index in bots,
        )
    if rules.opening_action is not None:
        _append(session=session, rules=rules, action=dict(rules.opening_action), seat_index=None)
    # The first version's facts, read once the night that creates the session has set its seats
    # (a campaign night gives them their Houses' colours and players in the same transaction): the
    # next writers make theirs from them.
    transaction.on_commit(lambda: selectors.session_version_facts(session=session), robust=True)
    _after_change(session, rules)
    return session


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
        payload = _plain_json({**action, "seat": seat_index}, ACTION_NOT_JSON)
        _action_checked(session, rules, payload)
        new_state = _plain_json(rules.apply(session.state, payload), ACTION_NOT_JSON)
    except (RuleError, ValidationError, *MALFORMED):
        return None
    changes = _changes(session, rules, new_state)
    label = _label(session, rules, payload, new_state)
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
            _after_change(session, rules)
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
    locked = _lock(session, idempotency_key=key)
    if key and locked.done_id is not None:  # type: ignore[attr-defined]  # annotated by _lock
        done = SessionAction.objects.get(pk=locked.done_id)  # type: ignore[attr-defined]  # annotated by _lock
        if done.seat != seat_index:
            raise ValidationError(IDEMPOTENCY_KEY_OTHER_SEAT)
        if not isinstance(action, dict) or done.payload != _plain_json(
            {**action, "seat": seat_index}, ACTION_NOT_JSON
        ):
            raise IdempotencyKeyReused()
        _sync(session, locked)
        return done
    if not locked.is_running:
        raise ValidationError(SESSION_NOT_RUNNING.format(status=locked.get_status_display().lower()))
    if expected_version is not None and expected_version != locked.version:
        raise StaleVersion(locked.version)
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise ValidationError(ACTION_NOT_AN_OBJECT)
    payload = _plain_json({**action, "seat": seat_index}, ACTION_NOT_JSON)
    rules = session_rules(locked)
    before = selectors.version_key(locked)
    logged = _append(session=locked, rules=rules, action=payload, seat_index=seat_index, idempotency_key=key)
    _keep_version_facts(locked, before=before, logged=logged)
    _after_change(locked, rules)
    _sync(session, locked)
    return logged


def _replay(session: GameSession, rules: GameRules) -> dict:
    state = rules.setup(session.config, session.seed)
    for payload in session.actions.filter(undone=False).order_by("seq").values_list("payload", flat=True):
        rules.apply_in_place(state, payload)  # a state of its own: no copy per action
    return _plain_json(state, ACTION_NOT_JSON)


def _replay_from_snapshot(session: GameSession, rules: GameRules, *, before: int) -> dict:
    """The state without the action ``before`` (just undone): the nearest snapshot before it,
    then the actions in force after that snapshot. Snapshots from ``before`` on counted the undone
    action: they go."""
    session.snapshots.filter(seq__gte=before).delete()
    # Only the snapshot's state: not what a reader folded beside it (``told``, a night's story).
    base = session.snapshots.filter(seq__lt=before).order_by("-seq").values_list("seq", "state").first()
    since, state = base if base is not None else (0, rules.setup(session.config, session.seed))
    actions = session.actions.filter(undone=False, seq__gt=since)
    try:
        for payload in actions.order_by("seq").values_list("payload", flat=True):
            rules.apply_in_place(state, payload)  # read from the database or set up: its own
    except RuleError as error:  # the undo's transaction rolls back: nothing is marked undone
        raise ValidationError(LOG_OF_OLDER_RULES) from error
    # No JSON round trip: the engines fold plain JSON (the snapshot, the payloads, the setup) into
    # plain JSON (tests/integration/games/test_split_state.py), and the row's save encodes it.
    return state


def session_replay(*, session: GameSession) -> dict:
    """The truth: the log (without undone actions) folded over the setup. Writes nothing."""
    return _replay(session, session_rules(session))


def session_snapshots_keep_told(*, told: dict[int, dict]) -> None:
    """Keep readers' folds of the log (nights' stories), each beside the snapshot it was folded up
    to ({snapshot id: told}), so the next reader resumes there: one query. A cache of the log like
    the snapshots: one an undo dropped meanwhile keeps nothing (a new one has a new id)."""
    SessionSnapshot.objects.bulk_update(
        [SessionSnapshot(pk=pk, told=value) for pk, value in told.items()], ["told"]
    )


@transaction.atomic
def session_undo(*, session: GameSession, by) -> GameSession:
    """The host drops the last action still in force, when the engine allows it; the state is
    rebuilt by replay from the nearest snapshot. The action stays in the log, marked undone.

    What it reads and writes does not grow with the night but for the state itself: the session
    row is locked without its cached state (rebuilt, never read), the snapshot and the actions
    after it are read once, and only the fields that change are written."""
    locked = _lock(session, without_state=True)
    if locked.host_id is None or by is None or getattr(by, "pk", None) != locked.host_id:
        raise ValidationError(ONLY_HOST_UNDOES)
    if locked.status == GameSession.Status.ABANDONED:
        raise ValidationError(CANNOT_UNDO_NOW)
    if locked.status == GameSession.Status.FINISHED:
        raise ValidationError(GAME_OVER_NO_UNDO)
    last = locked.actions.filter(undone=False).order_by("-seq").first()
    if last is None:
        raise ValidationError(NOTHING_TO_UNDO)
    rules = session_rules(locked)
    opening = last.seq == 1 and rules.opening_action is not None
    if opening or not selectors.session_action_undoable(session=locked, action=last):
        raise ValidationError(NOT_UNDOABLE.format(label=last.label))
    last.undone = True
    last.save(update_fields=["undone"])
    locked.state = _replay_from_snapshot(locked, rules, before=last.seq)
    locked.version += 1
    locked.last_activity = timezone.now()
    locked.status = GameSession.Status.FINISHED if rules.is_over(locked.state) else GameSession.Status.ACTIVE
    locked.save(update_fields=UNDO_WRITES)
    _after_change(locked, rules)
    _sync(session, locked)
    return session


@transaction.atomic
def session_abandon(*, session: GameSession) -> GameSession:
    locked = _lock(session)
    if locked.status in (GameSession.Status.FINISHED, GameSession.Status.ABANDONED):
        raise ValidationError(SESSION_ALREADY_OVER.format(status=locked.get_status_display().lower()))
    locked.status = GameSession.Status.ABANDONED
    locked.version += 1
    locked.last_activity = timezone.now()
    locked.save()
    nudges.notify_session_changed(locked)
    _sync(session, locked)
    return session


@transaction.atomic
def session_resume(*, session: GameSession) -> GameSession:
    """An abandoned session goes on where it stopped: its log and state are untouched, only its
    status is running again (who may, and when, is the caller's rule: a campaign's night)."""
    locked = _lock(session)
    if locked.status != GameSession.Status.ABANDONED:
        raise ValidationError(SESSION_NOT_ABANDONED.format(status=locked.get_status_display().lower()))
    locked.status = GameSession.Status.ACTIVE
    locked.version += 1
    locked.last_activity = timezone.now()
    locked.save()
    _after_change(locked, session_rules(locked))
    _sync(session, locked)
    return session


@transaction.atomic
def session_night_saved(*, session: GameSession, chronicle_game) -> GameSession:
    """A campaign night's session learns the Realm Chronicles game it was saved as."""
    locked = _lock(session, without_state=True)
    locked.chronicle_game = chronicle_game
    locked.save(update_fields=["chronicle_game", "updated"])
    session.chronicle_game, session.updated = chronicle_game, locked.updated
    return session


@transaction.atomic
def session_seat_claim(*, session: GameSession, seat: Seat, user, by_phone: bool = False) -> Seat:
    """A logged-in player links a seat to their account (the token still works for the seat).
    A seat a phone has joined is that phone's: only a claim made with its token (``by_phone``)
    may take it, never the host reading it from the side."""
    if seat.session_id != session.pk:
        raise ValidationError(SEAT_NOT_IN_SESSION)
    row = _lock(session)  # the session first, as every writer locks
    locked = Seat.objects.select_for_update().get(pk=seat.pk)
    if locked.user_id is not None and locked.user_id != user.pk:
        raise ValidationError(SEAT_ALREADY_CLAIMED.format(name=locked.name))
    if locked.joined_at is not None and not by_phone and locked.user_id != user.pk:
        raise ValidationError(SEAT_JOINED_BY_PHONE.format(name=locked.name))
    if locked.user_id != user.pk:
        locked.user = user
        locked.save(update_fields=["user"])
        _seats_changed(session, row)
    seat.user = user
    return seat


def _seats_changed(session: GameSession, locked: GameSession) -> None:
    """A seat's player or code changed: the version moves on, so that every screen draws the
    seats anew (selectors.session_version_facts) and a phone holding an old code finds out at once."""
    locked.version += 1
    locked.save(update_fields=["version", "updated"])
    nudges.notify_session_changed(locked)
    _sync(session, locked)


# ---- Seat codes (join tokens) -------------------------------------------------------------


def seat_mark_joined(*, seat: Seat) -> Seat:
    """A phone opened the seat with its token: the table stops showing its code. Only the first
    opening writes (one conditional UPDATE); bots and closed sessions are left alone."""
    if seat.joined_at is None and not seat.is_bot:
        now = timezone.now()
        if Seat.objects.filter(pk=seat.pk, joined_at__isnull=True).update(joined_at=now):
            seat.joined_at = now
    return seat


def _seat_code_change(seat: Seat) -> tuple[GameSession, Seat]:
    """The locked session and seat, when the seat's code may be shown or changed."""
    locked = _lock(seat.session)
    if not locked.is_running:
        raise ValidationError(SEAT_CODE_SESSION_OVER)
    row = Seat.objects.select_for_update().get(pk=seat.pk)
    if row.is_bot:
        raise ValidationError(SEAT_IS_A_BOT.format(name=row.name))
    return locked, row


@transaction.atomic
def seat_show_code_again(*, seat: Seat) -> Seat:
    """The host shows a seat's code on the table again (the same token: a phone that was closed
    or lost on the table, when nobody else can have read it)."""
    _, row = _seat_code_change(seat)
    row.joined_at = None
    row.save(update_fields=["joined_at"])
    seat.joined_at = None
    return seat


@transaction.atomic
def seat_rotate_token(*, seat: Seat) -> Seat:
    """A new code for the seat (a lost or photographed one): the old token stops opening it, the
    account linked through the old one is unlinked, and the new code is shown on the table. The
    session's version moves on so the phone that had the old token finds out at once."""
    locked, row = _seat_code_change(seat)
    row.token = new_seat_token()
    row.joined_at = None
    row.user = None
    row.full_clean()
    row.save(update_fields=["token", "joined_at", "user"])
    _seats_changed(seat.session, locked)
    seat.token, seat.joined_at, seat.user = row.token, None, None
    return seat


# ---- Bots --------------------------------------------------------------------------------


@transaction.atomic
def session_bot_move(*, session_id: int, expected_version: int | None = None) -> SessionAction | None:
    """One move of the first bot seat that can act (None when no bot can). The bot's choice is
    seeded from the session seed and version, so a bot game replays.

    Idempotent (a worker killed after the commit, before the ack, runs the task again): the move
    is logged with the key ``bot:<version it was chosen at>``. With ``expected_version`` (the
    version the task was sent for), a table that moved on since means that move is done or
    superseded: nothing is played (the change that moved it on has woken the bots itself)."""
    session = GameSession.objects.select_for_update().get(pk=session_id)
    if not session.is_running:
        return None
    if expected_version is not None and expected_version != session.version:
        return None
    rules = session_rules(session)
    for seat in session.seats.filter(is_bot=True).order_by("index"):
        rng = random.Random(f"{session.seed}:{session.version}:bot")
        action = bot_choose_action(rules, session.state, seat.index, rng)
        if action is not None:
            return session_submit_action(
                session=session,
                seat=seat,
                action=action,
                expected_version=session.version,
                idempotency_key=f"{BOT_KEY_PREFIX}{session.version}",
            )
    return None


ABANDON_AFTER = datetime.timedelta(hours=12)


def session_cleanup_abandoned(*, older_than: datetime.timedelta = ABANDON_AFTER) -> int:
    """Close sessions nobody has acted in for a while (celery beat). Idempotent: each session is
    abandoned under its own row lock and skipped if another worker got there first. A campaign's
    night is never closed by the clock: a night stopped late goes on the next evening (its table
    page says nothing of a closing; a table without a campaign says when it will close)."""
    cutoff = timezone.now() - older_than
    closed = 0
    stale = GameSession.objects.filter(
        status__in=[GameSession.Status.LOBBY, GameSession.Status.ACTIVE],
        last_activity__lt=cutoff,
        campaign__isnull=True,
    )
    for session_id in stale.values_list("pk", flat=True):
        with transaction.atomic():
            session = GameSession.objects.select_for_update().get(pk=session_id)
            if (
                session.status in (GameSession.Status.LOBBY, GameSession.Status.ACTIVE)
                and session.last_activity < cutoff
                and session.campaign_id is None
            ):
                session_abandon(session=session)
                closed += 1
    return closed


BOT_STALL = datetime.timedelta(minutes=1)


def session_bots_wake(*, idle_for: datetime.timedelta = BOT_STALL) -> int:
    """Re-send the wake-up of bots whose turn came while the broker was unreachable (celery beat).
    The move itself is idempotent by version, so a bot woken twice still plays once."""
    cutoff = timezone.now() - idle_for
    woken = 0
    idle = GameSession.objects.filter(
        status=GameSession.Status.ACTIVE, last_activity__lt=cutoff, seats__is_bot=True
    ).distinct()
    for session in idle:
        if _bot_can_act(session, session_rules(session)):
            _wake_bots(session.pk, session.version)
            woken += 1
    return woken
