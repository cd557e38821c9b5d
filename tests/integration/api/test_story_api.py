"""The House page, the statistics, a night's story and its read-only link through the API."""

import pytest
from django.core.cache import cache

from campaign import statistics_selectors
from campaign.models import CampaignEvent, StoryLink
from tests.integration.api.conftest import token_client
from tests.story_play import campaign_of_nights

pytestmark = pytest.mark.django_db


@pytest.fixture
def realm(host):
    cache.clear()
    return campaign_of_nights(2, user=host)


def base(campaign) -> str:
    return f"/api/campaigns/{campaign.pk}"


class StoryApiTests:
    def test_the_house_page_gives_the_figures_of_the_web_page(self, api, realm):
        campaign, houses, games = realm
        response = api.get(f"{base(campaign)}/houses/{houses[1].pk}/page/")
        assert response.status_code == 200
        body = response.json()
        page = statistics_selectors.house_page(campaign=campaign, house=houses[1])
        assert body["house"]["name"] == "Martina"
        assert body["prestige"] == page["prestige"] and body["crave"] == page["crave"]
        assert body["figures"] == page["figures"]
        assert len(body["ledger"]) == len(page["ledger"]) and all(e["reason"] for e in body["ledger"])
        assert len(body["stickers"]) == page["stickers_signed"]
        assert [n["game"]["number"] for n in body["nights"]] == [1, 2]
        assert body["nights"][0]["score"]["secret_agenda"] == page["nights"][0]["score"].secret_agenda

    def test_the_statistics(self, api, realm):
        campaign, houses, games = realm
        body = api.get(f"{base(campaign)}/statistics/").json()
        assert [n["game"]["number"] for n in body["nights"]] == [1, 2]
        assert body["nights"][0]["end"] == games[0].end
        assert len(body["dilemmas"]) == 20
        # ``side`` has the casing of a night's story and of the engine's votes; the words come apart.
        assert {(d["side"], d["side_words"]) for d in body["dilemmas"]} <= {("aye", "AYE"), ("nay", "NAY")}
        assert [e["number"] for e in body["envelopes"]] == [1]
        assert sum(r["total"] for r in body["sticker_rows"]) == 2
        assert {c["house"]["id"] for c in body["council"]} == {h.pk for h in houses}

    def test_a_night_s_story_and_its_link(self, api, anonymous, realm):
        campaign, houses, games = realm
        url = f"{base(campaign)}/games/{games[0].pk}/story/"
        body = api.get(url).json()
        assert body["story"]["king_name"] == "Aldric 1" and body["link"] is None
        first = body["story"]["chapters"][0]
        assert first["number"] == 11 and first["question"] == "Shall the realm answer question 11?"
        assert first["side"] in ("aye", "nay") and first["carried_by"]
        assert [r["position"] for r in body["story"]["ranking"]] == sorted(
            r["position"] for r in body["story"]["ranking"]
        )
        shared = api.post(f"{url}share/")
        assert shared.status_code == 201
        link = StoryLink.objects.get()
        assert shared.json()["url"].endswith(f"/stories/{link.token}/")
        assert api.post(f"{url}share/").json()["url"] == shared.json()["url"]
        assert api.get(url).json()["link"] == shared.json()["url"]
        assert anonymous.get(f"/stories/{link.token}/").status_code == 200
        revoked = api.post(f"{url}share/revoke/")
        assert revoked.status_code == 200 and revoked.json()["revoked_at"]
        assert anonymous.get(f"/stories/{link.token}/").status_code == 410
        again = api.post(f"{url}share/revoke/")
        assert again.status_code == 400 and "no shared link to revoke" in again.json()["message"]
        kinds = list(
            CampaignEvent.objects.filter(
                campaign=campaign, kind__in=["story_shared", "story_unshared"]
            ).values_list("kind", flat=True)
        )
        assert sorted(kinds) == ["story_shared", "story_unshared"]  # once each: sharing twice is one link

    def test_members_only_and_unknown_ids(self, api, stranger, anonymous, realm):
        campaign, houses, games = realm
        urls = [
            f"{base(campaign)}/houses/{houses[0].pk}/page/",
            f"{base(campaign)}/statistics/",
            f"{base(campaign)}/games/{games[0].pk}/story/",
        ]
        for url in urls:
            assert stranger.get(url).status_code == 404
            assert anonymous.get(url).status_code == 401
        assert stranger.post(f"{base(campaign)}/games/{games[0].pk}/story/share/").status_code == 404
        assert anonymous.post(f"{base(campaign)}/games/{games[0].pk}/story/share/").status_code == 401
        assert api.get(f"{base(campaign)}/houses/999999/page/").status_code == 404
        assert api.get(f"{base(campaign)}/games/999999/story/").status_code == 404
        assert api.post(f"{base(campaign)}/games/999999/story/share/").status_code == 404
        assert api.get("/api/campaigns/999999/statistics/").status_code == 404
        assert not StoryLink.objects.exists()

    def test_the_schema_documents_the_operations(self, api):
        schema = api.get("/api/schema/?format=json").json()
        paths = schema["paths"]
        for path in (
            "/api/campaigns/{campaign_id}/houses/{house_id}/page/",
            "/api/campaigns/{campaign_id}/statistics/",
            "/api/campaigns/{campaign_id}/games/{game_id}/story/",
            "/api/campaigns/{campaign_id}/games/{game_id}/story/share/",
            "/api/campaigns/{campaign_id}/games/{game_id}/story/share/revoke/",
        ):
            assert path in paths
        assert "Chapter" in schema["components"]["schemas"]


def test_a_token_of_another_user_reads_nothing(realm):
    from tests.factories import UserFactory

    campaign, houses, games = realm
    client = token_client(UserFactory())
    assert client.get(f"{base(campaign)}/games/{games[1].pk}/story/").status_code == 404


def test_api_queries_do_not_grow_with_the_nights(api, realm, host, django_assert_max_num_queries):
    from tests.story_play import night_played

    campaign, houses, games = realm
    urls = [
        f"{base(campaign)}/houses/{houses[0].pk}/page/",
        f"{base(campaign)}/statistics/",
        f"{base(campaign)}/games/{games[0].pk}/story/",
    ]
    counted = {}
    for url in urls:
        api.get(url)
        with django_assert_max_num_queries(100) as captured:
            assert api.get(url).status_code == 200
        counted[url] = len(captured)
    for night in (3, 4):
        night_played(campaign, houses, night, host=host)
    for url in urls:
        api.get(url)
        with django_assert_max_num_queries(counted[url]):
            assert api.get(url).status_code == 200
