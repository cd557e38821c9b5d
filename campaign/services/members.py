"""Members of a campaign: invitations (create, revoke, accept), a member's role, removing a member
(the only writers of Invitation and, after the campaign's creation, of Membership). Each change is a
campaign event. Who may call them is checked by the pages and the API (the owner, campaign/access.py);
these check what the campaign itself demands (docs/rules-decisions.md, "Invitations")."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import formats, timezone
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy

from campaign.access import DEMO_USER
from campaign.models import (
    DISPLAY_NAME_MAX,
    INVITATION_DAYS_DEFAULT,
    INVITATION_DAYS_MAX,
    Campaign,
    House,
    Invitation,
    Membership,
)
from campaign.services.common import NAME_CONTROL_CHARACTERS, Actor, check_house, record_event
from games.engines.kernel.messages import Message, gettext_noop, ngettext_lazy, pgettext_lazy
from games.engines.kernel.text import has_control_characters
from games.models import GameSession, Seat
from games.services.seats import seat_rotate_token
from games.translation import say_to_reader

Role = Membership.Role
ROLE_RANK = {Role.OWNER: 3, Role.PLAYER: 2, Role.VIEWER: 1}

INVITATION_ROLE = gettext_lazy(
    "An invitation makes a player or a viewer (an owner is made from the member list)."
)
INVITATION_DAYS = format_lazy(
    gettext_lazy("An invitation is valid for 1 to {days} days."), days=INVITATION_DAYS_MAX
)
INVITATION_HOUSE_PLAYER = gettext_lazy("An invitation for a House makes its player: choose the player role.")
HOUSE_ALREADY_PLAYED = gettext_lazy("House {house} is already played by {user}.")
INVITATION_EXPIRED = gettext_lazy(
    "This invitation expired on {date}: ask the campaign's owner for a new one."
)
INVITATION_REVOKED = gettext_lazy("This invitation was revoked: ask the campaign's owner for a new one.")
INVITATION_USED = gettext_lazy(
    "This invitation for House {house} was already used: ask the campaign's owner for a new one."
)
INVITATION_UNKNOWN = gettext_lazy(
    "This invitation does not exist: check the link, or ask the campaign's owner for a new one."
)
INVITATION_ALREADY_REVOKED = gettext_lazy("This invitation is already revoked.")
INVITATION_NEEDS_ACCOUNT = gettext_lazy("Log in or sign up to accept an invitation.")
DEMO_CANNOT_JOIN = gettext_lazy(
    "The demo account cannot join a campaign: sign up for your own account, then open the link again."
)
ONE_HOUSE_PER_PLAYER = gettext_lazy(
    "You already play House {house} in this campaign: a player plays one House."
)
JOINED = gettext_lazy("You joined {campaign} as {role}.")
JOINED_HOUSE = gettext_lazy("You joined {campaign} as {role} and play House {house}.")
ROLE_RAISED = gettext_lazy("You were {was} of {campaign}: you are now {role}.")
ALREADY_MEMBER = gettext_lazy("You are already the {role} of {campaign}: you keep that role.")
ALREADY_MEMBER_HOUSE = gettext_lazy(
    "You are already the {role} of {campaign}: you keep that role, and now play House {house}."
)
REMOVED_SINCE_INVITATION = gettext_lazy(
    "You were removed from {campaign} after this invitation was made: it does not bring you back. "
    "Ask the campaign's owner for a new one."
)
ROLE_SET_SINCE_INVITATION = gettext_lazy(
    "The campaign's owner made you {role} of {campaign} after this invitation was made: you keep "
    "that role. Ask the owner for a new invitation."
)
UNKNOWN_ROLE = gettext_lazy("{role!r} is not a role: owner, player or viewer.")
LAST_OWNER_DEMOTE = gettext_lazy("{user} is the campaign's only owner: make another member an owner first.")
VIEWER_PLAYS_NO_HOUSE = gettext_lazy(
    "{user} is a viewer: make them a player (or an owner) before they play a House."
)
NAME_OWN_OR_OWNER = gettext_lazy("Only the campaign's owner, or the member themself, sets a member's name.")
DISPLAY_NAME_LENGTH = format_lazy(
    gettext_lazy("A member's name is at most {count} characters."), count=DISPLAY_NAME_MAX
)
LAST_OWNER_REMOVE = gettext_lazy(
    "{user} is the campaign's only owner and cannot be removed: make another member an owner first."
)


@dataclass(frozen=True)
class InvitationAcceptance:
    """What accepting did: the membership now, and the sentence to show the person."""

    membership: Membership
    message: str


# A role inside a sentence ("You joined X as player"), and with its article ("an owner"): each
# language has its own article and case for it. Messages, so the history keeps them as words.
ROLE_WORDS = {
    Role.OWNER: pgettext_lazy("role in a sentence", "owner"),
    Role.PLAYER: pgettext_lazy("role in a sentence", "player"),
    Role.VIEWER: pgettext_lazy("role in a sentence", "viewer"),
}
A_ROLE = {
    Role.OWNER: pgettext_lazy("role in a sentence", "an owner"),
    Role.PLAYER: pgettext_lazy("role in a sentence", "a player"),
    Role.VIEWER: pgettext_lazy("role in a sentence", "a viewer"),
}


def role_word(role: str) -> str:
    return say_to_reader(ROLE_WORDS[Role(role)])


def a_role(role: str) -> str:
    """ "an owner", "a player", "a viewer"."""
    return say_to_reader(A_ROLE[Role(role)])


# The history's sentences about members (kept as messages, said in each reader's language).
INVITATION_MADE = ngettext_lazy(
    "An invitation to join as {role}, valid {days} day",
    "An invitation to join as {role}, valid {days} days",
    "days",
)
INVITATION_MADE_FOR_HOUSE = ngettext_lazy(
    "An invitation to join as {role} for House {house}, valid {days} day",
    "An invitation to join as {role} for House {house}, valid {days} days",
    "days",
)
INVITATION_WAS_REVOKED = gettext_noop("An invitation to join as {role} was revoked")
JOINED_BY_INVITATION = gettext_noop("{user} joined as {role} by invitation")
JOINED_BY_INVITATION_HOUSE = gettext_noop("{user} joined as {role} by invitation and plays House {house}")
BECAME_BY_INVITATION = gettext_noop("{user} became {role} by invitation")
BECAME_BY_INVITATION_HOUSE = gettext_noop("{user} became {role} by invitation and plays House {house}")
PLAYS_BY_INVITATION = gettext_noop("{user} plays House {house} (by invitation)")
ROLE_NOW = gettext_noop("{user} is now {role} (was {was})")
ROLE_NOW_NO_HOUSE = gettext_noop("{user} is now {role} (was {was}); no longer plays House {houses}")
MEMBER_REMOVED = gettext_noop("{user} was removed from the campaign")
MEMBER_REMOVED_NO_HOUSE = gettext_noop("{user} was removed from the campaign; no longer plays House {houses}")
PLAYS_HOUSE = gettext_noop("{user} plays House {house}")
PLAYS_HOUSE_NO_LONGER = gettext_noop("{user} plays House {house} (no longer House {houses})")
PLAYS_NO_HOUSE = gettext_noop("{user} plays no House (no longer House {houses})")
MEMBER_RENAMED = gettext_noop("{was} is now called {name}")


def invitation_problem(*, invitation: Invitation, now: datetime.datetime | None = None) -> str | None:
    """Why this invitation cannot be accepted any more (None: it can)."""
    now = now or timezone.now()
    if invitation.revoked_at is not None:
        return str(INVITATION_REVOKED)
    if invitation.expires_at <= now:
        expired_on = formats.date_format(timezone.localtime(invitation.expires_at).date(), "DATE_FORMAT")
        return INVITATION_EXPIRED.format(date=expired_on)  # in the reader's way of writing a date
    if invitation.house_id is not None and invitation.uses >= 1:
        return INVITATION_USED.format(house=invitation.house.name if invitation.house else "")
    return None


def _owner_count(campaign: Campaign) -> int:
    return campaign.memberships.filter(role=Role.OWNER).count()


def _house_free_for(house: House, user: User) -> None:
    """The House has no other player, and the user plays no other House of the campaign."""
    if house.user_id is not None and house.user_id != user.pk:
        raise ValidationError(HOUSE_ALREADY_PLAYED.format(house=house.name, user=house.user))
    other = House.objects.filter(campaign_id=house.campaign_id, user=user).exclude(pk=house.pk).first()
    if other is not None:
        raise ValidationError(ONE_HOUSE_PER_PLAYER.format(house=other.name))


def _house_link(house: House, membership: Membership, *, typed_name_kept: bool) -> None:
    """The member plays the House; the House's player's name is theirs. By an invitation for the
    House (``typed_name_kept``), a member without a display name takes the player's name the owner
    typed for it: the group keeps the name it knows."""
    user = membership.user
    typed = house.player_name
    if typed_name_kept and typed and not membership.display_name and typed != user.get_username():
        membership.display_name = typed
        membership.save(update_fields=["display_name"])
    house.user = user
    house.player_name = membership.name[:DISPLAY_NAME_MAX]
    house.full_clean()
    house.save(update_fields=["user", "player_name"])


def _houses_unlink(campaign: Campaign, user: User) -> list[str]:
    """The user no longer plays their House of the campaign (its player's name stays written), nor
    its seat at a night still running: the seat gets a new code (the phone that opened it is told,
    and the table shows the code for whoever plays the House now)."""
    houses = list(campaign.houses.select_for_update().filter(user=user))
    for house in houses:
        house.user = None
        house.save(update_fields=["user"])
    running = (GameSession.Status.LOBBY, GameSession.Status.ACTIVE)
    for seat in Seat.objects.filter(session__campaign=campaign, session__status__in=running, user=user):
        seat_rotate_token(seat=seat)
    return [house.name for house in houses]


@transaction.atomic
def invitation_create(
    *,
    campaign: Campaign,
    role: str = Invitation.Role.PLAYER,
    house: House | None = None,
    days: int = INVITATION_DAYS_DEFAULT,
    actor: Actor = None,
) -> Invitation:
    """A new invitation link, valid ``days`` days (1 to 30)."""
    if role not in Invitation.Role.values:
        raise ValidationError(INVITATION_ROLE)
    if isinstance(days, bool) or not isinstance(days, int) or not 1 <= days <= INVITATION_DAYS_MAX:
        raise ValidationError(INVITATION_DAYS)
    check_house(campaign, house)
    if house is not None:
        house = House.objects.select_for_update(of=("self",)).select_related("user").get(pk=house.pk)
    if house is not None and role != Invitation.Role.PLAYER:
        raise ValidationError(INVITATION_HOUSE_PLAYER)
    if house is not None and house.user_id is not None:
        raise ValidationError(HOUSE_ALREADY_PLAYED.format(house=house.name, user=house.user))
    invitation = Invitation(
        campaign=campaign,
        role=role,
        house=house,
        created_by=actor if isinstance(actor, User) else None,
        expires_at=timezone.now() + datetime.timedelta(days=days),
    )
    invitation.full_clean()
    invitation.save()
    words = {"role": ROLE_WORDS[Role(role)], "days": days}
    if house is not None:
        summary = INVITATION_MADE_FOR_HOUSE.format(house=house.name, **words)
    else:
        summary = INVITATION_MADE.format(**words)
    record_event(
        campaign, "invitation_created", summary, actor=actor, house=house, invitation=invitation.pk, role=role
    )
    return invitation


@transaction.atomic
def invitation_revoke(*, invitation: Invitation, actor: Actor = None) -> Invitation:
    """The link stops working at once."""
    invitation = (
        Invitation.objects.select_for_update(of=("self",)).select_related("campaign").get(pk=invitation.pk)
    )
    if invitation.revoked_at is not None:
        raise ValidationError(INVITATION_ALREADY_REVOKED)
    invitation.revoked_at = timezone.now()
    invitation.save(update_fields=["revoked_at"])
    summary = INVITATION_WAS_REVOKED.format(role=ROLE_WORDS[Role(invitation.role)])
    record_event(invitation.campaign, "invitation_revoked", summary, actor=actor, invitation=invitation.pk)
    return invitation


def _check_acceptor(user: Actor) -> User:
    if not isinstance(user, User) or not user.is_authenticated:
        raise ValidationError(INVITATION_NEEDS_ACCOUNT)
    if user.get_username() == DEMO_USER:
        raise ValidationError(DEMO_CANNOT_JOIN)
    return user


@transaction.atomic
def invitation_accept(*, invitation: Invitation, user: Actor) -> InvitationAcceptance:
    """The user joins the campaign with the invitation's role, or keeps a higher role they have;
    an invitation for a House makes them its player (and is then used up)."""
    user = _check_acceptor(user)
    # The campaign's row first: accepts in one campaign are serialised (one House per player).
    campaign = Campaign.objects.select_for_update().get(pk=invitation.campaign_id)
    invitation = (
        Invitation.objects.select_for_update(of=("self",)).select_related("house").get(pk=invitation.pk)
    )
    problem = invitation_problem(invitation=invitation)
    if problem is not None:
        raise ValidationError(problem)
    house = invitation.house
    if house is not None:
        _house_free_for(house, user)
    membership = Membership.objects.filter(campaign=campaign, user=user).first()
    was = membership.role if membership is not None else None
    if membership is None:
        membership = Membership(campaign=campaign, user=user, role=invitation.role)
    elif ROLE_RANK[Role(invitation.role)] > ROLE_RANK[Role(membership.role)]:
        membership.role = invitation.role
    elif house is None or house.user_id == user.pk:
        # Nothing changes: a member opening a link meant for someone with their role or less.
        return InvitationAcceptance(
            membership, ALREADY_MEMBER.format(role=role_word(membership.role), campaign=campaign.name)
        )
    _owner_decided_since(campaign, invitation, user, was=was)
    membership.full_clean()
    membership.save()
    if house is not None:
        _house_link(house, membership, typed_name_kept=True)
    invitation.uses += 1
    invitation.save(update_fields=["uses"])
    message = _acceptance_event(campaign, invitation, user, was=was, role=membership.role)
    return InvitationAcceptance(membership, message)


def _owner_decided_since(campaign: Campaign, invitation: Invitation, user: User, *, was: str | None) -> None:
    """An invitation never undoes what the owner decided about this person after it was made: a
    member removed, or whose role the owner changed, since then is refused (the link may still serve
    others until it expires). Read from the history: the removal and the owner's role changes."""
    since = campaign.events.filter(created_at__gte=invitation.created_at, data__user=user.get_username())
    decided = since.filter(kind="member_removed").exists() or (
        since.filter(kind="member_role_changed", data__has_key="was").exists()
    )
    if not decided:
        return
    if was is None:
        raise ValidationError(REMOVED_SINCE_INVITATION.format(campaign=campaign.name))
    raise ValidationError(ROLE_SET_SINCE_INVITATION.format(role=a_role(was), campaign=campaign.name))


def _acceptance_event(
    campaign: Campaign, invitation: Invitation, user: User, *, was: str | None, role: str
) -> str:
    """Record the acceptance in the history; answer the sentence for the person who accepted."""
    house = invitation.house
    words = {"campaign": campaign.name, "role": role_word(role), "house": house.name if house else ""}
    said = {"user": str(user), "house": words["house"]}
    summary: Message
    if was is None:
        joined = JOINED_BY_INVITATION_HOUSE if house is not None else JOINED_BY_INVITATION
        kind, summary = "member_joined", joined.format(role=ROLE_WORDS[Role(role)], **said)
        message = (JOINED_HOUSE if house is not None else JOINED).format(**words)
    elif was != role:
        became = BECAME_BY_INVITATION_HOUSE if house is not None else BECAME_BY_INVITATION
        kind, summary = "member_role_changed", became.format(role=A_ROLE[Role(role)], **said)
        message = ROLE_RAISED.format(**{**words, "was": a_role(was), "role": a_role(role)})
    else:
        kind, summary = "house_player_linked", PLAYS_BY_INVITATION.format(**said)
        message = ALREADY_MEMBER_HOUSE.format(**words)
    record_event(
        campaign,
        kind,
        summary,
        actor=user,
        house=house,
        invitation=invitation.pk,
        user=user.get_username(),
        role=role,
    )
    return message


@transaction.atomic
def membership_role_change(*, membership: Membership, role: str, actor: Actor = None) -> Membership:
    """Make a member owner, player or viewer. The campaign keeps at least one owner; a member made a
    viewer no longer plays their House (a viewer reads, and cannot act for a House)."""
    if role not in Role.values:
        raise ValidationError(UNKNOWN_ROLE.format(role=role))
    campaign = Campaign.objects.select_for_update().get(pk=membership.campaign_id)
    membership = Membership.objects.select_related("user").get(pk=membership.pk)
    if membership.role == role:
        return membership
    if membership.role == Role.OWNER and _owner_count(campaign) <= 1:
        raise ValidationError(LAST_OWNER_DEMOTE.format(user=membership.user))
    was = membership.role
    membership.role = role
    membership.full_clean()
    membership.save(update_fields=["role"])
    unlinked = _houses_unlink(campaign, membership.user) if role == Role.VIEWER else []
    summary = (ROLE_NOW_NO_HOUSE if unlinked else ROLE_NOW).format(
        user=str(membership.user), role=A_ROLE[Role(role)], was=A_ROLE[Role(was)], houses=", ".join(unlinked)
    )
    record_event(
        campaign,
        "member_role_changed",
        summary,
        actor=actor,
        user=membership.user.get_username(),
        role=role,
        was=was,
    )
    return membership


@transaction.atomic
def membership_remove(*, membership: Membership, actor: Actor = None) -> None:
    """The member leaves the campaign (its pages answer them 404 from now on) and no longer plays
    their House; the campaign keeps at least one owner."""
    campaign = Campaign.objects.select_for_update().get(pk=membership.campaign_id)
    membership = Membership.objects.select_related("user").get(pk=membership.pk)
    if membership.role == Role.OWNER and _owner_count(campaign) <= 1:
        raise ValidationError(LAST_OWNER_REMOVE.format(user=membership.user))
    unlinked = _houses_unlink(campaign, membership.user)
    user = membership.user
    membership.delete()
    summary = (MEMBER_REMOVED_NO_HOUSE if unlinked else MEMBER_REMOVED).format(
        user=str(user), houses=", ".join(unlinked)
    )
    record_event(
        campaign, "member_removed", summary, actor=actor, user=user.get_username(), was=membership.role
    )


@transaction.atomic
def membership_house_set(*, membership: Membership, house: House | None, actor: Actor = None) -> Membership:
    """The owner decides which House a member plays (None: none), the owner herself included: one
    member per House, one House per member, and a viewer plays none. The House they played before
    is freed, and its seat at a night still running gets a new code."""
    campaign = Campaign.objects.select_for_update().get(pk=membership.campaign_id)
    membership = Membership.objects.select_related("user").get(pk=membership.pk)
    check_house(campaign, house)
    user = membership.user
    if house is not None:
        house = House.objects.select_for_update(of=("self",)).select_related("user").get(pk=house.pk)
        if house.user_id == user.pk:
            return membership
        if membership.role == Role.VIEWER:
            raise ValidationError(VIEWER_PLAYS_NO_HOUSE.format(user=membership.name))
        if house.user_id is not None:
            raise ValidationError(HOUSE_ALREADY_PLAYED.format(house=house.name, user=house.user))
    unlinked = _houses_unlink(campaign, user)
    if house is not None:
        _house_link(house, membership, typed_name_kept=False)
    if house is None and not unlinked:
        return membership
    said = {"user": membership.name, "houses": ", ".join(unlinked)}
    if house is None:
        summary = PLAYS_NO_HOUSE.format(**said)
    else:
        summary = (PLAYS_HOUSE_NO_LONGER if unlinked else PLAYS_HOUSE).format(house=house.name, **said)
    record_event(
        campaign,
        "house_player_linked" if house is not None else "house_player_unlinked",
        summary,
        actor=actor,
        house=house,
        user=user.get_username(),
    )
    return membership


@transaction.atomic
def membership_name_set(*, membership: Membership, display_name: str, actor: Actor = None) -> Membership:
    """The name the group knows a member by in this campaign (empty: their username), set by the
    owner or the member; the House they play shows it as its player's name."""
    name = display_name.strip()
    if len(name) > DISPLAY_NAME_MAX:
        raise ValidationError(DISPLAY_NAME_LENGTH)
    if has_control_characters(name):
        raise ValidationError(NAME_CONTROL_CHARACTERS)
    membership = (
        Membership.objects.select_for_update(of=("self",))
        .select_related("user", "campaign")
        .get(pk=membership.pk)
    )
    if membership.display_name == name:
        return membership
    was = membership.name
    membership.display_name = name
    membership.full_clean()
    membership.save(update_fields=["display_name"])
    membership.campaign.houses.filter(user=membership.user).update(
        player_name=membership.name[:DISPLAY_NAME_MAX]
    )
    summary = MEMBER_RENAMED.format(was=was, name=membership.name)
    record_event(
        membership.campaign,
        "member_renamed",
        summary,
        actor=actor,
        user=membership.user.get_username(),
        display_name=name,
    )
    return membership
