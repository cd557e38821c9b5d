"""Celery tasks: thin wrappers that load by id and call a service."""

import datetime
import threading

from celery import Task, shared_task

from config.celery import RETRY

# A bot game can run hundreds of moves. Each move enqueues the next one after its commit; with a
# worker that is one task per move, but eager Celery (no Redis) would run them nested, one stack
# frame deeper per move. The outermost eager call therefore loops instead of nesting.
MAX_MOVES_PER_CALL = 5000
_local = threading.local()


@shared_task(name="games.tasks.bot_move_task", bind=True, acks_late=True, reject_on_worker_lost=True, **RETRY)
def bot_move_task(self: Task, session_id: int, version: int | None = None) -> int:
    """Play the bots' moves for a session; returns how many were played in this call.

    ``version``: the session version the task was sent for. A task delivered again (a worker
    killed before the ack) then plays nothing once the table has moved on."""
    from games.services.bots import session_bot_move

    running: set[int] = _local.__dict__.setdefault("running", set())
    pending: set[int] = _local.__dict__.setdefault("pending", set())
    if session_id in running:
        pending.add(session_id)
        return 0
    running.add(session_id)
    moves = 0
    try:
        expected: int | None = version
        while moves < MAX_MOVES_PER_CALL:
            pending.discard(session_id)
            if session_bot_move(session_id=session_id, expected_version=expected) is None:
                break
            expected = None  # the next moves were asked for by the move just played
            moves += 1
            if session_id not in pending:
                break
    finally:
        running.discard(session_id)
        pending.discard(session_id)
    return moves


@shared_task(bind=True, acks_late=True, **RETRY)
def session_cleanup_task(self: Task) -> int:
    """celery beat: close abandoned sessions."""
    from games.services.sessions import session_cleanup_abandoned

    return session_cleanup_abandoned()


@shared_task(bind=True, acks_late=True, **RETRY)
def session_bots_wake_task(self: Task) -> int:
    """celery beat, every CHRONICLE_BOTS_WAKE_SECONDS: wake bots whose turn came while the broker
    was down (idle that long), so they play again within seconds of Redis coming back."""
    from django.conf import settings

    from games.services.bots import session_bots_wake

    return session_bots_wake(idle_for=datetime.timedelta(seconds=settings.CHRONICLE_BOTS_WAKE_SECONDS))
