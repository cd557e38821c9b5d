"""Server-rendered campaign pages. Views validate a form, call one service and render; service
errors appear beside the form (never a 500 and nothing half-written)."""

from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple, cast

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import FileResponse, Http404, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.csp import CSP
from django.utils.datastructures import MultiValueDict
from django.views.decorators.csp import csp_override
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django_htmx.http import HttpResponseClientRedirect

from campaign import forms, selectors
from campaign.access import (
    DEMO_ADDS_NO_CAMPAIGN,
    DEMO_USER,
    VIEWER_READS_ONLY,
    Need,
    campaign_for,
    demo_adds_no_campaign,
    is_demo,
    role_allows,
)
from campaign.charts import CHARTS, SIZES
from campaign.models import Achievement, Campaign, CampaignExport
from campaign.services.archive import campaign_export_request, campaign_export_retry, campaign_import
from campaign.services.archive_upload import ARCHIVE_TOO_LARGE
from campaign.services.chronicles import (
    game_begin,
    game_result_correct,
    game_result_record,
    legacy_setup_compute,
)
from campaign.services.envelopes import (
    STARTING_ENVELOPE,
    dilemma_card_move,
    envelope_correct,
    envelope_open,
    envelope_remove,
    story_card_place,
)
from campaign.services.game_nights import (
    NIGHT_CONFLICTS,
    game_night_record,
    game_night_resume,
    game_night_start,
    game_night_take_over,
    night_running_words,
    night_take_over_refusal,
)
from campaign.services.houses import achievement_create, achievement_mark, campaign_create, house_create
from campaign.services.stickers import (
    mystery_sticker_attach,
    sticker_attach,
    sticker_correct,
    sticker_marks_correct,
    sticker_remove,
)
from config.http import HttpRequest
from config.network import request_from_this_machine
from config.uploads import upload_too_large
from games.presenters.kings_dilemma import save_words
from games.selectors import session_kept_by

DEMO_LOGIN_REFUSED = (
    "The demo login works only on the computer that runs Chronicle: log in with your account here."
)

EXPORT_RETRIED = "Export sent again: the archive appears below when it is ready."

NIGHT_RESUMED = "Game night #{session} resumed where it stopped."
NIGHT_TAKEN_OVER = (
    "You host game night #{session} now: its table, its seat codes, undo and abandon are yours."
)


def _member_campaign(request: HttpRequest, pk: int, need: Need | None = None) -> Campaign:
    """The campaign for a member whose role allows ``need`` (campaign/access.py): by default
    reading for GET and HEAD, playing for the writes. Strangers get a 404, a short role a 403."""
    if need is None:
        need = Need.READ if request.method in ("GET", "HEAD") else Need.PLAY
    campaign, request.campaign_role = campaign_for(user=request.user, campaign_id=pk, need=need)
    return campaign


def _run_service[T](form, call: Callable[[], T]) -> T | None:
    """Call a service; its ValidationError becomes a form error."""
    try:
        return call()
    except ValidationError as error:
        for message in error.messages:
            form.add_error(None, message)
        return None


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
        campaign = _run_service(
            form, lambda: campaign_create(name=form.cleaned_data["name"], created_by=request.user)
        )
        if campaign:
            messages.success(
                request,
                f"Campaign {campaign.name} created. Before your first game: open Envelope 00 and add the Houses.",
            )
            return redirect("campaign-detail", pk=campaign.pk)
    return render(request, "campaign/form.html", {"form": form, "title": "New campaign"})


CHART_DESCRIPTIONS = (
    ("prestige", "Prestige of each House after each game, one line per House in its colour"),
    ("crave", "Crave of each House after each game, one line per House in its colour"),
    ("resources", "Each Resource's row on the Resource Track at the end of each game"),
)


@login_required
@require_safe
def campaign_detail(request: HttpRequest, pk: int) -> HttpResponse:
    campaign = _member_campaign(request, pk)
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
        "may_take_over": _may_take_over(request, running),
        "nights_abandoned": selectors.nights_abandoned(campaign=campaign)
        if role_allows(request.campaign_role, Need.OWN)
        else [],
        "viewer_note": "" if role_allows(request.campaign_role, Need.PLAY) else VIEWER_READS_ONLY,
    }
    return render(request, "campaign/detail.html", context)


