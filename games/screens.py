"""The screens of a session: what the table page and a phone's seat page draw (docs/architecture.md,
"The path of a tap").

Each screen is built from one read of the session (the row the page already holds, its seats with
their players, the newest actions of its log: never the whole log) and one computation of each
view (``games.selectors``); what a version keeps (its facts, the panels its screens share) is
``games.versions``. The presenters get plain data (the views, the seats' infos,
``SessionFacts``) and do no I/O. A page view parses the request, calls a service, asks a screen
here for its context and renders it.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable, Mapping
from typing import Any, cast

from django.conf import settings
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from games import selectors, versions
from games.engines.kernel.registry import get_game
from games.models import GameSession, Seat
from games.presenters.base import (
    GENERIC,
    Presenter,
    SessionFacts,
    ink_on,
    key_words,
    presenter_for,
    scalar_words,
    seat_hex,
    seat_name,
)
from games.translation import say_to_reader

# ---- The seats, as the presenters know them -----------------------------------------------


def session_seat_infos(session: GameSession) -> dict[int, dict]:
    return versions.seat_infos(selectors.session_seats(session=session))


def session_facts(session: GameSession, infos: dict[int, dict]) -> SessionFacts:
    """What a presenter knows of the session besides its views (read with the session row)."""
    return SessionFacts(
        id=session.pk,
        version=session.version,
        campaign_id=session.campaign_id,
        seats=infos,
        night_recorded=versions.night_recorded(session),
    )


# ---- Shared pieces -----------------------------------------------------------------------


def poll_context(session: GameSession) -> dict:
    return {
        "polling": session.is_running,
        "poll_ms": round(settings.LIVE_POLL_SECONDS * 1000),
        "version_url": reverse("games:session_version", args=[session.pk])
        + f"?v={session.version}&k={versions.poll_key(session.pk)}",
    }


def _names_of(active: list, infos: dict[int, dict]) -> list[str]:
    return [seat_name(infos, i) for i in active]


def _drawn_by(presenter: Presenter, present: dict | None) -> Presenter:
    """Whose partials draw the panel: the game's when its presenter presented the view, else the
    generic ones (the raw view, tidily)."""
    return presenter if present else GENERIC


def _plain(view: selectors.SessionView) -> dict[str, Any]:
    """A session view as the presenters' hooks take it: a plain dict (the same object)."""
    return cast(dict[str, Any], view)


def _game_name(session: GameSession) -> str:
    return say_to_reader(get_game(session.game).name)


def _split_open(groups: list[dict]) -> dict:
    """The seat's own decisions, and what is open to anyone without claiming the turn (a choice
    the engine offers a seat that is not in the view's ``to_act``: the controls mark it ``open``)."""
    open_ = [g for g in groups if g.get("open")]
    return {"groups": [g for g in groups if not g.get("open")], "open_groups": open_}


# ---- A phone: one seat --------------------------------------------------------------------


def _seat_head(seat: Seat) -> dict:
    """The top of a seat's page: its name in its colour, the game's name."""
    return {
        "session": seat.session,
        "seat": seat,
        "seat_hex": seat_hex(seat.colour),
        "seat_ink": ink_on(seat_hex(seat.colour)),
        "game_name": _game_name(seat.session),
    }


def _my_turn(seat: Seat, view: object) -> bool:
    """Only the seat the game waits for has its turn (the view's ``to_act``)."""
    return isinstance(view, dict) and seat.index in (view.get("to_act") or [])


def _controls(
    presenter: Presenter, choices: list[dict], view: dict, infos: dict[int, dict], step: Any
) -> list[dict]:
    """The game's words of the choices first, as plain data, then the controls built from them: one
    call each way, so the shared code never calls back into the game's presenter."""
    words = presenter.words(view, infos, choices)
    return presenter.controls(choices, view, words, step)


def _raw_seat_view(view: dict, mine: dict, present: dict | None) -> dict:
    """A game without a presenter of its own: its view, tidily (the generic presenter)."""
    if present:
        return {"private_html": "", "view_html": "", "result_html": ""}
    return {
        "private_html": render_value(view["private"]) if view.get("private") else "",
        "view_html": render_value({k: v for k, v in view.items() if k not in ("private", "you")}),
        "result_html": render_value(mine["result"]) if mine["over"] else "",
    }


def seat_screen(
    *,
    seat: Seat,
    step: Mapping[str, str] | None = None,
    notice: dict | None = None,
    infos: dict[int, dict] | None = None,
) -> dict:
    """A phone's panel: the seat's view (computed once), its controls, the newest actions.
    ``step``: the values a step-by-step choice carries (the page's query); ``infos``: the seats'
    infos when already read."""
    session = seat.session
    facts = versions.session_version_facts(session=session)
    infos = facts.infos if infos is None else infos
    mine = _plain(selectors.session_view_for_seat(session=session, seat=seat))
    view = mine["view"]
    presenter = presenter_for(session.game)
    present = presenter.present(view, infos, mine["result"])
    groups = [] if seat.is_bot else _controls(presenter, mine["legal_actions"], view, infos, step)
    url = reverse("games:seat_page", args=[seat.token])
    return {
        **_seat_head(seat),
        "mine": mine,
        "present": present,
        "game_template": _drawn_by(presenter, present).template("seat"),
        "private": presenter.private(view),
        **_raw_seat_view(view, mine, present),
        "to_act": _names_of(mine["active_seats"], infos),
        "my_turn": _my_turn(seat, view),
        **_split_open(groups),
        "log": facts.latest[: versions.SEAT_LOG],
        "action_url": url,
        "panel_url": url,
        "panel_id": "seat-panel",
        "key": secrets.token_urlsafe(12),
        "notice": notice,
        **poll_context(session),
    }


