"""Members of a campaign through the services (issue 24 item 3; docs/rules-decisions.md,
"Invitations"): invitations made, revoked and accepted, roles changed, members removed. Every
refusal is asserted by its constant, and nothing is written after a refusal."""

import datetime
import threading
from contextlib import contextmanager

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import ValidationError
from django.utils import formats, timezone

from campaign import selectors
from campaign.access import DEMO_USER
from campaign.models import CampaignEvent, House, Invitation, Membership
from campaign.services.common import HOUSE_NOT_IN_CAMPAIGN
from campaign.services.game_nights import game_night_start
from campaign.services.members import (
    ALREADY_MEMBER,
    ALREADY_MEMBER_HOUSE,
    DEMO_CANNOT_JOIN,
    HOUSE_ALREADY_PLAYED,
    INVITATION_ALREADY_REVOKED,
    INVITATION_DAYS,
    INVITATION_EXPIRED,
    INVITATION_HOUSE_PLAYER,
    INVITATION_NEEDS_ACCOUNT,
    INVITATION_REVOKED,
    INVITATION_ROLE,
    INVITATION_USED,
    JOINED,
    JOINED_HOUSE,
    LAST_OWNER_DEMOTE,
    LAST_OWNER_REMOVE,
    ONE_HOUSE_PER_PLAYER,
    ROLE_RAISED,
    UNKNOWN_ROLE,
    invitation_accept,
    invitation_create,
    invitation_problem,
    invitation_revoke,
    membership_remove,
    membership_role_change,
)
from tests.factories import UserFactory, campaign_with_houses
from tests.integration.api.test_concurrency import race

pytestmark = [pytest.mark.database, pytest.mark.django_db]

Role = Membership.Role


def written() -> tuple:
    """What the member services may write (the pages' and the API's tests use it too)."""
    return (
        list(Invitation.objects.order_by("pk").values_list("pk", "revoked_at", "uses")),
        list(Membership.objects.order_by("pk").values_list("pk", "user_id", "role", "display_name")),
        list(House.objects.order_by("pk").values_list("pk", "user_id", "player_name")),
        CampaignEvent.objects.count(),
    )


@contextmanager
def refused(message: str):
    """The service inside is refused with exactly ``message``, and writes nothing."""
    before = written()
    with pytest.raises(ValidationError) as caught:
        yield
    assert caught.value.messages == [message]
    assert written() == before


@pytest.fixture
def realm(user):
    campaign, houses = campaign_with_houses("Smeethe", "Tork", "Allwed", user=user)
    return campaign, houses


def last_event(campaign) -> CampaignEvent:
    return campaign.events.order_by("-id").first()


class InvitationCreateTests:
    def test_an_invitation_lasts_seven_days_by_default_and_is_recorded(self, realm, user):
        campaign, _ = realm
        invitation = invitation_create(campaign=campaign, role="viewer", actor=user)
        assert invitation.role == "viewer" and invitation.house is None and len(invitation.token) >= 40
        remaining = invitation.expires_at - timezone.now()
        assert datetime.timedelta(days=6, hours=23) < remaining <= datetime.timedelta(days=7)
        event = last_event(campaign)
        assert event.kind == "invitation_created" and event.actor == user
        assert invitation.token not in str(event.data) + event.summary  # the link is a secret

    def test_the_owner_chooses_one_to_thirty_days(self, realm):
        campaign, _ = realm
        for days in (1, 30):
            invitation = invitation_create(campaign=campaign, days=days)
            assert (
                abs(invitation.expires_at - timezone.now() - datetime.timedelta(days=days)).total_seconds()
                < 60
            )
        for days in (0, 31, -1, True, "7"):
            with refused(INVITATION_DAYS):
                invitation_create(campaign=campaign, days=days)

    def test_an_invitation_never_makes_an_owner(self, realm):
        campaign, _ = realm
        for role in ("owner", "host", ""):
            with refused(INVITATION_ROLE):
                invitation_create(campaign=campaign, role=role)

    def test_the_house_must_be_of_the_campaign_free_and_for_a_player(self, realm, user):
        campaign, houses = realm
        _, (elsewhere,) = campaign_with_houses("Elsewhere", name="Another")
        with refused(HOUSE_NOT_IN_CAMPAIGN.format(house="Elsewhere")):
            invitation_create(campaign=campaign, house=elsewhere)
        with refused(INVITATION_HOUSE_PLAYER):
            invitation_create(campaign=campaign, role="viewer", house=houses[0])
        anna = UserFactory(username="anna")
        invitation_accept(invitation=invitation_create(campaign=campaign, house=houses[0]), user=anna)
        with refused(HOUSE_ALREADY_PLAYED.format(house="Smeethe", user=anna)):
            invitation_create(campaign=campaign, house=houses[0])


