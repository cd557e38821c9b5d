"""Server-rendered table companion pages: the host's table screen and each player's phone.

The host (logged in) sees the table view, the join links and the log; a phone opens its seat with
the secret join token and sees only that seat's view. Pages poll a cheap version endpoint and
reload when the table moved on (htmx), and work without JavaScript.
"""

from __future__ import annotations

import json
import secrets

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRefresh, HttpResponseStopPolling

from games import nudges, selectors, services
from games.engine.errors import RuleError
from games.forms import ActionForm, SessionCreateForm
from games.models import GameSession, Seat

RULE_BROKEN = "{message}"
ACTION_APPLIED = "Done: {label}."
UNDONE = "Undone: {label}."
ABANDONED = "The session was abandoned."
GAME_OVER = "The game is over."

# ---- A small generic renderer of view dicts (definition lists and tables) ----------------


def _words(key: str) -> str:
    return str(key).replace("_", " ").capitalize()


def _scalar(value) -> str:
    if value is None:
        return "—"
    if value is True:
        return "yes"
    if value is False:
        return "no"
    return str(value)


def render_value(value) -> SafeString:
    """Any JSON value as readable HTML: dicts as definition lists, lists of dicts as tables."""
    if isinstance(value, dict):
        if not value:
            return mark_safe('<span class="muted">—</span>')
        rows = format_html_join(
            "", "<dt>{}</dt><dd>{}</dd>", ((_words(k), render_value(v)) for k, v in value.items())
        )
        return format_html('<dl class="view">{}</dl>', rows)
    if isinstance(value, list):
        if not value:
            return mark_safe('<span class="muted">none</span>')
        if all(isinstance(item, dict) for item in value):
            keys: list[str] = []
            for item in value:
                keys += [k for k in item if k not in keys]
            head = format_html_join("", "<th>{}</th>", ((_words(k),) for k in keys))
            body = format_html_join(
                "",
                "<tr>{}</tr>",
                (
                    (format_html_join("", "<td>{}</td>", ((render_value(item.get(k)),) for k in keys)),)
                    for item in value
                ),
            )
            return format_html(
                '<div class="scroll"><table><thead><tr>{}</tr></thead><tbody>{}</tbody></table></div>',
                head,
                body,
            )
        return format_html_join(", ", "{}", ((render_value(item),) for item in value))
    return format_html("{}", _scalar(value))


# ---- Helpers -----------------------------------------------------------------------------


def _host_session(request: HttpRequest, session_id: int) -> GameSession:
    """The session, for its host (or staff) only: the table page shows every join token."""
    session = GameSession.objects.filter(pk=session_id).first()
    if session is None:
        raise Http404
    user = request.user
    if not (user.is_authenticated and (session.host_id == user.pk or user.is_staff)):
        raise Http404
    return session


def _seat(token: str) -> Seat:
    seat = selectors.session_for_token(token=token)
    if seat is None:
        raise Http404
    return seat


def _choices(session: GameSession, legal_actions: list[dict]) -> list[dict]:
    """One button per legal action: its JSON and a sentence."""
    rules = services.session_rules(session)
    choices = []
    for action in legal_actions:
        try:
            label = rules.describe(session.state, action)
        except Exception:  # a label must never break the page
            label = _words(action.get("type", "?"))
        details = ", ".join(f"{_words(k)}: {v}" for k, v in action.items() if k not in ("type", "seat"))
        choices.append({"json": json.dumps(action), "label": label, "details": details})
    return choices


def _error_text(exc: ValidationError) -> str:
    return " ".join(exc.messages)


def _poll_context(session: GameSession) -> dict:
    return {"polling": session.status == GameSession.Status.ACTIVE}


# ---- Pages -------------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def session_list(request: HttpRequest) -> HttpResponse:
    """Your sessions, and the form to start a new one."""
    form = SessionCreateForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            session = services.session_create(
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
        {"form": form, "sessions": selectors.session_list(host=request.user)},
        status=400 if request.method == "POST" else 200,
    )


@login_required
@require_GET
def session_table(request: HttpRequest, session_id: int) -> HttpResponse:
    """The host's screen: the table view, the join links, the log, Undo."""
    session = _host_session(request, session_id)
    table = selectors.session_view_for_table(session=session)
    seats = [
        {
            "seat": seat,
            "link": request.build_absolute_uri(reverse("games:seat_page", args=[seat.token])),
        }
        for seat in selectors.session_seats(session=session)
    ]
    names = {s["seat"].index: s["seat"].name for s in seats}
    context = {
        "session": session,
        "game_name": services.session_rules(session).name,
        "table": table,
        "table_html": render_value(table["view"]),
        "result_html": render_value(table["result"]) if table["over"] else "",
        "to_act": ["the table" if i is None else names.get(i, i) for i in table["active_seats"]],
        "seats": seats,
        "log": list(reversed(selectors.session_log(session=session))),
        "undoable": selectors.session_undoable_action(session=session),
        "choices": _choices(session, table["legal_actions"]),
        "key": secrets.token_urlsafe(12),
        **_poll_context(session),
    }
    template = "games/table.html"
    if request.htmx:
        template += "#table-panel"
    return render(request, template, context)


