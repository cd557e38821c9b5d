"""The caps on the event streams: how many one process holds (``settings.MAX_OPEN_STREAMS``), and
how many one seat, one table, one account and one client address may hold, in this process and,
with Redis, across the server's processes. Past a cap a stream is refused (503 or 429 with
Retry-After) and the page polls instead (static/js/live.js); refusals are logged at most once a
minute per kind."""

from __future__ import annotations

import contextlib
import logging
import os
import time
import uuid
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any

import redis
from asgiref.sync import sync_to_async
from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext_lazy

from config.ratelimits import client_address

logger = logging.getLogger(__name__)

TOO_MANY_STREAMS = "Too many live streams on this server: the page checks for changes instead."
TOO_MANY_FOR_SEAT = gettext_lazy("Too many live streams for this seat: the page checks for changes instead.")
TOO_MANY_FOR_SESSION = gettext_lazy(
    "Too many live streams for this table: the page checks for changes instead."
)
TOO_MANY_FOR_ACCOUNT = gettext_lazy(
    "Too many live streams for this account (its other tabs and devices): the page checks for changes instead."
)
TOO_MANY_FOR_ADDRESS = gettext_lazy(
    "Too many live streams from this network address: the page checks for changes instead."
)
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
SCOPE_KEY = "chronicle.stream"  # the scope's list of the counters a stream was admitted under
SHARED_SCOPE_KEY = "chronicle.stream.shared"  # and its place in the counters shared through Redis


class RefusalLog:
    """At most one warning per kind of refusal per ``every`` seconds: a crowd of refusals (or of
    slow clients) does not fill the log. The lines not written are counted in the next one."""

    def __init__(self, every: float = LOG_EVERY_SECONDS, clock: Callable[[], float] = time.monotonic) -> None:
        self.every = every
        self.clock = clock
        self.last: dict[str, float] = {}
        self.quiet: Counter[str] = Counter()

    def warn(self, kind: str, message: str, *args: object) -> None:
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


def log_refusal(kind: str, message: str, *args: object) -> None:
    refusals.warn(kind, message, *args)


def _refusal_headers(body: bytes) -> list[tuple[bytes, bytes]]:
    return [
        (b"content-type", b"text/plain; charset=utf-8"),
        (b"content-length", str(len(body)).encode()),
        (b"retry-after", str(TOO_MANY_RETRY_AFTER_SECONDS).encode()),
        (b"cache-control", b"no-cache"),
    ]


async def too_many_streams(send: Callable[[dict[str, Any]], Awaitable[None]]) -> None:
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


def _owner_caps(request: HttpRequest, account: int | None) -> list[tuple[tuple, int, Any]]:
    """Who a stream counts against beyond its table: its account, and its client address."""
    caps: list[tuple[tuple, int, Any]] = [
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

    def _client(self) -> Any:
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


def _refused(kind: str, message: Any, session_id: int) -> HttpResponse:
    log_refusal(kind, "Event stream refused: too many for one %s (session %s)", kind, session_id)
    response = HttpResponse(str(message), status=429, content_type="text/plain; charset=utf-8")
    response["Retry-After"] = str(TOO_MANY_RETRY_AFTER_SECONDS)
    response["Cache-Control"] = "no-cache"
    return response