class InvitationRevokeTests:
    def test_a_revoked_invitation_cannot_be_accepted_nor_revoked_again(self, realm, user):
        campaign, _ = realm
        invitation = invitation_create(campaign=campaign)
        invitation_revoke(invitation=invitation, actor=user)
        assert last_event(campaign).kind == "invitation_revoked"
        invitation.refresh_from_db()
        assert invitation.revoked_at is not None
        assert list(selectors.invitations_pending(campaign=campaign)) == []
        with refused(INVITATION_ALREADY_REVOKED):
            invitation_revoke(invitation=invitation)
        with refused(INVITATION_REVOKED):
            invitation_accept(invitation=invitation, user=UserFactory())


class InvitationAcceptTests:
    def test_an_invitation_without_a_house_serves_several_people(self, realm):
        campaign, _ = realm
        invitation = invitation_create(campaign=campaign, role="viewer")
        anna, ben = UserFactory(username="anna"), UserFactory(username="ben")
        done = invitation_accept(invitation=invitation, user=anna)
        assert done.message == JOINED.format(campaign=campaign.name, role="viewer")
        invitation_accept(invitation=invitation, user=ben)
        roles = dict(campaign.memberships.values_list("user__username", "role"))
        assert roles["anna"] == roles["ben"] == "viewer"
        invitation.refresh_from_db()
        assert invitation.uses == 2
        event = last_event(campaign)
        assert event.kind == "member_joined" and event.actor == ben and "ben" in event.summary
        assert list(selectors.invitations_pending(campaign=campaign)) == [invitation]

    def test_an_invitation_for_a_house_gives_it_its_player_once(self, realm):
        campaign, houses = realm
        invitation = invitation_create(campaign=campaign, house=houses[1])
        anna = UserFactory(username="anna")
        done = invitation_accept(invitation=invitation, user=anna)
        assert done.message == JOINED_HOUSE.format(campaign=campaign.name, role="player", house="Tork")
        houses[1].refresh_from_db()
        assert houses[1].user == anna and houses[1].player_name == "anna"  # was empty
        assert done.membership.role == "player"
        assert last_event(campaign).house == houses[1]
        assert list(selectors.invitations_pending(campaign=campaign)) == []
        with refused(INVITATION_USED.format(house="Tork")):
            invitation_accept(invitation=invitation, user=UserFactory())

    def test_a_player_name_already_written_stays(self, realm):
        campaign, houses = realm
        House.objects.filter(pk=houses[0].pk).update(player_name="Anna Smith")
        invitation_accept(
            invitation=invitation_create(campaign=campaign, house=houses[0]), user=UserFactory()
        )
        houses[0].refresh_from_db()
        assert houses[0].player_name == "Anna Smith"

    def test_an_expired_invitation_says_since_when(self, realm):
        campaign, houses = realm
        expired = invitation_create(campaign=campaign)
        Invitation.objects.filter(pk=expired.pk).update(
            expires_at=timezone.now() - datetime.timedelta(seconds=1)
        )
        expired.refresh_from_db()
        date = formats.date_format(timezone.localtime(expired.expires_at).date(), "DATE_FORMAT")
        with refused(INVITATION_EXPIRED.format(date=date)):
            invitation_accept(invitation=expired, user=UserFactory())
        assert invitation_problem(invitation=expired) == INVITATION_EXPIRED.format(date=date)

    def test_the_demo_account_and_anonymous_visitors_cannot_accept(self, realm):
        campaign, _ = realm
        invitation = invitation_create(campaign=campaign)
        with refused(DEMO_CANNOT_JOIN):
            invitation_accept(invitation=invitation, user=UserFactory(username=DEMO_USER))
        with refused(INVITATION_NEEDS_ACCOUNT):
            invitation_accept(invitation=invitation, user=AnonymousUser())

    def test_a_member_keeps_a_higher_role_and_is_told_so(self, realm, user):
        campaign, _ = realm
        invitation = invitation_create(campaign=campaign, role="player")
        before = written()
        done = invitation_accept(invitation=invitation, user=user)  # the owner
        assert done.message == ALREADY_MEMBER.format(role="owner", campaign=campaign.name)
        assert done.membership.role == "owner" and written() == before

    def test_a_viewer_invited_as_player_becomes_a_player(self, realm):
        campaign, _ = realm
        ben = UserFactory(username="ben")
        invitation_accept(invitation=invitation_create(campaign=campaign, role="viewer"), user=ben)
        done = invitation_accept(invitation=invitation_create(campaign=campaign), user=ben)
        assert done.message == ROLE_RAISED.format(was="a viewer", campaign=campaign.name, role="a player")
        assert Membership.objects.get(campaign=campaign, user=ben).role == "player"
        assert last_event(campaign).kind == "member_role_changed"
        # ... and a player invited as a viewer stays a player.
        done = invitation_accept(invitation=invitation_create(campaign=campaign, role="viewer"), user=ben)
        assert done.message == ALREADY_MEMBER.format(role="player", campaign=campaign.name)
        assert Membership.objects.get(campaign=campaign, user=ben).role == "player"

    def test_the_owner_may_take_a_house_and_keeps_owning(self, realm, user):
        campaign, houses = realm
        done = invitation_accept(invitation=invitation_create(campaign=campaign, house=houses[2]), user=user)
        assert done.message == ALREADY_MEMBER_HOUSE.format(
            role="owner", campaign=campaign.name, house="Allwed"
        )
        assert done.membership.role == "owner"
        houses[2].refresh_from_db()
        assert houses[2].user == user

    def test_a_house_taken_meanwhile_is_refused(self, realm):
        campaign, houses = realm
        first = invitation_create(campaign=campaign, house=houses[0])
        second = invitation_create(campaign=campaign, house=houses[0])
        anna = UserFactory(username="anna")
        invitation_accept(invitation=first, user=anna)
        with refused(HOUSE_ALREADY_PLAYED.format(house="Smeethe", user=anna)):
            invitation_accept(invitation=second, user=UserFactory())

    def test_a_user_plays_at_most_one_house_per_campaign(self, realm):
        campaign, houses = realm
        anna = UserFactory(username="anna")
        invitation_accept(invitation=invitation_create(campaign=campaign, house=houses[0]), user=anna)
        second = invitation_create(campaign=campaign, house=houses[1])
        with refused(ONE_HOUSE_PER_PLAYER.format(house="Smeethe")):
            invitation_accept(invitation=second, user=anna)


