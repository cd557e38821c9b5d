"""The campaign over months: a page per House, the realm's statistics, the story of each night and
its read-only link. Views read through the story selectors and write through
campaign/services/stories.py; members only, except the shared story, which shows that one story."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from campaign import statistics_selectors, story_selectors
from campaign.access import Need
from campaign.models import Campaign, ChronicleGame
from campaign.services.stories import story_link_create, story_link_revoke
from campaign.story_charts import STATISTICS_CHARTS
from campaign.views.campaigns import svg_chart_response
from campaign.views.form_pages import member_campaign
from config.http import HttpRequest
from config.network import phone_base_url

STORY_SHARED = gettext_lazy("Anyone with this link can read the story of game %(number)s, and nothing else.")
STORY_UNSHARED = gettext_lazy("The link to the story of game %(number)s no longer works.")
STATISTICS_CHART_TEXT = (
    (
        "stickers",
        gettext_lazy("Chronicle stickers each House signed in each row, one bar per House in its colour"),
    ),
    (
        "council",
        gettext_lazy("How often each House led, moderated and won the vote, one bar per House in its colour"),
    ),
)


def _story_page(request: HttpRequest) -> int:
    """The page of a story asked for (``?page=n``); anything else is the first."""
    page = request.GET.get("page", "")
    return int(page) if page.isdigit() and len(page) <= 6 else 1


def _game(campaign: Campaign, number: int) -> ChronicleGame:
    game = story_selectors.game_for_story(campaign=campaign, number=number)
    if game is None:
        raise Http404("No such game in this campaign.")
    return game


@login_required
@require_GET
def house_page_view(request: HttpRequest, pk: int, house_pk: int) -> HttpResponse:
    campaign = member_campaign(request, pk)
    house = get_object_or_404(campaign.houses.select_related("user"), pk=house_pk)  # who plays it
    page = statistics_selectors.house_page(campaign=campaign, house=house)
    return render(request, "campaign/house_page.html", {"campaign": campaign, **page})


@login_required
@require_GET
def statistics_view(request: HttpRequest, pk: int) -> HttpResponse:
    campaign = member_campaign(request, pk)
    stats = statistics_selectors.realm_statistics(campaign=campaign)
    context = {"campaign": campaign, "charts": STATISTICS_CHART_TEXT, **stats}
    return render(request, "campaign/statistics.html", context)


@login_required
@require_GET
def statistics_chart(request: HttpRequest, pk: int, name: str) -> HttpResponse:
    campaign = member_campaign(request, pk)
    if name not in STATISTICS_CHARTS:
        raise Http404("No such chart.")
    response = svg_chart_response(request, lambda size: STATISTICS_CHARTS[name](campaign=campaign, size=size))
    if response.status_code == 200:
        response["Cache-Control"] = "private, max-age=60"
    return response


@login_required
@require_GET
def night_story_view(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    campaign = member_campaign(request, pk)
    game = _game(campaign, number)
    link = story_selectors.story_link_live(game=game)
    context = {
        "campaign": campaign,
        "game": game,
        "story": story_selectors.night_chapter(campaign=campaign, game=game, page=_story_page(request)),
        "scores": story_selectors.game_scores(game=game),
        "finale": story_selectors.night_finale(campaign=campaign, game=game),
        "link": link,
        # Where the others open it: the address phones reach, as the seat codes (never localhost).
        "share_url": phone_base_url(request) + reverse("shared-story", args=[link.token]) if link else "",
    }
    return render(request, "campaign/story.html", context)


@login_required
@require_POST
def story_share_view(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    campaign = member_campaign(request, pk, Need.OWN)
    game = _game(campaign, number)
    story_link_create(game=game, actor=request.user)
    messages.success(request, STORY_SHARED % {"number": game.number})
    return redirect(reverse("night-story", args=[campaign.pk, game.number]) + "#share")


@login_required
@require_POST
def story_unshare_view(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    campaign = member_campaign(request, pk, Need.OWN)
    game = _game(campaign, number)
    try:
        story_link_revoke(game=game, actor=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, STORY_UNSHARED % {"number": game.number})
    return redirect(reverse("night-story", args=[campaign.pk, game.number]) + "#share")


@require_GET
def shared_story_view(request: HttpRequest, token: str) -> HttpResponse:
    """The story and nothing else: no account, no way into the campaign; 404 once revoked."""
    link = story_selectors.story_link_for_token(token=token, revoked=True)
    if link is None:
        raise Http404("This link does not exist.")
    if link.revoked_at is not None:
        response = render(request, "campaign/story_revoked.html", {"link": link}, status=410)
        response["Referrer-Policy"] = "no-referrer"
        return response
    context = {
        "game": link.game,
        "story": story_selectors.night_chapter(
            campaign=link.campaign, game=link.game, page=_story_page(request)
        ),
        "scores": story_selectors.game_scores(game=link.game),
        "finale": story_selectors.night_finale(campaign=link.campaign, game=link.game),
    }
    response = render(request, "campaign/story_shared.html", context)
    response["Referrer-Policy"] = "no-referrer"  # the token stays out of other sites' logs
    response["X-Robots-Tag"] = "noindex, nofollow"
    response["Cache-Control"] = "private, no-store"
    return response
