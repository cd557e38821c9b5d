import os

from celery import Celery
from django.db import InterfaceError, OperationalError

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("chronicle")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

# Every task: a database hiccup (restart, failover) is retried with backoff; the tasks are idempotent.
RETRY = {"autoretry_for": (OperationalError, InterfaceError), "retry_backoff": 2, "max_retries": 5}
