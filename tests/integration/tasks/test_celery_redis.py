"""Celery tasks through a real Redis broker and a real worker (make test starts Redis)."""

import pytest
from celery import Celery
from celery.contrib.testing.worker import start_worker

from campaign.demo import demo_campaign_load
from campaign.models import CampaignExport
from campaign.services.archive.export_queue import campaign_export_request
from config.celery import app as project_app
from tests.guards import HANG_GUARD_SECONDS

pytestmark = [pytest.mark.database, pytest.mark.redis, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def redis_worker(redis_url, worker_id):
    """A Celery app of its own on the real Redis (the project's app stays eager and untouched) and a
    worker thread consuming one queue per xdist worker, so a task reaches the worker that shares
    its test database. Yields (app, queue)."""
    queue = f"chronicle-test-{worker_id}"
    worker_app = Celery("chronicle-test", set_as_current=False)
    worker_app.config_from_object("django.conf:settings", namespace="CELERY")
    worker_app.conf.update(
        broker_url=redis_url,
        result_backend=redis_url,
        task_always_eager=False,
        task_default_queue=queue,
        broker_connection_retry_on_startup=True,
    )
    worker_app.autodiscover_tasks(force=True)
    try:
        with start_worker(
            worker_app, pool="solo", perform_ping_check=False, shutdown_timeout=10, queues=[queue]
        ):
            yield worker_app, queue
    finally:
        # start_worker makes its app the current (and default) one, and every shared_task follows the
        # current app: give the project's eager app back, or a later test on this xdist worker sends
        # its task to this stopped worker and waits for ever.
        project_app.set_current()
        project_app.set_default()


class CeleryRedisTests:
    def test_export_task_runs_on_a_worker_through_redis(self, redis_worker, settings, tmp_path):
        from campaign.tasks import campaign_export_task

        settings.MEDIA_ROOT = tmp_path
        campaign = demo_campaign_load()
        export = CampaignExport.objects.create(campaign=campaign)
        worker_app, queue = redis_worker
        name = worker_app.send_task(campaign_export_task.name, args=[export.pk], queue=queue).get(
            timeout=HANG_GUARD_SECONDS
        )
        export.refresh_from_db()
        assert export.status == "ready" and (tmp_path / "exports" / name).is_file()

    def test_a_task_sent_twice_writes_one_archive(self, redis_worker, settings, tmp_path):
        from campaign.tasks import campaign_export_task

        settings.MEDIA_ROOT = tmp_path
        export = campaign_export_request(campaign=demo_campaign_load())
        worker_app, queue = redis_worker
        results = [
            worker_app.send_task(campaign_export_task.name, args=[export.pk], queue=queue) for _ in range(2)
        ]
        assert len({r.get(timeout=HANG_GUARD_SECONDS) for r in results}) == 1
        assert len(list((tmp_path / "exports").glob("*.json"))) == 1


class RetryTests:
    def test_every_task_retries_a_database_hiccup(self):
        from django.db import OperationalError

        from campaign import tasks as campaign_tasks
        from games import tasks as games_tasks

        for task in (
            games_tasks.bot_move_task,
            games_tasks.session_cleanup_task,
            games_tasks.session_bots_wake_task,
            campaign_tasks.campaign_export_task,
            campaign_tasks.campaign_charts_task,
        ):
            assert OperationalError in task.autoretry_for and task.acks_late, task.name
