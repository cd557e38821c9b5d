"""The member list and invitations: every member sees who plays; the owner invites by a
link (and its QR code), changes roles and removes members; whoever opens an invitation signs up or
logs in, then joins. Views validate, call one service and render; a refusal shows its sentence."""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from campaign import forms, selectors
from campaign.access import Need, campaign_role
from campaign.models import Campaign, Invitation, Membership
from campaign.services.members import (
    INVITATION_UNKNOWN,
    NAME_OWN_OR_OWNER,
    UNKNOWN_ROLE,
    a_role,
    invitation_accept,
    invitation_create,
    invitation_problem,
    invitation_revoke,
    membership_house_set,
    membership_name_set,
    membership_remove,
    membership_role_change,
    role_word,
)
from campaign.views.form_pages import member_campaign
from config.http import HttpRequest
from config.network import phone_base_url
from config.qr import qr_svg
from config.ratelimits import posts_rate_limited

invite_rate_limited = posts_rate_limited("invite")

INVITATION_MADE = gettext_lazy("Invitation made: send its link, or let them scan its QR code.")
INVITATION_REVOKED_DONE = gettext_lazy("Invitation revoked: its link no longer works.")
ROLE_CHANGED = gettext_lazy("%(user)s is now %(role)s.")
MEMBER_REMOVED = gettext_lazy("%(user)s was removed from the campaign.")
YOU_LEFT = gettext_lazy("You left %(campaign)s.")
HOUSE_SET = gettext_lazy("%(user)s plays House %(house)s.")
HOUSE_CLEARED = gettext_lazy("%(user)s plays no House.")
NAME_SET = gettext_lazy("%(user)s is now called %(name)s.")

INVITATION_QR_LABEL = gettext_lazy("QR code of the invitation link")


def invitation_link(request: HttpRequest, invitation: Invitation) -> str:
    """The invitation's address as a phone on the same network reaches it."""
    return phone_base_url(request) + reverse("invitation", args=[invitation.token])


def _members_page(request: HttpRequest, campaign: Campaign, *, form=None, error: str = "", status: int = 200):
    """The member list; the owner's tools beside it (the invitation form given, with its errors)."""
    owner = request.campaign_role == Membership.Role.OWNER
    members = selectors.campaign_members(campaign=campaign)
    owners = [m["membership"].pk for m in members if m["role"] == Membership.Role.OWNER]
    context: dict = {
        "campaign": campaign,
        "members": members,
        # The campaign keeps an owner: the only one is offered neither another role nor removal.
        "sole_owner": owners[0] if len(owners) == 1 else None,
        "is_owner": owner,
        "error": error,
        "roles": Membership.Role.choices,
        "houses": campaign.houses.order_by("number") if owner else (),
        "me": next((m["membership"].pk for m in members if m["user"] == request.user), None),
    }
    if owner:
        pending = []
        for invitation in selectors.invitations_pending(campaign=campaign):
            link = invitation_link(request, invitation)
            pending.append({"invitation": invitation, "link": link, "qr": qr_svg(link, INVITATION_QR_LABEL)})
        context["invitations"] = pending
        context["form"] = form or forms.InvitationForm(campaign=campaign)
    return render(request, "campaign/members.html", context, status=status)


def _to_members(campaign: Campaign, anchor: str = "") -> HttpResponse:
    return redirect(reverse("campaign-members", args=[campaign.pk]) + anchor)


@login_required
@require_http_methods(["GET", "HEAD"])
def members_view(request: HttpRequest, pk: int) -> HttpResponse:
    campaign = member_campaign(request, pk, Need.READ)
    return _members_page(request, campaign)


@login_required
@require_POST
@invite_rate_limited
def invitation_create_view(request: HttpRequest, pk: int) -> HttpResponse:
    campaign = member_campaign(request, pk, Need.OWN)
    form = forms.InvitationForm(request.POST, campaign=campaign)
    if form.is_valid():
        try:
            invitation_create(campaign=campaign, actor=request.user, **form.cleaned_data)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, INVITATION_MADE)
            return _to_members(campaign, "#invitations")
    return _members_page(request, campaign, form=form, status=400)


@login_required
@require_POST
def invitation_revoke_view(request: HttpRequest, pk: int, invitation_id: int) -> HttpResponse:
    campaign = member_campaign(request, pk, Need.OWN)
    invitation = get_object_or_404(campaign.invitations, pk=invitation_id)
    try:
        invitation_revoke(invitation=invitation, actor=request.user)
    except ValidationError as error:
        return _members_page(request, campaign, error=" ".join(error.messages), status=400)
    messages.success(request, INVITATION_REVOKED_DONE)
    return _to_members(campaign, "#invitations")


