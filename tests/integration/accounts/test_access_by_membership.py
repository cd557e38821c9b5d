"""Access follows the membership at every request (docs/rules-decisions.md, "Who may do what in a
campaign"): the host of a campaign's night keeps its table while they play in the campaign; removed
or made a viewer mid-night, they lose it at once (the table page, the seat codes, the table's
actions, undo, abandon, the API with their login or token, the table's stream), and a refused call
writes nothing. The owner, or a player once the host no longer plays, takes the night over from the
campaign page. An invitation made before a removal or a role change does not undo it; a password
reset or change revokes the account's API tokens."""

import html
import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from api.models import DeviceToken
from campaign.access import VIEWER_READS_ONLY
from campaign.models import CampaignEvent, Membership
from campaign.services.game_nights import NIGHT_TAKE_OVER_HOST_PLAYS, game_night_start, game_night_take_over
from campaign.services.members import (
    REMOVED_SINCE_INVITATION,
    ROLE_SET_SINCE_INVITATION,
    invitation_accept,
    invitation_create,
    membership_remove,
    membership_role_change,
)
from campaign.views.nights import NIGHT_TAKEN_OVER
from games.models import GameSession, Seat, SessionAction
from tests.factories import UserFactory, group_campaign
from tests.integration.api.conftest import device_token

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-secret-1"


@pytest.fixture
def night():
    """A night of a group's campaign hosted by Ben, a player (not the owner); Dora plays too."""
    owner, host, viewer, other = UserFactory(), UserFactory(), UserFactory(), UserFactory()
    campaign = group_campaign(owner, player=host, viewer=viewer)
    Membership.objects.create(campaign=campaign, user=other, role=Membership.Role.PLAYER)
    houses = list(campaign.houses.order_by("number")[:3])
    session = game_night_start(campaign=campaign, houses=houses, king_name="Ben I", host=host, seed=1)
    users = {"owner": owner, "host": host, "viewer": viewer, "other": other, "stranger": UserFactory()}
    return campaign, session, users


def lose_the_table(campaign, host, how: str) -> None:
    membership = Membership.objects.get(campaign=campaign, user=host)
    if how == "removed":
        membership_remove(membership=membership)
    else:
        membership_role_change(membership=membership, role=Membership.Role.VIEWER)


def written(session) -> tuple:
    """What a refused call must leave as it was: the night's row, its log and its seats' codes."""
    row = GameSession.objects.get(pk=session.pk)
    codes = tuple(Seat.objects.filter(session=session).order_by("index").values_list("token", "joined_at"))
    return row.version, row.status, row.host_id, SessionAction.objects.filter(session=session).count(), codes


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def token_headers(user) -> dict:
    key = f"access-token-of-{user.pk}"
    device_token(user, key)
    return {"HTTP_AUTHORIZATION": f"Bearer {key}"}


def page_calls(session) -> list[tuple[str, str, dict]]:
    at, seat = {"session_id": session.pk}, {"session_id": session.pk, "seat_index": 0}
    return [
        ("get", reverse("games:session_table", kwargs=at), {}),
        ("post", reverse("games:session_table_action", kwargs=at), {"choice": "0"}),
        ("post", reverse("games:session_table_compose", kwargs=at), {}),
        ("post", reverse("games:session_undo", kwargs=at), {}),
        ("get", reverse("games:session_abandon", kwargs=at), {}),
        ("post", reverse("games:session_abandon", kwargs=at), {"confirm": "yes"}),
        ("post", reverse("games:session_seat_show_code", kwargs=seat), {}),
        ("post", reverse("games:session_seat_new_code", kwargs=seat), {"confirm": "yes"}),
        ("get", reverse("games:table_events", kwargs=at), {}),
    ]


