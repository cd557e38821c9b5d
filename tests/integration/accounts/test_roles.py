"""Roles on a campaign (issue 24 item 2, docs/rules-decisions.md "Who may do what in a campaign"):
what each role sees on the campaign's pages and what its refused writes answer (the reason, and
nothing written); a campaign's night table for its owner; the demo account kept to the demo
campaign (item 1). tests/integration/test_every_url.py walks every route as every role."""

import json
import re

import pytest
from django.core.exceptions import PermissionDenied
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from campaign.access import DEMO_ADDS_NO_CAMPAIGN, DEMO_USER, OWNER_ONLY, VIEWER_READS_ONLY
from campaign.demo import demo_campaign_load
from campaign.models import Campaign, ChronicleSticker, Membership, StoryLink
from campaign.services.archive.export import campaign_archive
from campaign.services.archive.restore import campaign_import
from campaign.services.chronicles import game_begin
from campaign.services.game_nights import game_night_start
from campaign.services.houses import campaign_create
from games import access
from tests.factories import UserFactory, group_campaign

pytestmark = pytest.mark.django_db


@pytest.fixture
def group():
    """The campaign of a group: Anna owns it, Ben plays House Humblescore, Carla follows it."""
    owner, player, viewer = UserFactory(), UserFactory(), UserFactory()
    campaign = group_campaign(owner, player=player, viewer=viewer)
    return campaign, {"owner": owner, "player": player, "viewer": viewer, "stranger": UserFactory()}


def page(client, user, url):
    client.force_login(user)
    return client.get(url)


class CampaignPageTests:
    def test_a_viewer_reads_the_campaign_is_told_so_and_gets_no_form(self, client, group):
        campaign, users = group
        html = page(client, users["viewer"], reverse("campaign-detail", args=[campaign.pk])).content.decode()
        assert VIEWER_READS_ONLY.replace("'", "&#x27;") in html
        assert "House Smeethe" in html and "Realm board" in html  # the whole campaign, read
        for url in ("sticker-attach", "house-create", "envelope-open", "kd-night-start", "campaign-export"):
            assert reverse(url, args=[campaign.pk]) not in html, url
        assert "mark a space" not in html and "/correct/" not in html and "/move/" not in html

    def test_a_player_gets_the_table_forms_but_not_the_corrections_nor_the_archive(self, client, group):
        campaign, users = group
        html = page(client, users["player"], reverse("campaign-detail", args=[campaign.pk])).content.decode()
        assert reverse("sticker-attach", args=[campaign.pk]) in html
        assert reverse("kd-night-start", args=[campaign.pk]) in html
        assert VIEWER_READS_ONLY.replace("'", "&#x27;") not in html
        assert reverse("campaign-export", args=[campaign.pk]) not in html
        assert "/correct/" not in html and "/move/" not in html and "<h2>Archive</h2>" not in html

    def test_the_owner_gets_every_form_and_link(self, client, group):
        campaign, users = group
        html = page(client, users["owner"], reverse("campaign-detail", args=[campaign.pk])).content.decode()
        assert reverse("campaign-export", args=[campaign.pk]) in html
        assert reverse("sticker-correct", args=[campaign.pk, 43]) in html
        assert reverse("envelope-correct", args=[campaign.pk, 0]) in html
        assert "/move/" in html and reverse("sticker-attach", args=[campaign.pk]) in html

    def test_the_story_is_shared_by_its_owner_only(self, client, group):
        campaign, users = group
        game = campaign.games.order_by("number").first()
        url = reverse("night-story", args=[campaign.pk, game.number])
        share = reverse("story-share", args=[campaign.pk, game.number])
        assert share not in page(client, users["player"], url).content.decode()
        assert share in page(client, users["owner"], url).content.decode()

    def test_a_viewer_reads_the_realm_chronicles_without_the_result_form(self, client, group):
        campaign, users = group
        game_begin(campaign=campaign, king_name="Unrecorded", actor=users["owner"])
        url = reverse("campaign-chronicles", args=[campaign.pk])
        assert 'id="result-form"' not in page(client, users["viewer"], url).content.decode()
        assert 'id="result-form"' in page(client, users["player"], url).content.decode()


