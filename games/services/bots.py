"""The bots: one move of a bot seat that can act, and the wake-up of bots a lost message left idle."""

from __future__ import annotations

import datetime
import random

from django.db import transaction
from django.utils import timezone

from games.engines.kernel.bots import bot_choose_action
from games.models import GameSession, SessionAction
from games.services.taps import BOT_KEY_PREFIX, bot_can_act, session_rules, session_submit_action, wake_bots


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
        if bot_can_act(session, session_rules(session)):
            wake_bots(session.pk, session.version)
            woken += 1
    return woken
