"""Health check and status page: database, Redis, the Celery worker and beat, and how tasks and
live updates run without Redis.

The worker is asked with a Celery ``control.ping`` (answered by the first worker, at most
WORKER_PING_TIMEOUT seconds, the answer reused for WORKER_PING_TTL seconds so /healthz stays quick);
beat by the age of the heartbeat its scheduled task writes (config/celery.py). Neither is asked
while Redis is unreachable, and neither changes /healthz's status code: a web process is healthy
without them, and /status/ says what is missing."""

import time

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.shortcuts import render

# How changes reach the pages (games/live/streams.py): pushed, with polling only while a stream is down.
LIVE_UPDATES = {
    "connected": "pushed to every web process through Redis",
    "not configured": "pushed from this process (one server, no Redis)",
    "unreachable": "polling: Redis is unreachable, so other web processes cannot be told",
}


WORKER_PING_TIMEOUT = 1.0
WORKER_PING_TTL = 5.0
WORKER_ANSWERING = "answering"
WORKER_SILENT = "not answering: exports and bot moves wait until a worker runs"
BEAT_ALIVE = "alive"
BEAT_STALE = "no tick for {seconds} s: bots are not woken and stale exports not retried"
BEAT_NEVER = "no tick seen yet: bots are not woken and stale exports not retried"
UNKNOWN_WITHOUT_REDIS = "unknown: Redis is unreachable"

_worker_ping: dict[str, tuple[float, bool]] = {}


def worker_answering() -> bool:
    """Whether a Celery worker answers a ping (reused for WORKER_PING_TTL seconds)."""
    now = time.monotonic()
    cached = _worker_ping.get(settings.REDIS_URL)
    if cached is not None and now - cached[0] < WORKER_PING_TTL:
        return cached[1]
    from config.celery import app

    try:
        answering = bool(app.control.ping(timeout=WORKER_PING_TIMEOUT, limit=1))
    except Exception:
        answering = False
    _worker_ping[settings.REDIS_URL] = (time.monotonic(), answering)
    return answering


def beat_state() -> str:
    from django.core.cache import cache

    from config.celery import BEAT_HEARTBEAT_KEY

    beat = cache.get(BEAT_HEARTBEAT_KEY)
    if beat is None:
        return BEAT_NEVER
    age = time.time() - float(beat)
    if age > 2 * settings.CHRONICLE_BEAT_HEARTBEAT_SECONDS:
        return BEAT_STALE.format(seconds=int(age))
    return BEAT_ALIVE


def service_status() -> dict:
    status: dict[str, str | bool] = {"database": connection.vendor, "database_ok": True}
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except Exception:
        status["database_ok"] = False
    redis_state = "not configured"
    if settings.REDIS_URL:
        try:
            import redis

            redis.Redis.from_url(settings.REDIS_URL, socket_timeout=1).ping()
            redis_state = "connected"
        except Exception:
            redis_state = "unreachable"
    status["redis"] = redis_state
    status["tasks"] = "Celery workers" if settings.REDIS_URL else "run eagerly in the web process"
    if redis_state == "connected":
        answering = worker_answering()
        status["worker"] = WORKER_ANSWERING if answering else WORKER_SILENT
        status["beat"] = beat_state()
        status["tasks_ok"] = answering and status["beat"] == BEAT_ALIVE
    elif redis_state == "unreachable":
        status["worker"] = status["beat"] = UNKNOWN_WITHOUT_REDIS
        status["tasks_ok"] = False
    status["live_updates"] = LIVE_UPDATES[redis_state]
    return status


def healthz(request: HttpRequest) -> JsonResponse:
    status = service_status()
    return JsonResponse(status, status=200 if status["database_ok"] else 503)


def ping(request: HttpRequest) -> JsonResponse:
    """The bare Django JSON view (no database, no cache): the baseline of make bench."""
    return JsonResponse({"ok": True})


def status_page(request: HttpRequest):
    return render(request, "status.html", {"status": service_status()})


def rate_limited(request: HttpRequest, exception=None):
    from config.ratelimits import LOGIN_WINDOW

    response = render(request, "rate_limited.html", status=429)
    response["Retry-After"] = str(LOGIN_WINDOW)
    return response