class MembershipRoleChangeTests:
    def test_the_owner_changes_a_role_and_the_history_says_so(self, realm, user):
        campaign, _ = realm
        ben = UserFactory(username="ben")
        invitation_accept(invitation=invitation_create(campaign=campaign), user=ben)
        membership = Membership.objects.get(campaign=campaign, user=ben)
        membership_role_change(membership=membership, role="owner", actor=user)
        assert Membership.objects.get(pk=membership.pk).role == "owner"
        event = last_event(campaign)
        assert event.kind == "member_role_changed" and event.actor == user
        assert event.summary == "ben is now an owner (was a player)"
        # Two owners: either may step down.
        mine = Membership.objects.get(campaign=campaign, user=user)
        membership_role_change(membership=mine, role="player", actor=user)
        assert Membership.objects.get(pk=mine.pk).role == "player"

    def test_the_last_owner_cannot_be_demoted(self, realm, user):
        campaign, _ = realm
        mine = Membership.objects.get(campaign=campaign, user=user)
        for role in ("player", "viewer"):
            with refused(LAST_OWNER_DEMOTE.format(user=user)):
                membership_role_change(membership=mine, role=role, actor=user)

    def test_an_unknown_role_is_refused(self, realm, user):
        campaign, _ = realm
        mine = Membership.objects.get(campaign=campaign, user=user)
        with refused(UNKNOWN_ROLE.format(role="king")):
            membership_role_change(membership=mine, role="king")

    def test_the_same_role_writes_nothing(self, realm, user):
        campaign, _ = realm
        before = written()
        membership_role_change(membership=Membership.objects.get(campaign=campaign, user=user), role="owner")
        assert written() == before

    def test_a_player_made_viewer_no_longer_plays_the_house(self, realm, user):
        campaign, houses = realm
        anna = UserFactory(username="anna")
        invitation_accept(invitation=invitation_create(campaign=campaign, house=houses[0]), user=anna)
        membership = Membership.objects.get(campaign=campaign, user=anna)
        membership_role_change(membership=membership, role="viewer", actor=user)
        houses[0].refresh_from_db()
        assert houses[0].user is None and houses[0].player_name == "anna"
        assert "no longer plays House Smeethe" in last_event(campaign).summary


