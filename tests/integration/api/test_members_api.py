"""Members and invitations through the API (issue 24 items 3 and 5): the owner invites, lists and
revokes invitations, changes roles and removes members; any member lists the members; anyone logged
in reads an invitation and accepts it. Bad input 400 with the reason, a short role 403, a stranger
or an unknown object 404, and nothing written after a refusal."""

import pytest
from django.urls import reverse

from campaign.access import DEMO_USER
from campaign.models import Invitation, Membership
from campaign.services.members import (
    DEMO_CANNOT_JOIN,
    INVITATION_ALREADY_REVOKED,
    INVITATION_DAYS,
    INVITATION_HOUSE_PLAYER,
    INVITATION_REVOKED,
    INVITATION_ROLE,
    INVITATION_UNKNOWN,
    INVITATION_USED,
    JOINED_HOUSE,
    LAST_OWNER_DEMOTE,
    LAST_OWNER_REMOVE,
    invitation_accept,
    invitation_create,
    invitation_revoke,
)
from config import ratelimits
from tests.factories import UserFactory, campaign_with_houses
from tests.integration.api.conftest import token_client
from tests.integration.campaign.test_members import written

pytestmark = pytest.mark.django_db

PHONES_REACH = "http://192.168.1.20:8000"


@pytest.fixture
def realm(host, settings):
    settings.CHRONICLE_PUBLIC_URL = PHONES_REACH
    return campaign_with_houses("Smeethe", "Tork", user=host, name="Harald")


def base(campaign) -> str:
    return f"/api/campaigns/{campaign.pk}"


def joined(campaign, role: str, username: str, house=None):
    user = UserFactory(username=username)
    invitation_accept(invitation=invitation_create(campaign=campaign, role=role, house=house), user=user)
    return user, Membership.objects.get(campaign=campaign, user=user)


class MemberListApiTests:
    def test_every_member_lists_the_members_with_their_house(self, api, realm, host):
        campaign, houses = realm
        anna, mine = joined(campaign, "player", "anna", houses[1])
        for client in (api, token_client(anna)):
            body = client.get(f"{base(campaign)}/members/").json()
            assert body == [
                {
                    "id": Membership.objects.get(user=host).pk,
                    "username": "host",
                    "name": "host",
                    "display_name": "",
                    "role": "owner",
                    "house": None,
                },
                {
                    "id": mine.pk,
                    "username": "anna",
                    "name": "anna",
                    "display_name": "",
                    "role": "player",
                    "house": {"id": houses[1].pk, "name": "Tork", "number": 2},
                },
            ]

    def test_a_stranger_gets_404_and_anonymous_401(self, stranger, anonymous, realm):
        campaign, _ = realm
        assert stranger.get(f"{base(campaign)}/members/").status_code == 404
        assert anonymous.get(f"{base(campaign)}/members/").status_code == 401


