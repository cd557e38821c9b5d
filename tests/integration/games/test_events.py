"""Push (games/live/streams.py): a session's event stream carries each nudge, to those who may read it.

The streams are served by Django's ASGI handler (AsyncClient), inside ``async_to_sync`` so that the
views' database work runs in the test's own thread and transaction.
"""

import asyncio
import json
import random
from concurrent.futures import ThreadPoolExecutor

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from django.test import AsyncClient

from games import access, versions
from games.live import nudges, streams
from games.services.taps import session_submit_action
from tests.guards import HANG_GUARD_SECONDS
from tests.integration.games.conftest import new_session, random_move

pytestmark = [pytest.mark.database, pytest.mark.django_db]


def _sse(chunks: list[bytes]) -> list[tuple[str, str, str | None]]:
    """The (event, data, id) of each server-sent event in ``chunks`` (comments and keep-alives out)."""
    out = []
    for block in b"".join(chunks).decode().split("\n\n"):
        fields: dict[str, str] = {}
        for line in block.splitlines():
            if line.startswith(":") or ":" not in line:
                continue
            name, _, value = line.partition(":")
            fields[name] = value.removeprefix(" ")
        if "event" in fields and fields["event"] != "keep-alive":
            out.append((fields["event"], fields.get("data", ""), fields.get("id")))
    return out


async def _open(url: str, **headers):
    response = await AsyncClient().get(url, **headers)
    return response, aiter(response.streaming_content)


async def _next_events(stream, count: int = 1) -> list[tuple[str, str, str | None]]:
    """Read the stream until ``count`` events besides ``stream-open`` came (hang guard only)."""
    chunks: list[bytes] = []
    async with asyncio.timeout(HANG_GUARD_SECONDS):
        while len([e for e in _sse(chunks) if e[0] != "stream-open"]) < count:
            chunks.append(await anext(stream))
    return [e for e in _sse(chunks) if e[0] != "stream-open"]


def _submit(session, django_capture_on_commit_callbacks):
    """One legal action, its nudge sent as after a real commit."""
    session.refresh_from_db()
    seat, action = random_move(session, random.Random(session.version))
    with django_capture_on_commit_callbacks(execute=True):
        session_submit_action(session=session, seat=seat, action=action, expected_version=session.version)
    session.refresh_from_db()
    return session.version


class SessionStreamTests:
    def test_a_nudge_after_a_submit_reaches_a_phone_of_that_session(self, django_capture_on_commit_callbacks):
        session = new_session()
        phone = session.seats.get(index=1)

        async def scenario():
            # as the page opens it: from the version it shows (games/_live.html)
            response, stream = await _open(
                f"/play/seat/{phone.token}/events/?lastEventId=session-{session.pk}:1"
            )
            assert response.status_code == 200
            assert response["Content-Type"] == "text/event-stream"
            assert await anext(stream)  # the stream is open (stream-open, no event yet)
            version = await sync_to_async(_submit)(session, django_capture_on_commit_callbacks)
            return version, await _next_events(stream)

        version, received = async_to_sync(scenario)()
        assert version == 2
        event, data, event_id = received[0]
        assert event == "session_version"
        assert json.loads(data) == {"type": "session_version", "session": session.pk, "version": 2}
        assert event_id == f"session-{session.pk}:2"  # the id is the version: a reconnect resumes there

    def test_a_reconnecting_page_catches_up_from_the_version_it_had(self, django_capture_on_commit_callbacks):
        session = new_session()
        phone = session.seats.get(index=0)
        _submit(session, django_capture_on_commit_callbacks)
        _submit(session, django_capture_on_commit_callbacks)  # version 3, the phone last had 1

        async def scenario(last_event_id):
            _, stream = await _open(
                f"/play/seat/{phone.token}/events/", headers={"Last-Event-ID": last_event_id}
            )
            return await _next_events(stream)

        received = async_to_sync(scenario)(f"session-{session.pk}:1")
        assert [(e, json.loads(d)["version"], i) for e, d, i in received] == [
            ("session_version", 3, f"session-{session.pk}:3")
        ]

    def test_a_page_that_is_up_to_date_gets_nothing_until_the_next_change(
        self, django_capture_on_commit_callbacks
    ):
        session = new_session()
        phone = session.seats.get(index=0)

        async def scenario():
            _, stream = await _open(f"/play/seat/{phone.token}/events/?lastEventId=session-{session.pk}:1")
            first = _sse([await anext(stream)])
            await sync_to_async(_submit)(session, django_capture_on_commit_callbacks)
            return first, await _next_events(stream)

        first, received = async_to_sync(scenario)()
        assert [e[0] for e in first] == ["stream-open"]
        assert [json.loads(d)["version"] for _, d, _ in received] == [2]

    def test_a_resume_point_ahead_of_the_session_means_refetch(self):
        session = new_session()
        phone = session.seats.get(index=0)

        async def scenario():
            _, stream = await _open(f"/play/seat/{phone.token}/events/?lastEventId=session-{session.pk}:99")
            return await _next_events(stream)

        received = async_to_sync(scenario)()
        assert received[0][0] == "stream-reset"

    def test_the_host_reads_the_table_stream(self, user, client):
        session = new_session(host=user)

        async def scenario(cookie):
            response = await AsyncClient().get(f"/play/s/{session.pk}/events/", headers={"Cookie": cookie})
            return response.status_code, response["Content-Type"]

        client.force_login(user)
        cookie = f"sessionid={client.cookies['sessionid'].value}"
        assert async_to_sync(scenario)(cookie) == (200, "text/event-stream")

    def test_a_wrong_token_or_another_hosts_session_is_refused(self, user, client):
        from tests.factories import UserFactory

        mine = new_session(host=user)
        theirs = new_session(host=UserFactory())
        client.force_login(user)
        assert client.get("/play/seat/not-a-token/events/").status_code == 404
        assert client.get(f"/play/s/{theirs.pk}/events/").status_code == 404
        assert client.get("/play/s/999999/events/").status_code == 404
        client.logout()
        assert client.get(f"/play/s/{mine.pk}/events/").status_code == 404  # a phone is not the host

    def test_only_session_channels_exist(self):
        manager = streams.SessionChannelManager()
        assert manager.can_read_channel(None, "session-12")
        assert not manager.can_read_channel(None, "session-12,session-13")
        assert not manager.can_read_channel(None, "anything")