@login_required
@require_POST
def member_role_view(request: HttpRequest, pk: int, member_id: int) -> HttpResponse:
    campaign = member_campaign(request, pk, Need.OWN)
    membership = get_object_or_404(campaign.memberships.select_related("user"), pk=member_id)
    form = forms.MemberRoleForm(request.POST)
    if not form.is_valid():
        return _members_page(
            request,
            campaign,
            error=UNKNOWN_ROLE.format(role=request.POST.get("role", "")),
            status=400,
        )
    try:
        membership = membership_role_change(
            membership=membership, role=form.cleaned_data["role"], actor=request.user
        )
    except ValidationError as error:
        return _members_page(request, campaign, error=" ".join(error.messages), status=400)
    role = a_role(membership.role)
    messages.success(request, ROLE_CHANGED % {"user": membership.name, "role": role})
    if membership.user == request.user and membership.role != Membership.Role.OWNER:
        return redirect("campaign-detail", pk=campaign.pk)  # the member list's tools are the owner's
    return _to_members(campaign)


@login_required
@require_POST
def member_house_view(request: HttpRequest, pk: int, member_id: int) -> HttpResponse:
    """The owner chooses the House a member plays (herself included: "I play House X")."""
    campaign = member_campaign(request, pk, Need.OWN)
    membership = get_object_or_404(campaign.memberships.select_related("user"), pk=member_id)
    form = forms.MemberHouseForm(request.POST, campaign=campaign)
    if not form.is_valid():
        return _members_page(
            request, campaign, error=" ".join(str(m) for m in form.errors.get("house", ())), status=400
        )
    house = form.cleaned_data["house"]
    try:
        membership = membership_house_set(membership=membership, house=house, actor=request.user)
    except ValidationError as error:
        return _members_page(request, campaign, error=" ".join(error.messages), status=400)
    done = HOUSE_SET % {"user": membership.name, "house": house.name} if house else None
    messages.success(request, done or HOUSE_CLEARED % {"user": membership.name})
    return _to_members(campaign, f"#member-{membership.pk}")


@login_required
@require_POST
def member_name_view(request: HttpRequest, pk: int, member_id: int) -> HttpResponse:
    """A member's display name, set by the owner or by the member themself."""
    campaign = member_campaign(request, pk, Need.READ)
    membership = get_object_or_404(campaign.memberships.select_related("user"), pk=member_id)
    if request.campaign_role != Membership.Role.OWNER and membership.user != request.user:
        raise PermissionDenied(NAME_OWN_OR_OWNER)
    form = forms.MemberNameForm(request.POST)
    if not form.is_valid():
        return _members_page(
            request, campaign, error=" ".join(str(m) for m in form.errors.get("display_name", ())), status=400
        )
    try:
        membership = membership_name_set(
            membership=membership, display_name=form.cleaned_data["display_name"], actor=request.user
        )
    except ValidationError as error:
        return _members_page(request, campaign, error=" ".join(error.messages), status=400)
    messages.success(request, NAME_SET % {"user": membership.user.get_username(), "name": membership.name})
    return _to_members(campaign, f"#member-{membership.pk}")


@login_required
@require_POST
def member_remove_view(request: HttpRequest, pk: int, member_id: int) -> HttpResponse:
    campaign = member_campaign(request, pk, Need.OWN)
    membership = get_object_or_404(campaign.memberships.select_related("user"), pk=member_id)
    try:
        membership_remove(membership=membership, actor=request.user)
    except ValidationError as error:
        return _members_page(request, campaign, error=" ".join(error.messages), status=400)
    if membership.user == request.user:
        messages.success(request, YOU_LEFT % {"campaign": campaign.name})
        return redirect("home")
    messages.success(request, MEMBER_REMOVED % {"user": membership.name})
    return _to_members(campaign)


def _invitation_page(request: HttpRequest, invitation: Invitation, *, error: str = "", status: int = 200):
    problem = invitation_problem(invitation=invitation)
    role = campaign_role(campaign=invitation.campaign, user=request.user)
    here = reverse("invitation", args=[invitation.token])
    context = {
        "invitation": invitation,
        "campaign": invitation.campaign,
        "role_word": role_word(invitation.role),
        "problem": problem,
        "error": error,
        "member_role": role_word(role) if role else None,
        "next": urlencode({"next": here}),
    }
    if problem and not role and status == 200:
        status = 410  # gone: expired, revoked or used
    response = render(request, "campaign/invitation.html", context, status=status)
    # The token stays out of other sites' logs; not "no-referrer": Chromium then sends the Join
    # form's POST with "Origin: null", which the CSRF check refuses.
    response["Referrer-Policy"] = "same-origin"
    response["X-Robots-Tag"] = "noindex, nofollow"
    response["Cache-Control"] = "private, no-store"
    return response


@require_http_methods(["GET", "HEAD", "POST"])
@invite_rate_limited
def invitation_view(request: HttpRequest, token: str) -> HttpResponse:
    """What the link invites to; logged in, "Join" accepts it (and leads to the campaign)."""
    invitation = selectors.invitation_for_token(token=token)
    if invitation is None:
        raise Http404(INVITATION_UNKNOWN)
    if request.method != "POST":
        return _invitation_page(request, invitation)
    if not request.user.is_authenticated:
        return redirect(f"{reverse('login')}?{urlencode({'next': request.path})}")
    try:
        acceptance = invitation_accept(invitation=invitation, user=request.user)
    except ValidationError as error:
        return _invitation_page(request, invitation, error=" ".join(error.messages), status=400)
    messages.success(request, acceptance.message)
    return redirect("campaign-detail", pk=invitation.campaign_id)
