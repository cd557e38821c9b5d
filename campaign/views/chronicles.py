"""The Realm Chronicles: a game begun on paper (the stickers age) and its result recorded."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_http_methods
from django_htmx.http import HttpResponseClientRedirect

from campaign import forms, selectors
from campaign.services.chronicles import (
    game_begin,
    game_result_record,
)
from campaign.views.form_pages import (
    campaign_form_view,
    member_campaign,
    run_service,
)
from config.http import HttpRequest


@login_required
@require_http_methods(["GET", "POST"])
def campaign_chronicles(request: HttpRequest, pk: int) -> HttpResponse:
    """The Realm Chronicles; the newest game without a result gets the form to record it."""
    campaign = member_campaign(request, pk)
    pending = campaign.games.filter(recorded=False).order_by("-number").first()
    form = forms.GameResultForm(request.POST or None, campaign=campaign) if pending else None
    status = 200
    if request.method == "POST" and form is not None and pending is not None:
        if form.is_valid():
            done = run_service(
                form,
                lambda: game_result_record(
                    game=pending, end=form.cleaned_data["end"], rows=form.result_rows(), actor=request.user
                ),
            )
            if done is not None:
                messages.success(request, gettext("Game %(number)s recorded.") % {"number": pending.number})
                url = reverse("campaign-chronicles", args=[campaign.pk])
                return HttpResponseClientRedirect(url) if request.htmx else redirect(url)
        status = 422 if request.htmx else 400
    context = {
        "campaign": campaign,
        "games": selectors.realm_chronicles(campaign=campaign),
        "pending": pending,
        "form": form,
    }
    template = (
        "campaign/chronicles.html#result-form"
        if request.htmx and form is not None
        else "campaign/chronicles.html"
    )
    return render(request, template, context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def game_begin_view(request: HttpRequest, pk: int) -> HttpResponse:
    return campaign_form_view(
        request,
        pk,
        forms.GameBeginForm,
        gettext_lazy("Begin a game"),
        lambda campaign, data: game_begin(campaign=campaign, actor=request.user, **data),
        lambda game: (
            gettext("Game %(number)s under King %(king)s begins: the Chronicle stickers aged.")
            % {"number": game.number, "king": game.king_name}
        ),
        form_id="begin-form",
        oob=("board",),
    )