async def _served(path: str, cookie: str = "") -> tuple[int, dict[bytes, bytes], bytes]:
    """GET ``path`` from the ASGI application make run serves (config/asgi.py), as a client that
    reads the answer up to ``stream-open`` (or its end) and hangs up: status, headers, body."""
    from config.asgi import application

    path, _, query = path.partition("?")
    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET", "scheme": "http",
        "path": path, "raw_path": path.encode(), "query_string": query.encode(), "root_path": "",
        "headers": [(b"host", b"testserver"), (b"cookie", cookie.encode())],
        "client": ("10.1.2.3", 50000), "server": ("testserver", 80),
    }  # fmt: skip
    start: dict = {}
    body = b""
    answered = asyncio.Event()
    requested = False

    async def receive():
        nonlocal requested
        if not requested:
            requested = True
            return {"type": "http.request", "body": b"", "more_body": False}
        await answered.wait()
        return {"type": "http.disconnect"}

    async def send(message):
        nonlocal body
        if message["type"] == "http.response.start":
            start.update(message)
            return
        body += message.get("body", b"")
        if not message.get("more_body") or b"event: stream-open" in body:
            answered.set()

    # As Django's test client does: the request must not close the test's database connection.
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        async with asyncio.timeout(HANG_GUARD_SECONDS):
            await application(scope, receive, send)
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)
    return start["status"], dict(start["headers"]), body


