"""The Houses of a campaign and their achievements (added, and their spaces marked)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_http_methods

from campaign import forms, selectors
from campaign.access import (
    Need,
)
from campaign.models import Achievement
from campaign.services.houses import achievement_create, achievement_mark, house_create
from campaign.views.form_pages import (
    campaign_form_view,
    member_campaign,
    run_service,
)
from config.http import HttpRequest


@login_required
@require_http_methods(["GET", "POST"])
def house_create_view(request: HttpRequest, pk: int) -> HttpResponse:
    return campaign_form_view(
        request,
        pk,
        forms.HouseForm,
        gettext_lazy("Add a House"),
        lambda campaign, data: house_create(campaign=campaign, actor=request.user, **data),
        lambda house: gettext("House %(house)s joined the campaign.") % {"house": house.name},
        form_id="house-form",
        oob=("houses",),
    )


@login_required
@require_http_methods(["POST"])
def achievement_mark_view(request: HttpRequest, pk: int) -> HttpResponse:
    achievement = get_object_or_404(Achievement.objects.select_related("house__campaign"), pk=pk)
    campaign = member_campaign(request, achievement.house.campaign_id, Need.PLAY)
    form = forms.AchievementMarkForm(request.POST)
    if form.is_valid():
        result = run_service(
            form,
            lambda: achievement_mark(
                achievement=achievement, count=form.cleaned_data["count"], actor=request.user
            ),
        )
        if result is not None and not request.htmx:
            messages.success(
                request,
                gettext("%(name)s: %(marked)s/%(spaces)s marked.")
                % {"name": achievement.name, "marked": result.marked, "spaces": result.spaces},
            )
            return redirect("campaign-detail", pk=campaign.pk)
    errors = [str(e) for e in form.non_field_errors()] + [
        str(e) for errs in form.errors.values() for e in errs
    ]
    if request.htmx:
        house = selectors.house_list(campaign=campaign).get(pk=achievement.house_id)
        context = {"h": house, "error": " ".join(errors)}
        return render(request, "campaign/detail.html#house-card", context, status=422 if errors else 200)
    for error in errors:
        messages.error(request, error)
    return redirect("campaign-detail", pk=campaign.pk)


@login_required
@require_http_methods(["GET", "POST"])
def achievement_create_view(request: HttpRequest, pk: int) -> HttpResponse:
    return campaign_form_view(
        request,
        pk,
        forms.AchievementForm,
        gettext_lazy("Add an achievement"),
        lambda campaign, data: achievement_create(actor=request.user, **data),
        lambda achievement: (
            gettext("%(name)s added to House %(house)s.")
            % {"name": achievement.name, "house": achievement.house.name}
        ),
        form_id="achievement-form",
        oob=("houses",),
    )
