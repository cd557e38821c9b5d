"""Nudges: published after the commit only, carrying nothing but the version."""

import json
import random
import time

import pytest

from games import versions
from games.live import nudges
from games.services.taps import session_submit_action
from tests.guards import HANG_GUARD_SECONDS
from tests.integration.games.conftest import acting_seat, new_session

pytestmark = [pytest.mark.database, pytest.mark.django_db]


class NudgeTests:
    def test_nothing_is_published_before_the_commit(self, django_capture_on_commit_callbacks, nudge_log):
        with django_capture_on_commit_callbacks(execute=False) as callbacks:
            session = new_session()
        assert nudge_log == []
        for callback in callbacks:
            callback()
        assert [json.loads(m) for _, m in nudge_log] == [
            {"type": "session_version", "session": session.pk, "version": 1}
        ]

    def test_a_refused_action_publishes_nothing(self, django_capture_on_commit_callbacks, nudge_log):
        session = new_session()
        _, seat = acting_seat(session)
        with django_capture_on_commit_callbacks(execute=True), pytest.raises(Exception):  # noqa: B017
            session_submit_action(session=session, seat=seat, action={"type": "bid"}, expected_version=1)
        assert nudge_log == []

    def test_the_cache_never_goes_back_to_an_older_version(self):
        nudges.publish(session_id=5, version=7)
        nudges.publish(session_id=5, version=6)  # a late callback of an older commit
        assert versions.cached_version(5) == 7

    def test_a_failing_transport_does_not_stop_the_others(self, monkeypatch):
        sent = []

        def broken(channel, message):
            raise ConnectionError("down")

        monkeypatch.setattr(nudges, "TRANSPORTS", [broken, lambda c, m: sent.append(c)])
        nudges.publish(session_id=9, version=1)
        assert sent == ["session-9"]


class AfterTheAnswerTests:
    """Over ASGI, a request's nudges go out once its answer has been sent: the tapping phone has its
    answer first, and no answer waits for Redis (games.live.nudges.after_answer, config/asgi.py)."""

    @staticmethod
    def served(app, scope_type="http") -> list:
        """Run ``app`` wrapped for one request; what happened, in order."""
        from asgiref.sync import async_to_sync

        events: list = []

        async def receive():
            return {"type": "http.request", "body": b""}

        async def send(message):
            events.append(("sent", message["type"]))

        async_to_sync(nudges.after_answer(app))({"type": scope_type}, receive, send)
        return events

    def test_the_nudges_of_a_request_go_out_after_its_answer(self, nudge_log):
        from asgiref.sync import sync_to_async

        def view():  # as a view's commit does, in Django's thread for the request
            for version in (3, 5, 4):
                nudges._publish_when_answered(11, version)
            nudges._publish_when_answered(12, 1)

        async def app(scope, receive, send):
            await sync_to_async(view)()
            assert nudge_log == []  # committed, the answer not yet sent
            await send({"type": "http.response.start", "status": 200, "headers": []})
            await send({"type": "http.response.body", "body": b"{}"})

        assert self.served(app) == [("sent", "http.response.start"), ("sent", "http.response.body")]
        # one nudge per session, its newest version
        assert [(json.loads(m)["session"], json.loads(m)["version"]) for _, m in nudge_log] == [
            (11, 5),
            (12, 1),
        ]

    def test_a_failed_answer_still_sends_its_nudges(self, nudge_log):
        async def app(scope, receive, send):
            nudges._publish_when_answered(13, 2)
            raise ConnectionResetError("the phone left")

        with pytest.raises(ConnectionResetError):
            self.served(app)
        assert [json.loads(m)["version"] for _, m in nudge_log] == [2]

    def test_outside_a_request_a_nudge_goes_out_at_once(self, nudge_log):
        nudges._publish_when_answered(14, 1)
        assert [json.loads(m)["session"] for _, m in nudge_log] == [14]

    def test_the_served_application_is_wrapped(self):
        from config import asgi

        assert asgi.application.__qualname__ == "after_answer.<locals>.application"


@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
class RedisNudgeTests:
    def test_a_change_is_published_on_the_session_channel(self, redis_url, settings):
        import redis

        settings.REDIS_URL = redis_url
        session = new_session()
        pubsub = redis.Redis.from_url(redis_url).pubsub()
        pubsub.subscribe(nudges.session_channel(session.pk))
        pubsub.get_message(timeout=1)  # the subscription confirmation
        _, seat = acting_seat(session)
        session_submit_action(
            session=session, seat=seat, action={"type": "place", "area": "favor"}, expected_version=1
        )
        message = None
        guard = time.monotonic() + HANG_GUARD_SECONDS
        while message is None and time.monotonic() < guard:
            message = pubsub.get_message(ignore_subscribe_messages=True, timeout=1)
        pubsub.close()
        assert message is not None
        assert json.loads(message["data"]) == {"type": "session_version", "session": session.pk, "version": 2}

    def test_a_nudge_keeps_the_version_and_publishes_in_one_round_trip(
        self, redis_url, settings, monkeypatch
    ):
        """Production: the cache and the pub/sub are one Redis; a nudge is one pipeline."""
        import redis

        settings.REDIS_URL = redis_url
        settings.CACHES = {"default": {"BACKEND": nudges.REDIS_CACHE, "LOCATION": redis_url}}
        nudges._redis_clients.clear()
        session_id = random.randrange(10**9, 2 * 10**9)  # the test Redis is shared by the workers
        pubsub = redis.Redis.from_url(redis_url).pubsub()
        pubsub.subscribe(nudges.session_channel(session_id))
        pubsub.get_message(timeout=1)  # the subscription confirmation
        nudges.publish(session_id=session_id, version=1)  # connects (the handshake is not a nudge)

        sent: list[bytes] = []
        send = redis.connection.AbstractConnection.send_packed_command

        def counted(connection, command, check_health=True):
            sent.append(command)
            return send(connection, command, check_health)

        monkeypatch.setattr(redis.connection.AbstractConnection, "send_packed_command", counted)
        nudges.publish(session_id=session_id, version=3)
        assert len(sent) == 1  # one write, then both answers read: one round trip
        nudges.publish(session_id=session_id, version=2)  # a late callback of an older commit
        monkeypatch.undo()

        assert versions.cached_version(session_id) == 3  # the cache never goes back
        got = []
        guard = time.monotonic() + HANG_GUARD_SECONDS
        while len(got) < 3 and time.monotonic() < guard:
            message = pubsub.get_message(ignore_subscribe_messages=True, timeout=1)
            if message:
                got.append(json.loads(message["data"])["version"])
        pubsub.close()
        assert got == [1, 3, 2]  # every nudge published, in order
        redis.Redis.from_url(redis_url).delete(
            nudges.cache.make_and_validate_key(versions.version_cache_key(session_id))
        )
        nudges._redis_clients.clear()
