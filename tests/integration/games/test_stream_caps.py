"""Issue 27, item 3: the event streams' caps per seat and per session (429 with Retry-After), the
client that reads nothing (cut off), the stream's maximum age (ended cleanly, the browser
reconnects) and the log of refusals (one line per kind a minute) (games/live/caps.py).

The streams are served by the ASGI application make run serves (config/asgi.py), driven in the
test's thread by ``async_to_sync`` so that the views' reads see the test's transaction.
"""

import asyncio
import gc
import logging
import weakref

import pytest
from asgiref.sync import async_to_sync
from django.conf import settings
from django.core.signals import request_finished, request_started
from django.db import close_old_connections

from games.live import asgi, caps
from tests.guards import HANG_GUARD_SECONDS
from tests.integration.games.conftest import new_session

pytestmark = [pytest.mark.database, pytest.mark.django_db]


class Client:
    """One GET of a stream: its status, headers and body so far; ``hang_up`` disconnects it.
    ``stalled``: the client reads nothing once the answer has started (its send never returns)."""

    def __init__(self, path: str, *, stalled: bool = False, address: str = "10.1.2.3", cookie: str = ""):
        self.path, self.stalled, self.address, self.cookie = path, stalled, address, cookie
        self.start: dict = {}
        self.body = b""
        self.ended = False  # the server ended the answer (a final body message)
        self.answered = asyncio.Event()
        self.gone = asyncio.Event()

    def scope(self) -> dict:
        return {
            "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET",
            "scheme": "http", "path": self.path, "raw_path": self.path.encode(), "query_string": b"",
            "root_path": "", "headers": self.headers(), "client": (self.address, 50000),
            "server": ("testserver", 80),
        }  # fmt: skip

    def headers(self) -> list[tuple[bytes, bytes]]:
        if not self.cookie:
            return [(b"host", b"testserver")]
        return [
            (b"host", b"testserver"),
            (b"cookie", f"{settings.SESSION_COOKIE_NAME}={self.cookie}".encode()),
        ]

    async def receive(self) -> dict:
        if not self.start and not self.body and not self.gone.is_set() and not hasattr(self, "_asked"):
            self._asked = True
            return {"type": "http.request", "body": b"", "more_body": False}
        await self.gone.wait()
        return {"type": "http.disconnect"}

    async def send(self, message: dict) -> None:
        if message["type"] == "http.response.start":
            self.start = message
            return
        if self.stalled:
            await asyncio.Event().wait()  # its buffers are full: the write never completes
        self.body += message.get("body", b"")
        if not message.get("more_body"):
            self.ended = True
        if self.ended or b"event: stream-open" in self.body:
            self.answered.set()

    @property
    def status(self) -> int:
        return self.start["status"]

    def hang_up(self) -> None:
        self.gone.set()


async def _run(clients: list[Client], then=None) -> None:
    """Serve ``clients`` one after another (each answered before the next asks), call ``then``
    while the streams are open, then hang every client up."""
    from config.asgi import application

    tasks = []
    async with asyncio.timeout(HANG_GUARD_SECONDS):
        for client in clients:
            tasks.append(asyncio.create_task(application(client.scope(), client.receive, client.send)))
            done = asyncio.create_task(client.answered.wait())
            await asyncio.wait([done, tasks[-1]], return_when=asyncio.FIRST_COMPLETED)
            done.cancel()
        if then is not None:
            then()
        for client in clients:
            client.hang_up()
        await asyncio.gather(*tasks)


