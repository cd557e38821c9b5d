"""The member list and the invitation page (issue 24 item 3): every member sees who plays; only the
owner invites, changes roles and removes; an invitation link leads a visitor to sign up or log in and
join; a refused step shows its sentence and writes nothing."""

import datetime

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape

from campaign.access import DEMO_USER
from campaign.models import House, Invitation, Membership
from campaign.services.members import (
    DEMO_CANNOT_JOIN,
    INVITATION_ALREADY_REVOKED,
    INVITATION_DAYS,
    INVITATION_HOUSE_PLAYER,
    INVITATION_REVOKED,
    JOINED_HOUSE,
    LAST_OWNER_DEMOTE,
    LAST_OWNER_REMOVE,
    UNKNOWN_ROLE,
    invitation_accept,
    invitation_create,
    invitation_revoke,
)
from campaign.views.members import INVITATION_MADE, MEMBER_REMOVED
from config import ratelimits
from tests.factories import UserFactory, campaign_with_houses
from tests.integration.campaign.test_members import written

pytestmark = pytest.mark.django_db

PHONES_REACH = "http://192.168.1.20:8000"


@pytest.fixture
def realm(user, settings):
    settings.CHRONICLE_PUBLIC_URL = PHONES_REACH
    return campaign_with_houses("Smeethe", "Tork", user=user)


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def member(campaign, role: str, username: str, house: House | None = None):
    user = UserFactory(username=username)
    invitation = invitation_create(campaign=campaign, role=role, house=house)
    invitation_accept(invitation=invitation, user=user)
    return user


def members_url(campaign) -> str:
    return reverse("campaign-members", args=[campaign.pk])


class MemberListTests:
    def test_the_owner_sees_members_tools_and_pending_invitations_with_their_qr(self, realm, user):
        campaign, houses = realm
        anna = member(campaign, "player", "anna", houses[0])
        invitation = invitation_create(campaign=campaign, role="viewer")
        page = client_of(user).get(members_url(campaign)).content.decode()
        assert "anna" in page and "House Smeethe" in page
        assert "Make an invitation link" in page and "Yes, remove anna" in page
        assert page.count("Yes, remove") == 1 and "The only owner" in page  # the owner is kept
        link = PHONES_REACH + reverse("invitation", args=[invitation.token])
        assert link in page
        assert (
            'role="img" aria-label="QR code of the invitation link to join Test campaign as viewer"' in page
        )
        assert "<svg" in page and reverse("invitation-revoke", args=[campaign.pk, invitation.pk]) in page
        assert anna != user

    def test_players_and_viewers_see_the_list_only(self, realm):
        campaign, houses = realm
        for who in (member(campaign, "player", "anna", houses[0]), member(campaign, "viewer", "vic")):
            response = client_of(who).get(members_url(campaign))
            page = response.content.decode()
            assert response.status_code == 200 and "anna" in page and "vic" in page
            assert "Make an invitation link" not in page and "Remove" not in page and "<svg" not in page

    def test_a_stranger_gets_404_and_a_player_403_on_the_owner_s_actions(self, realm):
        campaign, houses = realm
        stranger = client_of(UserFactory())
        assert stranger.get(members_url(campaign)).status_code == 404
        player = client_of(member(campaign, "player", "anna"))
        mine = Membership.objects.get(campaign=campaign, user__username="anna")
        before = written()
        for url in (
            reverse("invitation-create", args=[campaign.pk]),
            reverse("member-role", args=[campaign.pk, mine.pk]),
            reverse("member-remove", args=[campaign.pk, mine.pk]),
        ):
            assert player.post(url, {"role": "owner", "days": 7}).status_code == 403
            assert stranger.post(url, {"role": "owner", "days": 7}).status_code == 404
        assert written() == before

    def test_the_campaign_page_links_to_the_member_list(self, realm, user):
        campaign, _ = realm
        assert (
            members_url(campaign)
            in client_of(user).get(reverse("campaign-detail", args=[campaign.pk])).content.decode()
        )


class InvitationFormTests:
    def test_the_owner_makes_an_invitation_for_a_house(self, realm, user):
        campaign, houses = realm
        client = client_of(user)
        response = client.post(
            reverse("invitation-create", args=[campaign.pk]),
            {"role": "player", "house": houses[1].pk, "days": 3},
            follow=True,
        )
        assert str(INVITATION_MADE) in response.content.decode()
        invitation = Invitation.objects.get()
        assert invitation.house == houses[1] and invitation.created_by == user
        assert abs(invitation.expires_at - timezone.now() - datetime.timedelta(days=3)).total_seconds() < 60

    def test_bad_input_shows_its_sentence_and_writes_nothing(self, realm, user):
        campaign, houses = realm
        client = client_of(user)
        url = reverse("invitation-create", args=[campaign.pk])
        before = written()
        for data, message in (
            ({"role": "player", "days": 31}, INVITATION_DAYS),
            ({"role": "player", "days": "x"}, INVITATION_DAYS),
            ({"role": "viewer", "house": houses[0].pk, "days": 7}, INVITATION_HOUSE_PLAYER),
        ):
            response = client.post(url, data)
            assert response.status_code == 400
            assert escape(str(message)) in response.content.decode()
        assert written() == before

    def test_invitations_are_rate_limited(self, realm, user):
        campaign, _ = realm
        client = client_of(user)
        url = reverse("invitation-create", args=[campaign.pk])
        codes = [
            client.post(url, {"role": "viewer", "days": 0}).status_code
            for _ in range(ratelimits.LOGIN_ATTEMPTS + 1)
        ]
        assert codes == [400] * ratelimits.LOGIN_ATTEMPTS + [429]


