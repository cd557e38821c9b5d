"""Members as a group expects: the owner plays a House from the Members page in one step, and sets
or changes the House a member plays (one member per House, one House per member, a viewer plays
none); each member has a name in the campaign beside their username (accents kept), set by the
owner or by the member, and shown on the Members page, the campaign page, the House pages and the
phones (the seat's player). Pages and API call the same services; a refusal writes nothing."""

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.html import escape
from rest_framework.test import APIClient

from campaign.access import OWNER_ONLY
from campaign.models import CampaignEvent, House, Membership
from campaign.services.common import NAME_CONTROL_CHARACTERS
from campaign.services.game_nights import game_night_start
from campaign.services.houses import house_create
from campaign.services.members import (
    DISPLAY_NAME_LENGTH,
    HOUSE_ALREADY_PLAYED,
    NAME_OWN_OR_OWNER,
    VIEWER_PLAYS_NO_HOUSE,
    invitation_accept,
    invitation_create,
    membership_house_set,
    membership_name_set,
    membership_role_change,
)
from games.selectors import session_join_cards, session_seats
from games.versions import seat_infos
from tests.factories import UserFactory, campaign_with_houses
from tests.integration.api.conftest import token_client
from tests.integration.campaign.test_members import refused, written

pytestmark = pytest.mark.django_db


@pytest.fixture
def realm(user):
    return campaign_with_houses("Smeethe", "Tork", user=user)


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def api_of(user) -> APIClient:
    return token_client(user)


def member(campaign, role: str, username: str, house: House | None = None) -> Membership:
    user = UserFactory(username=username)
    invitation_accept(invitation=invitation_create(campaign=campaign, role=role, house=house), user=user)
    return Membership.objects.select_related("user").get(campaign=campaign, user=user)


def house_url(campaign, membership) -> str:
    return reverse("member-house", args=[campaign.pk, membership.pk])


def name_url(campaign, membership) -> str:
    return reverse("member-name", args=[campaign.pk, membership.pk])


def api_url(campaign, membership, what: str) -> str:
    return f"/api/campaigns/{campaign.pk}/members/{membership.pk}/{what}/"


class OwnerPlaysAHouseTests:
    def test_the_owner_plays_a_house_in_one_step_from_the_members_page(self, realm, user):
        campaign, (smeethe, _) = realm
        mine = Membership.objects.get(campaign=campaign, user=user)
        page = client_of(user).get(reverse("campaign-members", args=[campaign.pk])).content.decode()
        assert f'action="{house_url(campaign, mine)}"' in page and "I play" in page
        response = client_of(user).post(house_url(campaign, mine), {"house": smeethe.pk})
        assert response.status_code == 302
        assert House.objects.get(pk=smeethe.pk).user == user
        event = CampaignEvent.objects.filter(campaign=campaign, kind="house_player_linked").get()
        assert event.house == smeethe and event.actor == user

    def test_the_owner_changes_the_house_a_member_plays(self, realm, user):
        campaign, (smeethe, tork) = realm
        anna = member(campaign, "player", "anna", smeethe)
        response = client_of(user).post(house_url(campaign, anna), {"house": tork.pk})
        assert response.status_code == 302
        assert House.objects.get(pk=tork.pk).user == anna.user
        assert House.objects.get(pk=smeethe.pk).user is None  # one House per member
        summary = CampaignEvent.objects.filter(kind="house_player_linked").latest("pk").summary
        assert summary == "anna plays House Tork (no longer House Smeethe)"
        response = client_of(user).post(house_url(campaign, anna), {"house": ""})
        assert House.objects.filter(user=anna.user).count() == 0
        assert CampaignEvent.objects.filter(kind="house_player_unlinked").count() == 1

    def test_a_house_another_member_plays_is_refused_with_its_reason(self, realm, user):
        campaign, (smeethe, tork) = realm
        anna = member(campaign, "player", "anna", smeethe)
        ben = member(campaign, "player", "ben", tork)
        reason = HOUSE_ALREADY_PLAYED.format(house="Smeethe", user="anna")
        before = written()
        response = client_of(user).post(house_url(campaign, ben), {"house": smeethe.pk})
        assert response.status_code == 400
        assert escape(reason) in response.content.decode()
        response = api_of(user).post(api_url(campaign, ben, "house"), {"house": smeethe.pk}, format="json")
        assert response.status_code == 400 and reason in str(response.json())
        assert written() == before
        assert House.objects.get(pk=smeethe.pk).user == anna.user

    def test_a_viewer_plays_no_house(self, realm, user):
        campaign, (smeethe, _) = realm
        vera = member(campaign, "viewer", "vera")
        with refused(VIEWER_PLAYS_NO_HOUSE.format(user="vera")):
            membership_house_set(membership=vera, house=smeethe, actor=user)

    def test_the_api_sets_the_house_for_the_owner_only(self, realm, user):
        campaign, (smeethe, tork) = realm
        anna = member(campaign, "player", "anna", smeethe)
        body = api_of(user).post(api_url(campaign, anna, "house"), {"house": tork.pk}, format="json").json()
        assert body["house"] == {"id": tork.pk, "name": "Tork", "number": 2}
        before = written()
        response = api_of(anna.user).post(api_url(campaign, anna, "house"), {"house": None}, format="json")
        assert response.status_code == 403 and str(OWNER_ONLY) in str(response.json())
        response = client_of(anna.user).post(house_url(campaign, anna), {"house": ""})
        assert response.status_code == 403
        stranger = UserFactory(username="stranger")
        response = api_of(stranger).post(api_url(campaign, anna, "house"), {"house": None}, format="json")
        assert response.status_code == 404
        assert client_of(stranger).post(house_url(campaign, anna), {"house": ""}).status_code == 404
        assert written() == before


