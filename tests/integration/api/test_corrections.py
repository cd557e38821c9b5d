"""The API's corrections (issue 23): the same services as the pages' "Correct" links, members only,
a refusal a 400 with its reason and nothing written."""

import pytest
from django.urls import reverse

from campaign.models import CampaignEvent, ChronicleSticker, DilemmaCard, Envelope
from campaign.services.envelopes import envelope_open
from campaign.services.stickers import NOTHING_TO_CORRECT, STICKER_ALREADY_ATTACHED, sticker_attach

pytestmark = [pytest.mark.database, pytest.mark.django_db]


def url(name, campaign, **kwargs):
    return reverse(f"api:{name}", kwargs={"campaign_id": campaign.pk, **kwargs})


@pytest.fixture
def board(harald):
    campaign, houses, game = harald
    sticker_attach(campaign=campaign, number=43, row="welfare", positive=False, signer=houses[0])
    sticker_attach(campaign=campaign, number=12, row="morale", positive=True, signer=None)
    envelope_open(campaign=campaign, number=5, dilemma_numbers=[7, 8, 9])
    return campaign, houses


class CorrectionApiTests:
    def test_a_sticker_is_corrected_and_the_history_says_from_what_to_what(self, board, api):
        campaign, houses = board
        body = {"number": 43, "row": "knowledge", "positive": False, "signer": houses[1].pk}
        response = api.post(url("sticker-correct", campaign, sticker_number=43), body, format="json")
        assert response.status_code == 200
        assert response.json()["row"] == "knowledge" and response.json()["signer"]["name"] == "Martina"
        event = CampaignEvent.objects.get(kind="sticker_corrected")
        assert event.summary == (
            "Chronicle sticker 43 corrected: row Welfare → Knowledge; signer House Valentine → House Martina"
        )

    def test_a_sticker_number_already_on_the_board_is_a_400_and_nothing_changes(self, board, api):
        campaign, houses = board
        body = {"number": 12, "row": "welfare", "positive": False, "signer": houses[0].pk}
        response = api.post(url("sticker-correct", campaign, sticker_number=43), body, format="json")
        assert response.status_code == 400
        assert response.json()["message"] == STICKER_ALREADY_ATTACHED.format(number=12)
        assert ChronicleSticker.objects.get(number=43).row == "welfare"

    def test_a_sticker_and_an_envelope_entered_by_mistake_are_removed(self, board, api):
        campaign, _ = board
        assert api.post(url("sticker-remove", campaign, sticker_number=43)).status_code == 204
        assert api.post(url("envelope-remove", campaign, envelope_number=5)).status_code == 204
        assert not ChronicleSticker.objects.filter(number=43).exists()
        assert not Envelope.objects.exists() and not DilemmaCard.objects.exists()
        assert api.post(url("sticker-remove", campaign, sticker_number=43)).status_code == 404

    def test_an_envelope_is_corrected_and_a_card_moved(self, board, api):
        campaign, houses = board
        body = {"opened_by": houses[2].pk, "special": False}
        response = api.post(url("envelope-correct", campaign, envelope_number=5), body, format="json")
        assert response.status_code == 200 and Envelope.objects.get().opened_by == houses[2]
        response = api.post(url("card-move", campaign, card_number=8), {"place": "trash"}, format="json")
        assert response.status_code == 200
        assert DilemmaCard.objects.get(number=8).place == DilemmaCard.Place.TRASH
        refused = api.post(url("card-move", campaign, card_number=8), {"place": "trash"}, format="json")
        assert refused.status_code == 400
        assert refused.json()["message"] == NOTHING_TO_CORRECT.format(thing="card 8")

    def test_members_of_another_campaign_are_403_and_nothing_is_written(self, board, stranger):
        campaign, _ = board
        events = CampaignEvent.objects.count()
        for name, kwargs, body in [
            ("sticker-correct", {"sticker_number": 43}, {"number": 43, "row": "wealth", "positive": True}),
            ("sticker-remove", {"sticker_number": 43}, {}),
            ("envelope-correct", {"envelope_number": 5}, {"special": True}),
            ("envelope-remove", {"envelope_number": 5}, {}),
            ("card-move", {"card_number": 7}, {"place": "trash"}),
        ]:
            assert stranger.post(url(name, campaign, **kwargs), body, format="json").status_code == 404, name
        assert CampaignEvent.objects.count() == events