def closed_seat_screen(*, seat: Seat) -> dict:
    """A seat's link once the session is over: the final result as the table shows it, with no
    private hand and no controls (docs/operations.md, "Seat codes")."""
    session = seat.session
    table = selectors.session_view_for_table(session=session)
    presenter = presenter_for(session.game)
    present = presenter.present(table["view"], session_seat_infos(session), table["result"])
    return {
        **_seat_head(seat),
        "table": table,
        "present": present,
        "result_template": presenter.template("result") if present and present.get("result") else None,
        "result_html": render_value(table["result"]) if table["over"] and not present else "",
    }


# ---- The table (the host's screen) ----------------------------------------------------------


def table_screen(
    *,
    session: GameSession,
    notice: dict | None = None,
    bound: dict | None = None,
    infos: dict[int, dict] | None = None,
) -> dict:
    """The host's panel: the table view (computed once), the table's choices and forms, the newest
    actions and the one Undo would drop. ``bound``: refused forms, shown again as typed."""
    shared = versions.session_version_facts(session=session)
    infos = shared.infos if infos is None else infos
    table = _plain(selectors.session_view_for_table(session=session))
    presenter = presenter_for(session.game)
    present = presenter.present(table["view"], infos, table["result"])
    latest = shared.latest
    choices = presenter.table_choices(table["legal_actions"])
    facts = session_facts(session, infos)
    return {
        "session": session,
        "game_name": _game_name(session),
        "table": table,
        "present": present,
        "game_template": _drawn_by(presenter, present).template("table"),
        "table_html": "" if present else render_value(table["view"]),
        "result_html": render_value(table["result"]) if table["over"] and not present else "",
        "to_act": _names_of(table["active_seats"], infos),
        "log": latest,
        "undoable": selectors.session_undoable_action(session=session, latest=latest),
        "groups": _controls(presenter, choices, table["view"], infos, None),
        **presenter.table_forms(facts=facts, table=table, bound=bound or {}),
        "action_url": reverse("games:session_table_action", args=[session.pk]),
        "panel_url": reverse("games:session_table", args=[session.pk]),
        "panel_id": "table-panel",
        "key": secrets.token_urlsafe(12),
        "notice": notice,
        **poll_context(session),
    }


def compose_facts(session: GameSession) -> tuple[dict, SessionFacts]:
    """The table view and the facts a game's own table form is bound with."""
    table = _plain(selectors.session_view_for_table(session=session))
    return table, session_facts(session, session_seat_infos(session))


def join_screen(*, session: GameSession, base: str, qr: Callable[[str], str]) -> dict:
    """The join panel: each seat's code while nobody has joined it (never a bot's), its link only
    on request, and the host's tools for a lost phone. ``base``: the address phones reach;
    ``qr(link) -> svg``."""
    cards = selectors.session_join_cards(session=session)
    for card in cards:
        seat = card["seat"]
        card["hex"] = seat_hex(seat.colour)
        if card["show_code"]:
            card["link"] = base + reverse("games:seat_page", args=[seat.token])
            card["qr"] = qr(card["link"])
    return {
        "session": session,
        "seats": cards,
        "phone_base": base,
        "codes_showing": any(c["show_code"] for c in cards),
        "joins_url": reverse("games:session_table", args=[session.pk]) + "?part=joins",
    }


def session_rows(sessions: Iterable[GameSession]) -> list[dict]:
    """The list of a host's sessions: each with its game's name and its seats' colours."""
    names = {g["slug"]: say_to_reader(g["name"]) for g in selectors.game_choices()}
    return [
        {
            "session": s,
            "game_name": names.get(s.game, key_words(s.game)),
            "seats": [{"name": seat.name, "hex": seat_hex(seat.colour)} for seat in s.seats.all()],
        }
        for s in sessions
    ]


# ---- A view without a presenter, as readable HTML ----------------------------------------


def render_value(value: Any) -> SafeString:
    """Any JSON value as readable HTML: dicts as definition lists, lists of dicts as tables."""
    if isinstance(value, dict):
        if not value:
            return mark_safe('<span class="muted">—</span>')
        rows = format_html_join(
            "", "<dt>{}</dt><dd>{}</dd>", ((key_words(k), render_value(v)) for k, v in value.items())
        )
        return format_html('<dl class="view">{}</dl>', rows)
    if isinstance(value, list):
        if not value:
            return format_html('<span class="muted">{}</span>', _("none"))
        if all(isinstance(item, dict) for item in value):
            keys: list[str] = []
            for item in value:
                keys += [k for k in item if k not in keys]
            head = format_html_join("", "<th>{}</th>", ((key_words(k),) for k in keys))
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
    return format_html("{}", scalar_words(value))
