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

STREAM_VIEWS = {"games:seat_events", "games:table_events"}


def is_stream(scope) -> bool:
    """An HTTP request for one of the event streams (with nothing for the input guard to refuse)."""
    if scope["type"] != "http" or "\x00" in scope["path"] or b"%00" in scope.get("query_string", b""):
        return False
    try:
        return resolve(scope["path"]).view_name in STREAM_VIEWS
    except Resolver404:
        return False


class StreamHandler(ASGIHandler):
    """Django's ASGI handler for the streams alone: no thread-sensitive context, no middleware."""

    def load_middleware(self, is_async: bool = False) -> None:
        self._view_middleware: list = []
        self._template_response_middleware: list = []
        self._exception_middleware: list = []
        self._middleware_chain = convert_exception_to_response(self._with_user)

    async def __call__(self, scope, receive, send) -> None:
        await self.handle(scope, receive, send)

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
