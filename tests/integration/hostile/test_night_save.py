"""Hostile game night saves (issue 14): envelope_contents only adds what the Envelope held; it
never replaces the Envelope's number or opener, and a bad value is a 400 naming the field."""

import pytest
from django.urls import reverse

from campaign.models import CampaignEvent, ChronicleGame, ChronicleSticker, DilemmaCard, Envelope, StoryCard
from games.models import GameSession
from tests.factories import UserFactory, campaign_with_houses
from tests.integration.api.conftest import token_client
from tests.kings_dilemma_play import play_night

pytestmark = [pytest.mark.database, pytest.mark.django_db]

GOOD = {"dilemma_numbers": [90, 91, 92], "story_card": {"number": 9, "storyline": "Crown"}}


@pytest.fixture
def finished_night():
    host = UserFactory()
    campaign, houses = campaign_with_houses("Anna", "Ben", "Cora", user=host)
    api = token_client(host)
    start = reverse("api:night-start", kwargs={"campaign_id": campaign.pk})
    body = {"king_name": "Harald V", "houses": [h.pk for h in houses]}
    session = GameSession.objects.get(pk=api.post(start, body, format="json").json()["id"])
    play_night(session)
    save = reverse("api:night-save", kwargs={"campaign_id": campaign.pk, "session_id": session.pk})
    return campaign, api, save


def written(campaign):
    return (
        Envelope.objects.filter(campaign=campaign).count(),
        StoryCard.objects.filter(campaign=campaign).count(),
        DilemmaCard.objects.filter(campaign=campaign).count(),
        ChronicleSticker.objects.filter(campaign=campaign).count(),
        CampaignEvent.objects.filter(campaign=campaign).count(),
        ChronicleGame.objects.filter(campaign=campaign, recorded=True).count(),
    )


BAD = {
    "opener out of the table": ({"9": {**GOOD, "opened_by": 99}}, "opened_by"),
    "another number": ({"9": {**GOOD, "number": 12}}, "number"),
    "key not a number": ({"nine": GOOD}, "envelope_contents"),
    "key out of range": ({"75": GOOD}, "envelope_contents"),
    "an envelope not opened tonight": ({"9": GOOD, "10": GOOD}, "10"),
    "dilemma numbers not a list": ({"9": {**GOOD, "dilemma_numbers": "90"}}, "dilemma_numbers"),
    "dilemma number text": ({"9": {**GOOD, "dilemma_numbers": ["a", 1, 2]}}, "dilemma_numbers"),
    "dilemma number negative": ({"9": {**GOOD, "dilemma_numbers": [-1, 1, 2]}}, "dilemma_numbers"),
    "special not a boolean": ({"9": {**GOOD, "special": "yes"}}, "special"),
    "story card a list": ({"9": {**GOOD, "story_card": [9]}}, "story_card"),
    "story card unknown key": (
        {"9": {**GOOD, "story_card": {"number": 9, "storyline": "Crown", "signer": 3}}},
        "signer",
    ),
    "story card number text": (
        {"9": {**GOOD, "story_card": {"number": "9", "storyline": "Crown"}}},
        "number",
    ),
    "story card effects unknown": (
        {"9": {**GOOD, "story_card": {"number": 9, "storyline": "Crown", "effects": {"gold": 1}}}},
        "effects",
    ),
    "storyline with bidi": (
        {"9": {**GOOD, "story_card": {"number": 9, "storyline": "Cro\u202ewn"}}},
        "storyline",
    ),
    "contents a list": ({"9": [1]}, "9"),
}


class NightSaveHostileTests:
    @pytest.mark.parametrize("name", list(BAD))
    def test_bad_envelope_contents_are_400_naming_the_field_and_nothing_is_written(
        self, finished_night, name
    ):
        campaign, api, save = finished_night
        contents, field = BAD[name]
        before = written(campaign)
        response = api.post(save, {"envelope_contents": contents}, format="json")
        assert response.status_code == 400, response.content[:300]
        body = response.json()
        assert field in body["message"] or field in str(body["extra"])
        assert written(campaign) == before

    def test_good_contents_are_added_and_the_engine_keeps_number_and_opener(self, finished_night):
        campaign, api, save = finished_night
        response = api.post(save, {"envelope_contents": {"9": GOOD}}, format="json")
        assert response.status_code == 200, response.json()
        envelope = Envelope.objects.get(campaign=campaign, number=9)
        assert envelope.story_cards.get().number == 9
        assert sorted(envelope.cards.values_list("number", flat=True)) == [90, 91, 92]