def api_calls(campaign, session) -> list[tuple[str, str, dict]]:
    at = {"session_id": session.pk}
    calls = [("get", reverse(name, kwargs=at), {}) for name in ("api:session-table", "api:session-detail")]
    calls.append(("get", reverse("api:session-log", kwargs=at), {}))
    calls.append(("post", reverse("api:session-table-action", kwargs=at), {"action": {"type": "x"}}))
    calls.append(("post", reverse("api:session-undo", kwargs=at), {}))
    for index in range(3):  # each House's code (its private view and its actions) and its changes
        seat = {**at, "seat_index": index}
        calls.append(("post", reverse("api:seat-join", kwargs=seat), {}))
        calls.append(("post", reverse("api:seat-show-code", kwargs=seat), {}))
        calls.append(("post", reverse("api:seat-rotate", kwargs=seat), {}))
    others = {**at, "seat_index": 0}  # the first House is not the host's
    calls.append(("get", reverse("api:seat-view", kwargs=others), {}))
    calls.append(("post", reverse("api:seat-action-submit", kwargs=others), {"action": {"type": "x"}}))
    night = {"campaign_id": campaign.pk, "session_id": session.pk}
    calls.append(("post", reverse("api:night-abandon", kwargs=night), {}))
    calls.append(("get", reverse("api:session-events", kwargs=at), {}))
    return calls


def call(client, method: str, url: str, data: dict, **extra):
    if method == "get":
        return client.get(url, **extra)
    if url.startswith("/api/"):
        return client.post(url, data, content_type="application/json", **extra)
    return client.post(url, data, **extra)


class HostByMembershipTests:
    def test_the_host_opens_the_table_while_a_player(self, night):
        _campaign, session, users = night
        assert (
            logged_in(users["host"]).get(reverse("games:session_table", args=[session.pk])).status_code == 200
        )
        table = reverse("api:session-table", kwargs={"session_id": session.pk})
        assert Client().get(table, **token_headers(users["host"])).status_code == 200

    @pytest.mark.parametrize("how", ["removed", "demoted"])
    def test_a_host_removed_or_made_a_viewer_loses_every_page_of_the_table(self, night, how):
        campaign, session, users = night
        lose_the_table(campaign, users["host"], how)
        before = written(session)
        stranger = logged_in(users["stranger"])
        for method, url, data in page_calls(session):
            refused = call(logged_in(users["host"]), method, url, data)
            assert refused.status_code == 404, (method, url, refused.status_code)
            assert call(stranger, method, url, data).status_code == 404, (method, url)
        assert written(session) == before

    @pytest.mark.parametrize("how", ["removed", "demoted"])
    def test_a_host_removed_or_made_a_viewer_loses_the_api_with_login_or_token(self, night, how):
        campaign, session, users = night
        lose_the_table(campaign, users["host"], how)
        before = written(session)
        for method, url, data in api_calls(campaign, session):
            for client, extra in ((Client(), token_headers(users["host"])), (logged_in(users["host"]), {})):
                refused = call(client, method, url, data, **extra)
                assert refused.status_code in (403, 404), (method, url, refused.status_code)
                stranger = call(Client(), method, url, data, **token_headers(users["stranger"]))
                if url.startswith(f"/api/campaigns/{campaign.pk}/") and how == "demoted":
                    assert refused.status_code == 403  # a viewer of the campaign: its reason
                else:
                    assert refused.status_code == stranger.status_code, (method, url)
        assert written(session) == before

    def test_the_owner_keeps_the_table_a_player_who_does_not_host_never_had_it(self, night):
        _campaign, session, users = night
        url = reverse("games:session_table", args=[session.pk])
        assert logged_in(users["owner"]).get(url).status_code == 200
        assert logged_in(users["other"]).get(url).status_code == 404


