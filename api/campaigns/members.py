"""Members and invitations for mobile clients: every member lists the
members; the owner invites (the answer carries the link and its token), lists and revokes the
invitations, changes roles and removes members; anyone logged in reads an invitation and accepts it.
One view per operation: validate, call one service or selector, serialize."""

from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.decorators import method_decorator
from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from api.base import CampaignApi, ChronicleApi
from api.campaigns.serializers import CampaignHouseField, HouseRefSerializer
from api.errors import MEMBER_READ, MEMBER_WRITE, errors
from api.fields import NameField, StrictIntegerField
from campaign import selectors
from campaign.access import Need, campaign_role
from campaign.models import (
    DISPLAY_NAME_MAX,
    INVITATION_DAYS_DEFAULT,
    INVITATION_DAYS_MAX,
    Campaign,
    Invitation,
    Membership,
)
from campaign.services.members import (
    INVITATION_DAYS,
    INVITATION_ROLE,
    INVITATION_UNKNOWN,
    NAME_OWN_OR_OWNER,
    invitation_accept,
    invitation_create,
    invitation_problem,
    invitation_revoke,
    membership_house_set,
    membership_name_set,
    membership_remove,
    membership_role_change,
)
from config.network import phone_base_url
from config.ratelimits import posts_rate_limited

TAGS = ["members"]


invite_rate_limited = method_decorator(posts_rate_limited("invite"))


def invitation_link(request: Request, invitation: Invitation) -> str:
    """The invitation page's address as phones on the same network reach it (the web page the
    link opens signs up or logs in, then joins)."""
    return phone_base_url(request._request) + reverse("invitation", args=[invitation.token])


def invitation_state(invitation: Invitation) -> str:
    if invitation.revoked_at is not None:
        return "revoked"
    problem = invitation_problem(invitation=invitation)
    if problem is None:
        return "open"
    return "used" if invitation.house_id is not None and invitation.uses >= 1 else "expired"


class CampaignRefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class MemberSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="membership.pk", help_text="The member's id in this campaign.")
    username = serializers.CharField(source="user.username")
    name = serializers.CharField(
        help_text="What the group calls them: their display name, else their username."
    )
    display_name = serializers.CharField(
        source="membership.display_name", help_text="The name set for them in this campaign (empty: none)."
    )
    role = serializers.ChoiceField(choices=Membership.Role.choices)
    house = HouseRefSerializer(allow_null=True, help_text="The House they play (null: none).")


class InvitationSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    role = serializers.ChoiceField(choices=Invitation.Role.choices)
    house = HouseRefSerializer(allow_null=True, help_text="The House it gives its player (then used once).")
    token = serializers.CharField(help_text="For /api/invitations/<token>/accept/.")
    link = serializers.SerializerMethodField(
        help_text="The page to open on a phone (sign up or log in, then join)."
    )
    created_at = serializers.DateTimeField()
    expires_at = serializers.DateTimeField()
    revoked_at = serializers.DateTimeField(allow_null=True)
    uses = serializers.IntegerField(help_text="People who joined by it.")

    def get_link(self, invitation: Invitation) -> str:
        return invitation_link(self.context["request"], invitation)


def member_of(campaign: Campaign, membership: Membership) -> dict:
    return next(
        m for m in selectors.campaign_members(campaign=campaign) if m["membership"].pk == membership.pk
    )


class MemberListApi(CampaignApi):
    @extend_schema(
        tags=TAGS,
        summary="The members: owners, then players, then viewers, with the House each plays",
        responses={200: MemberSerializer(many=True), **MEMBER_READ},
    )
    def get(self, request: Request, campaign_id: int) -> Response:
        """The members of the campaign, owners first, each with their role and the House they play. Any
        member may read it; a stranger gets 404."""
        return Response(MemberSerializer(selectors.campaign_members(campaign=self.campaign), many=True).data)


