"""The event streams (games/live/streams.py) under ASGI, without an OS thread each, within their
caps (games/live/caps.py).

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
(``games.live.streams``). The security headers are for pages, not for ``text/event-stream``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncGenerator
from dataclasses import dataclass
from importlib import import_module
from typing import IO, cast

from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib.auth import get_user
from django.core import signals
from django.core.exceptions import RequestAborted
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.core.handlers.exception import convert_exception_to_response
from django.http import HttpRequest, HttpResponse, HttpResponseBase, StreamingHttpResponse
from django.middleware.gzip import GZipMiddleware
from django.urls import Resolver404, resolve, set_script_prefix
from django.utils.functional import SimpleLazyObject

from config import db_faults
from games.live import caps
from games.live.nudges import App, Message, Receive, Scope, Send

logger = logging.getLogger(__name__)

STREAM_VIEWS = {"games:seat_events", "games:table_events", "api:session-events"}
STREAM_SUFFIX = "/events/"  # how each of their addresses ends (games/urls.py, api/urls.py)
END_TIMEOUT_SECONDS = 1.0
UNFINISHED = "ASGI callable returned without completing response."


@dataclass
class _Progress:
    """How far a stream got: its answer started; cut off (its client read nothing)."""

    started: bool = False
    cut: bool = False


def _guarded_send(send: Send, progress: _Progress) -> Send:
    """``send``, with a client whose buffers stay full for caps.SLOW_CLIENT_SECONDS cut off."""

    async def guarded(message: Message) -> None:
        try:
            async with asyncio.timeout(caps.SLOW_CLIENT_SECONDS):
                await send(message)
        except TimeoutError:
            progress.cut = True
            caps.log_refusal(
                "slow", "Event stream cut: its client read nothing for %g s", caps.SLOW_CLIENT_SECONDS
            )
            raise RequestAborted from None  # Django's handler ends the request quietly
        if message["type"] == "http.response.start":
            progress.started = True

    return guarded


class _QuietCut(logging.Filter):
    """The server's "returned without completing response" after a stream we cut on purpose."""

    pending = 0

    def filter(self, record: logging.LogRecord) -> bool:
        if self.pending and record.getMessage() == UNFINISHED:
            self.pending -= 1
            return False
        return True


quiet_cut = _QuietCut()
logging.getLogger("uvicorn.error").addFilter(quiet_cut)


def is_stream(scope: Scope) -> bool:
    """An HTTP request for one of the event streams (with nothing for the input guard to refuse).
    Every request asks: only an address ending as the streams' do is resolved (the pages and the
    API are resolved once, by Django's handler)."""
    path = scope.get("path", "")
    if scope["type"] != "http" or not path.endswith(STREAM_SUFFIX):
        return False
    if "\x00" in path or b"%00" in scope.get("query_string", b""):
        return False
    try:
        return resolve(path).view_name in STREAM_VIEWS
    except Resolver404:
        return False