class InvitationApiTests:
    def test_the_owner_invites_and_gets_the_link_phones_reach(self, api, realm, host):
        campaign, houses = realm
        response = api.post(
            f"{base(campaign)}/invitations/",
            {"role": "player", "house": houses[0].pk, "days": 2},
            format="json",
        )
        assert response.status_code == 201
        body = response.json()
        invitation = Invitation.objects.get()
        assert body["link"] == PHONES_REACH + reverse("invitation", args=[invitation.token])
        assert body["token"] == invitation.token and body["house"]["name"] == "Smeethe"
        assert body["role"] == "player" and body["uses"] == 0 and body["revoked_at"] is None
        assert invitation.created_by == host
        listed = api.get(f"{base(campaign)}/invitations/").json()
        assert [i["id"] for i in listed] == [invitation.pk]

    def test_an_empty_body_invites_a_player_for_seven_days(self, api, realm):
        campaign, _ = realm
        body = api.post(f"{base(campaign)}/invitations/", {}, format="json").json()
        assert body["role"] == "player" and body["house"] is None

    def test_bad_input_is_400_with_the_reason_and_writes_nothing(self, api, realm):
        campaign, houses = realm
        _, (elsewhere,) = campaign_with_houses("Elsewhere", name="Another")
        before = written()
        for data, message in (
            ({"days": 31}, INVITATION_DAYS),
            ({"days": 0}, INVITATION_DAYS),
            ({"role": "owner"}, INVITATION_ROLE),
            ({"role": "viewer", "house": houses[0].pk}, INVITATION_HOUSE_PLAYER),
            ({"house": elsewhere.pk}, "house: "),
        ):
            response = api.post(f"{base(campaign)}/invitations/", data, format="json")
            assert response.status_code == 400, data
            assert str(message) in response.json()["message"]
        assert written() == before

    def test_only_the_owner_invites_lists_revokes_changes_and_removes(self, realm, stranger):
        campaign, houses = realm
        anna, mine = joined(campaign, "player", "anna", houses[0])
        _, viewer = joined(campaign, "viewer", "vic")
        invitation = invitation_create(campaign=campaign)
        before = written()
        for client, code in ((token_client(anna), 403), (token_client(viewer.user), 403), (stranger, 404)):
            assert client.get(f"{base(campaign)}/invitations/").status_code == code
            for url, data in (
                ("invitations/", {"role": "viewer"}),
                (f"invitations/{invitation.pk}/revoke/", {}),
                (f"members/{mine.pk}/role/", {"role": "owner"}),
                (f"members/{viewer.pk}/remove/", {}),
            ):
                assert client.post(f"{base(campaign)}/{url}", data, format="json").status_code == code, url
        assert written() == before

    def test_the_owner_revokes_an_invitation_once(self, api, realm):
        campaign, _ = realm
        invitation = invitation_create(campaign=campaign)
        response = api.post(f"{base(campaign)}/invitations/{invitation.pk}/revoke/")
        assert response.status_code == 200 and response.json()["revoked_at"]
        again = api.post(f"{base(campaign)}/invitations/{invitation.pk}/revoke/")
        assert again.status_code == 400 and again.json()["message"] == INVITATION_ALREADY_REVOKED
        assert api.post(f"{base(campaign)}/invitations/999999/revoke/").status_code == 404

    def test_creating_invitations_is_rate_limited(self, api, realm):
        campaign, _ = realm
        codes = [
            api.post(f"{base(campaign)}/invitations/", {"days": 0}, format="json").status_code
            for _ in range(ratelimits.LOGIN_ATTEMPTS + 1)
        ]
        assert codes == [400] * ratelimits.LOGIN_ATTEMPTS + [429]


class MemberChangeApiTests:
    def test_the_owner_changes_a_role(self, api, realm):
        campaign, houses = realm
        _, mine = joined(campaign, "player", "anna", houses[0])
        response = api.post(f"{base(campaign)}/members/{mine.pk}/role/", {"role": "viewer"}, format="json")
        assert response.status_code == 200
        assert response.json() == {
            "id": mine.pk,
            "username": "anna",
            "name": "anna",
            "display_name": "",
            "role": "viewer",
            "house": None,
        }

    def test_bad_roles_and_the_last_owner_are_refused(self, api, realm, host):
        campaign, _ = realm
        owner = Membership.objects.get(user=host)
        before = written()
        for data, message in (
            ({"role": "king"}, 'role: "king" is not a valid choice.'),
            ({"role": "player"}, LAST_OWNER_DEMOTE.format(user=host)),
            ({"role": 3}, "role: "),
            ({}, "role: "),
        ):
            response = api.post(f"{base(campaign)}/members/{owner.pk}/role/", data, format="json")
            assert response.status_code == 400 and message in response.json()["message"], data
        response = api.post(f"{base(campaign)}/members/{owner.pk}/remove/")
        assert response.status_code == 400
        assert response.json()["message"] == LAST_OWNER_REMOVE.format(user=host)
        assert api.post(f"{base(campaign)}/members/999999/remove/").status_code == 404
        assert written() == before

    def test_a_removed_member_gets_404(self, api, realm):
        campaign, houses = realm
        anna, mine = joined(campaign, "player", "anna", houses[0])
        assert token_client(anna).get(f"{base(campaign)}/").status_code == 200
        assert api.post(f"{base(campaign)}/members/{mine.pk}/remove/").status_code == 204
        assert token_client(anna).get(f"{base(campaign)}/").status_code == 404
        houses[0].refresh_from_db()
        assert houses[0].user is None