@pytest.fixture
def served(monkeypatch):
    """Run clients against the application (as Django's test client: the requests leave the
    test's database connection open)."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    caps.refusals.clear()
    try:
        yield lambda clients, then=None: async_to_sync(_run)(clients, then)
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


def _seat_path(session, index: int) -> str:
    return f"/play/seat/{session.seats.get(index=index).token}/events/"


class StreamCapTests:
    def test_past_its_seat_cap_a_stream_is_refused_429_and_another_seat_still_opens(
        self, served, monkeypatch
    ):
        monkeypatch.setattr(caps, "MAX_STREAMS_PER_SEAT", 2)
        session = new_session()
        clients = [Client(_seat_path(session, 0)) for _ in range(3)] + [Client(_seat_path(session, 1))]
        served(clients)
        assert [c.status for c in clients] == [200, 200, 429, 200]
        refused = dict(clients[2].start["headers"])
        assert refused[b"Retry-After"] == str(caps.TOO_MANY_RETRY_AFTER_SECONDS).encode()
        assert clients[2].body.decode() == caps.TOO_MANY_FOR_SEAT

    def test_past_its_session_cap_a_stream_is_refused_429(self, served, monkeypatch):
        monkeypatch.setattr(caps, "MAX_STREAMS_PER_SESSION", 3)
        session, other = new_session(), new_session()
        clients = [Client(_seat_path(session, i)) for i in (0, 1, 2, 0)] + [Client(_seat_path(other, 0))]
        served(clients)
        assert [c.status for c in clients] == [200, 200, 200, 429, 200]
        assert clients[3].body.decode() == caps.TOO_MANY_FOR_SESSION

    def test_a_closed_stream_gives_its_place_back(self, served, monkeypatch):
        monkeypatch.setattr(caps, "MAX_STREAMS_PER_SEAT", 1)
        session = new_session()
        seen: list[dict] = []
        first = Client(_seat_path(session, 0))
        served([first], then=lambda: seen.append(dict(caps.counts.open)))
        assert seen == [{("seat", session.pk, 0): 1, ("session", session.pk): 1, ("address", "10.1.2.3"): 1}]
        again = Client(_seat_path(session, 0))
        served([again])
        assert (first.status, again.status, dict(caps.counts.open)) == (200, 200, {})


class HeldByAStreamTests:
    def test_an_open_stream_keeps_no_request(self, served, monkeypatch):
        """Its META and headers, resolver match and session are let go once the view answered:
        4,000 open streams each held one (issue 27, item 3)."""
        requests: list[weakref.ref] = []
        create = asgi.StreamHandler.create_request

        def recorded(handler, scope, body_file):
            request, error = create(handler, scope, body_file)
            requests.append(weakref.ref(request))
            return request, error

        monkeypatch.setattr(asgi.StreamHandler, "create_request", recorded)
        session = new_session()
        alive: list[bool] = []

        def while_open() -> None:
            gc.collect()
            alive.extend(request() is not None for request in requests)

        client = Client(_seat_path(session, 0))
        served([client], then=while_open)
        assert client.status == 200 and b"event: stream-open" in client.body
        assert alive == [False]


class SlowAndOldStreamTests:
    def test_a_client_that_reads_nothing_is_cut_off_and_its_place_given_back(
        self, served, monkeypatch, caplog
    ):
        monkeypatch.setattr(caps, "SLOW_CLIENT_SECONDS", 0.2)
        session = new_session()
        stalled = Client(_seat_path(session, 0), stalled=True)
        pending = asgi.quiet_cut.pending
        with caplog.at_level("WARNING", logger="games.live.caps"):
            async_to_sync(_served_alone)(stalled)
        assert stalled.status == 200 and dict(caps.counts.open) == {}
        assert [r.getMessage() for r in caplog.records] == [
            "Event stream cut: its client read nothing for 0.2 s"
        ]
        assert asgi.quiet_cut.pending == pending + 1  # the server's own error line is held back

    def test_a_stream_is_ended_cleanly_at_its_maximum_age(self, served, monkeypatch):
        monkeypatch.setattr(caps, "MAX_STREAM_AGE_SECONDS", 0.3)
        session = new_session()
        old = Client(_seat_path(session, 0))
        async_to_sync(_served_alone)(old)
        assert old.status == 200 and old.ended and b"event: stream-open" in old.body
        assert dict(caps.counts.open) == {}


async def _served_alone(client: Client) -> None:
    """Serve one client that never hangs up: the server must end it."""
    from config.asgi import application

    async with asyncio.timeout(HANG_GUARD_SECONDS):
        await application(client.scope(), client.receive, client.send)


class RefusalLogTests:
    def test_one_line_per_kind_a_minute_counting_the_lines_held_back(self, caplog):
        now = [1000.0]
        log = caps.RefusalLog(every=60.0, clock=lambda: now[0])
        with caplog.at_level("WARNING", logger="games.live.caps"):
            for second in range(0, 60, 5):  # 12 refusals of each kind within the minute
                now[0] = 1000.0 + second
                log.warn("seat", "seat refused")
                log.warn("process", "process refused")
            now[0] = 1060.0
            log.warn("seat", "seat refused")
        assert [r.getMessage() for r in caplog.records] == [
            "seat refused",
            "process refused",
            "seat refused (11 more since the last line)",
        ]

    def test_the_servers_line_is_held_back_only_for_a_stream_cut_on_purpose(self):
        def record(message: str) -> logging.LogRecord:
            return logging.LogRecord("uvicorn.error", logging.ERROR, __file__, 1, message, None, None)

        cut = asgi._QuietCut()
        assert cut.filter(record(asgi.UNFINISHED))  # no stream cut: a real error, kept
        cut.pending = 1
        assert cut.filter(record("Exception in ASGI application"))
        assert not cut.filter(record(asgi.UNFINISHED))
        assert cut.filter(record(asgi.UNFINISHED)) and cut.pending == 0