class StreamHandler(ASGIHandler):
    """Django's ASGI handler for the streams alone: no thread-sensitive context, no middleware;
    at most ``settings.MAX_OPEN_STREAMS`` open at once (one handler per process), each cut off when
    its client stops reading and ended at its maximum age."""

    open_streams = 0

    def load_middleware(self, is_async: bool = False) -> None:
        self._view_middleware: list = []
        self._template_response_middleware: list = []
        self._exception_middleware: list = []
        self._middleware_chain = convert_exception_to_response(self._with_user)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.open_streams >= settings.MAX_OPEN_STREAMS:
            caps.log_refusal("process", "Event stream refused: %d open in this process", self.open_streams)
            return await caps.too_many_streams(send)
        self.open_streams += 1  # one event loop per process: no lock needed
        held: list[tuple] = []
        progress = _Progress()
        scope[caps.SCOPE_KEY] = held  # the server's own scope of this request: no copy of it
        try:
            await self._served(scope, receive, _guarded_send(send, progress), progress)
        finally:
            self.open_streams -= 1
            caps.counts.release(held)
            place = scope.pop(caps.SHARED_SCOPE_KEY, None)
            if place is not None:
                await sync_to_async(caps.shared.release)(place)

    async def _served(self, scope: Scope, receive: Receive, send: Send, progress: _Progress) -> None:
        """The stream, ended at its maximum age (a clean end: the browser reconnects at once)."""
        try:
            async with asyncio.timeout(caps.MAX_STREAM_AGE_SECONDS):
                await self.handle(scope, receive, send)
        except TimeoutError:
            if progress.started and not progress.cut:
                with contextlib.suppress(TimeoutError, RequestAborted, OSError):
                    async with asyncio.timeout(END_TIMEOUT_SECONDS):
                        await send({"type": "http.response.body", "body": b"", "more_body": False})
                        return
                progress.cut = True
        if progress.cut:
            quiet_cut.pending += 1  # the server closes the connection: no error line for it

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Django's ``handle``, lean for an answer that lasts for hours: the request (its META and
        headers, its resolver match and the patterns tried, its session) is let go as soon as the
        view has answered, and the stream is sent from its own generator, one message a part."""
        try:
            body_file = await self.read_body(receive)
        except RequestAborted:
            return
        answered: list[HttpResponseBase] = []
        try:
            await self._answered(scope, body_file, receive, send, answered)
        except BaseExceptionGroup as group:  # as Django's: one error is raised as itself
            if len(group.exceptions) == 1:
                raise group.exceptions[0] from None
            raise
        for response in answered:
            await sync_to_async(response.close)()

    async def _answered(
        self, scope: Scope, body_file: IO[bytes], receive: Receive, send: Send, answered: list
    ) -> None:
        """The answer sent, while a disconnect is listened for (it ends the stream)."""
        try:
            async with asyncio.TaskGroup() as group:
                group.create_task(self.listen_for_disconnect(receive))
                answered.append(await self._answer(scope, body_file))
                await _send_lean(answered[0], send)
                raise _Processed
        except* (_Processed, RequestAborted):
            pass

    async def _answer(self, scope: Scope, body_file: IO[bytes]) -> HttpResponseBase:
        """The view's answer; the request is closed at once (its body file with it) and kept by
        nothing: the stream's generator holds only what it reads (games/live/streams.py)."""
        set_script_prefix(get_script_prefix(scope))
        await signals.request_started.asend(sender=self.__class__, scope=scope)
        request, error_response = self.create_request(scope, body_file)
        if request is None:
            body_file.close()
            return cast(HttpResponseBase, error_response)
        response = await self.run_get_response(request)
        with contextlib.suppress(ValueError):
            response._resource_closers.remove(request.close)  # type: ignore[attr-defined]
        request.close()
        return response

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


class _Processed(Exception):
    """The answer was sent: the task group's listener for a disconnect is cancelled."""


def _headers(response: HttpResponseBase) -> list[tuple[bytes, bytes]]:
    headers = [(name.encode("ascii"), value.encode("latin1")) for name, value in response.items()]
    headers += [
        (b"Set-Cookie", cookie.OutputString().encode("ascii")) for cookie in response.cookies.values()
    ]
    return headers


async def _send_lean(response: HttpResponseBase, send: Send) -> None:
    """The answer over ASGI, as Django's ``send_response`` does, without its wrappers around a
    stream's generator: each part is encoded and sent, and held by nothing once sent."""
    await send({"type": "http.response.start", "status": response.status_code, "headers": _headers(response)})
    if not isinstance(response, StreamingHttpResponse):
        await send({"type": "http.response.body", "body": cast(HttpResponse, response).content})
        return
    async with contextlib.aclosing(_parts(response)) as parts:
        async for part in parts:
            await send({"type": "http.response.body", "body": part, "more_body": True})
            del part
    await send({"type": "http.response.body"})


def _parts(response: StreamingHttpResponse) -> AsyncGenerator[bytes]:
    """The stream's parts as bytes: django-eventstream's async generator (one wrapper: Django's
    encoding), or a sync iterator mapped by Django (never for our streams)."""
    if response.is_async:
        return cast(AsyncGenerator[bytes], response.streaming_content)
    return cast(AsyncGenerator[bytes], aiter(response))


def _unavailable(request: HttpRequest) -> HttpResponse:
    db_faults._forget_connections()
    return db_faults.unavailable(request)


def streams_apart(app: App) -> App:
    """ASGI middleware: the event streams to ``StreamHandler``, everything else to ``app``."""
    streams = StreamHandler()

    async def application(scope: Scope, receive: Receive, send: Send) -> None:
        if is_stream(scope):
            return await streams(scope, receive, send)
        return await app(scope, receive, send)

    return application


EVENT_STREAM = "text/event-stream"


class GZipExceptStreamsMiddleware(GZipMiddleware):
    """Django's gzip (padded against BREACH) for the pages and the API's JSON, never for an event
    stream: each event must reach the client as it is sent, not when a compressed block fills up.
    (Under ASGI the streams skip the middleware anyway: ``StreamHandler``; this holds elsewhere.)"""

    def process_response(self, request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
        if response.get("Content-Type", "").startswith(EVENT_STREAM):
            return response
        return super().process_response(request, response)
