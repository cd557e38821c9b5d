"""The printable campaign sheet (campaign/sheet.py reads it): one page for every member, made to be
printed on at most two A4 sheets, with nothing to tap on paper."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from campaign.access import Need, campaign_for
from campaign.sheet import campaign_sheet
from config.http import HttpRequest


@login_required
@require_safe
def campaign_sheet_view(request: HttpRequest, pk: int) -> HttpResponse:
    campaign, request.campaign_role = campaign_for(user=request.user, campaign_id=pk, need=Need.READ)
    return render(request, "campaign/sheet.html", {"campaign": campaign, **campaign_sheet(campaign=campaign)})
