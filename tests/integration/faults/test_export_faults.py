"""Exports and the status page when the worker dies or Redis goes away (issue 25): every export is
finished or visibly failed, never "pending" for ever, and /status/ shows a worker that is gone.

The site (its REDIS_URL, cache and Celery app) is pointed at a redis-server of the test's own,
sending to the queue of the test's own ``celery worker`` processes (conftest.py), which run on the
test database (PostgreSQL). Beat is stood in for by calling its sweep, at a moment past the
staleness limit, instead of waiting minutes for it.
"""

import datetime

import pytest
from django.conf import settings as django_settings
from django.urls import reverse
from django.utils import timezone

from campaign.demo import demo_campaign_load
from campaign.models import CampaignExport
from campaign.services.archive.export_queue import (
    EXPORT_GAVE_UP,
    EXPORT_NOT_SENT,
    campaign_export_request,
    campaign_export_sweep,
)
from config import health
from config.celery import app
from tests.integration.faults.conftest import forget_celery_connections, kill, wait_for
from tests.integration.faults.test_worker_killed import _kill_when_blocked

pytestmark = [pytest.mark.database, pytest.mark.redis, pytest.mark.django_db(transaction=True)]

TRY_AGAIN = ">Try again</button>"


def sweep_later() -> dict[str, int]:
    """Beat's sweep, run as it would be once the pending exports are stale."""
    later = timezone.now() + datetime.timedelta(seconds=django_settings.CHRONICLE_EXPORT_STALE_SECONDS + 1)
    return campaign_export_sweep(now=later)


def ready(export: CampaignExport):
    export.refresh_from_db()
    return export.status == CampaignExport.Status.READY


def campaign_page(client, campaign) -> str:
    return client.get(reverse("campaign-detail", args=[campaign.pk])).content.decode()


class ExportFaultTests:
    @pytest.mark.postgres
    def test_an_export_whose_worker_is_killed_and_whose_message_is_lost_is_sent_again_by_the_sweep(
        self, site, worker_process
    ):
        worker = worker_process(
            broker_url=site.redis.url, block="export:in_transaction", media_root=site.media
        )
        worker.env["CHRONICLE_FAULT_VISIBILITY"] = "3600"  # the killed task's message never comes back
        site.send_to(worker.queue)
        first = worker.start()
        export = campaign_export_request(campaign=demo_campaign_load())
        _kill_when_blocked(worker, first)
        export.refresh_from_db()
        assert (export.status, export.attempts) == (CampaignExport.Status.PENDING, 1)

        second = worker.start()
        assert sweep_later() == {"sent": 1, "failed": 0}
        wait_for(lambda: ready(export), what="the export sent again by the sweep")

        assert second.poll() is None, worker.log_tail()
        assert export.attempts == 2 and export.error == ""
        files = sorted(p.name for p in (site.media / "exports").iterdir())
        assert files == [export.path], files  # one archive, no temporary file of the killed run

    def test_an_export_no_worker_ever_runs_fails_visibly_after_the_sweeps(self, site, client):
        campaign = demo_campaign_load()
        export = campaign_export_request(campaign=campaign)  # sent, but nobody consumes
        limit = django_settings.CHRONICLE_EXPORT_MAX_ATTEMPTS
        for attempt in range(2, limit + 1):
            assert sweep_later() == {"sent": 1, "failed": 0}, attempt
        assert sweep_later() == {"sent": 0, "failed": 1}

        export.refresh_from_db()
        reason = EXPORT_GAVE_UP.format(attempts=limit)
        assert (export.status, export.error, export.attempts) == (CampaignExport.Status.FAILED, reason, limit)
        client.force_login(campaign.created_by)
        html = campaign_page(client, campaign)
        assert reason in html and TRY_AGAIN in html

    @pytest.mark.postgres
    def test_an_export_requested_while_redis_is_down_is_written_once_redis_is_back(
        self, site, worker_process, client
    ):
        worker = worker_process(broker_url=site.redis.url, media_root=site.media)
        site.send_to(worker.queue)
        worker.start()
        campaign = demo_campaign_load()
        client.force_login(campaign.created_by)

        site.redis.stop()
        response = client.post(reverse("campaign-export", args=[campaign.pk]))
        assert response.status_code == 302
        export = campaign.exports.get()
        assert (export.status, export.error, export.attempts) == (
            CampaignExport.Status.PENDING, EXPORT_NOT_SENT, 1,
        )  # fmt: skip
        html = campaign_page(client, campaign)  # the page answers without Redis and says why
        assert str(EXPORT_NOT_SENT) in html and TRY_AGAIN in html

        # Redis back: the same worker reconnected on its own; the sweep sends the export again.
        site.redis.start()
        forget_celery_connections(app)
        assert campaign_export_sweep() == {"sent": 1, "failed": 0}
        wait_for(lambda: ready(export), what="the worker to reconnect and write the export")
        assert len(worker.procs) == 1 and worker.procs[0].poll() is None, worker.log_tail()
        assert export.attempts == 2 and export.error == ""
        assert "download</a>" in campaign_page(client, campaign)


class StatusPageTests:
    @pytest.mark.postgres
    def test_the_status_page_shows_a_dead_worker(self, site, worker_process, client):
        worker = worker_process(broker_url=site.redis.url, media_root=site.media)
        site.send_to(worker.queue)
        proc = worker.start()

        status = client.get("/healthz").json()
        assert (status["redis"], status["worker"]) == ("connected", health.WORKER_ANSWERING)
        assert "answering ✓" in client.get("/status/").content.decode()

        kill(proc)
        health._worker_ping.clear()  # the last answer is reused for a few seconds
        response = client.get("/healthz")
        assert response.status_code == 200  # the web process itself is healthy
        assert response.json()["worker"] == health.WORKER_SILENT and response.json()["tasks_ok"] is False
        page = client.get("/status/")
        assert page.status_code == 200 and str(health.WORKER_SILENT) in page.content.decode()

    def test_the_status_page_answers_while_redis_is_down(self, site, client):
        site.redis.stop()
        response = client.get("/healthz")
        assert response.status_code == 200
        status = response.json()
        assert (status["redis"], status["worker"], status["beat"]) == (
            "unreachable", health.UNKNOWN_WITHOUT_REDIS, health.UNKNOWN_WITHOUT_REDIS,
        )  # fmt: skip
        assert str(health.UNKNOWN_WITHOUT_REDIS) in client.get("/status/").content.decode()