class TakeOverTests:
    def url(self, campaign, session) -> str:
        return reverse("kd-night-take-over", kwargs={"pk": campaign.pk, "session_id": session.pk})

    def test_the_owner_takes_the_night_over_from_the_campaign_page(self, night):
        campaign, session, users = night
        owner = logged_in(users["owner"])
        page = owner.get(reverse("campaign-detail", args=[campaign.pk])).content.decode()
        assert self.url(campaign, session) in page and "Take over this night's table" in page
        response = owner.post(self.url(campaign, session), follow=True)
        assert response.redirect_chain[0][0] == reverse("games:session_table", args=[session.pk])
        assert NIGHT_TAKEN_OVER % {"session": session.pk} in response.content.decode()
        session.refresh_from_db()
        assert session.host == users["owner"]
        # The player who hosted it is a player again: the table is no longer theirs, undo is the owner's.
        assert (
            logged_in(users["host"]).get(reverse("games:session_table", args=[session.pk])).status_code == 404
        )
        event = CampaignEvent.objects.filter(campaign=campaign, kind="night_host_changed").get()
        assert event.actor == users["owner"] and event.data["was"] == users["host"].username

    def test_a_player_takes_it_over_only_once_the_host_no_longer_plays(self, night):
        campaign, session, users = night
        other = logged_in(users["other"])
        assert (
            self.url(campaign, session)
            not in other.get(reverse("campaign-detail", args=[campaign.pk])).content.decode()
        )
        with pytest.raises(ValidationError) as refused:
            game_night_take_over(session=session, actor=users["other"])
        assert refused.value.messages == [NIGHT_TAKE_OVER_HOST_PLAYS.format(host=users["host"])]
        response = other.post(self.url(campaign, session), follow=True)
        assert NIGHT_TAKE_OVER_HOST_PLAYS.format(host=users["host"]) in html.unescape(
            response.content.decode()
        )
        session.refresh_from_db()
        assert session.host == users["host"]
        lose_the_table(campaign, users["host"], "removed")
        assert (
            self.url(campaign, session)
            in other.get(reverse("campaign-detail", args=[campaign.pk])).content.decode()
        )
        assert other.post(self.url(campaign, session)).status_code == 302
        session.refresh_from_db()
        assert session.host == users["other"]
        assert other.get(reverse("games:session_table", args=[session.pk])).status_code == 200

    def test_a_viewer_or_a_stranger_is_refused_and_nothing_changes(self, night):
        campaign, session, users = night
        before = written(session)
        viewer = logged_in(users["viewer"]).post(self.url(campaign, session))
        assert viewer.status_code == 403 and str(VIEWER_READS_ONLY) in viewer.content.decode().replace(
            "&#x27;", "'"
        )
        assert logged_in(users["stranger"]).post(self.url(campaign, session)).status_code == 404
        assert written(session) == before
        assert not CampaignEvent.objects.filter(kind="night_host_changed").exists()

    def test_the_api_takes_it_over_as_the_page_does(self, night):
        campaign, session, users = night
        url = reverse("api:night-take-over", kwargs={"campaign_id": campaign.pk, "session_id": session.pk})
        refused = Client().post(url, **token_headers(users["other"]))
        assert refused.status_code == 400
        assert refused.json()["message"] == NIGHT_TAKE_OVER_HOST_PLAYS.format(host=users["host"])
        assert Client().post(url, **token_headers(users["viewer"])).status_code == 403
        assert Client().post(url, **token_headers(users["stranger"])).status_code == 404
        lose_the_table(campaign, users["host"], "demoted")
        taken = Client().post(url, **token_headers(users["other"]))
        assert taken.status_code == 200 and taken.json()["id"] == session.pk
        table = reverse("api:session-table", kwargs={"session_id": session.pk})
        assert Client().get(table, **token_headers(users["other"])).status_code == 200
        session.refresh_from_db()
        assert session.host == users["other"]


class InvitationAfterRemovalTests:
    def test_a_removed_member_does_not_join_again_by_an_older_group_invitation(self, night):
        campaign, _session, users = night
        invitation = invitation_create(campaign=campaign, role="player", actor=users["owner"])
        membership_remove(membership=Membership.objects.get(campaign=campaign, user=users["other"]))
        with pytest.raises(ValidationError) as refused:
            invitation_accept(invitation=invitation, user=users["other"])
        assert refused.value.messages == [REMOVED_SINCE_INVITATION.format(campaign=campaign.name)]
        assert not Membership.objects.filter(campaign=campaign, user=users["other"]).exists()
        # Others still join by it; a new invitation brings the removed member back.
        assert invitation_accept(invitation=invitation, user=users["stranger"]).membership.role == "player"
        fresh = invitation_create(campaign=campaign, role="viewer", actor=users["owner"])
        assert invitation_accept(invitation=fresh, user=users["other"]).membership.role == "viewer"

    def test_a_member_made_a_viewer_is_not_made_a_player_again_by_an_older_invitation(self, night):
        campaign, _session, users = night
        invitation = invitation_create(campaign=campaign, role="player", actor=users["owner"])
        membership = Membership.objects.get(campaign=campaign, user=users["other"])
        membership_role_change(membership=membership, role=Membership.Role.VIEWER)
        with pytest.raises(ValidationError) as refused:
            invitation_accept(invitation=invitation, user=users["other"])
        assert refused.value.messages == [
            ROLE_SET_SINCE_INVITATION.format(role="a viewer", campaign=campaign.name)
        ]
        membership.refresh_from_db()
        assert membership.role == Membership.Role.VIEWER

    def test_the_invitation_page_refuses_it_too(self, night):
        campaign, _session, users = night
        invitation = invitation_create(campaign=campaign, role="player", actor=users["owner"])
        membership_remove(membership=Membership.objects.get(campaign=campaign, user=users["other"]))
        refused = logged_in(users["other"]).post(reverse("invitation", args=[invitation.token]))
        assert refused.status_code == 400
        assert REMOVED_SINCE_INVITATION.format(campaign=campaign.name) in refused.content.decode().replace(
            "&#x27;", "'"
        )
        assert not Membership.objects.filter(campaign=campaign, user=users["other"]).exists()


