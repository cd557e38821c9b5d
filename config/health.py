"""Health check and status page: database, Redis, the Celery worker and beat, and how tasks and
live updates run without Redis.

The worker is asked with a Celery ``control.ping`` (answered by the first worker, at most
WORKER_PING_TIMEOUT seconds, the answer reused for WORKER_PING_TTL seconds so /healthz stays quick);
beat by the age of the heartbeat its scheduled task writes (config/celery.py). Neither is asked
while Redis is unreachable, and neither changes /healthz's status code: a web process is healthy
without them, and /status/ says what is missing."""

import time
from typing import TYPE_CHECKING

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.shortcuts import render
from django.utils import translation
from django.utils.translation import gettext_lazy

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

# How changes reach the pages (games/live/streams.py): pushed, with polling only while a stream is down.
LIVE_UPDATES = {
    "connected": gettext_lazy("pushed to every web process through Redis"),
    "not configured": gettext_lazy("pushed from this process (one server, no Redis)"),
    "unreachable": gettext_lazy("polling: Redis is unreachable, so other web processes cannot be told"),
}
REDIS_STATES = {
    "connected": gettext_lazy("connected"),
    "not configured": gettext_lazy("not configured"),
    "unreachable": gettext_lazy("unreachable"),
}
TASKS_BY_WORKERS = gettext_lazy("Celery workers")
TASKS_EAGER = gettext_lazy("run eagerly in the web process")


WORKER_PING_TIMEOUT = 1.0
WORKER_PING_TTL = 5.0
WORKER_ANSWERING = gettext_lazy("answering")
WORKER_SILENT = gettext_lazy("not answering: exports and bot moves wait until a worker runs")
BEAT_ALIVE = gettext_lazy("alive")
BEAT_STALE = gettext_lazy("no tick for {seconds} s: bots are not woken and stale exports not retried")
BEAT_NEVER = gettext_lazy("no tick seen yet: bots are not woken and stale exports not retried")
UNKNOWN_WITHOUT_REDIS = gettext_lazy("unknown: Redis is unreachable")

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


def beat_state() -> "StrOrPromise":
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
    status: dict[str, StrOrPromise | bool] = {"database": connection.vendor, "database_ok": True}
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
    status["redis"] = REDIS_STATES[redis_state]
    status["tasks"] = TASKS_BY_WORKERS if settings.REDIS_URL else TASKS_EAGER
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
    # Read by monitors, whatever their Accept-Language: its words stay the same.
    with translation.override(settings.LANGUAGE_CODE):
        status = service_status()
        return JsonResponse(status, status=200 if status["database_ok"] else 503)


def ping(request: HttpRequest) -> JsonResponse:
    """The bare Django JSON view (no database, no cache): the baseline of make bench."""
    return JsonResponse({"ok": True})


def status_page(request: HttpRequest):
    status = service_status()
    marks = {
        "worker_ok": status.get("worker") == WORKER_ANSWERING,
        "beat_ok": status.get("beat") == BEAT_ALIVE,
    }
    return render(request, "status.html", {"status": status, **marks})


def rate_limited(request: HttpRequest, exception=None):
    from config.ratelimits import retry_after

    seconds = retry_after(exception)
    response = render(request, "rate_limited.html", {"minutes": -(-seconds // 60)}, status=429)
    response["Retry-After"] = str(seconds)
    return response