@login_required
@require_safe
def campaign_history_view(request: HttpRequest, pk: int) -> HttpResponse:
    campaign = _member_campaign(request, pk)
    events = selectors.campaign_history(campaign=campaign, kind=request.GET.get("kind") or None)
    sticker = request.GET.get("sticker", "")
    answers = None
    if sticker.isascii() and sticker.isdigit() and len(sticker) <= 3:  # isdigit alone accepts "²"
        events = selectors.sticker_history(campaign=campaign, number=int(sticker))
        answers = selectors.sticker_answers(campaign=campaign, number=int(sticker))
    context = {"campaign": campaign, "events": events[:500], "answers": answers}
    return render(request, "campaign/history.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def campaign_chronicles(request: HttpRequest, pk: int) -> HttpResponse:
    """The Realm Chronicles; the newest game without a result gets the form to record it."""
    campaign = _member_campaign(request, pk)
    pending = campaign.games.filter(recorded=False).order_by("-number").first()
    form = forms.GameResultForm(request.POST or None, campaign=campaign) if pending else None
    status = 200
    if request.method == "POST" and form is not None and pending is not None:
        if form.is_valid():
            done = _run_service(
                form,
                lambda: game_result_record(
                    game=pending, end=form.cleaned_data["end"], rows=form.result_rows(), actor=request.user
                ),
            )
            if done is not None:
                messages.success(request, f"Game {pending.number} recorded.")
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


def _campaign_form_view(request, pk, form_class, title, call, success, *, form_id, oob=(), once=False):
    """One view per form: a page of its own without JavaScript; with htmx, the form swaps itself
    (errors beside the fields, status 422; once saved, its confirmation, and only that for a form
    used ``once``) and the page parts it changed. Its page, too, is for those who may send it."""
    campaign = _member_campaign(request, pk, Need.PLAY)
    form = form_class(request.POST or None, campaign=campaign)
    if request.method == "POST" and form.is_valid():
        result = _run_service(form, lambda: call(campaign, form.cleaned_data))
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


@login_required
@require_http_methods(["GET", "POST"])
def house_create_view(request: HttpRequest, pk: int) -> HttpResponse:
    return _campaign_form_view(
        request,
        pk,
        forms.HouseForm,
        "Add a House",
        lambda campaign, data: house_create(campaign=campaign, actor=request.user, **data),
        lambda house: f"House {house.name} joined the campaign.",
        form_id="house-form",
        oob=("houses",),
    )


@login_required
@require_http_methods(["GET", "POST"])
def sticker_attach_view(request: HttpRequest, pk: int) -> HttpResponse:
    return _campaign_form_view(
        request,
        pk,
        forms.StickerForm,
        "Attach a Chronicle sticker",
        lambda campaign, data: sticker_attach(
            campaign=campaign, actor=request.user, game=campaign.games.last(), **data
        ),
        lambda sticker: f"Sticker {sticker.number} attached to the {sticker.get_row_display()} row.",
        form_id="sticker-form",
        oob=("board",),
    )


@login_required
@require_http_methods(["GET", "POST"])
def envelope_open_view(request: HttpRequest, pk: int) -> HttpResponse:
    def call(campaign, data):
        story = (
            {"number": data["story_number"], "storyline": data["storyline"]}
            if data.get("story_number")
            else None
        )
        return envelope_open(
            campaign=campaign,
            number=data["number"],
            special=data["special"],
            opened_by=data["opened_by"],
            dilemma_numbers=data["dilemma_numbers"],
            story_card=story,
            game=campaign.games.last(),
            actor=request.user,
        )

    return _campaign_form_view(
        request,
        pk,
        forms.EnvelopeForm,
        "Open an Envelope",
        call,
        lambda e: f"{e} opened.",
        form_id="envelope-form",
        oob=("houses", "envelopes", "slots", "stories"),
    )


@login_required
@require_http_methods(["GET", "POST"])
def mystery_attach_view(request: HttpRequest, pk: int) -> HttpResponse:
    return _campaign_form_view(
        request,
        pk,
        forms.MysteryForm,
        "Attach a Mystery sticker",
        lambda campaign, data: mystery_sticker_attach(
            campaign=campaign, actor=request.user, game=campaign.games.last(), **data
        ),
        lambda sticker: f"Mystery sticker {sticker.letter} attached.",
        form_id="mystery-form",
    )


@login_required
@require_http_methods(["POST"])
def achievement_mark_view(request: HttpRequest, pk: int) -> HttpResponse:
    achievement = get_object_or_404(Achievement.objects.select_related("house__campaign"), pk=pk)
    campaign = _member_campaign(request, achievement.house.campaign_id, Need.PLAY)
    form = forms.AchievementMarkForm(request.POST)
    if form.is_valid():
        result = _run_service(
            form,
            lambda: achievement_mark(
                achievement=achievement, count=form.cleaned_data["count"], actor=request.user
            ),
        )
        if result is not None and not request.htmx:
            messages.success(request, f"{achievement.name}: {result.marked}/{result.spaces} marked.")
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
@require_http_methods(["POST"])
def campaign_export_view(request: HttpRequest, pk: int) -> HttpResponse:
    campaign = _member_campaign(request, pk, Need.OWN)  # the archive holds the whole campaign
    campaign_export_request(campaign=campaign, requested_by=request.user)
    messages.success(request, "Export requested: the archive appears below when it is ready.")
    return redirect("campaign-detail", pk=campaign.pk)


@login_required
@require_http_methods(["POST"])
def campaign_export_retry_view(request: HttpRequest, pk: int, export_id: int) -> HttpResponse:
    campaign = _member_campaign(request, pk, Need.OWN)
    export = get_object_or_404(campaign.exports, pk=export_id)
    try:
        campaign_export_retry(export=export, actor=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, EXPORT_RETRIED)
    return redirect("campaign-detail", pk=campaign.pk)


@login_required
@require_safe
def campaign_export_download(request: HttpRequest, pk: int, export_id: int) -> FileResponse:
    campaign = _member_campaign(request, pk, Need.OWN)
    export = get_object_or_404(campaign.exports, pk=export_id, status=CampaignExport.Status.READY)
    path = Path(settings.MEDIA_ROOT) / "exports" / export.path
    if not path.is_file():
        raise Http404("The archive file is gone: request a new export.")
    return FileResponse(path.open("rb"), as_attachment=True, filename=f"{campaign.name}-{export.pk}.json")


@login_required
@require_http_methods(["GET", "POST"])
def campaign_import_view(request: HttpRequest) -> HttpResponse:
    demo_adds_no_campaign(request.user)
    form = forms.CampaignImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and upload_too_large(request):
        # The upload stopped at the limit (config/uploads.py): the file never arrived whole.
        form = forms.CampaignImportForm(request.POST, MultiValueDict())
        form.is_valid()
        form.errors["archive"] = form.error_class([ARCHIVE_TOO_LARGE])
        context = {"form": form, "title": "Import a campaign", "multipart": True}
        return render(request, "campaign/form.html", context, status=413)
    if request.method == "POST" and form.is_valid():
        campaign = _run_service(
            form,
            lambda: campaign_import(
                archive=form.cleaned_data["archive"],
                owner=request.user,
                name=form.cleaned_data["name"] or None,
            ),
        )
        if campaign is not None:
            messages.success(request, f"Campaign {campaign.name} imported.")
            return redirect("campaign-detail", pk=campaign.pk)
    return render(
        request,
        "campaign/form.html",
        {"form": form, "title": "Import a campaign", "multipart": True},
        status=400 if form.errors else 200,
    )


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
    campaign = _member_campaign(request, pk)
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


@login_required
@require_http_methods(["GET", "POST"])
def game_begin_view(request: HttpRequest, pk: int) -> HttpResponse:
    return _campaign_form_view(
        request,
        pk,
        forms.GameBeginForm,
        "Begin a game",
        lambda campaign, data: game_begin(campaign=campaign, actor=request.user, **data),
        lambda game: f"Game {game.number} under King {game.king_name} begins: the Chronicle stickers aged.",
        form_id="begin-form",
        oob=("board",),
    )


@login_required
@require_http_methods(["GET", "POST"])
def game_night_start_view(request: HttpRequest, pk: int) -> HttpResponse:
    """Start a King's Dilemma game night: the campaign's next game, seated in table order."""
    campaign = _member_campaign(request, pk, Need.PLAY)
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
                    "rows": rows,
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
                f"Game night under King {form.cleaned_data['king_name']} started: hand each House its link.",
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


def _may_take_over(request: HttpRequest, running) -> bool:
    """Whether the page offers "Take over this night's table" (the service decides again on POST)."""
    if running is None or not role_allows(request.campaign_role, Need.PLAY):
        return False
    return night_take_over_refusal(session=running, actor=request.user) is None


@login_required
@require_POST
def game_night_take_over_view(request: HttpRequest, pk: int, session_id: int) -> HttpResponse:
    """Take over the table of the night that runs: its host's phone died, or its host was removed or
    made a viewer and lost it. The owner always may; a player when the host no longer plays."""
    campaign = _member_campaign(request, pk, Need.PLAY)
    session = get_object_or_404(selectors.campaign_nights(campaign=campaign), pk=session_id)
    try:
        game_night_take_over(session=session, actor=request.user)
    except ValidationError as refused:
        messages.error(request, " ".join(refused.messages))
        return redirect("campaign-detail", pk=campaign.pk)
    messages.success(request, NIGHT_TAKEN_OVER.format(session=session.pk))
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
        "may_take_over": _may_take_over(request, running),
        "my_seats": [s for s in seats if s.session_id == running.pk],
    }


