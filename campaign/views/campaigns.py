"""The campaign list (home and the demo login), a new campaign, the campaign page and its charts."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.utils.csp import CSP
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.csp import csp_override
from django.views.decorators.http import require_http_methods, require_safe

from campaign import forms, selectors
from campaign.access import (
    DEMO_ADDS_NO_CAMPAIGN,
    DEMO_USER,
    VIEWER_READS_ONLY,
    Need,
    demo_adds_no_campaign,
    is_demo,
    role_allows,
)
from campaign.charts import CHARTS, SIZES
from campaign.services.houses import campaign_create
from campaign.views.form_pages import (
    member_campaign,
    run_service,
)
from campaign.views.nights import may_take_over
from config.http import HttpRequest
from config.network import request_from_this_machine

DEMO_LOGIN_REFUSED = gettext_lazy(
    "The demo login works only on the computer that runs Chronicle: log in with your account here."
)
NEW_CAMPAIGN = gettext_lazy("New campaign")


def home(request: HttpRequest) -> HttpResponse:
    campaigns = selectors.campaign_list_for_user(user=request.user)
    context = {
        "campaigns": campaigns,
        "demo_login": _demo_login_allowed(request),
        "demo_note": DEMO_ADDS_NO_CAMPAIGN if is_demo(request.user) else "",
    }
    return render(request, "campaign/home.html", context)


def _demo_login_allowed(request: HttpRequest) -> bool:
    """Development and make run, from this machine only (its REMOTE_ADDR, not a Host header that
    another machine on the network could write)."""
    return settings.DEMO_LOGIN and request_from_this_machine(request)


@require_http_methods(["POST"])
def demo_login(request: HttpRequest) -> HttpResponse:
    """One click to see the demo campaign that make run loads, on the machine that runs it."""
    user = get_user_model().objects.filter(username=DEMO_USER).first()
    if not _demo_login_allowed(request) or user is None:
        raise PermissionDenied(DEMO_LOGIN_REFUSED)
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    return redirect("home")


@login_required
@require_http_methods(["GET", "POST"])
def campaign_create_view(request: HttpRequest) -> HttpResponse:
    demo_adds_no_campaign(request.user)
    form = forms.CampaignForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        campaign = run_service(
            form, lambda: campaign_create(name=form.cleaned_data["name"], created_by=request.user)
        )
        if campaign:
            messages.success(
                request,
                gettext(
                    "Campaign %(name)s created. Before your first game: open Envelope 00 and add the Houses."
                )
                % {"name": campaign.name},
            )
            return redirect("campaign-detail", pk=campaign.pk)
    return render(request, "campaign/form.html", {"form": form, "title": NEW_CAMPAIGN})


CHART_DESCRIPTIONS = (
    ("prestige", gettext_lazy("Prestige of each House after each game, one line per House in its colour")),
    ("crave", gettext_lazy("Crave of each House after each game, one line per House in its colour")),
    ("resources", gettext_lazy("Each Resource's row on the Resource Track at the end of each game")),
)


@login_required
@require_safe
def campaign_detail(request: HttpRequest, pk: int) -> HttpResponse:
    campaign = member_campaign(request, pk)
    running = selectors.night_running(campaign=campaign)
    context = {
        "campaign": campaign,
        "houses": selectors.houses_by_prestige(campaign=campaign),
        "board": selectors.realm_board(campaign=campaign),
        "storylines": selectors.storylines(campaign=campaign),
        "envelopes": campaign.envelopes.select_related("opened_by", "game"),
        "save_slots": selectors.save_slots(campaign=campaign),
        "games": selectors.realm_chronicles(campaign=campaign),
        "mystery": campaign.mystery_stickers.all(),
        "exports": campaign.exports.all()[:5],
        "events": selectors.campaign_history(campaign=campaign)[:10],
        "standings": selectors.final_standings(campaign=campaign) if campaign.grand_finale_ready else None,
        "house_form": forms.HouseForm(campaign=campaign),
        "sticker_form": forms.StickerForm(campaign=campaign),
        "envelope_form": forms.EnvelopeForm(campaign=campaign),
        "mystery_form": forms.MysteryForm(campaign=campaign),
        "begin_form": forms.GameBeginForm(campaign=campaign),
        "achievement_form": forms.AchievementForm(campaign=campaign),
        "story_form": forms.StoryCardForm(campaign=campaign),
        "first_form": forms.FirstEnvelopeForm(campaign=campaign),
        "charts": CHART_DESCRIPTIONS,
        "my_seats": selectors.campaign_seats_tonight(campaign=campaign, user=request.user),
        "night_running": running,
        "may_take_over": may_take_over(request, running),
        "nights_abandoned": selectors.nights_abandoned(campaign=campaign)
        if role_allows(request.campaign_role, Need.OWN)
        else [],
        "viewer_note": "" if role_allows(request.campaign_role, Need.PLAY) else VIEWER_READS_ONLY,
    }
    return render(request, "campaign/detail.html", context)


@login_required
@csp_override(
    {
        **cast(dict[str, Any], settings.SECURE_CSP),
        "script-src": [CSP.NONE],
        "style-src": [CSP.SELF, CSP.UNSAFE_INLINE],
    }
)
@require_safe
def campaign_chart(request: HttpRequest, pk: int, name: str) -> HttpResponse:
    campaign = member_campaign(request, pk)
    if name not in CHARTS:
        raise Http404("No such chart.")
    return svg_chart_response(
        request, lambda size: selectors.campaign_chart_svg(campaign=campaign, name=name, size=size)
    )


def svg_chart_response(request: HttpRequest, render: Callable[[str], str]) -> HttpResponse:
    """A chart as SVG in the size the page asks for (``?size=wide|narrow``); another size is a 400."""
    size = request.GET.get("size", "wide")
    if size not in SIZES:
        return HttpResponseBadRequest(f"A chart's size is one of: {', '.join(SIZES)}.")
    return HttpResponse(render(size), content_type="image/svg+xml")
