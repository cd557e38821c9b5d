import os

from celery import Celery
from django.db import InterfaceError, OperationalError

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("chronicle")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

# Every task: a database hiccup (restart, failover) is retried with backoff; the tasks are idempotent.
RETRY = {"autoretry_for": (OperationalError, InterfaceError), "retry_backoff": 2, "max_retries": 5}

# Beat's liveness: a task beat sends every CHRONICLE_BEAT_HEARTBEAT_SECONDS writes the time into the
# cache; /status/ calls beat stale when that time is older than two intervals (config/health.py).
BEAT_HEARTBEAT_KEY = "chronicle:beat-heartbeat"


@app.task(name="config.celery.beat_heartbeat_task", ignore_result=True)
def beat_heartbeat_task() -> float:
    import time

    from django.conf import settings
    from django.core.cache import cache

    now = time.time()
    cache.set(BEAT_HEARTBEAT_KEY, now, timeout=int(10 * settings.CHRONICLE_BEAT_HEARTBEAT_SECONDS))
    return now
