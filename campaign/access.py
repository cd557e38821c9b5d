"""Who may do what in a campaign. A campaign is seen only by its members: anyone else
gets the 404 of a campaign that does not exist, so a stranger cannot even learn that it exists.
Members have a role (Membership.Role): the owner may do everything, members included; a player
plays a House, changes the campaign at the table and may host a night; a viewer reads."""

from __future__ import annotations

from enum import Enum

from django.core.exceptions import PermissionDenied
from django.db.models import Subquery
from django.http import Http404
from django.utils.translation import gettext_lazy

from campaign.models import Campaign, Membership
from config.accounts import DEMO_USER  # the shared demo login (campaign/demo.py)

Role = Membership.Role

VIEWER_READS_ONLY = gettext_lazy(
    "You follow this campaign as a viewer: ask its owner to make you a player to change it."
)
OWNER_ONLY = gettext_lazy("Only the campaign's owner can do this.")
NOT_FOUND = gettext_lazy("No such campaign.")
DEMO_ADDS_NO_CAMPAIGN = gettext_lazy(
    "The demo account only shows the demo campaign: log in with your own account (or sign up) "
    "to create or import your group's campaign."
)


class Need(Enum):
    """What an operation needs, from least to most: reading, playing, owning."""

    READ = (Role.OWNER, Role.PLAYER, Role.VIEWER)
    PLAY = (Role.OWNER, Role.PLAYER)
    OWN = (Role.OWNER,)

    @property
    def refusal(self) -> str:
        return str(OWNER_ONLY if self is Need.OWN else VIEWER_READS_ONLY)


def is_demo(user) -> bool:
    """The shared demo login (campaign/demo.py), which anyone at the machine may use."""
    return user is not None and user.is_authenticated and user.get_username() == DEMO_USER


def demo_adds_no_campaign(user) -> None:
    """The demo account is for the demo campaign only: it neither creates nor imports one."""
    if is_demo(user):
        raise PermissionDenied(DEMO_ADDS_NO_CAMPAIGN)


def campaign_role(*, campaign: Campaign, user) -> str | None:
    """The user's role in the campaign, or None for anyone who is not a member (the site's
    administrators too: they have the admin, not the group's pages). The demo account is a member
    of the demo campaign only (the one it made), whatever membership it was given elsewhere."""
    if user is None or not user.is_authenticated:
        return None
    if is_demo(user) and campaign.created_by_id != user.pk:
        return None
    return Membership.objects.filter(campaign=campaign, user=user).values_list("role", flat=True).first()


def campaign_role_by_id(*, campaign_id: int, user) -> str | None:
    """The user's role in the campaign of this id, as ``campaign_role``, in one query without
    reading the campaign (the demo account's membership is read with its campaign)."""
    if user is None or not user.is_authenticated:
        return None
    if is_demo(user):
        mine = Campaign.objects.filter(pk=campaign_id, created_by=user)
        return Membership.objects.filter(campaign__in=mine, user=user).values_list("role", flat=True).first()
    rows = Membership.objects.filter(campaign_id=campaign_id, user=user)
    return rows.values_list("role", flat=True).first()


def role_allows(role: str | None, need: Need) -> bool:
    return role is not None and role in need.value


class MemberRole(str):
    """A member's role as the pages read it (``request.campaign_role``): the role's value, and what
    it allows, e.g. ``{% if request.campaign_role.may_play %}`` around a form."""

    __slots__ = ()

    @property
    def may_play(self) -> bool:
        return role_allows(self, Need.PLAY)

    @property
    def may_own(self) -> bool:
        return role_allows(self, Need.OWN)


def campaign_for(*, user, campaign_id: int, need: Need = Need.READ) -> tuple[Campaign, MemberRole]:
    """The campaign and the user's role in it, when the role allows ``need``. Not a member: Http404
    (as for a campaign that does not exist); a member whose role is short: PermissionDenied with
    the reason."""
    campaign = Campaign.objects.filter(pk=campaign_id).first()
    role = campaign_role(campaign=campaign, user=user) if campaign is not None else None
    if campaign is None or role is None:
        raise Http404(NOT_FOUND)
    if not role_allows(role, need):
        raise PermissionDenied(need.refusal)
    return campaign, MemberRole(role)


# ---- What the table companion asks of a campaign (registered in campaign/apps.py) -------------


def night_kept_by(*, campaign_id: int, user, hosting: bool) -> bool:
    """Whether ``user`` keeps the table of a night of this campaign: its owner, and its host
    (``hosting``) while a player of the campaign: a host removed from it, or made a viewer, loses
    the table at once (games.access.session_kept_by asks at every request)."""
    role = campaign_role_by_id(campaign_id=campaign_id, user=user)
    return role == Role.OWNER or (hosting and role_allows(role, Need.PLAY))


def member_name(*, campaign_id, user_id) -> Subquery:
    """The display name a user has in a campaign (ids or outer references), None for none."""
    named = Membership.objects.filter(campaign_id=campaign_id, user_id=user_id)
    return Subquery(named.values("display_name")[:1])