class RefusedWriteTests:
    def test_a_viewers_sticker_is_refused_with_the_reason_and_not_attached(self, client, group):
        campaign, users = group
        client.force_login(users["viewer"])
        body = {"number": 150, "row": "wealth", "positive": "1"}
        response = client.post(reverse("sticker-attach", args=[campaign.pk]), body)
        assert response.status_code == 403
        assert VIEWER_READS_ONLY.replace("'", "&#x27;") in response.content.decode()
        api = client.post(
            f"/api/campaigns/{campaign.pk}/stickers/attach/", {**body, "positive": True}, "application/json"
        )
        assert api.status_code == 403 and api.json()["message"] == VIEWER_READS_ONLY
        assert not ChronicleSticker.objects.filter(campaign=campaign, number=150).exists()

    def test_a_players_correction_is_refused_with_the_reason_and_changes_nothing(self, client, group):
        campaign, users = group
        client.force_login(users["player"])
        before = list(ChronicleSticker.objects.filter(campaign=campaign).values().order_by("pk"))
        url = reverse("sticker-correct", args=[campaign.pk, 43])
        assert client.get(url).status_code == 403
        response = client.post(url, {"remove": "1"})
        assert response.status_code == 403 and OWNER_ONLY.replace("'", "&#x27;") in response.content.decode()
        api = client.post(f"/api/campaigns/{campaign.pk}/stickers/43/remove/", {}, "application/json")
        assert api.status_code == 403 and api.json()["message"] == OWNER_ONLY
        assert list(ChronicleSticker.objects.filter(campaign=campaign).values().order_by("pk")) == before

    def test_a_player_neither_exports_nor_shares(self, client, group):
        campaign, users = group
        client.force_login(users["player"])
        game = campaign.games.order_by("number").first()
        assert client.post(reverse("campaign-export", args=[campaign.pk])).status_code == 403
        assert client.post(reverse("story-share", args=[campaign.pk, game.number])).status_code == 403
        api = client.post(
            f"/api/campaigns/{campaign.pk}/games/{game.pk}/story/share/", {}, "application/json"
        )
        assert api.status_code == 403 and api.json()["message"] == OWNER_ONLY
        assert not campaign.exports.exists() and not StoryLink.objects.exists()

    def test_a_player_may_play_what_happens_at_the_table(self, client, group):
        campaign, users = group
        client.force_login(users["player"])
        body = {"number": 150, "row": "wealth", "positive": True}
        api = client.post(f"/api/campaigns/{campaign.pk}/stickers/attach/", body, "application/json")
        assert api.status_code == 201
        assert ChronicleSticker.objects.filter(campaign=campaign, number=150).exists()

    def test_a_stranger_is_told_nothing_of_the_campaign(self, client, group):
        campaign, users = group
        client.force_login(users["stranger"])
        assert client.get(reverse("campaign-detail", args=[campaign.pk])).status_code == 404
        assert client.get(f"/api/campaigns/{campaign.pk}/").status_code == 404
        assert client.get(f"/api/campaigns/{Campaign.objects.order_by('-pk')[0].pk + 1}/").status_code == 404

    def test_the_api_lists_each_campaign_with_ones_role(self, client, group):
        campaign, users = group
        client.force_login(users["viewer"])
        assert client.get("/api/campaigns/").json() == [
            {
                "id": campaign.pk,
                "name": campaign.name,
                "created_at": client.get(f"/api/campaigns/{campaign.pk}/").json()["created_at"],
                "closed": False,
                "grand_finale_ready": False,
                "role": "viewer",
                "houses": [],  # a viewer plays no House
            }
        ]