class InvitationListApi(CampaignApi):
    need = Need.OWN

    class InputSerializer(serializers.Serializer):
        role = serializers.ChoiceField(
            choices=Invitation.Role.choices,
            default=Invitation.Role.PLAYER,
            error_messages={"invalid_choice": INVITATION_ROLE},
        )
        house = CampaignHouseField(
            required=False,
            allow_null=True,
            default=None,
            help_text="Id of a House without a player: whoever accepts plays it (the invitation then serves once).",
        )
        days = StrictIntegerField(
            min_value=1,
            max_value=INVITATION_DAYS_MAX,
            default=INVITATION_DAYS_DEFAULT,
            error_messages={"min_value": INVITATION_DAYS, "max_value": INVITATION_DAYS},
            help_text="How many days the link works.",
        )

    @extend_schema(
        tags=TAGS,
        summary="The invitations that can still be accepted (owner only)",
        operation_id="invitation_list",
        responses={200: InvitationSerializer(many=True), **MEMBER_READ},
    )
    def get(self, request: Request, campaign_id: int) -> Response:
        """The invitations that can still be accepted, each with its link and token. The campaign's owner
        only: another member gets 403 (code permission_denied), a stranger 404."""
        pending = selectors.invitations_pending(campaign=self.campaign)
        return Response(InvitationSerializer(pending, many=True, context={"request": request}).data)

    @extend_schema(
        tags=TAGS,
        summary="Invite someone by a link, as a player (optionally of a House) or a viewer (owner only)",
        operation_id="invitation_create",
        request=InputSerializer,
        responses={201: InvitationSerializer, **MEMBER_WRITE, **errors(429)},
    )
    @invite_rate_limited
    def post(self, request: Request, campaign_id: int) -> Response:
        """Creates an invitation link, for a player (optionally of a House) or a viewer, valid for some
        days; answers 201 with its link to share. The campaign's owner only: another member gets 403
        (code permission_denied), a stranger 404."""
        data = self.input(request)
        invitation = invitation_create(campaign=self.campaign, actor=request.user, **data)
        body = InvitationSerializer(invitation, context={"request": request}).data
        return Response(body, status=status.HTTP_201_CREATED)


class InvitationRevokeApi(CampaignApi):
    need = Need.OWN

    @extend_schema(
        tags=TAGS,
        summary="Revoke an invitation: its link stops working (owner only)",
        request=None,
        responses={200: InvitationSerializer, **MEMBER_WRITE},
    )
    def post(self, request: Request, campaign_id: int, invitation_id: int) -> Response:
        """Revokes an invitation: its link stops working; answers the invitation. The campaign's owner
        only: another member gets 403 (code permission_denied), a stranger 404."""
        invitation = get_object_or_404(self.campaign.invitations, pk=invitation_id)
        invitation = invitation_revoke(invitation=invitation, actor=request.user)
        return Response(InvitationSerializer(invitation, context={"request": request}).data)


class MemberRoleApi(CampaignApi):
    need = Need.OWN

    class InputSerializer(serializers.Serializer):
        role = serializers.ChoiceField(choices=Membership.Role.choices)

    @extend_schema(
        tags=TAGS,
        summary="Change a member's role; the campaign keeps an owner (owner only)",
        request=InputSerializer,
        responses={200: MemberSerializer, **MEMBER_WRITE},
    )
    def post(self, request: Request, campaign_id: int, member_id: int) -> Response:
        """Changes a member's role (owner, player or viewer); answers the member. Demoting the last owner
        is a 400 with code invalid. The campaign's owner only: another member gets 403 (code
        permission_denied), a stranger 404."""
        membership = get_object_or_404(self.campaign.memberships, pk=member_id)
        data = self.input(request)
        membership = membership_role_change(membership=membership, role=data["role"], actor=request.user)
        return Response(MemberSerializer(member_of(self.campaign, membership)).data)


class MemberHouseApi(CampaignApi):
    need = Need.OWN

    class InputSerializer(serializers.Serializer):
        house = CampaignHouseField(
            allow_null=True, help_text="Id of the House they play from now on (null: none)."
        )

    @extend_schema(
        tags=TAGS,
        summary="Set the House a member plays, the owner's own included (owner only)",
        request=InputSerializer,
        responses={200: MemberSerializer, **MEMBER_WRITE},
    )
    def post(self, request: Request, campaign_id: int, member_id: int) -> Response:
        """Sets or changes the House a member plays (null: none); the House they played before is
        freed. A House another member plays, or a viewer, is a 400 with code invalid. The campaign's
        owner only: another member gets 403 (code permission_denied), a stranger 404."""
        membership = get_object_or_404(self.campaign.memberships, pk=member_id)
        data = self.input(request)
        membership = membership_house_set(membership=membership, house=data["house"], actor=request.user)
        return Response(MemberSerializer(member_of(self.campaign, membership)).data)


