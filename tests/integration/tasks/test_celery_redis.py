"""Celery tasks through a real Redis broker and a real worker (make test starts Redis)."""

import pytest
from celery.contrib.testing.worker import start_worker

from campaign import services
from campaign.demo import demo_campaign_load
from campaign.models import CampaignExport
from config.celery import app

pytestmark = [pytest.mark.redis, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def redis_worker(redis_url, settings, worker_id):
    # One queue per xdist worker: a task must reach the worker that shares its test database.
    keys = ("broker_url", "result_backend", "task_always_eager", "task_default_queue")
    previous = {k: app.conf[k] for k in keys}
    app.conf.update(
        broker_url=redis_url,
        result_backend=redis_url,
        task_always_eager=False,
        broker_connection_retry_on_startup=True,
        task_default_queue=f"chronicle-test-{worker_id}",
    )
    app._local.__dict__.pop("backend", None)  # the result backend is cached per thread: rebuild it
    with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=10):
        yield app
    app.conf.update(previous)
    app._local.__dict__.pop("backend", None)


class CeleryRedisTests:
    def test_export_task_runs_on_a_worker_through_redis(self, redis_worker, settings, tmp_path):
        from campaign.tasks import campaign_export_task

        settings.MEDIA_ROOT = tmp_path
        campaign = demo_campaign_load()
        export = CampaignExport.objects.create(campaign=campaign)
        name = campaign_export_task.delay(export.pk).get(timeout=20)
        export.refresh_from_db()
        assert export.status == "ready" and (tmp_path / "exports" / name).is_file()

    def test_a_task_sent_twice_writes_one_archive(self, redis_worker, settings, tmp_path):
        from campaign.tasks import campaign_export_task

        settings.MEDIA_ROOT = tmp_path
        export = services.campaign_export_request(campaign=demo_campaign_load())
        results = [campaign_export_task.delay(export.pk) for _ in range(2)]
        assert len({r.get(timeout=20) for r in results}) == 1
        assert len(list((tmp_path / "exports").glob("*.json"))) == 1
