"""Server-rendered table companion pages: the host's table screen and each player's phone.

The host (logged in) sees the table view, the join links (with QR codes) and the log; a phone opens
its seat with the secret join token and sees only that seat's view and its legal actions as
buttons. Both pages poll a cheap version endpoint; when the table moved on, the endpoint fires the
``session-changed`` event and the page fetches its own panel again (``#table-panel`` /
``#seat-panel``) and swaps it in place. Everything also works without JavaScript.

Each game gets a presenter (``games/presenters/<slug>.py``) that turns the engine's view dict into
what the templates draw, in the game's own words, names the folder of its partials and answers the
hooks these views call; any other game gets the generic presenter: a tidy rendering of its view
dict. Nothing here asks which game a session plays.
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRefresh, HttpResponseStopPolling, trigger_client_event

from config.http import HttpRequest
from config.network import phone_base_url
from config.qr import qr_svg
from games import access, screens, selectors, translation, versions
from games.access import seat_for_join_token
from games.engines.kernel.errors import RuleError
from games.forms import ActionForm, SessionCreateForm
from games.models import GameSession, Seat
from games.presenters.base import action_from_post, presenter_for
from games.services import seats, sessions, taps, undo
from games.tonight import tonight_pointer
from games.translation import say_stored

RULE_BROKEN = "{message}"
ACTION_APPLIED = gettext_lazy("Done: {label}.")
UNDONE = gettext_lazy("Undone: {label}.")
ABANDONED = gettext_lazy("The session was abandoned.")
TABLE_CLOSES = gettext_lazy("This table will be closed after {hours} hours without a move.")
CODE_SHOWN = gettext_lazy("{name}'s code is on the table again: scan it with the phone.")
CODE_NEW = gettext_lazy("{name} has a new code: the old link no longer opens the seat. Scan the new one.")
GAME_OVER = gettext_lazy("The game is over.")
# The tap's own words for a stale version (games.services.taps.STALE_VERSION), said to the reader.
STALE_SAID = gettext_lazy("The table moved on: here is the new state.")
SESSION_CHANGED_EVENT = "session-changed"

JOIN_QR_LABEL = gettext_lazy("QR code of the join link")
REFUSED = 422  # a refused action, rendered in place (base.html lets htmx swap 422)

# ---- Helpers -----------------------------------------------------------------------------


def _host_session(request: HttpRequest, session_id: int) -> GameSession:
    """The session, for its host only (staff use the admin): the table page shows every join
    token. A night of a campaign opens for the campaign's owner too (the host's phone died); never
    for anyone else."""
    session = access.session_table_for(session_id=session_id, user=request.user)
    if session is None:
        raise Http404
    return session


def _error_text(exc: ValidationError) -> str:
    return " ".join(exc.messages)


# ---- Pages -------------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def session_list(request: HttpRequest) -> HttpResponse:
    """Your sessions, and the form to start a new one."""
    form = SessionCreateForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            session = sessions.session_create(
                game=form.cleaned_data["game"],
                seat_names=form.cleaned_data["seat_names"],
                bot_seats=form.cleaned_data["bot_seats"],
                host=request.user,
            )
        except ValidationError as exc:
            form.add_error(None, exc)
        else:
            return redirect("games:session_table", session_id=session.pk)
    return render(
        request,
        "games/list.html",
        {"form": form, "sessions": screens.session_rows(selectors.session_list(host=request.user))},
        status=400 if request.method == "POST" else 200,
    )


@login_required
@require_GET
def session_table(request: HttpRequest, session_id: int) -> HttpResponse:
    """The host's screen: the board in the game's words, the join links with QR codes, the log."""
    session = _host_session(request, session_id)
    if request.htmx and request.GET.get("part") == "joins":
        return render(request, "games/table.html#join-panel", _join_context(request, session))
    if request.htmx and _plain_panel_fetch(request):
        return _shared_panel(request, session, None, "games/table.html#table-panel")
    context = screens.table_screen(session=session)
    template = "games/table.html"
    if request.htmx:
        template += "#table-panel"
    else:
        context.update(_join_context(request, session), closing_notice=_closing_notice(session))
    return render(request, template, context)


def _closing_notice(session: GameSession) -> str:
    """What the clock will do to a running table: a table without a campaign is closed after a
    while without a move (``sessions.session_cleanup_abandoned``); a campaign's night never is."""
    if session.campaign_id is not None or not session.is_running:
        return ""
    return str(TABLE_CLOSES).format(hours=int(sessions.ABANDON_AFTER.total_seconds() // 3600))


def _plain_panel_fetch(request: HttpRequest) -> bool:
    """A page fetching its panel after a change: no query (a step of a choice), no message waiting
    to be shown. Its answer is the same for everyone who may see it (games.versions)."""
    return not request.GET and not len(messages.get_messages(request))


def _shared_panel(
    request: HttpRequest, session: GameSession, seat: Seat | None, template: str
) -> HttpResponse:
    """The panel, from the panels this version's screens share (``games.versions``): drawn once per
    version and seat, each answer with its own CSRF token and key. The caller checked the seat's
    token or the host."""
    html = versions.shared_panel_kept(session=session, seat=seat)
    if html is None:
        context = screens.table_screen(session=session) if seat is None else screens.seat_screen(seat=seat)
        html = render_to_string(template, {**context, **versions.PANEL_SLOTS}, request)
        versions.shared_panel_keep(session=session, seat=seat, html=html)
    return HttpResponse(versions.shared_panel_answer(html, csrf_token=get_token(request)))


def _join_context(request: HttpRequest, session: GameSession) -> dict:
    return screens.join_screen(
        session=session, base=phone_base_url(request), qr=lambda link: qr_svg(link, str(JOIN_QR_LABEL))
    )


@login_required
@require_POST
def session_table_action(request: HttpRequest, session_id: int) -> HttpResponse:
    """An action of the table itself (the host's screen); htmx gets the panel back in place."""
    session = _host_session(request, session_id)
    notice, status = _submit(request, session, None)
    if not request.htmx:
        return redirect("games:session_table", session_id=session.pk)
    return render(
        request,
        "games/table.html#table-panel",
        screens.table_screen(session=session, notice=notice),
        status=status,
    )


@login_required
@require_POST
def session_undo(request: HttpRequest, session_id: int) -> HttpResponse:
    session = _host_session(request, session_id)
    last = selectors.session_last_action(session=session)
    try:
        undo.session_undo(session=session, by=request.user)
    except ValidationError as exc:
        messages.error(request, _error_text(exc))
    else:
        # A label may end with its own full stop (the King's Dilemma's do): never two.
        said = say_stored(last.label_data, english=last.label) if last else ""
        messages.success(request, UNDONE.format(label=said.rstrip(".")))
    return redirect("games:session_table", session_id=session.pk)


@login_required
@require_http_methods(["GET", "POST"])
def session_abandon(request: HttpRequest, session_id: int) -> HttpResponse:
    """Abandon a session, after a confirmation step (a page of its own: works without JS). A POST
    without ``confirm`` shows the question again."""
    session = _host_session(request, session_id)
    if request.method == "POST" and request.POST.get("confirm") == "yes":
        try:
            sessions.session_abandon(session=session)
        except ValidationError as exc:
            messages.error(request, _error_text(exc))
        else:
            messages.success(request, str(ABANDONED))
        return redirect("games:session_table", session_id=session.pk)
    game_name = translation.say_to_reader(taps.session_rules(session).name)
    return render(request, "games/abandon.html", {"session": session, "game_name": game_name})


def _host_seat(request: HttpRequest, session_id: int, seat_index: int) -> Seat:
    session = _host_session(request, session_id)
    seat = session.seats.filter(index=seat_index).first()
    if seat is None:
        raise Http404
    seat.session = session
    return seat


def _seat_code_change(
    request: HttpRequest, session_id: int, seat_index: int, change: Callable[..., object], done: object
) -> HttpResponse:
    seat = _host_seat(request, session_id, seat_index)
    try:
        change(seat=seat)
    except ValidationError as exc:
        messages.error(request, _error_text(exc))
    else:
        messages.success(request, str(done).format(name=seat.name))
    return redirect("games:session_table", session_id=session_id)


@login_required
@require_POST
def session_seat_show_code(request: HttpRequest, session_id: int, seat_index: int) -> HttpResponse:
    """The host shows a seat's code again (its phone was closed or lost at the table)."""
    return _seat_code_change(request, session_id, seat_index, seats.seat_show_code_again, CODE_SHOWN)


@login_required
@require_POST
def session_seat_new_code(request: HttpRequest, session_id: int, seat_index: int) -> HttpResponse:
    """The host gives a seat a new code: the old link stops opening it. It disconnects a phone,
    maybe mid-vote, so the host confirms first ("Replace this phone?")."""
    if request.POST.get("confirm") != "yes":
        seat = _host_seat(request, session_id, seat_index)
        return render(request, "games/seat_new_code.html", {"session": seat.session, "seat": seat})
    return _seat_code_change(request, session_id, seat_index, seats.seat_rotate_token, CODE_NEW)


@require_GET
def session_version(request: HttpRequest, session_id: int) -> HttpResponse:
    """The cheap polling endpoint: 204 while the session is still at version ``v`` (from the
    cache, no query), 286 (stop polling) when it is over. When it moved on: for htmx, the
    ``session-changed`` event, on which the page fetches its own panel and swaps it in place;
    otherwise the new version as JSON. Only with the page's key (``k``): without it, the same 404
    for every id, existing or not."""
    if not versions.poll_key_valid(session_id, request.GET.get("k", "")):
        raise Http404
    try:
        seen = int(request.GET.get("v", ""))
    except ValueError:
        seen = -1
    if versions.cached_version(session_id) == seen:
        return HttpResponse(status=204)
    row = selectors.session_current_version(session_id=session_id)
    if row is None:
        raise Http404
    version, status = row
    versions.remember_version(session_id, version)
    if version == seen:
        if status != GameSession.Status.ACTIVE:  # a status read alone, without its row
            return HttpResponseStopPolling()
        return HttpResponse(status=204)
    if request.htmx:
        response = HttpResponse(status=200)
        return trigger_client_event(response, SESSION_CHANGED_EVENT, {"version": version, "status": status})
    return JsonResponse({"session": session_id, "version": version, "status": status})


@require_http_methods(["GET", "POST"])
def seat_page(request: HttpRequest, token: str) -> HttpResponse:
    """A player's phone: their own view and one button per legal action. With htmx a button swaps
    the panel in place (a refused action: its sentence, status 422)."""
    seat = seat_for_join_token(request, token)
    if seat is None:
        if request.htmx:  # a code the host replaced: reload, and the page says what to do
            return HttpResponseClientRefresh()
        raise Http404
    session = seat.session
    if not selectors.seat_is_open(seat=seat):
        if request.htmx:  # the game ended meanwhile: the whole page becomes the result
            return HttpResponseClientRefresh()
        context = {**screens.closed_seat_screen(seat=seat), **tonight_pointer(seat=seat, user=request.user)}
        return render(request, "games/seat_closed.html", context)
    if request.method == "POST":
        notice, status = _submit(request, session, seat)
        if not request.htmx:
            return redirect("games:seat_page", token=token)
        if not session.is_running:
            return HttpResponseClientRefresh()
        return render(
            request,
            "games/seat.html#seat-panel",
            screens.seat_screen(seat=seat, notice=notice),
            status=status,
        )
    seats.seat_mark_joined(seat=seat)
    if request.htmx and _plain_panel_fetch(request):
        return _shared_panel(request, session, seat, "games/seat.html#seat-panel")
    template = "games/seat.html"
    context = screens.seat_screen(seat=seat, step=request.GET)
    if request.htmx:
        template += "#seat-panel"
    else:
        context["closing_notice"] = _closing_notice(session)
    return render(request, template, context)


@require_GET
def my_seat(request: HttpRequest, session_id: int) -> HttpResponse:
    """A signed-in player opens the seat their account holds at this session (a night started from
    their campaign gives each House's seat to the account that plays it), without scanning its code:
    it counts as their phone joining, and leads to the seat's own page. Anyone without a seat here,
    anonymous visitors included, gets the 404 of a session that does not exist."""
    seat = access.seat_of_user(user=request.user, session_id=session_id)
    if seat is None:
        raise Http404
    if selectors.seat_is_open(seat=seat):
        seats.seat_mark_joined(seat=seat)
    return redirect("games:seat_page", token=seat.token)


def _submit(request: HttpRequest, session: GameSession, seat: Seat | None) -> tuple[dict, int]:
    """Apply a posted control group (``choice`` and its ``p_<name>`` fields), or an action as JSON."""
    if "choice" in request.POST:
        return _submit_choice(request, session, seat)
    form = ActionForm(request.POST)
    if not form.is_valid():
        return _notice(
            request, " ".join(str(e) for errors in form.errors.values() for e in errors), "error", REFUSED
        )
    data = form.cleaned_data
    return _submit_action(request, session, seat, data["action"], data["version"], data["key"])


def _submit_choice(request: HttpRequest, session: GameSession, seat: Seat | None) -> tuple[dict, int]:
    # Only what the tap needs: the seat's legal actions (never the whole view).
    choices = selectors.session_legal_actions(
        session=session, seat_index=None if seat is None else seat.index
    )
    try:
        version = int(request.POST.get("version", ""))
        action = action_from_post(choices, request.POST.get("choice", ""), request.POST.getlist)
    except ValueError as exc:
        if request.POST.get("version") != str(session.version):  # the table moved on meanwhile
            return _notice(request, str(STALE_SAID), "warning", 200)
        text = str(exc) if str(exc) and not str(exc).startswith("invalid literal") else str(ACTION_UNREADABLE)
        return _notice(request, text, "error", REFUSED)
    key = (request.POST.get("key") or "")[:100]
    return _submit_action(request, session, seat, action, version, key)


ACTION_UNREADABLE = gettext_lazy("That could not be read: reload the page and try again.")


def _submit_action(
    request: HttpRequest, session: GameSession, seat: Seat | None, action: dict, version: int, key: str | None
) -> tuple[dict, int]:
    """Apply an action and say what happened: (notice, status). A stale version shows the new state
    and a clear message (200); a refused action its sentence (422). Without htmx the notice also
    goes to the messages framework for the page after the redirect."""
    try:
        logged = taps.session_submit_action(
            session=session, seat=seat, action=action, expected_version=version, idempotency_key=key or None
        )
    except taps.StaleVersion as exc:
        session.refresh_from_db()  # the table moved on: show the new state (an applied action
        stale = (
            str(STALE_SAID) if exc.message == taps.STALE_VERSION else translation.say_to_reader(exc.message)
        )
        return _notice(request, stale, "warning", 200)  # brings ``session`` up to date itself)
    except RuleError as exc:
        return _notice(
            request, RULE_BROKEN.format(message=translation.say_to_reader(exc.message)), "error", REFUSED
        )
    except ValidationError as exc:
        session.refresh_from_db()
        return _notice(request, _error_text(exc), "error", REFUSED)
    return _notice(
        request,
        str(ACTION_APPLIED).format(label=_said(logged).splitlines()[0].rstrip(".")),
        "success",
        200,
    )


def _said(logged: object) -> str:
    """A logged action's words in the reader's language: from the message the log keeps with it
    (``label_data``), else its English ``label``."""
    data = getattr(logged, "label_data", None)
    return translation.say_stored(data, english=str(getattr(logged, "label", "")))


def _notice(request: HttpRequest, text: str, level: str, status: int) -> tuple[dict, int]:
    if not request.htmx:
        messages.add_message(request, getattr(messages, level.upper()), text)
    return {"text": text, "level": level}, status


# ---- A game's own table forms (the King's Dilemma: the host types what the physical cards say) --

COMPOSE_NOT_NOW = gettext_lazy("That is not something the table does now.")


@login_required
@require_POST
def session_table_compose(request: HttpRequest, session_id: int) -> HttpResponse:
    """A table action typed by the host in one of the game's own forms (its presenter's
    ``compose_form``), e.g. in the King's Dilemma the front of the card drawn, the outcome read from
    its back, or a printed effect applied by hand. The engine validates it; a refusal shows its
    sentence beside the form, which keeps everything typed."""
    session = _host_session(request, session_id)
    kind = request.POST.get("compose", "")
    table, facts = screens.compose_facts(session)
    form = presenter_for(session.game).compose_form(kind=kind, data=request.POST, facts=facts, table=table)
    bound: dict = {}
    if form is None:
        notice, status = _notice(request, str(COMPOSE_NOT_NOW), "error", REFUSED)
    elif not form.is_valid():
        notice, status = _notice(request, str(FORM_HAS_ERRORS), "error", REFUSED)
        bound[kind] = form  # the game's table partial shows it again as typed
    else:
        notice, status = _submit_action(
            request, session, None, form.action(), form.cleaned_data["version"], form.cleaned_data.get("key")
        )
        if status == REFUSED:
            form.add_error(None, notice["text"])
            bound[kind] = form
        else:  # a game may keep some of it for the next action (the King's Dilemma's effects)
            bound["applied"] = form
    if request.htmx:
        context = screens.table_screen(session=session, notice=notice, bound=bound)
        return render(request, "games/table.html#table-panel", context, status=status)
    keeps = callable(getattr(form, "kept", None))  # a form that keeps some of itself once applied
    if not bound or (status != REFUSED and not keeps):
        return redirect("games:session_table", session_id=session.pk)
    # Without a script the page itself shows the form again, as typed or kept for the next effect
    # (a redirect would lose it); the notice is in the messages. A reload sends the same key again:
    # the action is applied once.
    context = screens.table_screen(session=session, bound=bound)
    context.update(_join_context(request, session), closing_notice=_closing_notice(session))
    return render(request, "games/table.html", context, status=status)


FORM_HAS_ERRORS = gettext_lazy("Please correct the fields marked below.")
