"""The campaign's pages in their reader's language: headings and plural forms in the templates, the
forms' labels, House pickers and refusals, the views' messages, dates in the reader's locale."""

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse
from django.utils import formats, timezone, translation

from campaign.forms import CARD_NUMBERS_FORMAT
from campaign.services.envelopes import envelope_open
from campaign.services.houses import house_create
from campaign.services.stickers import sticker_attach
from tests.factories import UserFactory, campaign_with_houses

pytestmark = pytest.mark.django_db


def in_language(client, language: str, url: str, **post):
    headers = {"accept-language": language}
    if post:
        return client.post(url, post, headers=headers)
    return client.get(url, headers=headers)


@pytest.fixture
def campaign(client):
    owner = UserFactory(username="olga")
    campaign, houses = campaign_with_houses("Smeethe", "Tork", user=owner, name="Herbst")
    envelope_open(campaign=campaign, number=0, dilemma_numbers=[1, 2, 3])
    sticker_attach(campaign=campaign, number=12, row="wealth", positive=True, signer=houses[0])
    client.force_login(owner)
    return campaign


class CampaignPageLanguageTests:
    def test_the_campaign_page_reads_in_italian_with_its_plural_forms(self, client, campaign):
        html = in_language(client, "it", reverse("campaign-detail", args=[campaign.pk])).content.decode()
        assert '<html lang="it">' in html
        assert "Plancia del Regno: area Cronaca" in html and "Inizia una serata di gioco" in html
        assert "0 segni" in html  # a sticker just attached: the plural form, not "0 marks"
        assert "Realm board" not in html and "Start a game night" not in html

    def test_a_house_picker_names_each_house_in_the_reader_s_language(self, client, campaign):
        html = in_language(client, "de", reverse("sticker-attach", args=[campaign.pk])).content.decode()
        assert ">Haus Smeethe</option>" in html and ">Haus Tork</option>" in html
        assert "Unterzeichner" in html and "Positiv (weiße Titelleiste)" in html

    def test_a_refused_form_says_why_in_the_reader_s_language(self, client, campaign):
        url = reverse("envelope-open", args=[campaign.pk])
        response = in_language(client, "fr", url, number="4", dilemma_numbers="1-3, x")
        assert response.status_code == 400
        with translation.override("fr"):
            refusal = str(CARD_NUMBERS_FORMAT)
        assert refusal.startswith("Écrivez les numéros de cartes") and refusal in response.content.decode()

    def test_a_saved_form_s_message_is_in_the_reader_s_language(self, client, campaign):
        url = reverse("house-create", args=[campaign.pk])
        response = in_language(client, "es", url, name="Allwed", number="6")
        assert response.status_code == 302
        assert [str(m) for m in get_messages(response.wsgi_request)] == [
            "La Casa Allwed se unió a la campaña."
        ]

    def test_the_sheet_s_date_follows_the_reader_s_locale(self, client, campaign):
        html = in_language(client, "de", reverse("campaign-sheet", args=[campaign.pk])).content.decode()
        with translation.override("de"):
            today = formats.date_format(timezone.localdate(), "DATE_FORMAT")  # "29. November 2026"
        assert f"Kampagnenbogen · {today}" in html

    def test_a_house_s_open_agendas_to_keep_are_named_in_the_reader_s_language(self, client, campaign):
        houses = list(campaign.houses.order_by("number"))
        house_create(campaign=campaign, name="Allwed", number=3)
        for row in ("morale", "welfare", "knowledge"):  # with wealth, four rows: keep two of them
            sticker_attach(campaign=campaign, number=len(row) + 20, row=row, positive=True, signer=houses[0])
        seats = {f"seat{i}": str(h.pk) for i, h in enumerate(campaign.houses.order_by("number"))}
        url = reverse("kd-night-start", args=[campaign.pk])
        html = in_language(client, "de", url, king_name="Olaf", **seats).content.decode()
        assert "Haus Smeethe hat mehr als 2 positive Offene Agenden: Behalte 2" in html
        assert html.count('type="checkbox" name="keep-') == 4  # each row offered, by its name
