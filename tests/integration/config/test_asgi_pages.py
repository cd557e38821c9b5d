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
