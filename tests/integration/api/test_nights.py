"""King's Dilemma game nights of a campaign through the API: start, play, save."""

import pytest
from django.urls import reverse

from campaign.models import ChronicleSticker
from games.models import GameSession
from tests.factories import UserFactory, campaign_with_houses
from tests.integration.api.conftest import token_client
from tests.kings_dilemma_play import play_night

pytestmark = [pytest.mark.database, pytest.mark.django_db]


@pytest.fixture
def night_campaign():
    host = UserFactory()
    campaign, houses = campaign_with_houses("Anna", "Ben", "Cora", user=host)
    return campaign, houses, token_client(host)


class GameNightApiTests:
    def test_start_play_and_save_a_night(self, night_campaign):
        campaign, houses, api = night_campaign
        start = reverse("api:night-start", kwargs={"campaign_id": campaign.pk})
        body = {"king_name": "Harald V", "houses": [houses[1].pk, houses[0].pk, houses[2].pk]}
        response = api.post(start, body, format="json")
        assert response.status_code == 201, response.json()
        data = response.json()
        assert [s["name"] for s in data["seats"]] == ["Ben", "Anna", "Cora"] and all(
            s["token"] for s in data["seats"]
        )
        session = GameSession.objects.get(pk=data["id"])
        play_night(session)
        save = reverse("api:night-save", kwargs={"campaign_id": campaign.pk, "session_id": session.pk})
        refused = api.post(save, {}, format="json")
        assert refused.status_code == 400 and "1 Story card and 3 Dilemma cards" in refused.json()["message"]
        contents = {"9": {"dilemma_numbers": [90, 91, 92], "story_card": {"number": 9, "storyline": "Crown"}}}
        saved = api.post(save, {"envelope_contents": contents}, format="json")
        assert saved.status_code == 200, saved.json()
        assert saved.json()["king_name"] == "Harald V" and len(saved.json()["scores"]) == 3
        assert ChronicleSticker.objects.filter(campaign=campaign, number=43).exists()

    def test_bad_nights_are_400_with_the_reason(self, night_campaign):
        campaign, houses, api = night_campaign
        start = reverse("api:night-start", kwargs={"campaign_id": campaign.pk})
        two = api.post(start, {"king_name": "K", "houses": [houses[0].pk, houses[1].pk]}, format="json")
        assert two.status_code == 400
        _, (stranger,) = campaign_with_houses("Zed", name="Other")
        other = api.post(
            start, {"king_name": "K", "houses": [houses[0].pk, houses[1].pk, stranger.pk]}, format="json"
        )
        assert other.status_code == 400
        twice = api.post(
            start, {"king_name": "K", "houses": [houses[0].pk, houses[0].pk, houses[1].pk]}, format="json"
        )
        assert twice.status_code == 400 and "seated twice" in twice.json()["message"]
        assert not GameSession.objects.exists() and not campaign.games.exists()

    def test_someone_outside_the_campaign_is_404(self, night_campaign):
        campaign, houses, _ = night_campaign
        start = reverse("api:night-start", kwargs={"campaign_id": campaign.pk})
        body = {"king_name": "K", "houses": [h.pk for h in houses]}
        assert token_client(UserFactory()).post(start, body, format="json").status_code == 404