@login_required
@require_http_methods(["GET", "POST"])
def game_night_resume_view(request: HttpRequest, pk: int, session_id: int) -> HttpResponse:
    """Resume a night abandoned by mistake (the owner's choice), after a confirmation step: it goes
    on where it stopped."""
    campaign = _member_campaign(request, pk, Need.OWN)
    session = get_object_or_404(selectors.campaign_nights(campaign=campaign), pk=session_id)
    error = ""
    if request.method == "POST" and request.POST.get("confirm") == "yes":
        try:
            game_night_resume(session=session, actor=request.user)
        except ValidationError as refused:
            error = " ".join(refused.messages)
        else:
            messages.success(request, NIGHT_RESUMED.format(session=session.pk))
            return redirect("games:session_table", session_id=session.pk)
    context = {"campaign": campaign, "night": session, "error": error}
    return render(request, "campaign/night_resume.html", context, status=400 if error else 200)


@login_required
@require_http_methods(["GET", "POST"])
def game_night_record_view(request: HttpRequest, pk: int, session_id: int) -> HttpResponse:
    """'Final Cleanup: Save your game!': type what the Envelopes opened tonight held, then write
    the night into the campaign."""
    campaign = _member_campaign(request, pk, Need.PLAY)
    session = get_object_or_404(campaign.sessions.select_related("chronicle_game"), pk=session_id)
    result = session.state.get("result") or {}
    envelopes = result.get("envelopes", [])
    # A night whose only Envelope is 70 posts no field: still a save.
    posted = request.POST if request.method == "POST" else None
    form = forms.EnvelopeContentsForm(posted, envelopes=[e["number"] for e in envelopes])
    if request.method == "POST" and form.is_valid():
        game = _run_service(
            form,
            lambda: game_night_record(session=session, envelope_contents=form.contents(), actor=request.user),
        )
        if game is not None:
            messages.success(
                request, f"Game {game.number} under King {game.king_name} is in the Realm Chronicles."
            )
            if game.conflicts:
                messages.warning(request, NIGHT_CONFLICTS.format(count=len(game.conflicts)))
            return redirect("campaign-detail", pk=campaign.pk)
    status = 400 if form.errors else 200
    seat_names = [s.get("name", "") for s in session.config.get("seats", [])]
    summary = save_words(result, seat_names) if result else None
    context = {"campaign": campaign, "session": session, "form": form, "result": result, "summary": summary}
    return render(request, "campaign/night_record.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def achievement_create_view(request: HttpRequest, pk: int) -> HttpResponse:
    return _campaign_form_view(
        request,
        pk,
        forms.AchievementForm,
        "Add an achievement",
        lambda campaign, data: achievement_create(actor=request.user, **data),
        lambda achievement: f"{achievement.name} added to House {achievement.house.name}.",
        form_id="achievement-form",
        oob=("houses",),
    )


@login_required
@require_http_methods(["GET", "POST"])
def story_card_place_view(request: HttpRequest, pk: int) -> HttpResponse:
    return _campaign_form_view(
        request,
        pk,
        forms.StoryCardForm,
        "Place a Story card",
        lambda campaign, data: story_card_place(
            campaign=campaign, game=campaign.games.last(), actor=request.user, **data
        ),
        lambda card: f"Story card {card.number} is on top of the {card.storyline} storyline.",
        form_id="story-form",
        oob=("houses", "stories"),
    )


# ---- The first evening and corrections from the pages (issue 23) ----------------------------


@login_required
@require_http_methods(["GET", "POST"])
def envelope_first_view(request: HttpRequest, pk: int) -> HttpResponse:
    """'Before your first game': open Envelope 00, place its Story card, record the starting deck."""

    def call(campaign, data):
        story = {"number": data["story_number"], "storyline": data["storyline"], "title": data["title"]}
        return envelope_open(
            campaign=campaign,
            number=STARTING_ENVELOPE,
            dilemma_numbers=data["dilemma_numbers"],
            story_card=story,
            actor=request.user,
        )

    return _campaign_form_view(
        request,
        pk,
        forms.FirstEnvelopeForm,
        "Open Envelope 00",
        call,
        lambda e: (
            f"{e} opened: Story card {e.story_cards.first().number} is on its storyline and "
            f"{e.cards.count()} Dilemma cards are your starting Dilemma deck."
        ),
        form_id="first-envelope-form",
        oob=("envelopes", "slots", "stories"),
        once=True,
    )


class Removal(NamedTuple):
    """A correction page's second button: take the thing off (it was entered by mistake)."""

    call: Callable[[], object]
    message: str
    label: str
    question: str
    explain: str


def _correction_page(request, campaign, *, title, current, form, save, back, back_label, removal=None):
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
            done = _run_service(form, lambda: save[0](form.cleaned_data))
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


@login_required
@require_http_methods(["GET", "POST"])
def game_correct_view(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """'Correct this night': the Realm Chronicles table of a recorded night, prefilled with its
    current revision; the service writes a new revision and rebalances the ledger."""
    campaign = _member_campaign(request, pk, Need.OWN)
    game = get_object_or_404(campaign.games, number=number, recorded=True)
    scores = list(game.scores.filter(revision=game.revision).select_related("house").order_by("position"))
    data = request.POST if request.method == "POST" else None
    form = forms.GameCorrectForm(data, campaign=campaign, game=game, scores=scores)
    return _correction_page(
        request,
        campaign,
        title=f"Correct night {game.number}: King {game.king_name}",
        current=f"Recorded now (revision {game.revision}): {game.get_end_display()}.",
        form=form,
        save=(
            lambda data: game_result_correct(
                game=game, end=data["end"], rows=form.result_rows(), reason=data["reason"], actor=request.user
            ),
            f"Game {game.number} corrected: the Realm Chronicles keep the result played and this "
            "correction; Prestige and Crave moved only where the ranking changed.",
        ),
        back=reverse("campaign-chronicles", args=[campaign.pk]),
        back_label="Realm Chronicles",
    )


@login_required
@require_http_methods(["GET", "POST"])
def sticker_correct_view(request: HttpRequest, pk: int, sticker_number: int) -> HttpResponse:
    """A Chronicle sticker typed wrongly (number, row, side, signer, title), or attached by mistake."""
    campaign = _member_campaign(request, pk, Need.OWN)
    sticker = get_object_or_404(campaign.stickers.select_related("signer"), number=sticker_number)
    initial = {
        "number": sticker.number,
        "row": sticker.row,
        "positive": "1" if sticker.positive else "0",
        "signer": sticker.signer_id,
        "title": sticker.title,
    }
    data = request.POST if request.method == "POST" else None
    form = forms.StickerCorrectForm(data, campaign=campaign, initial=initial)
    side = "positive" if sticker.positive else "negative"
    signer = f"signed by House {sticker.signer.name}" if sticker.signer else "unsigned"
    return _correction_page(
        request,
        campaign,
        title=f"Correct Chronicle sticker {sticker.number}",
        current=f"Recorded now: {side}, {sticker.get_row_display()} row, {signer}.",
        form=form,
        save=(
            lambda data: sticker_correct(sticker=sticker, actor=request.user, **data),
            lambda corrected: f"Sticker {corrected.number} corrected.",
        ),
        back=reverse("campaign-detail", args=[campaign.pk]) + "#board",
        back_label=campaign.name,
        removal=Removal(
            lambda: sticker_remove(sticker=sticker, actor=request.user),
            f"Sticker {sticker.number} removed from the board.",
            "Remove this sticker: it was attached by mistake",
            "Attached by mistake?",
            "It comes off the board; a sticker it covered is visible again. The history keeps both.",
        ),
    )


@login_required
@require_http_methods(["GET", "POST"])
def sticker_aging_correct_view(request: HttpRequest, pk: int, sticker_number: int) -> HttpResponse:
    """A sticker's aging marks counted again (the owner's correction)."""
    campaign = _member_campaign(request, pk, Need.OWN)
    sticker = get_object_or_404(campaign.stickers, number=sticker_number)
    data = request.POST if request.method == "POST" else None
    squares = selectors.campaign_setting(campaign, "aging_squares")
    form = forms.AgingMarksForm(data, squares=squares, initial={"marks": sticker.marks})
    return _correction_page(
        request,
        campaign,
        title=f"Correct the aging marks of Chronicle sticker {sticker.number}",
        current=f"Recorded now: {sticker.marks} of {squares} squares marked.",
        form=form,
        save=(
            lambda data: sticker_marks_correct(sticker=sticker, marks=data["marks"], actor=request.user),
            lambda corrected: f"Aging marks of sticker {corrected.number} corrected.",
        ),
        back=reverse("campaign-detail", args=[campaign.pk]) + "#board",
        back_label=campaign.name,
    )


@login_required
@require_http_methods(["GET", "POST"])
def envelope_correct_view(request: HttpRequest, pk: int, envelope_number: int) -> HttpResponse:
    """An Envelope recorded wrongly (who opened it, Special or not), or opened by mistake."""
    campaign = _member_campaign(request, pk, Need.OWN)
    envelope = get_object_or_404(campaign.envelopes.select_related("opened_by"), number=envelope_number)
    initial = {"opened_by": envelope.opened_by_id, "special": envelope.special}
    data = request.POST if request.method == "POST" else None
    form = forms.EnvelopeCorrectForm(data, campaign=campaign, initial=initial)
    cards = ", ".join(str(n) for n in envelope.cards.values_list("number", flat=True)) or "none"
    by = f"House {envelope.opened_by.name}" if envelope.opened_by else "nobody"
    return _correction_page(
        request,
        campaign,
        title=f"Correct {envelope}",
        current=f"Recorded now: {'Special' if envelope.special else 'standard'}, opened by {by}; "
        f"its Dilemma cards: {cards}.",
        form=form,
        save=(
            lambda data: envelope_correct(envelope=envelope, actor=request.user, **data),
            f"{envelope} corrected.",
        ),
        back=reverse("campaign-detail", args=[campaign.pk]) + "#envelopes",
        back_label=campaign.name,
        removal=Removal(
            lambda: envelope_remove(envelope=envelope, actor=request.user),
            f"{envelope} removed with its cards.",
            "Remove this Envelope: it was opened by mistake",
            "Opened by mistake?",
            "It goes back in the box with its cards: its Dilemma cards leave the deck and its Story card "
            "its storyline (the Prestige or Crave it gave is reversed). The history keeps both.",
        ),
    )


@login_required
@require_http_methods(["GET", "POST"])
def dilemma_card_move_view(request: HttpRequest, pk: int, card_number: int) -> HttpResponse:
    """A card in the wrong save slot moves to the right one."""
    campaign = _member_campaign(request, pk, Need.OWN)
    card = get_object_or_404(campaign.dilemma_cards, number=card_number)
    data = request.POST if request.method == "POST" else None
    form = forms.DilemmaCardMoveForm(data, campaign=campaign, initial={"place": card.place})
    return _correction_page(
        request,
        campaign,
        title=f"Move {card}",
        current=f"Recorded now: in the {card.get_place_display()}.",
        form=form,
        save=(
            lambda data: dilemma_card_move(card=card, place=data["place"], actor=request.user),
            lambda moved: f"{moved} moved to the {moved.get_place_display()}.",
        ),
        back=reverse("campaign-detail", args=[campaign.pk]) + "#slots",
        back_label=campaign.name,
    )