class NightTableTests:
    """The table of a campaign's night (its join codes): its host's, and the campaign owner's when
    the host's phone dies; nobody else's."""

    def test_the_campaigns_owner_opens_a_night_a_player_hosts(self, client, group):
        campaign, users = group
        houses = list(campaign.houses.order_by("number")[:3])
        night = game_night_start(
            campaign=campaign, houses=houses, king_name="Ben I", host=users["player"], seed=1
        )
        url = reverse("games:session_table", args=[night.pk])
        assert page(client, users["player"], url).status_code == 200
        assert page(client, users["owner"], url).status_code == 200
        assert page(client, users["viewer"], url).status_code == 404
        assert page(client, users["stranger"], url).status_code == 404
        # The table's live stream follows the page: the owner's table stays live; nobody else's.
        stream = reverse("games:table_events", args=[night.pk])
        for who in ("viewer", "stranger"):
            assert page(client, users[who], stream).status_code == 404
        assert access.session_table_for(session_id=night.pk, user=users["owner"]) == night

    def test_a_night_without_a_campaign_stays_its_hosts(self, client, group):
        from games.services.sessions import session_create

        _campaign, users = group
        session = session_create(game="for_the_king", seat_names=["A", "B"], host=users["player"], seed=1)
        url = reverse("games:session_table", args=[session.pk])
        assert page(client, users["player"], url).status_code == 200
        assert page(client, users["owner"], url).status_code == 404


class DemoAccountTests:
    """'The demo login stays, for the demo campaign only' (issue 24 item 1)."""

    @pytest.fixture
    def demo(self):
        return demo_campaign_load().created_by

    def test_the_demo_account_creates_no_campaign_on_the_page_or_by_the_api(self, client, demo):
        client.force_login(demo)
        count = Campaign.objects.count()
        for response in (
            client.get(reverse("campaign-create")),
            client.post(reverse("campaign-create"), {"name": "X"}),
        ):
            assert response.status_code == 403
            assert DEMO_ADDS_NO_CAMPAIGN.replace("'", "&#x27;") in response.content.decode()
        api = client.post("/api/campaigns/create/", {"name": "X"}, "application/json")
        assert api.status_code == 403 and api.json()["message"] == DEMO_ADDS_NO_CAMPAIGN
        assert Campaign.objects.count() == count

    def test_the_demo_account_imports_no_campaign(self, client, demo):
        archive = campaign_archive(campaign=Campaign.objects.get())
        client.force_login(demo)
        upload = SimpleUploadedFile("a.json", json.dumps(archive, default=str).encode(), "application/json")
        response = client.post(reverse("campaign-import"), {"archive": upload})
        assert response.status_code == 403
        assert DEMO_ADDS_NO_CAMPAIGN.replace("'", "&#x27;") in response.content.decode()
        with pytest.raises(PermissionDenied, match=re.escape(str(DEMO_ADDS_NO_CAMPAIGN))):
            campaign_import(archive=archive, owner=demo)
        assert Campaign.objects.count() == 1

    def test_the_home_page_tells_the_demo_account_why_it_has_no_new_campaign(self, client, demo):
        client.force_login(demo)
        html = client.get(reverse("home")).content.decode()
        assert DEMO_ADDS_NO_CAMPAIGN.replace("'", "&#x27;") in html
        assert reverse("campaign-create") not in html and reverse("campaign-import") not in html

    def test_the_demo_account_sees_only_the_demo_campaign_even_if_added_to_another(self, client, demo):
        owner = UserFactory()
        other = campaign_create(name="The group's own", created_by=owner)
        Membership.objects.create(campaign=other, user=demo, role=Membership.Role.PLAYER)
        client.force_login(demo)
        assert demo.username == DEMO_USER
        assert client.get(reverse("campaign-detail", args=[other.pk])).status_code == 404
        assert client.get(f"/api/campaigns/{other.pk}/").status_code == 404
        assert [c["name"] for c in client.get("/api/campaigns/").json()] == ["Ankist, Thursday group"]
        assert "The group&#x27;s own" not in client.get(reverse("home")).content.decode()
