"""Exports that cannot be lost (issue 25): the task is sent after the request's commit; a send the
broker refuses leaves the export pending and saying so; beat's sweep sends stale pending exports
again and fails, with a reason, those sent CHRONICLE_EXPORT_MAX_ATTEMPTS times already.

Celery is eager here (no Redis): a task that is sent runs at once, in this process."""

import datetime

import pytest
from django.utils import timezone
from kombu.exceptions import OperationalError

from campaign.models import CampaignExport
from campaign.services.archive.export_queue import (
    EXPORT_GAVE_UP,
    EXPORT_NOT_SENT,
    campaign_export_request,
    campaign_export_sweep,
)
from campaign.tasks import campaign_export_task
from tests.factories import campaign_with_houses
from tests.guards import HANG_GUARD_SECONDS

pytestmark = pytest.mark.django_db


@pytest.fixture
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    settings.CHRONICLE_EXPORT_STALE_SECONDS = 120
    settings.CHRONICLE_EXPORT_MAX_ATTEMPTS = 3
    return tmp_path / "exports"


@pytest.fixture
def broker_down(monkeypatch):
    """Every send of the export task is refused as by an unreachable Redis; the sends are counted."""
    sent: list[list] = []

    def refuse(*args, **kwargs):
        sent.append(kwargs.get("args") or list(args[0]))
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(campaign_export_task, "apply_async", refuse)
    return sent


def pending_export(*, attempts: int, sent_ago: float, error: str = "") -> CampaignExport:
    campaign, _ = campaign_with_houses("Solaris")
    return CampaignExport.objects.create(
        campaign=campaign,
        attempts=attempts,
        attempted_at=timezone.now() - datetime.timedelta(seconds=sent_ago),
        error=error,
    )


def files(folder) -> list[str]:
    return sorted(p.name for p in folder.iterdir()) if folder.exists() else []


class ExportEnqueueTests:
    def test_a_requested_export_is_sent_once_and_written(self, media, django_capture_on_commit_callbacks):
        campaign, _ = campaign_with_houses("Solaris")
        with django_capture_on_commit_callbacks(execute=True):
            export = campaign_export_request(campaign=campaign)
        export.refresh_from_db()
        assert (export.status, export.attempts, export.error) == (CampaignExport.Status.READY, 1, "")
        assert export.attempted_at is not None and files(media) == [export.path]

    def test_an_export_whose_task_cannot_be_sent_stays_pending_and_says_why(
        self, media, broker_down, django_capture_on_commit_callbacks
    ):
        campaign, _ = campaign_with_houses("Solaris")
        with django_capture_on_commit_callbacks(execute=True):
            export = campaign_export_request(campaign=campaign)
        export.refresh_from_db()
        assert broker_down == [[export.pk]]
        assert (export.status, export.attempts, export.error) == (
            CampaignExport.Status.PENDING, 1, EXPORT_NOT_SENT,
        )  # fmt: skip
        assert export.stalled and export.retryable and files(media) == []


class ExportSweepTests:
    def test_a_stale_pending_export_is_sent_again_and_written(self, media):
        export = pending_export(attempts=1, sent_ago=121)
        assert export.stalled

        assert campaign_export_sweep() == {"sent": 1, "failed": 0}

        export.refresh_from_db()
        assert (export.status, export.attempts) == (CampaignExport.Status.READY, 2)
        assert files(media) == [export.path]

    def test_a_pending_export_sent_recently_is_left_alone(self, media):
        export = pending_export(attempts=1, sent_ago=60)
        assert not export.stalled and not export.retryable

        assert campaign_export_sweep() == {"sent": 0, "failed": 0}

        export.refresh_from_db()
        assert (export.status, export.attempts) == (CampaignExport.Status.PENDING, 1)
        assert files(media) == []

    def test_an_export_whose_send_failed_is_sent_at_the_next_sweep(self, media):
        export = pending_export(attempts=1, sent_ago=5, error=EXPORT_NOT_SENT)

        assert campaign_export_sweep() == {"sent": 1, "failed": 0}

        export.refresh_from_db()
        assert (export.status, export.error, export.attempts) == (CampaignExport.Status.READY, "", 2)

    def test_while_the_broker_is_down_the_sweep_counts_the_attempt_and_keeps_the_reason(
        self, media, broker_down
    ):
        export = pending_export(attempts=1, sent_ago=5, error=EXPORT_NOT_SENT)

        assert campaign_export_sweep() == {"sent": 0, "failed": 0}

        export.refresh_from_db()
        assert broker_down == [[export.pk]]
        assert (export.status, export.error, export.attempts) == (
            CampaignExport.Status.PENDING, EXPORT_NOT_SENT, 2,
        )  # fmt: skip

    def test_an_export_sent_too_often_fails_and_says_why(self, media, broker_down):
        export = pending_export(attempts=3, sent_ago=121)

        assert campaign_export_sweep() == {"sent": 0, "failed": 1}

        export.refresh_from_db()
        assert export.status == CampaignExport.Status.FAILED
        assert export.error == EXPORT_GAVE_UP.format(attempts=3)
        assert export.retryable and not export.stalled
        assert broker_down == [] and files(media) == []  # not sent a fourth time

    def test_ready_and_failed_exports_are_not_touched(self, media, broker_down):
        campaign, _ = campaign_with_houses("Solaris")
        old = timezone.now() - datetime.timedelta(hours=1)
        ready = CampaignExport.objects.create(
            campaign=campaign, status=CampaignExport.Status.READY, path="x.json", attempts=1, attempted_at=old
        )
        failed = CampaignExport.objects.create(
            campaign=campaign,
            status=CampaignExport.Status.FAILED,
            error="too large",
            attempts=1,
            attempted_at=old,
        )

        assert campaign_export_sweep() == {"sent": 0, "failed": 0}

        assert broker_down == []
        for export, status, error in ((ready, "ready", ""), (failed, "failed", "too large")):
            export.refresh_from_db()
            assert (export.status, export.error, export.attempts) == (status, error, 1)

    def test_the_beat_task_runs_the_sweep(self, media):
        from campaign.tasks import campaign_export_sweep_task

        export = pending_export(attempts=1, sent_ago=500)
        assert campaign_export_sweep_task.delay().get(timeout=HANG_GUARD_SECONDS) == {"sent": 1, "failed": 0}
        export.refresh_from_db()
        assert export.status == CampaignExport.Status.READY

    def test_the_sweep_is_scheduled_by_beat(self, settings):
        tasks = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
        assert "campaign.tasks.campaign_export_sweep_task" in tasks
