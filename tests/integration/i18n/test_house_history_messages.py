"""A House's alignment achievements, the ledger reasons their unlocking writes, the members' and the
exports' lines: kept in English, said in each reader's language on the pages and in the API."""

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from django.utils import translation
from rest_framework.test import APIClient

from campaign.models import CampaignExport, LedgerEntry
from campaign.services.archive import export_queue
from campaign.services.game_nights import game_night_start, game_night_take_over
from campaign.services.houses import CAMPAIGN_NAME_REQUIRED, alignment_mark
from campaign.services.members import invitation_create, membership_remove
from tests.factories import UserFactory, campaign_with_houses, group_campaign

pytestmark = pytest.mark.django_db


@pytest.fixture
def aligned():
    """House 1 has played Greedy until its alignment achievement unlocked (its Crave in the ledger)."""
    owner = UserFactory(username="olga")
    campaign, houses = campaign_with_houses("Valentine", "Martina", "Armin", user=owner, name="Autumn realm")
    house = houses[0]
    greedy = house.achievements.get(kind="alignment", agenda="greedy")
    for _ in range(greedy.spaces):
        alignment_mark(house=house, agenda="greedy", actor=owner)
    return owner, campaign, house


def _german_client(owner, language="de"):
    client = Client(headers={"accept-language": language})
    client.force_login(owner)
    return client


def _api(owner, language):
    api = APIClient(headers={"accept-language": language})
    api.force_authenticate(owner)
    return api


class AlignmentAchievementTests:
    def test_the_stored_words_stay_english(self, aligned):
        _, _, house = aligned
        greedy = house.achievements.get(agenda="greedy")
        assert (greedy.name, greedy.condition) == ("Alignment: Greedy", "Play a game as Greedy.")
        entry = house.ledger.get(source=LedgerEntry.Source.ALIGNMENT)
        assert entry.reason == "Alignment: Greedy unlocked" and entry.reason_data is not None

    def test_the_name_and_condition_read_in_german(self, aligned):
        _, _, house = aligned
        greedy = house.achievements.get(agenda="greedy")
        with translation.override("de"):
            assert (greedy.said_name, greedy.said_condition) == (
                "Ausrichtung: Gierig",
                "Spiele eine Partie als Gierig.",
            )

    def test_a_renamed_alignment_achievement_reads_as_typed(self, aligned):
        _, _, house = aligned
        greedy = house.achievements.get(agenda="greedy")
        greedy.name = "Our greed"
        with translation.override("de"):
            assert greedy.said_name == "Our greed"

    def test_the_german_house_page_says_the_alignment_and_its_ledger_reason(self, aligned):
        owner, campaign, house = aligned
        page = _german_client(owner).get(reverse("house-page", args=[campaign.pk, house.pk]))
        html = page.content.decode()
        assert page.status_code == 200
        assert "Ausrichtung: Gierig freigeschaltet" in html  # the ledger's reason
        assert "Ausrichtung: Opportunist" in html  # one not unlocked yet
        assert "Alignment: Greedy" not in html

    def test_the_campaign_page_names_the_alignment_in_german(self, aligned):
        owner, campaign, _ = aligned
        html = _german_client(owner).get(reverse("campaign-detail", args=[campaign.pk])).content.decode()
        assert "Ausrichtung: Gierig" in html and "Alignment: Greedy" not in html

    def test_the_api_says_the_alignment_and_the_ledger_reason_in_german(self, aligned):
        owner, campaign, house = aligned
        answer = _api(owner, "de").get(f"/api/campaigns/{campaign.pk}/houses/{house.pk}/").json()
        names = {row["agenda"]: row["name"] for row in answer["alignment"]}
        assert names["greedy"] == "Ausrichtung: Gierig"
        reasons = [row["reason"] for row in answer["ledger"]]
        assert reasons == ["Ausrichtung: Gierig freigeschaltet"]

    def test_the_history_says_the_marks_and_the_unlocking_in_german(self, aligned):
        _, campaign, _ = aligned
        unlocked = campaign.events.get(kind="achievement_unlocked")
        ledger = campaign.events.get(kind="ledger")
        assert unlocked.summary == "House Valentine unlocked Alignment: Greedy"
        assert ledger.summary == "House Valentine: +1 Crave (Alignment: Greedy unlocked)"
        with translation.override("de"):
            assert unlocked.said == "Haus Valentine hat Ausrichtung: Gierig freigeschaltet"
            assert ledger.said == "Haus Valentine: +1 Begehren (Ausrichtung: Gierig freigeschaltet)"
            marks = [e.said for e in campaign.events.filter(kind="achievement_marked").order_by("pk")]
        assert marks[0] == "Haus Valentine hat 1 Feld von Ausrichtung: Gierig markiert (1/4)"


