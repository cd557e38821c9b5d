"""Campaign export and import (a versioned JSON archive)."""

import copy
import json

import pytest
from django.core.exceptions import ValidationError

from campaign import selectors
from campaign.demo import demo_campaign_load
from campaign.models import Campaign, House
from campaign.services.archive import ARCHIVE_WRONG_FORMAT, campaign_archive, campaign_import

pytestmark = [pytest.mark.database, pytest.mark.django_db]


def snapshot(campaign):
    """What a player sees of a campaign, independent of database ids."""
    return {
        "houses": [(h.number, h.name, h.prestige, h.crave) for h in selectors.house_list(campaign=campaign)],
        "board": [
            [(s.number, s.signer.name if s.signer else None, s.marks) if s else None for s in row["spaces"]]
            for row in selectors.realm_board(campaign=campaign)
        ],
        "slots": {k: [c.number for c in v] for k, v in selectors.save_slots(campaign=campaign).items()},
        "games": [
            [(s.house.number, s.total, s.position, s.last) for s in g.current_scores]
            for g in selectors.realm_chronicles(campaign=campaign)
        ],
        "stories": [
            (line["storyline"], line["top"].number) for line in selectors.storylines(campaign=campaign)
        ],
        "events": campaign.events.count(),
    }


class ArchiveTests:
    def test_export_then_import_gives_the_same_campaign(self, user):
        original = demo_campaign_load()
        archive = json.loads(json.dumps(campaign_archive(campaign=original)))
        copy_ = campaign_import(archive=archive, owner=user, name="Copy")
        before, after = snapshot(original), snapshot(copy_)
        assert after.pop("events") == before.pop("events") + 1  # plus the import itself
        assert after == before
        assert selectors.campaign_is_member(campaign=copy_, user=user)

    def test_a_file_that_is_not_an_archive_is_refused(self, user):
        with pytest.raises(ValidationError, match=ARCHIVE_WRONG_FORMAT):
            campaign_import(archive={"hello": 1}, owner=user)

    @pytest.mark.parametrize(
        "damage, message",
        [
            (
                lambda a: a["houses"].append(dict(a["houses"][0])),
                r"houses.4.: House number \d+ appears twice",
            ),
            (lambda a: a["stickers"][0].update(signer=11), "refers to House 11"),
            (
                lambda a: a["stickers"][0].update(row="gold"),
                r"stickers\[0\]: row: Value .gold. is not a valid choice",
            ),
            (lambda a: a["games"][0].pop("king_name"), "missing king_name"),
            (lambda a: a.update(ledger="oops"), "ledger: missing or of the wrong kind"),
        ],
    )
    def test_a_damaged_archive_is_refused_and_nothing_is_written(self, user, damage, message):
        archive = campaign_archive(campaign=demo_campaign_load())
        damaged = copy.deepcopy(archive)
        damage(damaged)
        campaigns, houses = Campaign.objects.count(), House.objects.count()
        with pytest.raises(ValidationError, match=message):
            campaign_import(archive=damaged, owner=user)
        assert (Campaign.objects.count(), House.objects.count()) == (campaigns, houses)


class ExportPageTests:
    def test_export_is_written_by_the_task_and_downloadable(
        self, client, settings, tmp_path, django_capture_on_commit_callbacks
    ):
        settings.MEDIA_ROOT = tmp_path
        campaign = demo_campaign_load()
        client.force_login(campaign.created_by)
        with django_capture_on_commit_callbacks(execute=True):
            client.post(f"/campaigns/{campaign.pk}/export/")
        export = campaign.exports.get()
        assert export.status == "ready"
        response = client.get(f"/campaigns/{campaign.pk}/exports/{export.pk}/")
        archive = json.loads(b"".join(response.streaming_content))
        assert archive["format"] == "chronicle-campaign" and len(archive["houses"]) == 4

    def test_the_task_is_idempotent(self, settings, tmp_path):
        from campaign import services

        settings.MEDIA_ROOT = tmp_path
        campaign = demo_campaign_load()
        export = services.campaign_export_request(campaign=campaign)
        first = services.campaign_export_write(export_id=export.pk)
        assert services.campaign_export_write(export_id=export.pk) == first
        assert len(list((tmp_path / "exports").iterdir())) == 1

    def test_import_page_refuses_a_damaged_file_with_a_message(self, client, user):
        from django.core.files.uploadedfile import SimpleUploadedFile

        client.force_login(user)
        response = client.post("/campaigns/import/", {"archive": SimpleUploadedFile("a.json", b"{not json")})
        assert response.status_code == 400
        assert "The archive is damaged: it is not valid JSON." in response.content.decode()
        assert not Campaign.objects.exists()
