"""The plain campaign pages: members only, forms show errors, and the query count does not grow."""

import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaign.demo import demo_campaign_load
from campaign.models import ChronicleSticker
from campaign.services.chronicles import game_begin, game_result_record
from campaign.services.envelopes import story_card_place
from campaign.services.houses import achievement_create
from campaign.services.stickers import sticker_attach
from tests.factories import UserFactory, campaign_with_houses, harald_rows

pytestmark = pytest.mark.django_db


class CampaignPageTests:
    def test_demo_campaign_page_shows_houses_board_envelopes_and_chronicles(self, client):
        campaign = demo_campaign_load()
        client.force_login(campaign.created_by)
        html = client.get(reverse("campaign-detail", args=[campaign.pk])).content.decode()
        for text in [
            "House Smeethe",
            "Influence",
            "Bread riots",
            "Dilemma deck",
            "Trash",
            "05",
        ]:
            assert text in html
        # The latest game only (the page must not grow with every night), and the way to all of them.
        latest = campaign.games.order_by("number").last()
        assert f"King {latest.king_name}" in html
        assert f"All {campaign.games.count()} games on the Realm Chronicles page" in html
        assert html.count('<table class="chronicle"') == 1
        assert 'aria-label="Sections of this page"' in html and 'href="#chronicles"' in html

    def test_someone_outside_the_campaign_gets_the_404_of_an_unknown_campaign(self, client):
        campaign, _ = campaign_with_houses("A")
        client.force_login(UserFactory())
        assert client.get(reverse("campaign-detail", args=[campaign.pk])).status_code == 404

    def test_anonymous_is_sent_to_login(self, client):
        campaign, _ = campaign_with_houses("A")
        response = client.get(reverse("campaign-detail", args=[campaign.pk]))
        assert response.status_code == 302 and "/accounts/login/" in response.url

    def test_sticker_form_attaches_and_a_duplicate_shows_the_message(self, client):
        campaign, (anna,) = campaign_with_houses("Anna")
        client.force_login(campaign.created_by)
        url = reverse("sticker-attach", args=[campaign.pk])
        data = {"number": 43, "row": "welfare", "positive": "0", "signer": anna.pk, "title": "Riots"}
        assert client.post(url, data).status_code == 302
        response = client.post(url, data)
        assert response.status_code == 400
        assert "Sticker 43 is already on the board." in response.content.decode()
        assert ChronicleSticker.objects.count() == 1

    def test_history_answers_who_signed_a_sticker(self, client):
        campaign, (anna,) = campaign_with_houses("Anna")
        game = game_begin(campaign=campaign, king_name="Harald V")
        sticker_attach(campaign=campaign, number=43, row="welfare", positive=False, signer=anna, game=game)
        client.force_login(campaign.created_by)
        html = client.get(reverse("campaign-history", args=[campaign.pk]), {"sticker": 43}).content.decode()
        assert "signed by House Anna" in html and "King Harald V" in html


def _play_games(campaign, houses, count):
    for i in range(count):
        game = game_begin(campaign=campaign, king_name=f"K{i}", played_on=datetime.date(2026, 1, 1))
        sticker_attach(
            campaign=campaign,
            number=100 + i,
            row="wealth",
            positive=bool(i % 2),
            signer=houses[i % 5],
            game=game,
        )
        game_result_record(game=game, end="king_died", rows=harald_rows(houses))


class QueryCountTests:
    @pytest.mark.parametrize("page", ["campaign-detail", "campaign-chronicles"])
    def test_page_queries_do_not_grow_with_the_number_of_games(self, client, page):
        counts = []
        for games in (1, 15):
            campaign, houses = campaign_with_houses("A", "B", "C", "D", "E", name=f"c{games}")
            _play_games(campaign, houses, games)
            client.force_login(campaign.created_by)
            with CaptureQueriesContext(connection) as ctx:
                assert client.get(reverse(page, args=[campaign.pk])).status_code == 200
            counts.append(len(ctx))
        assert counts[0] == counts[1], counts


class DemoLoginTests:
    def test_demo_login_works_only_where_the_demo_is_served(self, client, settings):
        demo_campaign_load()
        settings.DEMO_LOGIN = False
        assert client.post(reverse("demo-login")).status_code == 403
        settings.DEMO_LOGIN = True
        assert client.post(reverse("demo-login")).status_code == 302
        assert "Ankist, Thursday group" in client.get(reverse("home")).content.decode()


class ChartTests:
    def test_prestige_series_accumulates_ledger_per_game(self):
        from campaign.charts import prestige_crave_series

        campaign = demo_campaign_load()
        labels, series = prestige_crave_series(campaign=campaign)
        assert labels == ["start", "Game 1", "Game 2"]
        assert series["Smeethe Prestige"] == [0, 3, 5]
        assert series["Tork Crave"] == [0, 1, 3]

    def test_chart_is_svg_for_members(self, client):
        campaign = demo_campaign_load()
        client.force_login(campaign.created_by)
        response = client.get(reverse("campaign-chart", args=[campaign.pk, "prestige"]))
        assert response["Content-Type"] == "image/svg+xml" and b"<svg" in response.content
        assert b"House Smeethe" in response.content and b"Prestige of each House" in response.content


