"""The event streams (games/events.py) under ASGI, without an OS thread each.

Django's ASGI handler runs every request in a thread-sensitive context: the first sync step of the
request (a sync middleware, a sync view, a sync signal receiver) gets a thread of its own, kept until
the request ends, and a stream lasts for hours. Most of our middleware is sync, so ``streams_apart``
hands the two stream addresses to ``StreamHandler`` instead: Django's handler without that context
and without the middleware chain. Its few sync steps (the access check, django-eventstream's reads
of the session version) run on one thread shared by every stream of the process; the stream itself
is an async generator on the event loop.

What the middleware would have done for a stream: the session cookie's user (``_with_user``); a NUL
in the address is left to the guard (``config.input_guard``) of the normal chain; a lost database
connection answers 503 (``config.db_faults``); the rate limit's refusal is the view's own
(``games.events``). The security headers are for pages, not for ``text/event-stream``.
"""

from __future__ import annotations

import logging
import time
from importlib import import_module

from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib.auth import get_user
from django.core.handlers.asgi import ASGIHandler
from django.core.handlers.exception import convert_exception_to_response
from django.http import HttpRequest, HttpResponse
from django.urls import Resolver404, resolve
from django.utils.functional import SimpleLazyObject

from config import db_faults

logger = logging.getLogger(__name__)

STREAM_VIEWS = {"games:seat_events", "games:table_events"}
TOO_MANY_STREAMS = "Too many live streams on this server: the page checks for changes instead."
TOO_MANY_RETRY_AFTER_SECONDS = 30
LOG_EVERY_SECONDS = 60.0
_logged: dict[str, float] = {}


def log_refusal(kind: str, message: str, *args) -> None:
    """One warning per kind of refusal per minute at most: a crowd of refusals does not fill the log."""
    now = time.monotonic()
    if now - _logged.get(kind, -LOG_EVERY_SECONDS) >= LOG_EVERY_SECONDS:
        _logged[kind] = now
        logger.warning(message, *args)


async def _too_many(send) -> None:
    """503 with Retry-After: the page's EventSource gives up and its poll runs (static/js/live.js)."""
    body = TOO_MANY_STREAMS.encode()
    headers = [
        (b"content-type", b"text/plain; charset=utf-8"),
        (b"content-length", str(len(body)).encode()),
        (b"retry-after", str(TOO_MANY_RETRY_AFTER_SECONDS).encode()),
        (b"cache-control", b"no-cache"),
    ]
    await send({"type": "http.response.start", "status": 503, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def is_stream(scope) -> bool:
    """An HTTP request for one of the event streams (with nothing for the input guard to refuse)."""
    if scope["type"] != "http" or "\x00" in scope["path"] or b"%00" in scope.get("query_string", b""):
        return False
    try:
        return resolve(scope["path"]).view_name in STREAM_VIEWS
    except Resolver404:
        return False


class StreamHandler(ASGIHandler):
    """Django's ASGI handler for the streams alone: no thread-sensitive context, no middleware;
    at most ``settings.MAX_OPEN_STREAMS`` open at once (one handler per process)."""

    open_streams = 0

    def load_middleware(self, is_async: bool = False) -> None:
        self._view_middleware: list = []
        self._template_response_middleware: list = []
        self._exception_middleware: list = []
        self._middleware_chain = convert_exception_to_response(self._with_user)

    async def __call__(self, scope, receive, send) -> None:
        if self.open_streams >= settings.MAX_OPEN_STREAMS:
            log_refusal("process", "Event stream refused: %d open in this process", self.open_streams)
            return await _too_many(send)
        self.open_streams += 1  # one event loop per process: no lock needed
        try:
            await self.handle(scope, receive, send)
        finally:
            self.open_streams -= 1

    async def _with_user(self, request: HttpRequest) -> HttpResponse:
        """The session and its user, read only when a view asks (the table stream does)."""
        request.session = import_module(settings.SESSION_ENGINE).SessionStore(
            request.COOKIES.get(settings.SESSION_COOKIE_NAME)
        )
        request.user = SimpleLazyObject(lambda: get_user(request))  # type: ignore[assignment]
        try:
            return await self._get_response_async(request)  # type: ignore[attr-defined]
        except Exception as error:
            if not db_faults.connection_lost(error):
                raise
            return await sync_to_async(_unavailable)(request)


def _unavailable(request: HttpRequest) -> HttpResponse:
    db_faults._forget_connections()
    return db_faults.unavailable(request)


def streams_apart(app):
    """ASGI middleware: the event streams to ``StreamHandler``, everything else to ``app``."""
    streams = StreamHandler()

    async def application(scope, receive, send):
        if is_stream(scope):
            return await streams(scope, receive, send)
        return await app(scope, receive, send)

    return application
