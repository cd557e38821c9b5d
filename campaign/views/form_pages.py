"""What the campaign's pages share: the campaign of a member whose role allows the request, a
service's refusal shown beside its form, and the two small page frameworks built on them. A form of
the campaign page (``campaign_form_view``) has a page of its own without JavaScript and, with htmx,
swaps itself and the page parts it changed; a correction (``correction_page``) is a page of its own,
prefilled with what is recorded now, with an optional second button that takes the thing off.
Views validate a form, call one service and render; service errors appear beside the form (never
a 500 and nothing half-written)."""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django_htmx.http import HttpResponseClientRedirect

from campaign import forms, selectors
from campaign.access import (
    Need,
    campaign_for,
)
from campaign.models import Campaign
from config.http import HttpRequest


def member_campaign(request: HttpRequest, pk: int, need: Need | None = None) -> Campaign:
    """The campaign for a member whose role allows ``need`` (campaign/access.py): by default
    reading for GET and HEAD, playing for the writes. Strangers get a 404, a short role a 403."""
    if need is None:
        need = Need.READ if request.method in ("GET", "HEAD") else Need.PLAY
    campaign, request.campaign_role = campaign_for(user=request.user, campaign_id=pk, need=need)
    return campaign


def run_service[T](form, call: Callable[[], T]) -> T | None:
    """Call a service; its ValidationError becomes a form error."""
    try:
        return call()
    except ValidationError as error:
        for message in error.messages:
            form.add_error(None, message)
        return None


# The campaign page's parts a form may change, each with what it shows (htmx swaps them in place).
OOB_PARTS: dict[str, tuple[str, Callable[[Campaign], dict]]] = {
    "board": ("campaign/detail.html#board", lambda c: {"board": selectors.realm_board(campaign=c)}),
    "envelopes": (
        "campaign/detail.html#envelopes",
        lambda c: {"envelopes": c.envelopes.select_related("opened_by", "game")},
    ),
    "slots": ("campaign/detail.html#slots", lambda c: {"save_slots": selectors.save_slots(campaign=c)}),
    "stories": ("campaign/detail.html#stories", lambda c: {"storylines": selectors.storylines(campaign=c)}),
    "events": (
        "campaign/detail.html#events",
        lambda c: {"events": selectors.campaign_history(campaign=c)[:10]},
    ),
}


def _oob_parts(request, campaign, parts, *, saved_form: str = "") -> str:
    """Out-of-band fragments of the campaign page that a form changed (htmx swaps them in place).
    The form just saved is not among them: it swaps itself, with its confirmation."""
    html = ""
    for part in parts:
        if part in OOB_PARTS:
            template, shows = OOB_PARTS[part]
            html += render_to_string(template, {**shows(campaign), "oob": True}, request)
    if "houses" in parts:
        houses = selectors.houses_by_prestige(campaign=campaign)
        html += render_to_string("campaign/detail.html#houses", {"houses": houses, "grid_oob": True}, request)
        # Forms that offer a House to choose get the new list.
        for form_class, url, form_id in (
            (forms.StickerForm, "sticker-attach", "sticker-form"),
            (forms.EnvelopeForm, "envelope-open", "envelope-form"),
            (forms.AchievementForm, "achievement-create", "achievement-form"),
            (forms.StoryCardForm, "story-place", "story-form"),
        ):
            if form_id == saved_form:
                continue
            context = {
                "form": form_class(campaign=campaign),
                "action": reverse(url, args=[campaign.pk]),
                "form_id": form_id,
                "oob": True,
            }
            html += render_to_string("campaign/_inline_form.html", context, request)
    return html


def campaign_form_view(request, pk, form_class, title, call, success, *, form_id, oob=(), once=False):
    """One view per form: a page of its own without JavaScript; with htmx, the form swaps itself
    (errors beside the fields, status 422; once saved, its confirmation, and only that for a form
    used ``once``) and the page parts it changed. Its page, too, is for those who may send it."""
    campaign = member_campaign(request, pk, Need.PLAY)
    form = form_class(request.POST or None, campaign=campaign)
    if request.method == "POST" and form.is_valid():
        result = run_service(form, lambda: call(campaign, form.cleaned_data))
        if result is not None:
            message = success(result)
            if request.htmx:
                context = {
                    "form": form_class(campaign=campaign),
                    "action": request.path,
                    "form_id": form_id,
                    "saved": message,
                    "done": once,
                }
                html = render_to_string("campaign/_inline_form.html", context, request)
                parts = (*oob, "events")  # every save is a change the page's latest changes show
                return HttpResponse(html + _oob_parts(request, campaign, parts, saved_form=form_id))
            messages.success(request, message)
            return redirect("campaign-detail", pk=campaign.pk)
    if request.htmx:
        context = {"form": form, "action": request.path, "form_id": form_id}
        return render(request, "campaign/_inline_form.html", context, status=422)
    status = 400 if form.errors else 200
    return render(
        request, "campaign/form.html", {"form": form, "title": title, "campaign": campaign}, status=status
    )


class Removal(NamedTuple):
    """A correction page's second button: take the thing off (it was entered by mistake)."""

    call: Callable[[], object]
    message: str
    label: str
    question: str
    explain: str


def correction_page(request, campaign, *, title, current, form, save, back, back_label, removal=None):
    """A correction on a page of its own: the form prefilled with what is recorded now; on a refusal
    the message shows beside it and what was typed stays (400); once saved, back to ``back`` with
    the message. ``save``: (service call taking the cleaned data, message or a function of the result)."""
    error = ""
    if request.method == "POST":
        if removal is not None and "remove" in request.POST:
            try:
                removal.call()
            except ValidationError as refused:
                error = " ".join(refused.messages)
            else:
                return _saved(request, removal.message, back)
        elif form.is_valid():
            done = run_service(form, lambda: save[0](form.cleaned_data))
            if done is not None:
                return _saved(request, save[1](done) if callable(save[1]) else save[1], back)
    context = {
        "campaign": campaign,
        "title": title,
        "current": current,
        "form": form,
        "back": back,
        "back_label": back_label,
        "removal": removal,
        "error": error,
    }
    status = 400 if request.method == "POST" else 200  # a POST that reaches here was refused
    return render(request, "campaign/correct.html", context, status=status)


def _saved(request: HttpRequest, message: str, back: str) -> HttpResponse:
    messages.success(request, message)
    return HttpResponseClientRedirect(back) if request.htmx else redirect(back)
