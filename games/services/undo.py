"""Undo and replay: the host drops the last action in force, the state is rebuilt from the nearest
snapshot; the truth is the log folded over the setup."""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy, gettext_noop

from games import selectors
from games.engines.kernel.errors import RuleError
from games.engines.kernel.rules import GameRules
from games.models import GameSession, SessionSnapshot
from games.services.taps import (
    ACTION_NOT_JSON,
    after_change,
    keep_in_step,
    plain_json,
    session_locked,
    session_rules,
)
from games.translation import say_stored

# What an undo changes on the session row (the rest, config and seed among them, stays as it is).
UNDO_WRITES = ["state", "version", "last_activity", "status", "updated"]
NOTHING_TO_UNDO = gettext_noop("There is nothing to undo.")
LOG_OF_OLDER_RULES = gettext_noop(
    "This game's log holds a move today's rules no longer have (it was played with an older Chronicle), "
    "so it cannot be replayed to undo: finish the game from here, or abandon it."
)
ONLY_HOST_UNDOES = gettext_noop("Only the host can undo.")
NOT_UNDOABLE = gettext_lazy("“{label}” cannot be undone: it revealed hidden information.")
CANNOT_UNDO_NOW = gettext_noop("An abandoned session cannot be changed.")
GAME_OVER_NO_UNDO = gettext_noop("The game is over: its last action cannot be undone.")


def _replay(session: GameSession, rules: GameRules) -> dict:
    state = rules.setup(session.config, session.seed)
    for payload in session.actions.filter(undone=False).order_by("seq").values_list("payload", flat=True):
        rules.apply_in_place(state, payload)  # a state of its own: no copy per action
    return plain_json(state, ACTION_NOT_JSON)


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
        raise ValidationError(gettext(LOG_OF_OLDER_RULES)) from error
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
def session_undo(*, session: GameSession, by: User | AnonymousUser | None) -> GameSession:
    """The host drops the last action still in force, when the engine allows it; the state is
    rebuilt by replay from the nearest snapshot. The action stays in the log, marked undone.

    What it reads and writes does not grow with the night but for the state itself: the session
    row is locked without its cached state (rebuilt, never read), the snapshot and the actions
    after it are read once, and only the fields that change are written."""
    locked = session_locked(session, without_state=True)
    if locked.host_id is None or by is None or getattr(by, "pk", None) != locked.host_id:
        raise ValidationError(gettext(ONLY_HOST_UNDOES))
    if locked.status == GameSession.Status.ABANDONED:
        raise ValidationError(gettext(CANNOT_UNDO_NOW))
    if locked.status == GameSession.Status.FINISHED:
        raise ValidationError(gettext(GAME_OVER_NO_UNDO))
    last = locked.actions.filter(undone=False).order_by("-seq").first()
    if last is None:
        raise ValidationError(gettext(NOTHING_TO_UNDO))
    rules = session_rules(locked)
    opening = last.seq == 1 and rules.opening_action is not None
    if opening or not selectors.session_action_undoable(session=locked, action=last):
        # Said in the language of the request being answered, the label too.
        raise ValidationError(NOT_UNDOABLE.format(label=say_stored(last.label_data, english=last.label)))
    last.undone = True
    last.save(update_fields=["undone"])
    locked.state = _replay_from_snapshot(locked, rules, before=last.seq)
    locked.version += 1
    locked.last_activity = timezone.now()
    locked.status = GameSession.Status.FINISHED if rules.is_over(locked.state) else GameSession.Status.ACTIVE
    locked.save(update_fields=UNDO_WRITES)
    after_change(locked, rules)
    keep_in_step(session, locked)
    return session
