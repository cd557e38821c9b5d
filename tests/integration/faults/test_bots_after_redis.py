"""Bots play again within seconds of Redis coming back (issue 25: they took 66 to 112 s).

A human's move gives the bot its turn while Redis is down: the move is committed, the bot's task
cannot be sent. Redis comes back; the worker (started before the outage) reconnects on its own, and
beat's wake-up (every CHRONICLE_BOTS_WAKE_SECONDS, here sent by the test as beat would) finds the
session idle that long and wakes the bot, which plays once.
"""

import datetime

import pytest
from django.conf import settings as django_settings
from django.utils import timezone

from games.models import GameSession, Seat
from games.services.sessions import session_create
from games.services.taps import session_submit_action
from games.services.undo import session_replay
from games.tasks import session_bots_wake_task
from tests.integration.faults.conftest import forget_celery_connections, wait_for

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.django_db(transaction=True)]


class BotsAfterRedisTests:
    def test_a_bot_woken_while_redis_was_down_plays_once_redis_is_back(
        self, site, worker_process, counting_engine
    ):
        from config.celery import app

        worker = worker_process(broker_url=site.redis.url, media_root=site.media)
        site.send_to(worker.queue)
        worker.start()
        session = session_create(game="counting", seat_names=["Anna", "Bot"], seed=1)
        Seat.objects.filter(session=session, index=1).update(is_bot=True)
        GameSession.objects.filter(pk=session.pk).update(has_bots=True)

        site.redis.stop()
        session_submit_action(
            session=session, seat=session.seats.get(index=0), action={"type": "add", "amount": 1},
            expected_version=0, idempotency_key="anna-1",
        )  # fmt: skip
        assert GameSession.objects.get(pk=session.pk).state["turn"] == 1  # the bot's turn, no task sent

        site.redis.start()
        forget_celery_connections(app)
        # One wake interval has passed since Anna's move (moved back rather than waited for).
        idle = datetime.timedelta(seconds=django_settings.CHRONICLE_BOTS_WAKE_SECONDS + 1)
        GameSession.objects.filter(pk=session.pk).update(last_activity=timezone.now() - idle)
        sent = session_bots_wake_task.delay()

        wait_for(lambda: worker.finished(sent.id), what="the reconnected worker to run the wake-up")
        wait_for(lambda: GameSession.objects.get(pk=session.pk).state["turn"] == 0, what="the bot's move")
        fresh = GameSession.objects.get(pk=session.pk)
        keys = list(fresh.actions.order_by("seq").values_list("idempotency_key", flat=True))
        assert keys == ["anna-1", "bot:1"], worker.log_tail()
        assert fresh.state == session_replay(session=fresh)
        assert " SUCCESS 1" in worker.finished(sent.id)[0]  # one bot woken
