"""Who may do what in a campaign (issue 24). A campaign is seen only by its members: anyone else
gets the 404 of a campaign that does not exist, so a stranger cannot even learn that it exists.
Members have a role (Membership.Role): the owner may do everything, members included; a player
plays a House, changes the campaign at the table and may host a night; a viewer reads."""

from __future__ import annotations

from enum import Enum

from django.core.exceptions import PermissionDenied
from django.http import Http404

from campaign.models import Campaign, Membership

Role = Membership.Role

VIEWER_READS_ONLY = "You follow this campaign as a viewer: ask its owner to make you a player to change it."
OWNER_ONLY = "Only the campaign's owner can do this."
NOT_FOUND = "No such campaign."


class Need(Enum):
    """What an operation needs, from least to most: reading, playing, owning."""

    READ = (Role.OWNER, Role.PLAYER, Role.VIEWER)
    PLAY = (Role.OWNER, Role.PLAYER)
    OWN = (Role.OWNER,)

    @property
    def refusal(self) -> str:
        return OWNER_ONLY if self is Need.OWN else VIEWER_READS_ONLY


def campaign_role(*, campaign: Campaign, user) -> str | None:
    """The user's role in the campaign, or None for anyone who is not a member (the site's
    administrators too: they have the admin, not the group's pages)."""
    if user is None or not user.is_authenticated:
        return None
    return Membership.objects.filter(campaign=campaign, user=user).values_list("role", flat=True).first()


def role_allows(role: str | None, need: Need) -> bool:
    return role is not None and role in need.value


def campaign_for(*, user, campaign_id: int, need: Need = Need.READ) -> tuple[Campaign, str]:
    """The campaign and the user's role in it, when the role allows ``need``. Not a member: Http404
    (as for a campaign that does not exist); a member whose role is short: PermissionDenied with
    the reason."""
    campaign = Campaign.objects.filter(pk=campaign_id).first()
    role = campaign_role(campaign=campaign, user=user) if campaign is not None else None
    if campaign is None or role is None:
        raise Http404(NOT_FOUND)
    if not role_allows(role, need):
        raise PermissionDenied(need.refusal)
    return campaign, role