class ServedStreamTests:
    """Issue 27, item 3: under ASGI the streams are served apart from the middleware chain
    (games/live/asgi.py), and keep every check and answer they had."""

    def test_a_phone_opens_its_seat_stream_and_resumes_from_its_version(self):
        session = new_session()
        phone = session.seats.get(index=0)

        status, headers, body = async_to_sync(_served)(f"/play/seat/{phone.token}/events/")
        assert (status, headers[b"Content-Type"], headers[b"Cache-Control"]) == (
            200,
            b"text/event-stream",
            b"no-cache",
        )
        assert [e for e, _, _ in _sse([body])] == ["stream-open"]
        ahead = f"/play/seat/{phone.token}/events/?lastEventId=session-{session.pk}:99"
        assert [e for e, _, _ in _sse([async_to_sync(_served)(ahead)[2]])] == [
            "stream-open",
            streams.RESET_EVENT,
        ]

    def test_the_host_reads_the_table_stream_with_the_session_cookie_and_no_one_else(self, user, client):
        from tests.factories import UserFactory

        mine, theirs = new_session(host=user), new_session(host=UserFactory())
        client.force_login(user)
        cookie = f"sessionid={client.cookies['sessionid'].value}"
        assert async_to_sync(_served)(f"/play/s/{mine.pk}/events/", cookie)[0] == 200
        assert async_to_sync(_served)(f"/play/s/{theirs.pk}/events/", cookie)[0] == 404
        assert async_to_sync(_served)(f"/play/s/{mine.pk}/events/")[0] == 404  # no cookie: not the host

    def test_guessing_seat_tokens_is_rate_limited_as_before(self):
        statuses = [async_to_sync(_served)(f"/play/seat/guess-{i}/events/")[0] for i in range(31)]
        assert statuses == [404] * 30 + [429]
        status, headers, _ = async_to_sync(_served)("/play/seat/guess-31/events/")
        assert status == 429 and b"Retry-After" in headers

    def test_a_lost_database_connection_is_a_503_to_retry_not_a_500(self, monkeypatch):
        from django.db import OperationalError

        from config.db_faults import RETRY_AFTER_SECONDS

        def lost(**kwargs):
            raise OperationalError("server closed the connection unexpectedly")

        monkeypatch.setattr(access, "session_for_token", lost)
        status, headers, _ = async_to_sync(_served)("/play/seat/any-token/events/")
        assert (status, headers[b"Retry-After"]) == (503, str(RETRY_AFTER_SECONDS).encode())

    def test_a_nul_in_the_address_is_refused_by_the_input_guard(self):
        from config.input_guard import NUL_IN_PARAMETER

        session = new_session()
        token = session.seats.get(index=0).token
        status, _, body = async_to_sync(_served)(f"/play/seat/{token}/events/?lastEventId=%00")
        assert status == 400
        assert NUL_IN_PARAMETER.format(name="lastEventId").replace("'", "&#x27;") in body.decode()

    def test_past_the_process_cap_a_stream_is_refused_503_and_logged_once_a_minute(self, settings, caplog):
        from games.live import caps

        phone = new_session().seats.get(index=0)
        settings.MAX_OPEN_STREAMS = 1
        assert async_to_sync(_served)(f"/play/seat/{phone.token}/events/")[0] == 200
        assert async_to_sync(_served)(f"/play/seat/{phone.token}/events/")[0] == 200  # the first one closed
        settings.MAX_OPEN_STREAMS = 0
        caps._logged.clear()
        with caplog.at_level("WARNING", logger="games.live.caps"):
            refusals = [async_to_sync(_served)(f"/play/seat/{phone.token}/events/") for _ in range(3)]
        assert {(status, headers[b"retry-after"], body) for status, headers, body in refusals} == {
            (503, str(caps.TOO_MANY_RETRY_AFTER_SECONDS).encode(), caps.TOO_MANY_STREAMS.encode())
        }
        assert [r.name for r in caplog.records if r.levelname == "WARNING"] == ["games.live.caps"]

    def test_only_the_stream_addresses_are_served_apart(self):
        from games.live.asgi import is_stream

        def http(path: str) -> dict:
            return {"type": "http", "path": path, "query_string": b""}

        assert is_stream(http("/play/seat/abc/events/")) and is_stream(http("/play/s/12/events/"))
        assert not is_stream(http("/play/seat/abc/")) and not is_stream(http("/healthz"))
        assert not is_stream({"type": "websocket", "path": "/play/s/12/events/"})

    def test_a_page_or_api_address_is_not_resolved_twice_to_tell_it_from_a_stream(self, monkeypatch):
        from games.live import asgi

        resolved: list[str] = []
        real = asgi.resolve
        monkeypatch.setattr(asgi, "resolve", lambda path: resolved.append(path) or real(path))
        for path in ("/play/seat/abc/", "/api/sessions/3/", "/healthz"):
            assert not asgi.is_stream({"type": "http", "path": path, "query_string": b""})
        assert asgi.is_stream({"type": "http", "path": "/api/sessions/3/events/", "query_string": b""})
        assert resolved == ["/api/sessions/3/events/"]  # Django's handler resolves the others

    def test_a_version_read_from_the_database_is_remembered_for_the_next_stream(self):
        from django.core.cache import cache

        session = new_session()
        cache.delete(versions.version_cache_key(session.pk))
        assert streams.current_version(session.pk) == session.version
        assert versions.cached_version(session.pk) == session.version  # 1,000 phones opening: one read


@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
class RedisSessionStreamTests:
    def test_a_nudge_published_on_redis_reaches_a_stream_of_this_process(
        self, redis_url, settings, monkeypatch, django_capture_on_commit_callbacks
    ):
        """Production: the service publishes on Redis only; each web process's subscription hands
        the nudge to its streams (here the subscription may need a moment: publish until it lands)."""
        settings.REDIS_URL = redis_url
        nudges._redis_clients.clear()
        session = new_session()
        phone = session.seats.get(index=2)
        monkeypatch.setattr(streams, "inprocess_transport", lambda channel, message: None)  # Redis only

        async def scenario():
            _, stream = await _open(f"/play/seat/{phone.token}/events/?lastEventId=session-{session.pk}:1")
            await anext(stream)
            version = await sync_to_async(_submit)(session, django_capture_on_commit_callbacks)
            # One read that is never cancelled (cancelling it would close the stream): while it has
            # nothing, the subscription may have come after the publish, so publish again.
            reader = asyncio.ensure_future(_next_events(stream))
            async with asyncio.timeout(HANG_GUARD_SECONDS):
                while not (await asyncio.wait({reader}, timeout=0.5))[0]:
                    await sync_to_async(nudges.publish)(session_id=session.pk, version=version)
            await streams.redis_fanout_stop()
            return reader.result()

        # A transactional test: the scenario may run on a loop of its own thread (the xdist worker's
        # main thread may hold another library's running loop, e.g. a browser test's).
        with ThreadPoolExecutor(max_workers=1) as pool:
            received = pool.submit(asyncio.run, scenario()).result()
        assert [(e, json.loads(d)) for e, d, _ in received][0] == (
            "session_version",
            {"type": "session_version", "session": session.pk, "version": 2},
        )
