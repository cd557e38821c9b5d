"""The campaign's history: every change, by kind or by the Chronicle sticker it touched."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from campaign import selectors
from campaign.views.form_pages import (
    member_campaign,
)
from config.http import HttpRequest


@login_required
@require_safe
def campaign_history_view(request: HttpRequest, pk: int) -> HttpResponse:
    campaign = member_campaign(request, pk)
    events = selectors.campaign_history(campaign=campaign, kind=request.GET.get("kind") or None)
    sticker = request.GET.get("sticker", "")
    answers = None
    if sticker.isascii() and sticker.isdigit() and len(sticker) <= 3:  # isdigit alone accepts "²"
        events = selectors.sticker_history(campaign=campaign, number=int(sticker))
        answers = selectors.sticker_answers(campaign=campaign, number=int(sticker))
    context = {"campaign": campaign, "events": events[:500], "answers": answers}
    return render(request, "campaign/history.html", context)
