"""Live updates are nudges, never data (docs/architecture.md section 6).

After a commit, "session S is now at version N" goes out on channel ``session-{id}``; each client
then re-fetches its own view through a normal authenticated request, so secrets never travel in a
broadcast. A transport is a function ``(channel, message_json) -> None``; ``TRANSPORTS`` lists them
(the cache one always, Redis pub/sub when ``REDIS_URL`` is set, and the server-sent events of
``games.live.streams``, which with Redis are fed from that pub/sub in every web process). The last one is
registered at start-up (``GamesConfig.ready()``, ``register_transport``): ``games.live.streams`` imports
this module, never the other way round.
"""

from __future__ import annotations

import contextvars
import json
import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

import redis
from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.cache import cache
from django.db import transaction

from games import versions
from games.models import GameSession

logger = logging.getLogger(__name__)

NUDGE_TYPE = "session_version"

Transport = Callable[[str, str], None]

# An ASGI application, as these modules use it.
Scope = dict[str, Any]
Message = dict[str, Any]
Receive = Callable[[], Awaitable[Mapping[str, Any]]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]


# The one place a session's channel name is built (the nudges, Redis pub/sub, the event streams).
CHANNEL_FORMAT = "session-{session_id}"


def session_channel(session_id: int) -> str:
    return CHANNEL_FORMAT.format(session_id=session_id)


def nudge_payload(*, session_id: int, version: int) -> dict:
    """Everything a nudge may carry: never a view, never a secret."""
    return {"type": NUDGE_TYPE, "session": session_id, "version": version}


REDIS_CACHE = "config.cache.ResilientRedisCache"

# Keep the newer version only (a late callback of an older commit never takes the cache back). The
# cache's RedisSerializer stores integers as they are, so cache.get() reads what this writes.
KEEP_NEWER_VERSION = """
local current = tonumber(redis.call('GET', KEYS[1]))
if current == nil or current < tonumber(ARGV[1]) then
  redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
end
return 0
"""


def _cache_on_nudge_redis() -> bool:
    """The cache lives in the Redis the nudges are published on (production): both go together."""
    default = settings.CACHES.get("default", {})
    return bool(settings.REDIS_URL) and (
        default.get("BACKEND") == REDIS_CACHE and default.get("LOCATION") == settings.REDIS_URL
    )


def cache_transport(channel: str, message: str) -> None:
    """Remember the newest version so the polling endpoint can answer "unchanged" from the cache.
    (When the cache is the nudges' Redis, ``redis_transport`` does it in the same round trip.)"""
    if _cache_on_nudge_redis():
        return
    data = json.loads(message)
    key = versions.version_cache_key(data["session"])
    current = cache.get(key)
    if current is None or current < data["version"]:  # versions only grow: never go back
        cache.set(key, data["version"], versions.VERSION_CACHE_TIMEOUT)


_redis_clients: dict[str, Any] = {}


def redis_transport(channel: str, message: str) -> None:
    """Publish the nudge on Redis pub/sub and, when the cache is in the same Redis, keep the
    version for the polling endpoint: one pipeline, one round trip."""
    url = settings.REDIS_URL
    if not url:
        return
    client = _redis_clients.get(url)
    if client is None:
        client = _redis_clients[url] = redis.Redis.from_url(url)
    if not _cache_on_nudge_redis():
        client.publish(channel, message)
        return
    data = json.loads(message)
    key = cache.make_and_validate_key(versions.version_cache_key(data["session"]))
    pipe = client.pipeline(transaction=False)
    pipe.eval(KEEP_NEWER_VERSION, 1, key, data["version"], versions.VERSION_CACHE_TIMEOUT)
    pipe.publish(channel, message)
    pipe.execute()


TRANSPORTS: list[Transport] = [cache_transport, redis_transport]


def register_transport(transport: Transport) -> None:
    """Add a transport once (the server-sent events of ``games.live.streams``, at start-up)."""
    if transport not in TRANSPORTS:
        TRANSPORTS.append(transport)


def publish(*, session_id: int, version: int) -> None:
    """Send one nudge through every transport; a failing transport never hides the others."""
    message = json.dumps(nudge_payload(session_id=session_id, version=version))
    channel = session_channel(session_id)
    for transport in list(TRANSPORTS):
        try:
            transport(channel, message)
        except Exception:  # the change is committed already: log, never fail the request
            logger.exception("Nudge transport %r failed for %s", transport, channel)


def notify_session_changed(session: GameSession) -> None:
    """Register, for after the commit, the nudge for the session's current version."""
    session_id, version = session.pk, session.version
    transaction.on_commit(lambda: _publish_when_answered(session_id, version))


# Served over ASGI (make run, docker/), a request's nudges go out once its answer has been sent
# (``after_answer``): the phone that tapped has its answer first, and no answer waits for Redis.
# Elsewhere (a Celery task, a command, the test client) they go out at the commit. The request's
# pending nudges: session -> newest version, in order of the first change.
_answer_pending: contextvars.ContextVar[dict[int, int] | None] = contextvars.ContextVar(
    "chronicle_nudges_after_answer", default=None
)


def _publish_when_answered(session_id: int, version: int) -> None:
    pending = _answer_pending.get()
    if pending is None:
        publish(session_id=session_id, version=version)
    else:
        pending[session_id] = max(version, pending.get(session_id, version))


def _publish_all(pending: dict[int, int]) -> None:
    for session_id, version in pending.items():
        publish(session_id=session_id, version=version)


def after_answer(app: App) -> App:
    """ASGI middleware: an HTTP request's nudges are published after the app has sent its answer.
    (Django runs the view's sync code with a copy of this context: the dict is shared.)"""

    async def application(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await app(scope, receive, send)
        pending: dict[int, int] = {}
        token = _answer_pending.set(pending)
        try:
            await app(scope, receive, send)
        finally:
            _answer_pending.reset(token)
            if pending:
                await sync_to_async(_publish_all, thread_sensitive=False)(pending)

    return application