class PasswordRevokesTokensTests:
    @pytest.fixture
    def anna(self):
        return get_user_model().objects.create_user("anna", "anna@example.org", PASSWORD)

    def tokens_work(self, headers) -> bool:
        return Client().get(reverse("api:my-seat-list"), **headers).status_code == 200

    def test_a_password_reset_revokes_every_api_token_and_other_sessions(self, client, anna):
        phone, tablet = token_headers(anna), {"HTTP_AUTHORIZATION": "Bearer second-device-key"}
        device_token(anna, "second-device-key")
        browser = logged_in(anna)
        assert self.tokens_work(phone) and self.tokens_work(tablet)
        client.post(reverse("account_reset_password"), {"email": "anna@example.org"})
        link = re.search(r"https?://[^/\s]+(/accounts/password/reset/key/\S+)", mail.outbox[0].body)[1]
        form_page = client.get(link, follow=True)
        response = client.post(
            form_page.redirect_chain[-1][0] if form_page.redirect_chain else link,
            {"password1": "another-secret-2", "password2": "another-secret-2"},
        )
        assert response.status_code == 302
        assert not DeviceToken.objects.filter(user=anna).exists()
        assert Client().get(reverse("api:my-seat-list"), **phone).status_code == 401
        assert browser.get(reverse("campaign-create")).status_code == 302  # to the log-in page

    def test_a_password_change_revokes_the_api_tokens(self, anna):
        phone = token_headers(anna)
        browser = logged_in(anna)
        response = browser.post(
            reverse("account_change_password"),
            {"oldpassword": PASSWORD, "password1": "another-secret-2", "password2": "another-secret-2"},
        )
        assert response.status_code == 302
        assert not self.tokens_work(phone)

    def test_an_administrator_setting_a_new_password_revokes_the_api_tokens(self, anna):
        """The admin's "Change password" form sets the password by Django alone, with no allauth
        signal: the account's devices are revoked all the same."""
        phone = token_headers(anna)
        admin = logged_in(get_user_model().objects.create_superuser("root", "root@example.org", PASSWORD))
        response = admin.post(
            reverse("admin:auth_user_password_change", args=[anna.pk]),
            {"password1": "another-secret-2", "password2": "another-secret-2"},
        )
        assert response.status_code == 302
        assert not self.tokens_work(phone)

    def test_saving_an_account_without_a_new_password_keeps_its_tokens(self, anna):
        phone = token_headers(anna)
        anna.first_name = "Anna"
        anna.save()
        assert self.tokens_work(phone)

    def test_a_log_in_that_upgrades_the_stored_hash_keeps_the_other_devices(self, anna, settings):
        """Django rewrites an outdated hash at a log-in: the same password, so no device is revoked."""
        from django.contrib.auth.hashers import make_password

        settings.PASSWORD_HASHERS = [
            "django.contrib.auth.hashers.PBKDF2PasswordHasher",
            "django.contrib.auth.hashers.MD5PasswordHasher",
        ]
        anna.password = make_password(PASSWORD, hasher="md5")
        anna.save()
        phone = token_headers(anna)
        assert Client().login(username="anna", password=PASSWORD)
        anna.refresh_from_db()
        assert anna.password.startswith("pbkdf2_")  # upgraded
        assert self.tokens_work(phone)
