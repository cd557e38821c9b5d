"""Push: the nudges of ``games.live.nudges`` as server-sent events (django-eventstream, on ASGI).

A page opens one event stream on channel ``session-{id}``: a phone with its seat's join token
(``/play/seat/<token>/events/``), the table screen as its host (``/play/s/<id>/events/``); an API
client opens ``/api/sessions/<id>/events/`` with the host's API token or its seat's X-Seat-Token
header (api/sessions/stream_events.py). Each event is a nudge, ``{"type": "session_version", "session": id,
"version": n}``, never a view; the page then fetches its own panel with a normal request.

- **Event ids are session versions.** ``VersionStorage`` answers django-eventstream's questions
  ("the current id", "the events after id n") from the session's version, so a page that carries
  ``lastEventId=session-{id}:{version}`` (or a browser that reconnects with its Last-Event-ID)
  gets, at once, one nudge with the newest version if it missed any; nothing is stored twice.
  An id newer than the session (it cannot be) answers ``stream-reset``: refetch.
- **Fan-out.** Without Redis (``make run``), ``inprocess_transport`` hands each nudge to the
  streams of this process. With Redis, every web process subscribes once to the nudges already
  published on ``session-*`` (``redis_fanout``) and hands them to its own streams; after a lost
  Redis connection it resubscribes and tells its streams to refetch (``stream-reset``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
from collections.abc import Callable
from typing import Any

import redis.asyncio as aioredis
from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.db import connections
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.views.decorators.http import require_GET
from django_eventstream.channelmanager import ChannelManagerBase
from django_eventstream.event import Event
from django_eventstream.storage import EventDoesNotExist, StorageBase
from django_eventstream.views import events as eventstream_events
from django_eventstream.views import get_listener_manager
from django_ratelimit.exceptions import Ratelimited

from config.health import rate_limited
from games import access, selectors, versions
from games.live import caps, nudges

logger = logging.getLogger(__name__)

CHANNEL_FORMAT = nudges.CHANNEL_FORMAT
CHANNEL_RE = re.compile("^" + re.escape(CHANNEL_FORMAT).replace(re.escape("{session_id}"), r"(\d+)") + "$")
RESET_EVENT = "stream-reset"
RESUBSCRIBE_DELAY_SECONDS = 1.0


def _session_id(channel: str) -> int | None:
    match = CHANNEL_RE.match(channel)
    return int(match.group(1)) if match else None


def current_version(session_id: int) -> int | None:
    """The session's version: from the cache the nudges keep, else one indexed read (and the
    database connection is given back at once: see ``release_database``), remembered in the cache
    as the polling endpoint does: a crowd of streams opening at one table reads the database once."""
    version = versions.cached_version(session_id)
    if version is not None:
        return version
    row = selectors.session_current_version(session_id=session_id)
    release_database()
    if row is None:
        return None
    versions.remember_version(session_id, row[0])
    return row[0]


def release_database() -> None:
    """Close this thread's database connections. A stream is a request that lasts for hours: with
    persistent connections (CONN_MAX_AGE) each open stream would otherwise hold one, and 600
    phones would need 600 PostgreSQL connections. (Inside a transaction, as in tests: kept.)"""
    for conn in connections.all(initialized_only=True):
        if not conn.in_atomic_block:
            conn.close()


class SessionChannelManager(ChannelManagerBase):
    """Only ``session-{id}`` channels exist. Who may read one is decided on the request (the
    seat's join token, or the host), by the views below, before the stream opens: django-
    eventstream's ``can_read_channel`` sees only the user, and a phone has a token, not a user."""

    def get_channels_for_request(self, request: HttpRequest, view_kwargs: dict[str, Any]) -> set[str]:
        return {nudges.session_channel(view_kwargs["session_id"])}

    def can_read_channel(self, user: Any, channel: str) -> bool:
        return _session_id(channel) is not None

    def is_channel_reliable(self, channel: str) -> bool:
        return True  # resumable: VersionStorage answers from the session version


class VersionStorage(StorageBase):
    """Event ids are session versions; the one event after id ``n`` is the newest version."""

    def append_event(self, channel: str, event_type: str, data: Any) -> Event:
        raise NotImplementedError("nudges are published by games.live.nudges, not stored")

    def get_current_id(self, channel: str) -> int:
        session_id = _session_id(channel)
        version = None if session_id is None else current_version(session_id)
        return version or 0

    def get_events(self, channel: str, last_id: int, limit: int = 100) -> list[Event]:
        session_id = _session_id(channel)
        version = None if session_id is None else current_version(session_id)
        if session_id is None or version is None:
            return []
        if last_id > version:  # a resume point the session never had: start again
            raise EventDoesNotExist("resume point is ahead of the session", version)
        if last_id == version:
            return []
        payload = json.dumps(nudges.nudge_payload(session_id=session_id, version=version))
        return [Event(channel, nudges.NUDGE_TYPE, payload, id=version)]


def _event(channel: str, message: str) -> Event:
    return Event(channel, nudges.NUDGE_TYPE, message, id=json.loads(message)["version"])


def inprocess_transport(channel: str, message: str) -> None:
    """Without Redis, the streams of this very process are everyone: hand them the nudge."""
    if settings.REDIS_URL:
        return  # published on Redis: every process's redis_fanout delivers it, this one included
    get_listener_manager().add_to_queues(channel, _event(channel, message))


def _reset_local_streams() -> None:
    manager = get_listener_manager()
    with manager.lock:
        channels = list(manager.listeners_by_channel)
    for channel in channels:
        manager.add_to_queues(channel, Event(channel, RESET_EVENT, json.dumps({"channels": [channel]})))


async def redis_fanout(url: str) -> None:
    """Subscribe to every session's nudges on Redis and hand each to this process's streams.
    Runs for the life of the process; a lost connection is retried, then the streams refetch."""
    lost = False
    while True:
        client = aioredis.Redis.from_url(url)
        try:
            pubsub = client.pubsub()
            await pubsub.psubscribe(CHANNEL_FORMAT.format(session_id="*"))
            if lost:
                _reset_local_streams()  # nudges may have been missed meanwhile
                lost = False
            async for message in pubsub.listen():
                if message["type"] != "pmessage":
                    continue
                channel = message["channel"].decode()
                try:
                    event = _event(channel, message["data"].decode())
                except (ValueError, KeyError, TypeError):
                    logger.warning("Ignored a malformed nudge on %s", channel)
                    continue
                get_listener_manager().add_to_queues(channel, event)
        except asyncio.CancelledError:
            raise
        except Exception:
            lost = True
            logger.warning("Redis nudge subscription lost; retrying", exc_info=True)
            await asyncio.sleep(RESUBSCRIBE_DELAY_SECONDS)
        finally:
            with contextlib.suppress(Exception):  # already gone
                await client.aclose()


_fanout: dict[str, asyncio.Task] = {}


def _ensure_redis_fanout() -> None:
    """Start this process's Redis subscription once, on the server's event loop."""
    url = settings.REDIS_URL
    if not url:
        return
    loop = asyncio.get_running_loop()
    task = _fanout.get(url)
    if task is not None and not task.done() and task.get_loop() is loop:
        return
    _fanout[url] = loop.create_task(redis_fanout(url))


async def redis_fanout_stop() -> None:
    """Stop this loop's subscriptions (tests; a server's lasts as long as its process)."""
    loop = asyncio.get_running_loop()
    for url, task in list(_fanout.items()):
        if task.get_loop() is loop:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            del _fanout[url]


async def _stream(
    request: HttpRequest, session_id: int, seat: int | None = None
) -> HttpResponse | StreamingHttpResponse:
    if not isinstance(request, ASGIRequest):
        # A WSGI server (manage.py runserver, the test live server) cannot hold a stream open:
        # 204 tells EventSource not to reconnect, and the page keeps polling ("Live · polling").
        return HttpResponse(status=204)
    account = await sync_to_async(access.request_account)(request)
    refusal = await caps.admit(request, session_id, seat, account=account)  # the caps' 429
    if refusal is not None:
        return refusal
    response = await sync_to_async(_open_stream)(request, session_id)
    if isinstance(response, StreamingHttpResponse):
        _ensure_redis_fanout()  # on the server's event loop, which serves the stream
    return response  # or django-eventstream's answer to a bad request


def _open_stream(request: HttpRequest, session_id: int) -> HttpResponse | StreamingHttpResponse:
    response = eventstream_events(request, **{"format-channels": [CHANNEL_FORMAT], "session_id": session_id})
    release_database()  # the access check's reads are done; the stream itself needs none
    return response


# The views are async, so that under ASGI (games/live/asgi.py) an open stream holds no thread: their
# sync steps are short calls, each handed to a thread and back.


@require_GET
async def seat_events(request: HttpRequest, token: str) -> HttpResponse | StreamingHttpResponse:
    """A phone's stream: its join token is the key (unknown tokens are rate limited, 404)."""
    try:
        seat = await sync_to_async(access.seat_for_join_token)(request, token)
    except Ratelimited as refusal:  # answered here: the stream handler has no rate-limit middleware
        return await sync_to_async(rate_limited)(request, refusal)
    if seat is None:
        raise Http404
    return await _stream(request, seat.session_id, seat.index)


# ---- The session's stream: the table page's address and the API's ---------------------------
# Open to the readers of ``games.access.session_stream_reader``. Every reader gets the same nudges.


def _page_refusal(request: HttpRequest, refusal: access.Refusal) -> HttpResponse:
    if refusal.status == 429:
        return rate_limited(request)
    raise Http404  # the page's stream says nothing more to whoever is not at the table


Refuse = Callable[[HttpRequest, access.Refusal], HttpResponse]


async def session_stream(
    request: HttpRequest, session_id: int, refuse: Refuse
) -> HttpResponse | StreamingHttpResponse:
    """The session's stream for its readers (``games.access.session_stream_reader``); a refusal
    answered by ``refuse``, in the words of the address asked (the page's, the API's)."""
    reader = await sync_to_async(access.session_stream_reader)(request, session_id)
    if isinstance(reader, access.Refusal):
        return await sync_to_async(refuse)(request, reader)
    return await _stream(request, session_id, reader)


@require_GET
async def table_events(request: HttpRequest, session_id: int) -> HttpResponse | StreamingHttpResponse:
    """The table screen's stream (/play/s/<id>/events/): its host with the session cookie, as the
    page opens it; the same readers as the API's address (api/sessions/stream_events.py)."""
    return await session_stream(request, session_id, _page_refusal)
