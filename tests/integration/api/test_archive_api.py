"""A campaign's archive through the API (issue 29, item 7): the owner exports (202, status, the
file), anyone logged in imports into a new campaign (201); a damaged, foreign, unread or too large
archive is refused with its code and writes nothing."""

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from api.archive.views import EXPORT_GONE, EXPORT_NOT_READY
from campaign.access import OWNER_ONLY
from campaign.demo import demo_campaign_load
from campaign.models import Campaign, CampaignEvent, CampaignExport, House, LedgerEntry
from campaign.services.archive.export import archive_dumps, campaign_archive
from campaign.services.archive.format import ARCHIVE_WRONG_FORMAT, ARCHIVE_WRONG_VERSION
from campaign.services.archive.upload import ARCHIVE_NOT_JSON
from campaign.services.archive.value_checks import FINALE_MISMATCH, MYSTERY_STICKERS_PER_CAMPAIGN
from campaign.services.houses import campaign_create
from config.uploads import upload_limit_message
from tests.factories import UserFactory, group_campaign
from tests.integration.api.conftest import token_client

pytestmark = pytest.mark.django_db


@pytest.fixture
def owned(settings, tmp_path):
    """The demo campaign as a group's (an owner and a player), exports written under tmp_path."""
    settings.MEDIA_ROOT = tmp_path
    owner, player = UserFactory(), UserFactory()
    return group_campaign(owner, player=player), owner, player


def export_url(campaign: Campaign) -> str:
    return reverse("api:campaign-export", args=[campaign.pk])


def upload(client, content: bytes, **fields):
    data = {"archive": SimpleUploadedFile("campaign.json", content), **fields}
    return client.post(reverse("api:campaign-import"), data, format="multipart")


def written() -> tuple:
    return Campaign.objects.count(), House.objects.count(), LedgerEntry.objects.count()


class ExportApiTests:
    def test_the_owner_exports_polls_and_downloads_the_archive(
        self, owned, django_capture_on_commit_callbacks
    ):
        campaign, owner, _ = owned
        client = token_client(owner)
        with django_capture_on_commit_callbacks(execute=True):
            response = client.post(export_url(campaign))
        assert response.status_code == 202
        export = CampaignExport.objects.get(pk=response.json()["id"])
        status = client.get(response.json()["status_url"]).json()
        assert (status["status"], status["reason"]) == ("ready", "")
        download = client.get(status["download_url"])
        assert download.status_code == 200 and download["Content-Type"] == "application/json"
        assert download["Content-Disposition"] == f'attachment; filename="{campaign.name}-{export.pk}.json"'
        archive = json.loads(b"".join(download.streaming_content))
        assert archive == json.loads(
            archive_dumps({**campaign_archive(campaign=campaign), "exported_at": archive["exported_at"]})
        )

    def test_a_pending_export_has_no_download_yet(self, owned):
        campaign, owner, _ = owned
        client = token_client(owner)
        answer = client.post(export_url(campaign)).json()  # its task waits for the commit
        assert (answer["status"], answer["download_url"]) == ("pending", None)
        download = client.get(reverse("api:campaign-export-download", args=[campaign.pk, answer["id"]]))
        assert download.status_code == 409
        assert download.json() == {
            "message": EXPORT_NOT_READY,
            "code": "export_not_ready",
            "extra": {"status": "pending", "reason": ""},
        }

    def test_a_failed_export_says_why_and_a_lost_file_is_gone(self, owned):
        campaign, owner, _ = owned
        client = token_client(owner)
        failed = CampaignExport.objects.create(campaign=campaign, status="failed", error="Too large.")
        lost = CampaignExport.objects.create(campaign=campaign, status="ready", path="nowhere.json")
        answer = client.get(reverse("api:campaign-export-status", args=[campaign.pk, failed.pk])).json()
        assert (answer["status"], answer["reason"]) == ("failed", "Too large.")
        refused = client.get(reverse("api:campaign-export-download", args=[campaign.pk, failed.pk]))
        assert (refused.status_code, refused.json()["extra"]) == (
            409,
            {"status": "failed", "reason": "Too large."},
        )
        gone = client.get(reverse("api:campaign-export-download", args=[campaign.pk, lost.pk]))
        assert (gone.status_code, gone.json()["code"], gone.json()["message"]) == (
            410,
            "export_gone",
            EXPORT_GONE,
        )

    def test_only_the_owner_exports_and_a_stranger_learns_nothing(self, owned):
        campaign, _, player = owned
        refused = token_client(player).post(export_url(campaign))
        assert (refused.status_code, refused.json()["message"]) == (403, OWNER_ONLY)
        assert token_client(UserFactory()).post(export_url(campaign)).status_code == 404
        assert not CampaignExport.objects.exists()

    def test_an_export_of_another_campaign_is_not_found(self, owned):
        campaign, owner, _ = owned
        elsewhere = campaign_create(name="Elsewhere", created_by=UserFactory())
        other = CampaignExport.objects.create(campaign=elsewhere, status="pending")
        url = reverse("api:campaign-export-status", args=[campaign.pk, other.pk])
        assert token_client(owner).get(url).status_code == 404


