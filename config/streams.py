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

import asyncio
import contextlib
import logging
import os
import time
import uuid
from collections import Counter
from collections.abc import AsyncGenerator
from dataclasses import dataclass
from importlib import import_module
from typing import cast

import redis
from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib.auth import get_user
from django.core import signals
from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache
from django.core.exceptions import RequestAborted
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.core.handlers.exception import convert_exception_to_response
from django.http import HttpRequest, HttpResponse, HttpResponseBase, StreamingHttpResponse
from django.middleware.gzip import GZipMiddleware
from django.urls import Resolver404, resolve, set_script_prefix
from django.utils.functional import SimpleLazyObject

from config import db_faults
from config.ratelimits import client_address

logger = logging.getLogger(__name__)

STREAM_VIEWS = {"games:seat_events", "games:table_events", "api:session-events"}
STREAM_SUFFIX = "/events/"  # how each of their addresses ends (games/urls.py, api/urls.py)
TOO_MANY_STREAMS = "Too many live streams on this server: the page checks for changes instead."
TOO_MANY_FOR_SEAT = "Too many live streams for this seat: the page checks for changes instead."
TOO_MANY_FOR_SESSION = "Too many live streams for this table: the page checks for changes instead."
TOO_MANY_FOR_ACCOUNT = "Too many live streams for this account (its other tabs and devices): the page checks for changes instead."
TOO_MANY_FOR_ADDRESS = "Too many live streams from this network address: the page checks for changes instead."
TOO_MANY_RETRY_AFTER_SECONDS = 30
LOG_EVERY_SECONDS = 60.0
# The caps below the process's (settings.MAX_OPEN_STREAMS): one seat opened on a few devices, tabs
# and reloads whose old stream has not closed yet; one table's seats and screens. Past them a stream
# is answered 429 with Retry-After and the page polls (static/js/live.js).
MAX_STREAMS_PER_SEAT = int(os.environ.get("CHRONICLE_MAX_STREAMS_PER_SEAT", "12"))
MAX_STREAMS_PER_SESSION = int(os.environ.get("CHRONICLE_MAX_STREAMS_PER_SESSION", "40"))
# And one account (its cookie or API token: the hosts of a few tables at once), one client address
# (a household or a café behind one router: several tables' phones). Counted in this process, and
# with Redis across every process of the server (``SharedStreamCounts``): one account cannot take
# the streams a server has for everyone.
MAX_STREAMS_PER_ACCOUNT = int(os.environ.get("CHRONICLE_MAX_STREAMS_PER_ACCOUNT", "40"))
MAX_STREAMS_PER_ADDRESS = int(os.environ.get("CHRONICLE_MAX_STREAMS_PER_ADDRESS", "120"))
# A client that reads nothing (its socket's buffers full) for this long is cut off; a stream open
# this long is ended (the browser reconnects at once, from its Last-Event-ID). Idle streams carry
# django-eventstream's keep-alive every 20 s, which also finds the clients gone without a word.
SLOW_CLIENT_SECONDS = float(os.environ.get("CHRONICLE_STREAM_SLOW_SECONDS", "30"))
MAX_STREAM_AGE_SECONDS = float(os.environ.get("CHRONICLE_STREAM_MAX_AGE_SECONDS", "3600"))
END_TIMEOUT_SECONDS = 1.0
SCOPE_KEY = "chronicle.stream"  # the scope's list of the counters a stream was admitted under
SHARED_SCOPE_KEY = "chronicle.stream.shared"  # and its place in the counters shared through Redis
UNFINISHED = "ASGI callable returned without completing response."


class RefusalLog:
    """At most one warning per kind of refusal per ``every`` seconds: a crowd of refusals (or of
    slow clients) does not fill the log. The lines not written are counted in the next one."""

    def __init__(self, every: float = LOG_EVERY_SECONDS, clock=time.monotonic):
        self.every = every
        self.clock = clock
        self.last: dict[str, float] = {}
        self.quiet: Counter[str] = Counter()

    def warn(self, kind: str, message: str, *args) -> None:
        now = self.clock()
        if kind in self.last and now - self.last[kind] < self.every:
            self.quiet[kind] += 1
            return
        self.last[kind] = now
        skipped, self.quiet[kind] = self.quiet[kind], 0
        suffix = f" ({skipped} more since the last line)" if skipped else ""
        logger.warning(message + suffix, *args)

    def clear(self) -> None:
        self.last.clear()
        self.quiet.clear()


refusals = RefusalLog()
_logged = refusals.last  # the tests of the process cap clear it


def log_refusal(kind: str, message: str, *args) -> None:
    refusals.warn(kind, message, *args)


