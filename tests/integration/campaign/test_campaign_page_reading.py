"""The campaign page reads like the box (issue 17 item 8): aging marks as their count, a legend,
one element per id, and charts with one line per House in the House's colour."""

import re
from collections import Counter
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from campaign import selectors
from campaign.colours import HOUSE_COLOURS, house_colour
from campaign.demo import demo_campaign_load
from campaign.services.chronicles import game_begin
from campaign.services.stickers import sticker_attach
from tests.factories import campaign_with_houses

pytestmark = pytest.mark.django_db


class _Elements(HTMLParser):
    """Every element's attributes, in page order."""

    def __init__(self):
        super().__init__()
        self.elements: list[tuple[str, dict]] = []

    def handle_starttag(self, tag, attrs):
        self.elements.append((tag, dict(attrs)))


def _elements(html: str) -> list[tuple[str, dict]]:
    parser = _Elements()
    parser.feed(html)
    return parser.elements


def _page(client, campaign) -> str:
    client.force_login(campaign.created_by)
    response = client.get(reverse("campaign-detail", args=[campaign.pk]))
    assert response.status_code == 200
    return response.content.decode()


class AgingMarksTests:
    def test_a_new_sticker_and_a_sticker_one_game_old_read_differently(self, client):
        # 'Chronicle aging' (rulebook p. 10): each game begun marks one space on every sticker.
        campaign, (anna, bert) = campaign_with_houses("Anna", "Bert")
        sticker_attach(campaign=campaign, number=43, row="welfare", positive=False, signer=anna)
        game_begin(campaign=campaign, king_name="Harald")
        sticker_attach(campaign=campaign, number=44, row="welfare", positive=True, signer=bert)
        html = _page(client, campaign)
        older = html[html.index("<strong>43</strong>") : html.index("<strong>44</strong>")]
        newer = html[html.index("<strong>44</strong>") :]
        squares = selectors.campaign_setting(campaign, "aging_squares")
        assert "1 mark<" in older and "■" + "□" * (squares - 1) in older
        assert "0 marks<" in newer and "□" * squares in newer and "■" not in newer.split("</div>")[0]

    def test_the_board_has_a_legend_for_the_bars_the_marks_and_the_empty_spaces(self, client):
        html = _page(client, demo_campaign_load())
        legend = html[html.index('<dl class="legend') : html.index("</dl>")]
        for words in (
            "Positive Chronicle sticker",
            "Negative Chronicle sticker",
            "Aging marks",
            "Empty space",
        ):
            assert words in legend


class ElementIdTests:
    def test_every_element_id_on_the_campaign_page_is_unique(self, client):
        ids = Counter(a["id"] for _, a in _elements(_page(client, demo_campaign_load())) if "id" in a)
        assert [i for i, n in ids.items() if n > 1] == []

    def test_each_label_names_a_field_of_its_own_form(self, client):
        html = _page(client, demo_campaign_load())
        fields = {
            a["id"] for tag, a in _elements(html) if tag in ("input", "select", "textarea") and "id" in a
        }
        labels = [a["for"] for tag, a in _elements(html) if tag == "label" and "for" in a]
        assert labels and all(target in fields for target in labels)
        for prefix in ("house", "sticker", "envelope", "story"):
            assert f'for="id_{prefix}_number"' in html


class ChartTests:
    def test_each_house_has_its_own_colour_by_house_number(self):
        campaign, houses = campaign_with_houses(*"ABCDEFGHIJKL")
        assert len({h.colour for h in houses}) == 12
        assert [h.colour for h in houses] == list(HOUSE_COLOURS)

    @pytest.mark.parametrize("chart", ["prestige", "crave"])
    @pytest.mark.parametrize("size", ["wide", "narrow"])
    def test_ledger_charts_draw_one_line_per_house_in_its_colour(self, client, chart, size):
        campaign = demo_campaign_load()
        client.force_login(campaign.created_by)
        url = reverse("campaign-chart", args=[campaign.pk, chart])
        svg = client.get(url, {"size": size}).content.decode()
        houses = list(campaign.houses.order_by("number"))
        assert len(set(re.findall(r"serie-(\d+)", svg))) == len(houses)
        series_colours = dict(re.findall(r"\.color-(\d+) a:visited\{stroke:(#[0-9a-f]{6})", svg))
        assert series_colours == {str(i): house_colour(h.number) for i, h in enumerate(houses)}
        for house in houses:
            assert f"House {house.name}" in svg
        assert ("Prestige" if chart == "prestige" else "Crave") in svg

    def test_the_narrow_chart_is_made_for_a_phone(self, client):
        campaign = demo_campaign_load()
        client.force_login(campaign.created_by)
        url = reverse("campaign-chart", args=[campaign.pk, "prestige"])
        head = client.get(url, {"size": "narrow"}).content.decode()[:600]
        assert 'viewBox="0 0 380 440"' in head

    def test_an_unknown_size_is_refused_with_a_reason(self, client):
        campaign = demo_campaign_load()
        client.force_login(campaign.created_by)
        url = reverse("campaign-chart", args=[campaign.pk, "prestige"])
        response = client.get(url, {"size": "x" * 5000})
        assert response.status_code == 400 and b"size" in response.content

    def test_the_page_offers_the_phone_size_to_small_screens(self, client):
        html = _page(client, demo_campaign_load())
        assert html.count("?size=narrow") == 3
        assert 'alt="Prestige of each House after each game' in html