class MemberActionsTests:
    def test_the_owner_changes_a_role_and_removes_a_member(self, realm, user):
        campaign, houses = realm
        anna = member(campaign, "player", "anna", houses[0])
        mine = Membership.objects.get(campaign=campaign, user=anna)
        client = client_of(user)
        response = client.post(reverse("member-role", args=[campaign.pk, mine.pk]), {"role": "viewer"})
        assert response.status_code == 302
        assert Membership.objects.get(pk=mine.pk).role == "viewer"
        response = client.post(reverse("member-remove", args=[campaign.pk, mine.pk]), follow=True)
        assert escape(MEMBER_REMOVED % {"user": "anna"}) in response.content.decode()
        assert not Membership.objects.filter(pk=mine.pk).exists()
        assert client_of(anna).get(reverse("campaign-detail", args=[campaign.pk])).status_code == 404

    def test_the_last_owner_is_kept_with_a_visible_reason(self, realm, user):
        campaign, _ = realm
        mine = Membership.objects.get(campaign=campaign, user=user)
        client = client_of(user)
        before = written()
        response = client.post(reverse("member-remove", args=[campaign.pk, mine.pk]))
        assert response.status_code == 400
        assert escape(LAST_OWNER_REMOVE.format(user=user)) in response.content.decode()
        response = client.post(reverse("member-role", args=[campaign.pk, mine.pk]), {"role": "player"})
        assert escape(LAST_OWNER_DEMOTE.format(user=user)) in response.content.decode()
        response = client.post(reverse("member-role", args=[campaign.pk, mine.pk]), {"role": "king"})
        assert response.status_code == 400
        assert escape(UNKNOWN_ROLE.format(role="king")) in response.content.decode()
        assert written() == before

    def test_the_owner_revokes_an_invitation(self, realm, user):
        campaign, _ = realm
        invitation = invitation_create(campaign=campaign)
        client = client_of(user)
        url = reverse("invitation-revoke", args=[campaign.pk, invitation.pk])
        assert client.post(url).status_code == 302
        invitation.refresh_from_db()
        assert invitation.revoked_at is not None
        response = client.post(url)
        assert response.status_code == 400
        assert escape(str(INVITATION_ALREADY_REVOKED)) in response.content.decode()


class InvitationPageTests:
    def test_a_visitor_is_told_what_they_are_invited_to_and_offered_to_sign_up(self, realm):
        campaign, houses = realm
        invitation = invitation_create(campaign=campaign, house=houses[1])
        url = reverse("invitation", args=[invitation.token])
        response = Client().get(url)
        page = response.content.decode()
        assert response.status_code == 200 and response["Referrer-Policy"] == "same-origin"
        assert "You're invited to Test campaign" in page and "as player (House Tork)" in page
        assert f"{reverse('account_signup')}?next={url.replace('/', '%2F')}" in page
        assert f"{reverse('login')}?next={url.replace('/', '%2F')}" in page

    def test_a_logged_in_person_joins_and_lands_on_the_campaign(self, realm):
        campaign, houses = realm
        invitation = invitation_create(campaign=campaign, house=houses[1])
        ben = UserFactory(username="ben")
        client = client_of(ben)
        url = reverse("invitation", args=[invitation.token])
        assert "Join Test campaign" in client.get(url).content.decode()
        response = client.post(url, follow=True)
        assert response.redirect_chain[-1][0] == reverse("campaign-detail", args=[campaign.pk])
        message = JOINED_HOUSE.format(campaign="Test campaign", role="player", house="Tork")
        assert escape(str(message)) in response.content.decode()
        assert Membership.objects.get(campaign=campaign, user=ben).role == "player"

    def test_an_anonymous_post_is_sent_to_log_in(self, realm):
        campaign, _ = realm
        invitation = invitation_create(campaign=campaign)
        url = reverse("invitation", args=[invitation.token])
        before = written()
        response = Client().post(url)
        assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
        assert written() == before

    def test_unknown_revoked_and_expired_links_say_so(self, realm):
        campaign, _ = realm
        assert Client().get(reverse("invitation", args=["nope"])).status_code == 404
        revoked = invitation_create(campaign=campaign)
        invitation_revoke(invitation=revoked)
        response = Client().get(reverse("invitation", args=[revoked.token]))
        assert response.status_code == 410 and escape(str(INVITATION_REVOKED)) in response.content.decode()
        expired = invitation_create(campaign=campaign)
        Invitation.objects.filter(pk=expired.pk).update(
            expires_at=timezone.now() - datetime.timedelta(days=1)
        )
        ben = client_of(UserFactory())
        response = ben.get(reverse("invitation", args=[expired.token]))
        assert response.status_code == 410 and "This invitation expired on" in response.content.decode()
        before = written()
        response = ben.post(reverse("invitation", args=[expired.token]))
        assert response.status_code == 400 and written() == before

    def test_the_demo_account_cannot_join(self, realm):
        campaign, _ = realm
        invitation = invitation_create(campaign=campaign)
        before = written()
        response = client_of(UserFactory(username=DEMO_USER)).post(
            reverse("invitation", args=[invitation.token])
        )
        assert response.status_code == 400
        assert escape(str(DEMO_CANNOT_JOIN)) in response.content.decode()
        assert written() == before

    def test_a_member_opening_a_link_is_led_to_the_campaign(self, realm, user):
        campaign, _ = realm
        invitation = invitation_create(campaign=campaign)
        page = client_of(user).get(reverse("invitation", args=[invitation.token])).content.decode()
        assert "You are already the owner of Test campaign" in page
        assert reverse("campaign-detail", args=[campaign.pk]) in page