class MembershipRemoveTests:
    def test_a_removed_member_leaves_and_their_house_is_free(self, realm, user):
        campaign, houses = realm
        anna = UserFactory(username="anna")
        invitation_accept(invitation=invitation_create(campaign=campaign, house=houses[0]), user=anna)
        membership_remove(membership=Membership.objects.get(campaign=campaign, user=anna), actor=user)
        assert not Membership.objects.filter(campaign=campaign, user=anna).exists()
        houses[0].refresh_from_db()
        assert houses[0].user is None
        event = last_event(campaign)
        assert event.kind == "member_removed" and event.actor == user and "anna" in event.summary
        assert [m["user"] for m in selectors.campaign_members(campaign=campaign)] == [user]

    def test_a_member_removed_mid_night_loses_their_seat_and_its_code(self, realm, user):
        """Removed during a night: the seat they opened from their campaign page is no longer
        theirs, and its old code stops opening it (the phone is told, the table shows a new one)."""
        campaign, houses = realm
        anna = UserFactory(username="anna")
        invitation_accept(invitation=invitation_create(campaign=campaign, house=houses[0]), user=anna)
        night = game_night_start(campaign=campaign, houses=houses[:3], king_name="Mid I", host=user, seed=2)
        seat = night.seats.get(user=anna)
        old_token, version = seat.token, night.version
        membership_remove(membership=Membership.objects.get(campaign=campaign, user=anna), actor=user)
        seat.refresh_from_db()
        night.refresh_from_db()
        assert seat.user is None and seat.token != old_token and seat.joined_at is None
        assert night.version == version + 1  # the phone holding the old code finds out
        other = night.seats.exclude(pk=seat.pk).values_list("token", flat=True)
        assert old_token not in other

    def test_the_last_owner_cannot_be_removed(self, realm, user):
        campaign, _ = realm
        with refused(LAST_OWNER_REMOVE.format(user=user)):
            membership_remove(membership=Membership.objects.get(campaign=campaign, user=user), actor=user)


class MemberSelectorsTests:
    def test_members_come_owners_first_with_their_house(self, realm, user):
        campaign, houses = realm
        zed, amy = UserFactory(username="zed"), UserFactory(username="amy")
        invitation_accept(invitation=invitation_create(campaign=campaign, role="viewer"), user=amy)
        invitation_accept(invitation=invitation_create(campaign=campaign, house=houses[1]), user=zed)
        members = selectors.campaign_members(campaign=campaign)
        assert [(m["user"], m["role"], m["house"]) for m in members] == [
            (user, "owner", None),
            (zed, "player", houses[1]),
            (amy, "viewer", None),
        ]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
class InvitationRaceTests:
    """Against PostgreSQL (row locks): accepts in one campaign are serialised."""

    def test_two_people_taking_one_house_at_once_one_wins(self):
        campaign, houses = campaign_with_houses("Smeethe", "Tork")
        invitation = invitation_create(campaign=campaign, house=houses[0])
        people = [UserFactory(username="anna"), UserFactory(username="ben")]
        turn = iter(people)
        lock = threading.Lock()

        def accept():
            with lock:
                user = next(turn)
            try:
                return invitation_accept(invitation=invitation, user=user).message
            except ValidationError as error:
                return error.messages[0]

        answers = race(accept)
        assert sorted(answers, key=len) == sorted(
            [
                JOINED_HOUSE.format(campaign=campaign.name, role="player", house="Smeethe"),
                INVITATION_USED.format(house="Smeethe"),
            ],
            key=len,
        )
        houses[0].refresh_from_db()
        invitation.refresh_from_db()
        assert houses[0].user in people and invitation.uses == 1
        assert campaign.memberships.filter(user__in=people).count() == 1

    def test_one_person_taking_two_houses_at_once_gets_one(self):
        campaign, houses = campaign_with_houses("Smeethe", "Tork")
        invitations = iter([invitation_create(campaign=campaign, house=h) for h in houses])
        anna = UserFactory(username="anna")
        lock = threading.Lock()

        def accept():
            with lock:
                invitation = next(invitations)
            try:
                return invitation_accept(invitation=invitation, user=anna).message
            except ValidationError as error:
                return error.messages[0]

        answers = race(accept)
        assert sum(answer.startswith("You already play House") for answer in answers) == 1
        assert House.objects.filter(campaign=campaign, user=anna).count() == 1
