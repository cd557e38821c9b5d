"""The campaign page's export list: a pending export that cannot run says so, with a "Try again"
button (campaign_export_retry_view calling campaign_export_retry). Celery is eager here."""

import datetime

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse
from django.utils import timezone

from campaign.models import CampaignEvent, CampaignExport
from campaign.services.archive.export_queue import (
    EXPORT_ALREADY_READY,
    EXPORT_GAVE_UP,
    EXPORT_NOT_SENT,
    EXPORT_STILL_RUNNING,
)
from campaign.views.archive import EXPORT_RETRIED
from tests.factories import UserFactory, campaign_with_houses

pytestmark = pytest.mark.django_db

TRY_AGAIN = ">Try again</button>"


@pytest.fixture
def campaign(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    settings.CHRONICLE_EXPORT_STALE_SECONDS = 120
    campaign, _ = campaign_with_houses("Solaris")
    return campaign


def export_of(campaign, *, status=CampaignExport.Status.PENDING, sent_ago=5.0, error="", attempts=1):
    return CampaignExport.objects.create(
        campaign=campaign,
        status=status,
        error=error,
        attempts=attempts,
        attempted_at=timezone.now() - datetime.timedelta(seconds=sent_ago),
    )


def retry_url(export) -> str:
    return reverse("campaign-export-retry", args=[export.campaign_id, export.pk])


def page(client, campaign) -> str:
    return client.get(reverse("campaign-detail", args=[campaign.pk])).content.decode()


def said(response) -> list[str]:
    return [m.message for m in get_messages(response.wsgi_request)]


class ExportRetryViewTests:
    def test_an_export_that_could_not_be_sent_says_so_with_a_try_again_button(self, client, campaign):
        export = export_of(campaign, error=EXPORT_NOT_SENT)
        client.force_login(campaign.created_by)
        html = page(client, campaign)
        assert str(EXPORT_NOT_SENT) in html
        assert f'action="{retry_url(export)}"' in html and TRY_AGAIN in html

    def test_a_stale_pending_export_says_it_is_waiting_with_a_try_again_button(self, client, campaign):
        export = export_of(campaign, sent_ago=600, attempts=2)
        client.force_login(campaign.created_by)
        html = page(client, campaign)
        assert "Waiting: not written yet, 2 attempts so far." in html
        assert f'action="{retry_url(export)}"' in html

    def test_a_fresh_pending_export_has_no_button(self, client, campaign):
        export_of(campaign)
        client.force_login(campaign.created_by)
        html = page(client, campaign)
        assert str(CampaignExport.Status.PENDING.label) in html and TRY_AGAIN not in html

    def test_a_failed_export_shows_its_reason_and_a_button(self, client, campaign):
        reason = EXPORT_GAVE_UP.format(attempts=3)
        export = export_of(campaign, status=CampaignExport.Status.FAILED, error=reason, attempts=3)
        client.force_login(campaign.created_by)
        html = page(client, campaign)
        assert reason in html and f'action="{retry_url(export)}"' in html

    def test_try_again_sends_the_export_and_it_is_written(
        self, client, campaign, django_capture_on_commit_callbacks
    ):
        export = export_of(campaign, status=CampaignExport.Status.FAILED, error="x", attempts=3)
        client.force_login(campaign.created_by)
        with django_capture_on_commit_callbacks(execute=True):
            response = client.post(retry_url(export))
        assert response.status_code == 302 and response["Location"] == reverse(
            "campaign-detail", args=[campaign.pk]
        )
        assert said(response) == [str(EXPORT_RETRIED)]
        export.refresh_from_db()
        assert (export.status, export.error, export.attempts) == (CampaignExport.Status.READY, "", 1)
        assert CampaignEvent.objects.filter(campaign=campaign, kind="export_retried").count() == 1
        assert "download</a>" in page(client, campaign)

    @pytest.mark.parametrize(
        ("status", "sent_ago", "message"),
        [
            (CampaignExport.Status.READY, 600, EXPORT_ALREADY_READY),
            (CampaignExport.Status.PENDING, 5, EXPORT_STILL_RUNNING),
        ],
    )
    def test_an_export_that_needs_no_retry_is_refused_and_left_as_it_was(
        self, client, campaign, status, sent_ago, message, django_capture_on_commit_callbacks
    ):
        export = export_of(campaign, status=status, sent_ago=sent_ago)
        before = CampaignExport.objects.filter(pk=export.pk).values().get()
        client.force_login(campaign.created_by)
        with django_capture_on_commit_callbacks(execute=True) as callbacks:
            response = client.post(retry_url(export))
        assert response.status_code == 302 and said(response) == [message]
        assert callbacks == []  # nothing sent
        assert CampaignExport.objects.filter(pk=export.pk).values().get() == before
        assert not CampaignEvent.objects.filter(kind="export_retried").exists()

    def test_someone_outside_the_campaign_gets_404_and_nothing_is_sent(self, client, campaign):
        export = export_of(campaign, error=EXPORT_NOT_SENT)
        client.force_login(UserFactory())
        assert client.post(retry_url(export)).status_code == 404
        export.refresh_from_db()
        assert (export.status, export.error, export.attempts) == ("pending", EXPORT_NOT_SENT, 1)

    def test_an_export_of_another_campaign_is_404(self, client, campaign):
        other, _ = campaign_with_houses("Crann", user=campaign.created_by, name="Other")
        export = export_of(other, error=EXPORT_NOT_SENT)
        client.force_login(campaign.created_by)
        url = reverse("campaign-export-retry", args=[campaign.pk, export.pk])
        assert client.post(url).status_code == 404

    def test_get_is_not_allowed(self, client, campaign):
        export = export_of(campaign, error=EXPORT_NOT_SENT)
        client.force_login(campaign.created_by)
        assert client.get(retry_url(export)).status_code == 405