class MemberLinesTests:
    def test_an_invitation_for_one_day_says_day_and_reads_in_italian(self, aligned):
        owner, campaign, _ = aligned
        invitation_create(campaign=campaign, actor=owner, role="viewer", days=1)
        event = campaign.events.get(kind="invitation_created")
        assert event.summary == "An invitation to join as viewer, valid 1 day"
        with translation.override("it"):
            assert event.said == "Un invito a unirsi come spettatore, valido 1 giorno"


class ExportReasonTests:
    def test_an_export_given_up_keeps_its_english_and_reads_in_italian(self, aligned, settings):
        owner, campaign, _ = aligned
        export = CampaignExport.objects.create(
            campaign=campaign, attempts=settings.CHRONICLE_EXPORT_MAX_ATTEMPTS
        )
        CampaignExport.objects.filter(pk=export.pk).update(error=export_queue.EXPORT_NOT_SENT)
        assert export_queue.campaign_export_sweep()["failed"] == 1
        export.refresh_from_db()
        attempts = settings.CHRONICLE_EXPORT_MAX_ATTEMPTS
        assert export.error == (
            f"Not written after {attempts} attempts: no background worker ran it. "
            "Press Try again once the worker runs (see the status page)."
        )
        with translation.override("it"):
            italian = export.said_error
        assert italian.startswith(f"Non scritto dopo {attempts} tentativi")
        answer = _api(owner, "it").get(f"/api/campaigns/{campaign.pk}/exports/{export.pk}/").json()
        assert answer["reason"] == italian
        html = (
            _german_client(owner, "it").get(reverse("campaign-detail", args=[campaign.pk])).content.decode()
        )
        assert italian in html

    def test_an_export_too_large_keeps_its_reason_as_a_message(
        self, aligned, settings, tmp_path, monkeypatch
    ):
        _, campaign, _ = aligned
        settings.MEDIA_ROOT = tmp_path
        monkeypatch.setattr(export_queue, "ARCHIVE_MAX_BYTES", 1000)
        export = export_queue.campaign_export_request(campaign=campaign)
        assert export_queue.campaign_export_write(export_id=export.pk) == ""
        export.refresh_from_db()
        assert export.status == CampaignExport.Status.FAILED and export.error_data is not None
        assert "MB, the limit is 0 MB): the export would not import again." in export.error
        with translation.override("it"):
            assert "il limite è 0 MB" in export.said_error

    def test_a_retried_export_forgets_its_reason(self, aligned):
        owner, campaign, _ = aligned
        export = CampaignExport.objects.create(campaign=campaign, status=CampaignExport.Status.FAILED)
        CampaignExport.objects.filter(pk=export.pk).update(
            error="x", error_data={"id": "Campaign export tried again"}
        )
        export_queue.campaign_export_retry(export=export, actor=owner)
        export.refresh_from_db()
        assert (export.error, export.error_data) == ("", None)


@pytest.fixture
def hosted_night():
    """A night hosted by a player (not the owner)."""
    owner, host = UserFactory(username="olga"), UserFactory(username="ben")
    campaign = group_campaign(owner, player=host)
    houses = list(campaign.houses.order_by("number")[:3])
    session = game_night_start(campaign=campaign, houses=houses, king_name="Ben I", host=host, seed=1)
    return campaign, session, owner, host


class NightAndMemberLinesTests:
    def test_a_removal_and_a_take_over_keep_their_english_and_read_in_italian(self, hosted_night):
        campaign, session, owner, host = hosted_night
        membership_remove(membership=campaign.memberships.get(user=host))
        game_night_take_over(session=session, actor=owner)
        removed = campaign.events.get(kind="member_removed")
        taken = campaign.events.get(kind="night_host_changed")
        assert removed.summary.startswith(f"{host} was removed from the campaign")
        assert taken.summary == f"{owner} took over the table of game night #{session.pk} (hosted by {host})"
        with translation.override("it"):
            assert removed.said.startswith(f"{host} è stato rimosso dalla campagna")
            assert taken.said == (
                f"{owner} ha preso il tavolo della serata di gioco #{session.pk} (ospitata da {host})"
            )


class ExportRefusedTests:
    def test_an_export_the_import_refuses_keeps_english_words_even_written_in_a_german_request(
        self, aligned, settings, tmp_path, monkeypatch
    ):
        _, campaign, _ = aligned
        settings.MEDIA_ROOT = tmp_path

        def refused(**kwargs):
            raise ValidationError(CAMPAIGN_NAME_REQUIRED)  # a lazy refusal: its English is kept

        monkeypatch.setattr(export_queue, "campaign_import", refused)
        export = export_queue.campaign_export_request(campaign=campaign)
        with translation.override("de"):
            assert export_queue.campaign_export_write(export_id=export.pk) == ""
        export.refresh_from_db()
        assert export.error == "Not offered: this export would not import again. A campaign needs a name."
        with translation.override("it"):
            assert export.said_error == (
                "Non offerta: questa esportazione non si importerebbe di nuovo. A campaign needs a name."
            )
