"""celery beat closes abandoned sessions; bots' idempotency keys are theirs."""

import datetime
import re

import pytest
from django.utils import timezone

from config.celery import app
from games.models import GameSession
from games.services.sessions import session_cleanup_abandoned, session_create
from games.tasks import session_cleanup_task

pytestmark = [pytest.mark.database, pytest.mark.django_db]


class SessionCleanupTests:
    def test_only_sessions_idle_longer_than_the_limit_are_abandoned(self):
        idle = session_create(game="for_the_king", seat_names=["A", "B", "C"])
        busy = session_create(game="for_the_king", seat_names=["A", "B", "C"])
        GameSession.objects.filter(pk=idle.pk).update(
            last_activity=timezone.now() - datetime.timedelta(days=2)
        )
        assert session_cleanup_abandoned() == 1
        assert session_cleanup_abandoned() == 0  # idempotent
        idle.refresh_from_db()
        busy.refresh_from_db()
        assert idle.status == "abandoned" and busy.status == "active"

    def test_the_beat_schedule_names_the_task(self):
        entry = app.conf.beat_schedule["close-abandoned-sessions"]
        assert entry["task"] == session_cleanup_task.name


class BotKeyTests:
    def test_a_player_cannot_take_a_bot_s_idempotency_key(self):
        from django.core.exceptions import ValidationError

        from games.services.taps import IDEMPOTENCY_KEY_RESERVED, session_submit_action

        session = session_create(game="for_the_king", seat_names=["A", "B", "C"])
        seat = session.seats.get(index=0)
        with pytest.raises(ValidationError, match=re.escape(IDEMPOTENCY_KEY_RESERVED)):
            session_submit_action(
                session=session,
                seat=seat,
                action={"type": "place", "area": "favor"},
                expected_version=None,
                idempotency_key="bot:7",
            )
        assert session.actions.count() == 1


class BotWakeTests:
    def test_a_bot_whose_wake_up_was_lost_is_woken_and_plays_once(self):
        from unittest import mock

        from games.services.bots import session_bots_wake

        # The broker is unreachable when the bot's turn comes: its wake-up is lost.
        with mock.patch("games.tasks.bot_move_task.delay", side_effect=ConnectionError("broker down")):
            session = session_create(game="for_the_king", seat_names=["Bot", "B", "C"], bot_seats=[0, 1, 2])
        session.refresh_from_db()
        version = session.version
        GameSession.objects.filter(pk=session.pk).update(
            last_activity=timezone.now() - datetime.timedelta(minutes=5)
        )
        assert session_bots_wake() == 1  # Celery is eager here: the bots play on
        session.refresh_from_db()
        assert session.version > version
        keys = list(session.actions.exclude(idempotency_key=None).values_list("idempotency_key", flat=True))
        assert len(keys) == len(set(keys))
