"""Health check and status page: database, Redis (or the eager/polling fallback without it)."""

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.shortcuts import render


def service_status() -> dict:
    status = {"database": connection.vendor, "database_ok": True}
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except Exception:
        status["database_ok"] = False
    if settings.REDIS_URL:
        try:
            import redis

            redis.Redis.from_url(settings.REDIS_URL, socket_timeout=1).ping()
            status["redis"] = "connected"
        except Exception:
            status["redis"] = "unreachable"
    else:
        status["redis"] = "not configured"
    status["tasks"] = "Celery workers" if settings.REDIS_URL else "run eagerly in the web process"
    status["live_updates"] = "Redis fan-out" if status["redis"] == "connected" else "polling fallback"
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
    return render(request, "rate_limited.html", status=429)
