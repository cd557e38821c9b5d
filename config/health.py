"""Health check and status page: database, Redis, and how tasks and live updates run without it."""

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.shortcuts import render

# How changes reach the pages (games/events.py): pushed, with polling only while a stream is down.
LIVE_UPDATES = {
    "connected": "pushed to every web process through Redis",
    "not configured": "pushed from this process (one server, no Redis)",
    "unreachable": "polling: Redis is unreachable, so other web processes cannot be told",
}


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