class HtmxFormTests:
    def test_htmx_error_returns_the_form_with_the_message_and_422(self, client):
        campaign, (anna,) = campaign_with_houses("Anna")
        client.force_login(campaign.created_by)
        url = reverse("sticker-attach", args=[campaign.pk])
        data = {"number": 43, "row": "welfare", "positive": "0", "signer": anna.pk}
        ok = client.post(url, data, headers={"HX-Request": "true"})
        assert ok.status_code == 200
        html = ok.content.decode()
        assert 'id="realm-board" hx-swap-oob="true"' in html and "Sticker 43 attached" in html
        again = client.post(url, data, headers={"HX-Request": "true"})
        assert again.status_code == 422
        assert "Sticker 43 is already on the board." in again.content.decode()
        assert "<html" not in again.content.decode()

    def test_htmx_achievement_mark_returns_the_house_card(self, client):
        campaign, (anna,) = campaign_with_houses("Anna")
        achievement = achievement_create(house=anna, name="Patron", spaces=1, effects={"prestige": 2})
        client.force_login(campaign.created_by)
        url = reverse("achievement-mark", args=[achievement.pk])
        html = client.post(url, {"count": 1}, headers={"HX-Request": "true"}).content.decode()
        assert f'id="house-{anna.pk}"' in html and "Prestige <strong>2</strong>" in html
        refused = client.post(url, {"count": 1}, headers={"HX-Request": "true"})
        assert refused.status_code == 422 and "Patron has only 1 spaces" in refused.content.decode()

    def test_begin_game_form_ages_the_board(self, client):
        campaign, (anna,) = campaign_with_houses("Anna")
        sticker_attach(campaign=campaign, number=3, row="wealth", positive=True, signer=anna)
        client.force_login(campaign.created_by)
        response = client.post(
            reverse("game-begin", args=[campaign.pk]),
            {"king_name": "Harald V"},
            headers={"HX-Request": "true"},
        )
        assert response.status_code == 200 and "King Harald V begins" in response.content.decode()
        assert ChronicleSticker.objects.get(number=3).marks == 1


class ResultFormTests:
    def test_record_a_result_through_the_chronicles_page(self, client):
        campaign, houses = campaign_with_houses("Valentine", "Martina", "Armin", "Charles", "Theodore")
        game_begin(campaign=campaign, king_name="Harald V")
        client.force_login(campaign.created_by)
        url = reverse("campaign-chronicles", args=[campaign.pk])
        data = {"end": "king_died"}
        for i, row in enumerate(harald_rows(houses)):
            data |= {f"row{i}-house": row["house"].pk, f"row{i}-secret_agenda": row["secret_agenda"]}
            data |= {
                f"row{i}-{k}": row[k]
                for k in ("agenda_points", "open_agenda_points", "coins_points", "power_points")
            }
        missing = dict(data, **{"row0-secret_agenda": ""})
        response = client.post(url, missing, headers={"HX-Request": "true"})
        assert (
            response.status_code == 422
            and "Which Secret Agenda did this House play?" in response.content.decode()
        )
        assert client.post(url, data).status_code == 302
        html = client.get(url).content.decode()
        assert "Last" in html and "Record game" not in html


class AchievementFormTests:
    def test_an_achievement_is_added_with_its_structured_ability(self, client):
        campaign, (anna,) = campaign_with_houses("Anna")
        client.force_login(campaign.created_by)
        url = reverse("achievement-create", args=[campaign.pk])
        data = {
            "house": anna.pk,
            "kind": "gameplay",
            "name": "Patron of the arts",
            "spaces": 2,
            "start_coins": 2,
            "prestige": 3,
        }
        response = client.post(url, data, headers={"HX-Request": "true"})
        assert (
            response.status_code == 200
            and "Patron of the arts added to House Anna." in response.content.decode()
        )
        achievement = anna.achievements.get(name="Patron of the arts")
        assert achievement.effects == {"start_coins": 2, "prestige": 3} and achievement.spaces == 2
        bad = client.post(url, dict(data, spaces=11), headers={"HX-Request": "true"})
        assert bad.status_code == 422 and "less than or equal to 10" in bad.content.decode()


class StoryCardFormTests:
    def test_an_ending_card_gives_its_majority_signer_bonus(self, client):
        campaign, (anna, ben) = campaign_with_houses("Anna", "Ben")
        story_card_place(campaign=campaign, number=1, storyline="Crown", signer=anna)
        client.force_login(campaign.created_by)
        url = reverse("story-place", args=[campaign.pk])
        data = {
            "number": 7,
            "storyline": "Crown",
            "signer": anna.pk,
            "is_ending": "on",
            "cohesion": 2,
            "bonus_prestige": 3,
        }
        response = client.post(url, data, headers={"HX-Request": "true"})
        assert (
            response.status_code == 200
            and "Story card 7 is on top of the Crown storyline." in response.content.decode()
        )
        assert "Prestige <strong>3</strong>" in response.content.decode()  # the House card swapped in place
        again = client.post(url, data, headers={"HX-Request": "true"})
        assert (
            again.status_code == 422 and "Story card 7 is already in this campaign." in again.content.decode()
        )