class InvitationAcceptApiTests:
    def test_anyone_logged_in_reads_an_invitation_and_accepts_it(self, realm, anonymous):
        campaign, houses = realm
        invitation = invitation_create(campaign=campaign, house=houses[1])
        ben = token_client(UserFactory(username="ben"))
        url = f"/api/invitations/{invitation.token}/"
        body = ben.get(url).json()
        assert body["campaign"] == {"id": campaign.pk, "name": "Harald"}
        assert body["role"] == "player" and body["house"]["name"] == "Tork"
        assert body["state"] == "open" and body["problem"] is None and body["your_role"] is None
        assert anonymous.get(url).status_code == 401
        response = ben.post(f"{url}accept/")
        assert response.status_code == 200
        assert response.json() == {
            "campaign": {"id": campaign.pk, "name": "Harald"},
            "role": "player",
            "house": {"id": houses[1].pk, "name": "Tork", "number": 2},
            "message": JOINED_HOUSE.format(campaign="Harald", role="player", house="Tork"),
        }
        assert ben.get(f"{base(campaign)}/").status_code == 200
        assert ben.get(url).json()["state"] == "used"
        assert ben.get(url).json()["your_role"] == "player"

    def test_refusals_are_400_with_the_sentence_and_write_nothing(self, realm):
        campaign, houses = realm
        used = invitation_create(campaign=campaign, house=houses[0])
        invitation_accept(invitation=used, user=UserFactory())
        revoked = invitation_create(campaign=campaign)
        invitation_revoke(invitation=revoked)
        fine = invitation_create(campaign=campaign)
        before = written()
        for client, invitation, message in (
            (token_client(UserFactory()), used, INVITATION_USED.format(house="Smeethe")),
            (token_client(UserFactory()), revoked, INVITATION_REVOKED),
            (token_client(UserFactory(username=DEMO_USER)), fine, DEMO_CANNOT_JOIN),
        ):
            response = client.post(f"/api/invitations/{invitation.token}/accept/")
            assert response.status_code == 400 and response.json()["message"] == message
        assert written() == before
        assert (
            token_client(UserFactory()).get(f"/api/invitations/{revoked.token}/").json()["state"] == "revoked"
        )

    def test_an_unknown_token_is_404(self, api, realm):
        for url in ("/api/invitations/nope/", "/api/invitations/nope/accept/"):
            response = api.post(url) if url.endswith("accept/") else api.get(url)
            assert response.status_code == 404
            assert response.json()["message"] == INVITATION_UNKNOWN

    def test_the_schema_lists_the_member_operations(self, api):
        schema = api.get("/api/schema/?format=json").json()["paths"]
        for path in (
            "/api/campaigns/{campaign_id}/members/",
            "/api/campaigns/{campaign_id}/members/{member_id}/role/",
            "/api/campaigns/{campaign_id}/members/{member_id}/remove/",
            "/api/campaigns/{campaign_id}/invitations/",
            "/api/campaigns/{campaign_id}/invitations/{invitation_id}/revoke/",
            "/api/invitations/{token}/",
            "/api/invitations/{token}/accept/",
        ):
            assert path in schema, path
        assert set(schema["/api/campaigns/{campaign_id}/invitations/"]) >= {"get", "post"}
