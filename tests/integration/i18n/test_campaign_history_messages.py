"""The campaign's history and ledger keep their words as messages: every event's summary and every
reason the app wrote (not one a person typed) is stored as a message beside its English, said again
in each reader's language on the pages and in the API, and carried by the archive."""

import json

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation
from rest_framework.test import APIClient

from campaign.models import CampaignEvent, LedgerEntry
from campaign.services.archive.export import archive_dumps, campaign_archive
from campaign.services.archive.restore import campaign_import
from campaign.services.chronicles import game_begin
from campaign.services.stickers import mystery_sticker_attach, sticker_marks_correct
from campaign.services.stories import story_link_revoke
from games.engines.kernel.messages import from_data
from tests.campaign_life import campaign_lived, night_abandoned
from tests.factories import UserFactory, campaign_at_the_last_mystery

pytestmark = pytest.mark.django_db

# Reasons a person types (a card effect's label, a correction's reason): kept as typed, in the
# typist's language.
TYPED_SOURCES = {LedgerEntry.Source.MANUAL}


@pytest.fixture
def lived_campaign():
    """Two nights saved, a sticker and its aging corrected, members invited, a story shared and
    unshared, a night abandoned; and a campaign at its last Mystery sticker, its Grand Finale due."""
    owner = UserFactory(username="olga")
    campaign, houses, games, _, _ = campaign_lived(
        owner=owner, player=UserFactory(username="piet"), name="Autumn realm"
    )
    sticker_marks_correct(sticker=campaign.stickers.order_by("number").last(), marks=1, actor=owner)
    story_link_revoke(game=games[0], actor=owner)
    night_abandoned(campaign, houses, host=owner)
    finale, _ = campaign_at_the_last_mystery("Valentine", "Martina", user=owner, name="Finale")
    game_begin(campaign=finale, king_name="Olaf")
    mystery_sticker_attach(campaign=finale, letter="F")
    return owner, campaign, finale


def _events():
    return list(CampaignEvent.objects.order_by("pk"))


def _written_reasons():
    return list(LedgerEntry.objects.exclude(source__in=TYPED_SOURCES).order_by("pk"))


class CampaignHistoryMessagesTests:
    def test_every_event_and_every_reason_the_app_wrote_is_kept_as_its_message(self, lived_campaign):
        events, entries = _events(), _written_reasons()
        assert len(events) > 40 and len(entries) >= 10
        unkept = [e.summary for e in events if e.summary_data is None]
        assert not unkept, unkept
        assert [str(from_data(e.summary_data))[:300] for e in events] == [e.summary for e in events]
        unkept = [e.reason for e in entries if e.reason_data is None]
        assert not unkept, unkept
        assert [str(from_data(e.reason_data))[:200] for e in entries] == [e.reason for e in entries]

    def test_each_summary_and_reason_reads_in_german(self, lived_campaign):
        """Every line says something in German: none reads as its English (names and numbers alone
        would, so each line holds words)."""
        events, entries = _events(), _written_reasons()
        with translation.override("de"):
            english = [e for e in events if e.said == e.summary]
            assert not english, [e.summary for e in english]
            english = [e for e in entries if e.said_reason == e.reason]
            assert not english, [e.reason for e in english]

    def test_the_history_page_and_the_api_say_the_summaries_in_the_readers_language(self, lived_campaign):
        owner, campaign, _ = lived_campaign
        event = campaign.events.filter(kind="sticker_corrected").get()
        with translation.override("it"):
            italian = event.said
        assert italian != event.summary
        client = Client(headers={"accept-language": "it"})
        client.force_login(owner)
        page = client.get(reverse("campaign-history", args=[campaign.pk])).content.decode()
        assert italian in page and event.summary not in page
        api = APIClient(headers={"accept-language": "it"})
        api.force_authenticate(owner)
        answer = api.get(f"/api/campaigns/{campaign.pk}/history/", {"kind": "sticker_corrected"}).json()
        summaries = [row["summary"] for row in answer.get("results", answer)]
        assert italian in summaries

    def test_the_archive_carries_each_message_and_the_copy_says_it_again(self, lived_campaign):
        owner, campaign, _ = lived_campaign
        archive = campaign_archive(campaign=campaign)
        assert all("summary_data" in row for row in archive["events"])
        assert all("reason_data" in row for row in archive["ledger"])
        copy = campaign_import(
            archive=json.loads(archive_dumps(campaign_archive(campaign=campaign))), owner=owner
        )
        with translation.override("fr"):
            original = sorted(e.said for e in campaign.events.all())
            copied = sorted(e.said for e in copy.events.exclude(kind="campaign_imported"))
            assert set(original) <= set(copied)

    def test_an_archive_of_version_5_reads_its_english(self, lived_campaign):
        owner, campaign, _ = lived_campaign
        archive = campaign_archive(campaign=campaign)
        archive["version"] = 5
        for row in archive["events"]:
            del row["summary_data"]
        for row in archive["ledger"]:
            del row["reason_data"]
        copy = campaign_import(archive=archive, owner=owner)
        kept = copy.events.exclude(kind="campaign_imported")
        assert kept.exists() and not kept.filter(summary_data__isnull=False).exists()
        with translation.override("de"):
            assert sorted(e.said for e in kept) == sorted(e.summary for e in kept)


def _open_agendas_of(page: str) -> str:
    start = page.index('class="story-open-agendas"')
    return page[start : page.index("</ul>", start)]


def test_a_night_s_story_says_its_open_agendas_in_the_readers_language(lived_campaign):
    """The story keeps each Open Agenda's words as messages (rulebook "Assign Open Agendas"): the
    German story reads them in German, never in the English they were told in."""
    owner, campaign, _ = lived_campaign
    url = reverse("night-story", args=[campaign.pk, 2])
    said = {}
    for language in ("en", "de"):
        client = Client(headers={"accept-language": language})
        client.force_login(owner)
        said[language] = _open_agendas_of(client.get(url).content.decode())
    assert "points if" in said["en"] and ("Positive" in said["en"] or "Negative" in said["en"])
    assert "points if" not in said["de"] and "Positive" not in said["de"] and "Negative" not in said["de"]
