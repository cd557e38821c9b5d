"""Redis stopped and restarted while the site serves: nothing is lost.

The test starts a redis-server of its own on a free port and points the whole site at it (the
cache, Celery's broker, the Redis nudge transport), then stops it and starts it again on the same
port. Redis only carries nudges and cached versions: while it is down, actions are still applied
and committed (the nudge that failed is logged), and afterwards nudges and the polling endpoint
work again. The action count in the database is the proof that none was lost.
"""

import json
import logging
import time

import pytest
import redis
from django.urls import reverse
from rest_framework.test import APIClient

from config.celery import app
from games import versions
from games.live import nudges
from games.models import GameSession, Seat, SessionAction
from games.services.sessions import session_create
from games.services.undo import session_replay
from tests.factories import UserFactory
from tests.guards import HANG_GUARD_SECONDS

pytestmark = [pytest.mark.database, pytest.mark.redis, pytest.mark.django_db(transaction=True)]

PER_PHASE = 5


@pytest.fixture
def site_on_own_redis(site):
    """The site's REDIS_URL, cache and Celery broker all on the test's own Redis (conftest.py)."""
    return site.redis


class Table:
    """The host of a Counting session, submitting table bumps through the API."""

    def __init__(self, session: GameSession):
        self.session = session
        self.client = APIClient()
        self.client.force_authenticate(session.host)
        self.sent: list[str] = []

    def bump(self, key: str):
        version = GameSession.objects.get(pk=self.session.pk).version
        response = self.client.post(
            reverse("api:session-table-action", args=[self.session.pk]),
            {"action": {"type": "bump"}, "expected_version": version},
            format="json",
            HTTP_IDEMPOTENCY_KEY=key,
        )
        self.sent.append(key)
        return response

    def poll(self, seen: int):
        return self.client.get(
            reverse("games:session_version", args=[self.session.pk]),
            {"v": seen, "k": versions.poll_key(self.session.pk)},
        )


def _listen(url: str, session_id: int):
    pubsub = redis.Redis.from_url(url).pubsub()
    pubsub.subscribe(nudges.session_channel(session_id))
    assert pubsub.get_message(timeout=2)["type"] == "subscribe"
    return pubsub


def _nudges(pubsub, count: int) -> list[int]:
    got: list[int] = []
    guard = time.monotonic() + HANG_GUARD_SECONDS
    while len(got) < count and time.monotonic() < guard:
        message = pubsub.get_message(ignore_subscribe_messages=True, timeout=0.5)
        if message:
            got.append(json.loads(message["data"])["version"])
    return got


@pytest.fixture
def table(counting_engine, db):
    session = session_create(game="counting", seat_names=["Anna", "Bruno"], seed=1, host=UserFactory())
    return Table(session)


class RedisRestartTests:
    def test_actions_survive_redis_going_down_and_coming_back(self, site_on_own_redis, table, caplog):
        server = site_on_own_redis
        pk = table.session.pk

        # Up: actions apply, nudges go out, the polling endpoint answers from the cache.
        pubsub = _listen(server.url, pk)
        for i in range(PER_PHASE):
            assert table.bump(f"up-{i}").status_code == 200
        assert _nudges(pubsub, PER_PHASE) == list(range(1, PER_PHASE + 1))
        pubsub.close()
        assert versions.cached_version(pk) == PER_PHASE
        assert table.poll(PER_PHASE).status_code == 204

        # Down: every action is still applied and committed; the failed nudges are logged.
        server.stop()
        caplog.clear()
        with caplog.at_level(logging.ERROR, logger="games.live.nudges"):
            for i in range(PER_PHASE):
                response = table.bump(f"down-{i}")
                assert response.status_code == 200, response.content
        assert SessionAction.objects.filter(session_id=pk).count() == 2 * PER_PHASE
        failed = [r for r in caplog.records if "Nudge transport" in r.getMessage()]
        assert len(failed) >= PER_PHASE  # cache and pub/sub, for each action

        # Back (an empty Redis on the same port): nudges and the polling endpoint work again.
        server.start()
        response = table.poll(PER_PHASE)  # the cache lost everything: read from the database
        assert response.status_code == 200 and response.json()["version"] == 2 * PER_PHASE
        assert table.poll(2 * PER_PHASE).status_code == 204
        pubsub = _listen(server.url, pk)
        for i in range(PER_PHASE):
            assert table.bump(f"back-{i}").status_code == 200
        assert _nudges(pubsub, PER_PHASE) == list(range(2 * PER_PHASE + 1, 3 * PER_PHASE + 1))
        pubsub.close()
        assert versions.cached_version(pk) == 3 * PER_PHASE
        assert table.poll(3 * PER_PHASE).status_code == 204

        # Nothing lost, nothing twice.
        fresh = GameSession.objects.get(pk=pk)
        keys = list(fresh.actions.order_by("seq").values_list("idempotency_key", flat=True))
        assert keys == table.sent
        assert fresh.version == 3 * PER_PHASE and fresh.state["total"] == 3 * PER_PHASE
        assert fresh.state == session_replay(session=fresh)

    def test_the_polling_endpoint_answers_while_redis_is_down(self, site_on_own_redis, table):
        """The cache is only a shortcut: with Redis down the version comes from the database."""
        assert table.bump("up-0").status_code == 200
        site_on_own_redis.stop()
        assert table.bump("down-0").status_code == 200
        response = table.poll(1)
        assert response.status_code == 200, response.status_code
        assert response.json()["version"] == 2
        assert table.poll(2).status_code == 204

    def test_an_action_waking_a_bot_while_redis_is_down_is_kept(self, site_on_own_redis, counting_engine):
        """The bot's turn comes while the broker is down: the action is committed and answered,
        the bot task that could not be sent is logged (the next change wakes the bot again)."""
        app.conf.task_always_eager = False
        session = session_create(game="counting", seat_names=["Anna", "Bot"], seed=1)
        Seat.objects.filter(session=session, index=1).update(is_bot=True)
        GameSession.objects.filter(pk=session.pk).update(has_bots=True)
        anna = session.seats.get(index=0)
        site_on_own_redis.stop()
        response = APIClient().post(
            reverse("api:seat-action-submit", args=[session.pk, 0]),
            {"action": {"type": "add", "amount": 1}, "expected_version": 0},
            format="json",
            HTTP_X_SEAT_TOKEN=anna.token,
            HTTP_IDEMPOTENCY_KEY="anna-1",
        )
        assert response.status_code == 200, response.status_code
        assert list(
            SessionAction.objects.filter(session=session).values_list("idempotency_key", flat=True)
        ) == ["anna-1"]