def _refusal_headers(body: bytes) -> list[tuple[bytes, bytes]]:
    return [
        (b"content-type", b"text/plain; charset=utf-8"),
        (b"content-length", str(len(body)).encode()),
        (b"retry-after", str(TOO_MANY_RETRY_AFTER_SECONDS).encode()),
        (b"cache-control", b"no-cache"),
    ]


async def _too_many(send) -> None:
    """503 with Retry-After: the page's EventSource gives up and its poll runs (static/js/live.js)."""
    body = TOO_MANY_STREAMS.encode()
    await send({"type": "http.response.start", "status": 503, "headers": _refusal_headers(body)})
    await send({"type": "http.response.body", "body": body})


class StreamCounts:
    """Open streams by seat and by session, in this process (one event loop: no lock needed)."""

    def __init__(self) -> None:
        self.open: Counter[tuple] = Counter()

    def admit(
        self, request: HttpRequest, session_id: int, seat: int | None, *, account: int | None = None
    ) -> HttpResponse | None:
        """Count the stream under its seat ("table" for the table screen), its session, its
        account (if it has one) and its client address, or the 429 that refuses it. Released when
        the stream ends (``StreamHandler``); a request not served by ``StreamHandler`` is not
        counted."""
        held = request.scope.get(SCOPE_KEY) if hasattr(request, "scope") else None
        if held is None:
            return None
        caps = [
            (
                ("seat", session_id, "table" if seat is None else seat),
                MAX_STREAMS_PER_SEAT,
                TOO_MANY_FOR_SEAT,
            ),
            (("session", session_id), MAX_STREAMS_PER_SESSION, TOO_MANY_FOR_SESSION),
            *_owner_caps(request, account),
        ]
        for key, cap, message in caps:
            if self.open[key] >= cap:
                return _refused(key[0], message, session_id)
        for key, _cap, _message in caps:
            self.open[key] += 1
            held.append(key)
        return None

    def release(self, held: list[tuple]) -> None:
        for key in held:
            self.open[key] -= 1
            if self.open[key] <= 0:
                del self.open[key]
        held.clear()


counts = StreamCounts()

OWNER_MESSAGES = {"account": TOO_MANY_FOR_ACCOUNT, "address": TOO_MANY_FOR_ADDRESS}


def _owner_caps(request: HttpRequest, account: int | None) -> list[tuple[tuple, int, str]]:
    """Who a stream counts against beyond its table: its account, and its client address."""
    caps: list[tuple[tuple, int, str]] = [
        (("address", client_address(request)), MAX_STREAMS_PER_ADDRESS, TOO_MANY_FOR_ADDRESS)
    ]
    if account is not None:
        caps.insert(0, (("account", account), MAX_STREAMS_PER_ACCOUNT, TOO_MANY_FOR_ACCOUNT))
    return caps


REDIS_ERRORS = (redis.exceptions.RedisError, OSError)


class SharedStreamCounts:
    """The open streams of each account and client address across the server's processes, in
    Redis: a sorted set per owner, one member per stream scored by the time it must be gone by
    (its maximum age), so that the streams of a process that died leave the count on their own.
    Without Redis (make run: one process) the counts of ``StreamCounts`` are the whole server's.
    Redis unreachable: admitted (the process's own caps still hold), as the rate limits fail open."""

    PREFIX = "chronicle:streams:"

    def _client(self):
        """The Redis of the limits cache (settings.CACHES), or None when they are not in Redis."""
        limits = caches["limits"]
        if not isinstance(limits, RedisCache):
            return None
        return limits._cache.get_client(write=True)

    def admit(
        self, request: HttpRequest, account: int | None, session_id: int
    ) -> tuple[str, list[str]] | HttpResponse | None:
        """Count the stream under its owners: its place (to release), the 429 that refuses it, or
        None when nothing is shared (no Redis, or Redis unreachable)."""
        client = self._client()
        if client is None:
            return None
        caps = [
            (self.PREFIX + ":".join(map(str, key)), cap, key[0])
            for key, cap, _m in _owner_caps(request, account)
        ]
        place = uuid.uuid4().hex
        now = time.time()
        try:
            pipe = client.pipeline(transaction=True)
            for name, _cap, _kind in caps:
                pipe.zremrangebyscore(name, "-inf", now)
                pipe.zadd(name, {place: now + MAX_STREAM_AGE_SECONDS + SLOW_CLIENT_SECONDS})
                pipe.zcard(name)
                pipe.expire(name, int(MAX_STREAM_AGE_SECONDS + SLOW_CLIENT_SECONDS) + 60)
            open_now = pipe.execute()[2::4]
        except REDIS_ERRORS as error:
            log_refusal("shared", "Event stream counted in this process only: Redis unreachable (%s)", error)
            return None
        names = [name for name, _cap, _kind in caps]
        for (_name, cap, kind), count in zip(caps, open_now, strict=True):
            if count > cap:
                self.release((place, names))
                return _refused(kind, OWNER_MESSAGES[kind], session_id)
        return place, names

    def release(self, held: tuple[str, list[str]]) -> None:
        place, names = held
        client = self._client()
        if client is None:
            return
        with contextlib.suppress(*REDIS_ERRORS):
            pipe = client.pipeline(transaction=False)
            for name in names:
                pipe.zrem(name, place)
            pipe.execute()