class DisplayNameTests:
    def test_the_owner_names_a_member_and_the_name_is_shown_everywhere(self, realm, user):
        campaign, (smeethe, _) = realm
        anna = member(campaign, "player", "anna", smeethe)
        response = client_of(user).post(name_url(campaign, anna), {"display_name": "  Zoé Ångström "})
        assert response.status_code == 302
        assert Membership.objects.get(pk=anna.pk).display_name == "Zoé Ångström"
        assert CampaignEvent.objects.filter(kind="member_renamed").get().summary == (
            "anna is now called Zoé Ångström"
        )
        owner = client_of(user)
        for url in (
            reverse("campaign-members", args=[campaign.pk]),
            reverse("campaign-detail", args=[campaign.pk]),
            reverse("house-page", args=[campaign.pk, smeethe.pk]),
        ):
            page = owner.get(url).content.decode()
            assert escape("Zoé Ångström") in page, url

    def test_the_seat_and_the_table_show_the_player_s_name(self, realm, user):
        """The phones (rulebook "Setup": each player takes their House's screen) name the player."""
        campaign, (smeethe, tork) = realm
        anna = member(campaign, "player", "anna", smeethe)
        membership_name_set(membership=anna, display_name="Zoé", actor=user)
        third = house_create(campaign=campaign, name="Coyle", number=3)
        night = game_night_start(campaign=campaign, houses=[smeethe, tork, third], king_name="K", host=user)
        infos = seat_infos(session_seats(session=night))
        assert [info["player"] for info in infos.values()] == ["Zoé", "", ""]
        cards = {card["seat"].name: card["opens_from_campaign"] for card in session_join_cards(session=night)}
        assert "Zoé" in cards["Smeethe"] and "anna" not in cards["Smeethe"]

    def test_the_name_the_owner_typed_for_a_house_stays_when_its_player_joins(self, realm, user):
        campaign, _ = realm
        house = house_create(campaign=campaign, name="Coyle", number=3, player_name="Zoé")
        zoe = member(campaign, "player", "zoe42", house)
        assert zoe.display_name == "Zoé"
        assert House.objects.get(pk=house.pk).player_name == "Zoé"
        page = client_of(user).get(reverse("campaign-detail", args=[campaign.pk])).content.decode()
        assert "Played by Zoé" in page and "Played by zoe42" not in page

    def test_a_member_names_themself_and_no_one_else(self, realm, user):
        campaign, (smeethe, _) = realm
        anna = member(campaign, "player", "anna", smeethe)
        vera = member(campaign, "viewer", "vera")
        assert (
            client_of(vera.user).post(name_url(campaign, vera), {"display_name": "Véra"}).status_code == 302
        )
        body = api_of(anna.user).post(
            api_url(campaign, anna, "name"), {"display_name": "Ànna"}, format="json"
        )
        assert body.status_code == 200 and body.json()["name"] == "Ànna"
        before = written()
        response = client_of(vera.user).post(name_url(campaign, anna), {"display_name": "x"})
        assert response.status_code == 403 and escape(str(NAME_OWN_OR_OWNER)) in response.content.decode()
        response = api_of(vera.user).post(
            api_url(campaign, anna, "name"), {"display_name": "x"}, format="json"
        )
        assert response.status_code == 403 and str(NAME_OWN_OR_OWNER) in str(response.json())
        stranger = UserFactory(username="stranger")
        assert client_of(stranger).post(name_url(campaign, anna), {"display_name": "x"}).status_code == 404
        response = api_of(stranger).post(
            api_url(campaign, anna, "name"), {"display_name": "x"}, format="json"
        )
        assert response.status_code == 404
        assert written() == before

    def test_a_name_is_held_to_the_text_rule_and_a_bounded_length(self, realm, user):
        campaign, _ = realm
        mine = Membership.objects.get(campaign=campaign, user=user)
        before = written()
        for bad in ("Zo\u202ee", "Zo\x00e", "x" * 81):
            response = client_of(user).post(name_url(campaign, mine), {"display_name": bad})
            assert response.status_code == 400, bad
            response = api_of(user).post(
                api_url(campaign, mine, "name"), {"display_name": bad}, format="json"
            )
            assert response.status_code == 400, bad
        with refused(NAME_CONTROL_CHARACTERS):
            membership_name_set(membership=mine, display_name="Zo\x1be", actor=user)
        with refused(DISPLAY_NAME_LENGTH):
            membership_name_set(membership=mine, display_name="x" * 81, actor=user)
        assert written() == before

    def test_a_member_made_a_viewer_keeps_their_name(self, realm, user):
        campaign, (smeethe, _) = realm
        anna = member(campaign, "player", "anna", smeethe)
        membership_name_set(membership=anna, display_name="Zoé", actor=user)
        membership_role_change(membership=anna, role="viewer", actor=user)
        page = client_of(user).get(reverse("campaign-members", args=[campaign.pk])).content.decode()
        assert "Zoé" in page


class MigrationTests:
    def test_members_take_the_name_typed_for_their_house_at_the_migration(self, realm, user):
        """campaign/migrations/0010: a member who played a House with a typed player's name."""
        from importlib import import_module

        from django.apps import apps

        migration = import_module("campaign.migrations.0010_membership_display_name")
        campaign, (smeethe, tork) = realm
        anna = member(campaign, "player", "anna", smeethe)
        ben = member(campaign, "player", "ben", tork)
        Membership.objects.update(display_name="")
        House.objects.filter(pk=smeethe.pk).update(player_name="Anaïs")
        migration.names_from_houses(apps, None)
        assert Membership.objects.get(pk=anna.pk).display_name == "Anaïs"
        assert Membership.objects.get(pk=ben.pk).display_name == ""  # its player's name is the username
