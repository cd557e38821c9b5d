"""The pages and the API under ASGI run on a pool of threads (config/asgi.py): Django's ASGI
handler started a thread for each request's sync code, 3 ms of CPU a request (issue 27)."""

import asyncio
import threading

import pytest
from django.conf import settings

from config.asgi import application

pytestmark = [pytest.mark.django_db(transaction=True)]


def _scope(path: str) -> dict:
    return {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET", "scheme": "http",
        "path": path, "raw_path": path.encode(), "query_string": b"", "root_path": "",
        "headers": [(b"host", b"testserver")], "client": ("127.0.0.1", 5000), "server": ("testserver", 80),
    }  # fmt: skip


async def _get(path: str) -> tuple[int, bytes]:
    """One request through the whole ASGI application: its status and body."""
    messages: list[dict] = []
    incoming = iter([{"type": "http.request", "body": b"", "more_body": False}])

    async def receive():
        for message in incoming:
            return message
        await asyncio.Event().wait()  # then the client stays: no disconnect

    async def send(message):
        messages.append(message)

    await application(_scope(path), receive, send)
    start = next(m for m in messages if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in messages if m["type"] == "http.response.body")
    return start["status"], body


class AsgiPagesTests:
    def test_requests_are_answered_without_a_new_thread_each(self, settings, monkeypatch):
        settings.ALLOWED_HOSTS = ["testserver"]
        started: list[str] = []
        start = threading.Thread.start

        def counted(thread):
            started.append(thread.name)
            return start(thread)

        monkeypatch.setattr(threading.Thread, "start", counted)

        async def many():
            return [await _get("/ping") for _ in range(3 * settings.PAGE_THREADS)]

        answers = asyncio.run(many())
        assert all(status == 200 for status, _ in answers)
        # The pool's threads at most (started once, then kept): never one per request.
        assert len(started) <= settings.PAGE_THREADS, started

    def test_a_page_answers_through_the_pool(self, settings):
        settings.ALLOWED_HOSTS = ["testserver"]
        status, body = asyncio.run(_get("/healthz"))
        assert status == 200 and b"database" in body


def test_the_pool_is_bounded_by_the_setting():
    assert application.__qualname__ == "after_answer.<locals>.application"
    from config import asgi

    assert asgi.pages.executor._max_workers == settings.PAGE_THREADS


@pytest.mark.parametrize(
    ("method", "headers", "served_by"),
    [
        ("GET", [], "pool"),
        ("HEAD", [(b"content-length", b"0")], "pool"),
        ("POST", [(b"content-length", b"5")], "pool"),
        ("DELETE", [], "pool"),
        ("POST", [], "asgi"),  # a body of no declared length
        ("PUT", [(b"transfer-encoding", b"chunked")], "asgi"),
        ("POST", [(b"content-length", b"5"), (b"transfer-encoding", b"chunked")], "asgi"),
    ],
)
def test_a_body_of_undeclared_length_keeps_django_s_asgi_handler(method, headers, served_by):
    """Django's ASGI handler receives such a body whole before the view runs: config/uploads.py
    cuts it at the limit while it arrives (tests/integration/campaign/test_archive_crafted.py)."""
    from config.asgi import lengths_apart

    served: list[str] = []

    def app(name):
        async def application(scope, receive, send):
            served.append(name)

        return application

    routed = lengths_apart(app("asgi"), app("pool"))
    asyncio.run(routed({"type": "http", "method": method, "headers": headers}, None, None))
    assert served == [served_by]


def _echo(environ, start_response):
    """A WSGI application answering the body it read."""
    from django.http import HttpResponse

    response = HttpResponse(environ["wsgi.input"].read())
    start_response("200 OK", list(response.items()))
    return response


async def _ask(app, *, body: bytes = b"", parts: int = 1) -> tuple[list[dict], int]:
    """One POST through ``app`` (config/pages.py's bridge) with its body sent in ``parts``
    messages: every message the application sent, and how many it received."""
    size = max(1, -(-len(body) // parts))
    pieces = [body[i : i + size] for i in range(0, len(body), size)] or [b""]
    incoming = iter(
        [{"type": "http.request", "body": p, "more_body": i < len(pieces) - 1} for i, p in enumerate(pieces)]
    )
    messages: list[dict] = []
    received = [0]

    async def receive():
        for message in incoming:
            received[0] += 1
            return message
        await asyncio.Event().wait()

    async def send(message):
        messages.append(message)

    scope = {**_scope("/any"), "method": "POST"}
    scope["headers"] = [*scope["headers"], (b"content-length", str(len(body)).encode())]
    await app(scope, receive, send)
    return messages, received[0]


class WholeAnswerTests:
    def test_an_ordinary_answer_is_sent_whole_in_one_message(self, settings):
        settings.ALLOWED_HOSTS = ["testserver"]
        messages: list[dict] = []

        async def send(message):
            messages.append(message)

        from config.asgi import pages

        asyncio.run(pages(_scope("/ping"), None, send))  # type: ignore[arg-type]  # a GET: nothing received
        assert [m["type"] for m in messages] == ["http.response.start", "http.response.body"]
        assert messages[0]["status"] == 200 and messages[1]["body"] == b'{"ok": true}'
        assert not messages[1].get("more_body", False)

    def test_a_small_body_sent_in_parts_reaches_the_handler_whole(self):
        from config.pages import WsgiPages

        body = b"tap " * 3000
        messages, received = asyncio.run(_ask(WsgiPages(_echo, workers=1), body=body, parts=7))
        assert received == 7
        assert messages[-1]["body"] == body and len(messages) == 2

    def test_a_body_over_the_first_read_is_read_from_the_thread_as_it_arrives(self):
        from config.pages import BODY_READ_FIRST, WsgiPages

        body = b"x" * (BODY_READ_FIRST + 10)
        messages, received = asyncio.run(_ask(WsgiPages(_echo, workers=1), body=body, parts=20))
        assert received == 20
        assert messages[-1]["body"] == body

    def test_a_streamed_answer_is_sent_part_by_part(self):
        from django.http import StreamingHttpResponse

        from config.pages import WsgiPages

        def app(environ, start_response):
            response = StreamingHttpResponse(iter([b"one", b"two"]))
            start_response("200 OK", list(response.items()))
            return response

        messages: list[dict] = []

        async def send(message):
            messages.append(message)

        asyncio.run(WsgiPages(app, workers=1)(_scope("/any"), None, send))  # type: ignore[arg-type]
        assert [m.get("body") for m in messages] == [None, b"one", b"two", b""]
        assert [m.get("more_body", False) for m in messages[1:]] == [True, True, False]