class ImportApiTests:
    def test_an_exported_archive_imports_into_a_new_campaign_of_the_caller(self, user):
        original = demo_campaign_load()
        response = upload(token_client(user), archive_dumps(campaign_archive(campaign=original)).encode())
        assert response.status_code == 201
        copy = Campaign.objects.get(pk=response.json()["id"])
        assert copy.pk != original.pk and copy.memberships.get().user == user
        assert copy.memberships.get().role == "owner"
        assert sorted(copy.houses.values_list("number", "name")) == sorted(
            original.houses.values_list("number", "name")
        )

    def test_a_name_given_replaces_the_archives(self, user):
        archive = archive_dumps(campaign_archive(campaign=demo_campaign_load())).encode()
        response = upload(token_client(user), archive, name="Second reign")
        assert response.json()["name"] == "Second reign"

    @pytest.mark.parametrize(
        ("content", "code", "message"),
        [
            (b"{not json", "archive_damaged", ARCHIVE_NOT_JSON),
            (b'{"hello": 1}', "archive_foreign", ARCHIVE_WRONG_FORMAT),
            (
                json.dumps({"format": "chronicle-campaign", "version": 99}).encode(),
                "archive_version",
                ARCHIVE_WRONG_VERSION.format(version=99),
            ),
        ],
        ids=["not JSON", "foreign", "unread version"],
    )
    def test_a_broken_or_foreign_file_is_refused_with_its_code(self, user, content, code, message):
        before = written()
        response = upload(token_client(user), content)
        assert (response.status_code, response.json()["code"], response.json()["message"]) == (
            400,
            code,
            message,
        )
        assert written() == before

    def test_an_archive_refused_inside_the_write_leaves_no_partial_campaign(self, user):
        """The Grand Finale flag without six Mystery stickers is found only once every row is in
        (inside the import's transaction): the rows already written go back with it."""
        archive = campaign_archive(campaign=demo_campaign_load())
        archive["campaign"]["grand_finale_ready"] = True
        before = (*written(), CampaignEvent.objects.count())
        response = upload(token_client(user), archive_dumps(archive).encode())
        assert (response.status_code, response.json()["code"]) == (400, "archive_damaged")
        assert FINALE_MISMATCH.format(count=MYSTERY_STICKERS_PER_CAMPAIGN) in response.json()["message"]
        assert (*written(), CampaignEvent.objects.count()) == before

    def test_a_file_over_the_limit_is_a_413_refused_while_received(self, user, settings):
        settings.UPLOAD_MAX_BYTES = 1000
        before = written()
        response = upload(token_client(user), b" " * 5000 + b"{}")
        assert response.status_code == 413
        assert response.json() == {
            "message": upload_limit_message(),
            "code": "too_large",
            "extra": {"limit": 1000},
        }
        assert written() == before

    def test_a_json_body_is_refused_as_the_wrong_media_type(self, user):
        response = token_client(user).post(reverse("api:campaign-import"), {"format": "x"}, format="json")
        assert (response.status_code, response.json()["code"]) == (415, "unsupported_media_type")

    def test_without_a_file_the_field_is_named(self, user):
        response = token_client(user).post(reverse("api:campaign-import"), {"name": "x"}, format="multipart")
        assert response.status_code == 400 and set(response.json()["extra"]["fields"]) == {"archive"}

    def test_the_demo_account_imports_nothing(self):
        archive = archive_dumps(campaign_archive(campaign=demo_campaign_load())).encode()
        demo = Campaign.objects.get().created_by
        before = written()
        assert upload(token_client(demo), archive).status_code == 403
        assert written() == before
