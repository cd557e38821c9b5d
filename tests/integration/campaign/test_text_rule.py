"""One rule for every text a campaign takes (games/engines/kernel/text.py ``has_control_characters``,
the rule the archive's import holds each text to): a page's form and the API refuse a control
character, a bidi control or a lone surrogate in what a player types, with a visible message or a
400, and nothing is written; so whatever they take, the campaign's export carries and imports."""

import pytest
from rest_framework.test import APIClient

from campaign.models import ChronicleSticker
from campaign.services.common import TEXT_CONTROL_CHARACTERS
from tests.factories import campaign_with_houses

pytestmark = [pytest.mark.database, pytest.mark.django_db]

HOSTILE = ["Bread\x1b[31m", "Bread\u202etaxes", "\u2066Bread", "Bre\x85ad", "Bread\x00"]


@pytest.fixture
def campaign(user):
    campaign, _ = campaign_with_houses("Valentine", "Martina", "Armin", user=user)
    return campaign


class TextRuleTests:
    @pytest.mark.parametrize("text", HOSTILE)
    def test_a_form_refuses_a_hostile_title_with_a_visible_message(self, client, user, campaign, text):
        client.force_login(user)
        response = client.post(
            f"/campaigns/{campaign.pk}/stickers/new/",
            {"number": 43, "row": "wealth", "positive": "true", "title": text},
        )
        assert "cannot hold control characters" in response.content.decode()
        assert not ChronicleSticker.objects.filter(campaign=campaign).exists()

    @pytest.mark.parametrize("field", ["title", "text"])
    @pytest.mark.parametrize("text", HOSTILE)
    def test_the_api_refuses_a_hostile_text_with_a_400(self, user, campaign, field, text):
        api = APIClient()
        api.force_authenticate(user)
        body = {"number": 43, "row": "wealth", "positive": True, field: text}
        response = api.post(f"/api/campaigns/{campaign.pk}/stickers/attach/", body, format="json")
        assert response.status_code == 400
        assert str(TEXT_CONTROL_CHARACTERS) in response.json()["message"]
        assert not ChronicleSticker.objects.filter(campaign=campaign).exists()

    def test_a_lone_surrogate_in_an_api_body_is_a_400(self, user, campaign):
        api = APIClient()
        api.force_authenticate(user)
        body = '{"number": 43, "row": "wealth", "positive": true, "title": "Bread\\ud800"}'
        response = api.post(
            f"/api/campaigns/{campaign.pk}/stickers/attach/", body, content_type="application/json"
        )
        assert response.status_code == 400
        assert not ChronicleSticker.objects.filter(campaign=campaign).exists()

    def test_a_plain_title_is_taken(self, user, campaign):
        api = APIClient()
        api.force_authenticate(user)
        body = {"number": 43, "row": "wealth", "positive": True, "title": "Bread taxes"}
        assert (
            api.post(f"/api/campaigns/{campaign.pk}/stickers/attach/", body, format="json").status_code == 201
        )