class MemberNameApi(CampaignApi):
    need = Need.READ

    class InputSerializer(serializers.Serializer):
        display_name = NameField(
            max_length=DISPLAY_NAME_MAX,
            allow_blank=True,
            help_text="The name the group knows them by here (empty: their username).",
        )

    @extend_schema(
        tags=TAGS,
        summary="Set a member's display name (the owner, or the member themself)",
        request=InputSerializer,
        responses={200: MemberSerializer, **MEMBER_WRITE},
    )
    def post(self, request: Request, campaign_id: int, member_id: int) -> Response:
        """Sets the name a member is shown by in this campaign (accents kept; empty: their username).
        The campaign's owner, or the member themself: another member gets 403 (code
        permission_denied), a stranger 404."""
        membership = get_object_or_404(self.campaign.memberships, pk=member_id)
        owner = campaign_role(campaign=self.campaign, user=request.user) == Membership.Role.OWNER
        if not owner and membership.user_id != request.user.pk:
            raise exceptions.PermissionDenied(NAME_OWN_OR_OWNER)
        data = self.input(request)
        membership = membership_name_set(
            membership=membership, display_name=data["display_name"], actor=request.user
        )
        return Response(MemberSerializer(member_of(self.campaign, membership)).data)


class MemberRemoveApi(CampaignApi):
    need = Need.OWN

    @extend_schema(
        tags=TAGS,
        summary="Remove a member: the campaign answers them 404 from now on (owner only)",
        request=None,
        responses={204: None, **MEMBER_WRITE},
    )
    def post(self, request: Request, campaign_id: int, member_id: int) -> Response:
        """Removes a member from the campaign: it answers them 404 from now on. Answers 204. Removing the
        last owner is a 400 with code invalid. The campaign's owner only: another member gets 403
        (code permission_denied), a stranger 404."""
        membership = get_object_or_404(self.campaign.memberships, pk=member_id)
        membership_remove(membership=membership, actor=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


def invitation_of(token: str) -> Invitation:
    invitation = selectors.invitation_for_token(token=token)
    if invitation is None:
        raise exceptions.NotFound(INVITATION_UNKNOWN)
    return invitation


class InvitationDetailApi(ChronicleApi):
    class OutputSerializer(serializers.Serializer):
        campaign = CampaignRefSerializer()
        role = serializers.ChoiceField(choices=Invitation.Role.choices)
        house = HouseRefSerializer(allow_null=True)
        expires_at = serializers.DateTimeField()
        state = serializers.ChoiceField(
            choices=["open", "expired", "revoked", "used"],
            help_text="Only an open invitation can be accepted.",
        )
        problem = serializers.CharField(
            allow_null=True, help_text="Why it cannot be accepted (null: it can)."
        )
        your_role = serializers.ChoiceField(
            choices=Membership.Role.choices,
            allow_null=True,
            help_text="Your role in the campaign now (null: not a member).",
        )

    @extend_schema(
        tags=TAGS,
        summary="What an invitation invites to (anyone logged in who holds its token)",
        responses={200: OutputSerializer, **errors(401, 404)},
    )
    def get(self, request: Request, token: str) -> Response:
        """What an invitation invites to (campaign, role, House, expiry) and whether it can still be
        accepted (state, problem); anyone logged in who holds its token may ask. An unknown token is
        404."""
        invitation = invitation_of(token)
        body = {
            "campaign": invitation.campaign,
            "role": invitation.role,
            "house": invitation.house,
            "expires_at": invitation.expires_at,
            "state": invitation_state(invitation),
            "problem": invitation_problem(invitation=invitation),
            "your_role": campaign_role(campaign=invitation.campaign, user=request.user),
        }
        return Response(self.OutputSerializer(body).data)


class InvitationAcceptApi(ChronicleApi):
    class OutputSerializer(serializers.Serializer):
        campaign = CampaignRefSerializer()
        role = serializers.ChoiceField(choices=Membership.Role.choices, help_text="Your role now.")
        house = HouseRefSerializer(allow_null=True, help_text="The House you play now (null: none).")
        message = serializers.CharField(help_text="What happened, in a sentence.")

    @extend_schema(
        tags=TAGS,
        summary="Accept an invitation: join the campaign (a member keeps a higher role)",
        request=None,
        responses={200: OutputSerializer, **errors(400, 401, 404, 429)},
    )
    @invite_rate_limited
    def post(self, request: Request, token: str) -> Response:
        """Accepts an invitation: you join the campaign with its role (a member keeps a higher role). An
        expired, revoked or used invitation, or the demo account, is a 400 with the reason; an unknown
        token is 404."""
        invitation = invitation_of(token)
        acceptance = invitation_accept(invitation=invitation, user=request.user)
        campaign = invitation.campaign
        member = member_of(campaign, acceptance.membership)
        body = {
            "campaign": campaign,
            "role": member["role"],
            "house": member["house"],
            "message": acceptance.message,
        }
        return Response(self.OutputSerializer(body).data)