@login_required
@require_POST
def session_table_action(request: HttpRequest, session_id: int) -> HttpResponse:
    """An action of the table itself (the host's screen)."""
    session = _host_session(request, session_id)
    _submit(request, session, None)
    return redirect("games:session_table", session_id=session.pk)


@login_required
@require_POST
def session_undo(request: HttpRequest, session_id: int) -> HttpResponse:
    session = _host_session(request, session_id)
    last = selectors.session_last_action(session=session)
    try:
        services.session_undo(session=session, by=request.user)
    except ValidationError as exc:
        messages.error(request, _error_text(exc))
    else:
        messages.success(request, UNDONE.format(label=last.label if last else ""))
    return redirect("games:session_table", session_id=session.pk)


@login_required
@require_POST
def session_abandon(request: HttpRequest, session_id: int) -> HttpResponse:
    session = _host_session(request, session_id)
    try:
        services.session_abandon(session=session)
    except ValidationError as exc:
        messages.error(request, _error_text(exc))
    else:
        messages.success(request, ABANDONED)
    return redirect("games:session_table", session_id=session.pk)


@require_GET
def session_version(request: HttpRequest, session_id: int) -> HttpResponse:
    """The cheap polling endpoint: 204 while the session is still at version ``v``, 286 (stop
    polling) when it is over, and when it moved on a reload (htmx) or the new version (JSON)."""
    try:
        seen = int(request.GET.get("v", ""))
    except ValueError:
        seen = -1
    if nudges.cached_version(session_id) == seen:
        return HttpResponse(status=204)
    row = selectors.session_current_version(session_id=session_id)
    if row is None:
        raise Http404
    version, status = row
    nudges.remember_version(session_id, version)
    if version == seen:
        if status != GameSession.Status.ACTIVE:
            return HttpResponseStopPolling()
        return HttpResponse(status=204)
    if request.htmx:
        return HttpResponseClientRefresh()
    return JsonResponse({"session": session_id, "version": version, "status": status})


@require_http_methods(["GET", "POST"])
def seat_page(request: HttpRequest, token: str) -> HttpResponse:
    """A player's phone: their own view and one button per legal action."""
    seat = _seat(token)
    session = seat.session
    if request.method == "POST":
        _submit(request, session, seat)
        return redirect("games:seat_page", token=token)
    mine = selectors.session_view_for_seat(session=session, seat=seat)
    names = dict(session.seats.values_list("index", "name"))
    context = {
        "session": session,
        "seat": seat,
        "game_name": services.session_rules(session).name,
        "mine": mine,
        # An engine view's "private" part (hand, own cards) first, then what everybody sees.
        "private_html": render_value(mine["view"]["private"]) if mine["view"].get("private") else "",
        "view_html": render_value({k: v for k, v in mine["view"].items() if k != "private"}),
        "result_html": render_value(mine["result"]) if mine["over"] else "",
        "to_act": ["the table" if i is None else names.get(i, i) for i in mine["active_seats"]],
        "choices": [] if seat.is_bot else _choices(session, mine["legal_actions"]),
        "log": list(reversed(selectors.session_log(session=session)))[:15],
        "key": secrets.token_urlsafe(12),
        **_poll_context(session),
    }
    template = "games/seat.html"
    if request.htmx:
        template += "#seat-panel"
    return render(request, template, context)


def _submit(request: HttpRequest, session: GameSession, seat: Seat | None) -> None:
    """Apply a posted action and say what happened (stale: the new state and a clear message)."""
    form = ActionForm(request.POST)
    if not form.is_valid():
        messages.error(request, " ".join(e for errors in form.errors.values() for e in errors))
        return
    try:
        logged = services.session_submit_action(
            session=session,
            seat=seat,
            action=form.cleaned_data["action"],
            expected_version=form.cleaned_data["version"],
            idempotency_key=form.cleaned_data["key"] or None,
        )
    except services.StaleVersion as exc:
        messages.warning(request, exc.message)
    except RuleError as exc:
        messages.error(request, RULE_BROKEN.format(message=exc.message))
    except ValidationError as exc:
        messages.error(request, _error_text(exc))
    else:
        messages.success(request, ACTION_APPLIED.format(label=logged.label))
