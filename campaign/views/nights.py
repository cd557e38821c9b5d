"""A King's Dilemma game night run by the table companion, from the campaign's pages: started,
taken over when its host is gone, resumed after an abandon, and saved into the campaign."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from campaign import forms, selectors
from campaign.access import (
    Need,
    role_allows,
)
from campaign.models import Campaign, ResourceRow
from campaign.services.chronicles import (
    legacy_setup_compute,
)
from campaign.services.game_nights import (
    game_night_resume,
    game_night_start,
    game_night_take_over,
    night_running_words,
    night_take_over_refusal,
)
from campaign.services.night_saves import NIGHT_CONFLICTS, game_night_record
from campaign.views.form_pages import (
    member_campaign,
    run_service,
)
from config.http import HttpRequest
from games.access import session_kept_by
from games.presenters.kings_dilemma import save_words

NIGHT_RESUMED = gettext_lazy("Game night #%(session)s resumed where it stopped.")


NIGHT_TAKEN_OVER = gettext_lazy(
    "You host game night #%(session)s now: its table, its seat codes, undo and abandon are yours."
)


@login_required
@require_http_methods(["GET", "POST"])
def game_night_start_view(request: HttpRequest, pk: int) -> HttpResponse:
    """Start a King's Dilemma game night: the campaign's next game, seated in table order."""
    campaign = member_campaign(request, pk, Need.PLAY)
    running = selectors.night_running(campaign=campaign)
    if running is not None:  # one night at a time: the page opens the running one
        return render(request, "campaign/night_start.html", _running_night(request, campaign, running))
    form = forms.GameNightForm(request.POST or None, campaign=campaign)
    choices = []
    if request.method == "POST" and form.is_valid():
        houses = form.houses()
        try:
            setup = legacy_setup_compute(campaign=campaign, houses=houses, aged=True)
            names = {h.pk: h.name for h in houses}
            choices = [
                {
                    "house": pk_,
                    "name": names[pk_],
                    "polarity": "positive" if positive else "negative",
                    "rows": [(row, ResourceRow(row).label) for row in rows],
                }
                for pk_, positive, rows in setup["open_agenda_choices"]
            ]
            session = game_night_start(
                campaign=campaign,
                houses=houses,
                king_name=form.cleaned_data["king_name"],
                host=request.user,
                keep=form.keep(request.POST),
            )
        except ValidationError as error:
            for message in error.messages:
                form.add_error(None, message)
        else:
            messages.success(
                request,
                gettext("Game night under King %(king)s started: hand each House its link.")
                % {"king": form.cleaned_data["king_name"]},
            )
            return redirect("games:session_table", session_id=session.pk)
    status = 400 if form.errors else 200
    return render(
        request,
        "campaign/night_start.html",
        {
            "campaign": campaign,
            "form": form,
            "choices": choices,
            "no_envelope_yet": not campaign.envelopes.exists(),
        },
        status=status,
    )


def may_take_over(request: HttpRequest, running) -> bool:
    """Whether the page offers "Take over this night's table" (the service decides again on POST)."""
    if running is None or not role_allows(request.campaign_role, Need.PLAY):
        return False
    return night_take_over_refusal(session=running, actor=request.user) is None


@login_required
@require_POST
def game_night_take_over_view(request: HttpRequest, pk: int, session_id: int) -> HttpResponse:
    """Take over the table of the night that runs: its host's phone died, or its host was removed or
    made a viewer and lost it. The owner always may; a player when the host no longer plays."""
    campaign = member_campaign(request, pk, Need.PLAY)
    session = get_object_or_404(selectors.campaign_nights(campaign=campaign), pk=session_id)
    try:
        game_night_take_over(session=session, actor=request.user)
    except ValidationError as refused:
        messages.error(request, " ".join(refused.messages))
        return redirect("campaign-detail", pk=campaign.pk)
    messages.success(request, NIGHT_TAKEN_OVER % {"session": session.pk})
    return redirect("games:session_table", session_id=session.pk)


def _running_night(request: HttpRequest, campaign: Campaign, running) -> dict:
    """The night that runs, for the page that would start another: its table for its host and the
    campaign's owner (who may abandon it there), the member's own seat otherwise."""
    may_table = session_kept_by(session=running, user=request.user)
    seats = selectors.campaign_seats_tonight(campaign=campaign, user=request.user)
    return {
        "campaign": campaign,
        "running": running,
        "running_message": night_running_words(running),
        "running_over": running.status == running.Status.FINISHED,
        "may_table": may_table,
        "may_take_over": may_take_over(request, running),
        "my_seats": [s for s in seats if s.session_id == running.pk],
    }


@login_required
@require_http_methods(["GET", "POST"])
def game_night_resume_view(request: HttpRequest, pk: int, session_id: int) -> HttpResponse:
    """Resume a night abandoned by mistake (the owner's choice), after a confirmation step: it goes
    on where it stopped."""
    campaign = member_campaign(request, pk, Need.OWN)
    session = get_object_or_404(selectors.campaign_nights(campaign=campaign), pk=session_id)
    error = ""
    if request.method == "POST" and request.POST.get("confirm") == "yes":
        try:
            game_night_resume(session=session, actor=request.user)
        except ValidationError as refused:
            error = " ".join(refused.messages)
        else:
            messages.success(request, NIGHT_RESUMED % {"session": session.pk})
            return redirect("games:session_table", session_id=session.pk)
    context = {"campaign": campaign, "night": session, "error": error}
    return render(request, "campaign/night_resume.html", context, status=400 if error else 200)


@login_required
@require_http_methods(["GET", "POST"])
def game_night_record_view(request: HttpRequest, pk: int, session_id: int) -> HttpResponse:
    """'Final Cleanup: Save your game!': type what the Envelopes opened tonight held, then write
    the night into the campaign."""
    campaign = member_campaign(request, pk, Need.PLAY)
    session = get_object_or_404(campaign.sessions.select_related("chronicle_game"), pk=session_id)
    result = session.state.get("result") or {}
    envelopes = result.get("envelopes", [])
    # A night whose only Envelope is 70 posts no field: still a save.
    posted = request.POST if request.method == "POST" else None
    form = forms.EnvelopeContentsForm(posted, envelopes=[e["number"] for e in envelopes])
    if request.method == "POST" and form.is_valid():
        game = run_service(
            form,
            lambda: game_night_record(session=session, envelope_contents=form.contents(), actor=request.user),
        )
        if game is not None:
            messages.success(
                request,
                gettext("Game %(number)s under King %(king)s is in the Realm Chronicles.")
                % {"number": game.number, "king": game.king_name},
            )
            if game.conflicts:
                messages.warning(request, NIGHT_CONFLICTS.format(count=len(game.conflicts)))
            return redirect("campaign-detail", pk=campaign.pk)
    status = 400 if form.errors else 200
    seat_names = [s.get("name", "") for s in session.config.get("seats", [])]
    summary = save_words(result, seat_names) if result else None
    context = {"campaign": campaign, "session": session, "form": form, "result": result, "summary": summary}
    return render(request, "campaign/night_record.html", context, status=status)