shared = SharedStreamCounts()


async def admit(
    request: HttpRequest, session_id: int, seat: int | None, *, account: int | None
) -> HttpResponse | None:
    """Count a stream in this process (seat, session, account, address), then across the
    server's processes (account, address, with Redis): None, or the 429 that names the cap."""
    refusal = counts.admit(request, session_id, seat, account=account)
    if refusal is not None or getattr(request, "scope", {}).get(SCOPE_KEY) is None:
        return refusal
    place = await sync_to_async(shared.admit)(request, account, session_id)
    if isinstance(place, HttpResponse):
        counts.release(request.scope[SCOPE_KEY])  # type: ignore[attr-defined]
        return place
    if place is not None:
        request.scope[SHARED_SCOPE_KEY] = place  # type: ignore[attr-defined]
    return None


def _refused(kind: str, message: str, session_id: int) -> HttpResponse:
    log_refusal(kind, "Event stream refused: too many for one %s (session %s)", kind, session_id)
    response = HttpResponse(message, status=429, content_type="text/plain; charset=utf-8")
    response["Retry-After"] = str(TOO_MANY_RETRY_AFTER_SECONDS)
    response["Cache-Control"] = "no-cache"
    return response


@dataclass
class _Progress:
    """How far a stream got: its answer started; cut off (its client read nothing)."""

    started: bool = False
    cut: bool = False


def _guarded_send(send, progress: _Progress):
    """``send``, with a client whose buffers stay full for SLOW_CLIENT_SECONDS cut off."""

    async def guarded(message) -> None:
        try:
            async with asyncio.timeout(SLOW_CLIENT_SECONDS):
                await send(message)
        except TimeoutError:
            progress.cut = True
            log_refusal("slow", "Event stream cut: its client read nothing for %g s", SLOW_CLIENT_SECONDS)
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


def is_stream(scope) -> bool:
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

    async def __call__(self, scope, receive, send) -> None:
        if self.open_streams >= settings.MAX_OPEN_STREAMS:
            log_refusal("process", "Event stream refused: %d open in this process", self.open_streams)
            return await _too_many(send)
        self.open_streams += 1  # one event loop per process: no lock needed
        held: list[tuple] = []
        progress = _Progress()
        scope[SCOPE_KEY] = held  # the server's own scope of this request: no copy of it
        try:
            await self._served(scope, receive, _guarded_send(send, progress), progress)
        finally:
            self.open_streams -= 1
            counts.release(held)
            place = scope.pop(SHARED_SCOPE_KEY, None)
            if place is not None:
                await sync_to_async(shared.release)(place)

    async def _served(self, scope, receive, send, progress: _Progress) -> None:
        """The stream, ended at its maximum age (a clean end: the browser reconnects at once)."""
        try:
            async with asyncio.timeout(MAX_STREAM_AGE_SECONDS):
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

    async def handle(self, scope, receive, send) -> None:
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

    async def _answered(self, scope, body_file, receive, send, answered: list) -> None:
        """The answer sent, while a disconnect is listened for (it ends the stream)."""
        try:
            async with asyncio.TaskGroup() as group:
                group.create_task(self.listen_for_disconnect(receive))
                answered.append(await self._answer(scope, body_file))
                await _send_lean(answered[0], send)
                raise _Processed
        except* (_Processed, RequestAborted):
            pass

    async def _answer(self, scope, body_file) -> HttpResponseBase:
        """The view's answer; the request is closed at once (its body file with it) and kept by
        nothing: the stream's generator holds only what it reads (games/events.py)."""
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


async def _send_lean(response: HttpResponseBase, send) -> None:
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


def streams_apart(app):
    """ASGI middleware: the event streams to ``StreamHandler``, everything else to ``app``."""
    streams = StreamHandler()

    async def application(scope, receive, send):
        if is_stream(scope):
            return await streams(scope, receive, send)
        return await app(scope, receive, send)

    return application


EVENT_STREAM = "text/event-stream"


class GZipExceptStreamsMiddleware(GZipMiddleware):
    """Django's gzip (padded against BREACH) for the pages and the API's JSON, never for an event
    stream: each event must reach the client as it is sent, not when a compressed block fills up.
    (Under ASGI the streams skip the middleware anyway: ``StreamHandler``; this holds elsewhere.)"""

    def process_response(self, request, response):
        if response.get("Content-Type", "").startswith(EVENT_STREAM):
            return response
        return super().process_response(request, response)
