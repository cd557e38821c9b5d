"""Read-only views of game sessions. Selectors never write (not even a cache: what a version keeps
is ``games.versions``).

A seat sees the engine's view for that seat (its own hand, nobody else's); the table sees the
engine's view for ``None`` (no hand at all).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any, Protocol, TypedDict

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser, User
from django.db.models import OuterRef, QuerySet
from django.db.models.expressions import BaseExpression
from django.utils.translation import pgettext

from games import access
from games.engines.kernel.choices import Choice
from games.engines.kernel.registry import get_game, slugs
from games.engines.kernel.rules import TABLE, GameRules
from games.models import GameSession, Seat, SessionAction
from games.translation import say_stored

AnyUser = User | AnonymousUser | None  # who asks: a request's user, or nobody

OPENS_FROM_CAMPAIGN = "{name} can open it from their campaign page (or scan the code)."


def game_choices() -> list[dict]:
    """The games whose rules are installed (an engine still being written is left out)."""
    found = []
    for slug in slugs():
        try:
            rules = get_game(slug)
        except (ImportError, AttributeError, KeyError):
            continue
        found.append(
            {"slug": slug, "name": rules.name, "min_seats": rules.min_seats, "max_seats": rules.max_seats}
        )
    return found


def _rules(session: GameSession) -> GameRules:
    return get_game(session.game)


class SessionView(TypedDict):
    """What one seat (or the table) may see of a session, declared once: ``_view`` builds it, and the
    API's ``ViewSerializer`` and ``view_data`` (api/sessions/) follow from this declaration
    (the words beside a type are its help text in the API schema). A new field is one line here
    and its value in ``_view``."""

    session: int
    game: str
    version: int
    status: str
    seat: Annotated[int | None, "null: the table view."]
    view: Annotated[dict[str, Any], "The engine's view: this seat's hand, nobody else's."]
    legal_actions: Annotated[
        list[Choice], "Each choice with its parameters and their bounds (never one entry per amount)."
    ]
    to_act: Annotated[
        list[int | None],
        "Who must act now (seat indexes, null: the table); empty once the game is over. A choice open to "
        "anyone (open: true, a gift of Coins during another House's vote) never puts its seat here.",
    ]
    active_seats: Annotated[list[int | None], "The same as to_act, kept for older clients (null: the table)."]
    over: bool
    result: dict[str, Any] | None


def _view(session: GameSession, seat_index: int | None) -> SessionView:
    rules = _rules(session)
    state = session.state
    running = session.is_running
    over = rules.is_over(state)
    return SessionView(
        session=session.pk,
        game=session.game,
        version=session.version,
        status=session.status,
        seat=seat_index,
        view=rules.view(state, seat_index),
        legal_actions=rules.legal_actions(state, seat_index) if running else [],
        to_act=rules.to_act(state) if running else [],
        active_seats=rules.active_seats(state) if running else [],
        over=over,
        result=rules.result(state) if over else None,
    )


def session_view_for_seat(*, session: GameSession, seat: Seat) -> SessionView:
    """What one seat may see: the engine's view for it, its legal actions, whose turn it is."""
    return _view(session, seat.index)


def session_view_for_closed_seat(*, session: GameSession, seat: Seat) -> SessionView:
    """A seat once its session is over: what the table shows (the result), never its hand, and no
    legal actions (docs/operations.md, "Seat codes")."""
    closed = _view(session, TABLE)
    closed["seat"] = seat.index
    return closed


def session_legal_actions(*, session: GameSession, seat_index: int | None) -> list[Choice]:
    """What one seat (None: the table) may do now, and nothing else (a tap reads only this; the
    view is not built); nothing once the session is over."""
    if not session.is_running:
        return []
    return _rules(session).legal_actions(session.state, seat_index)


def session_view_for_table(*, session: GameSession) -> SessionView:
    """What the table screen shows: the engine's view for nobody (no hand), and the table's own
    legal actions (host actions, e.g. typing a card's outcome)."""
    return _view(session, TABLE)


def session_log(*, session: GameSession, since_version: int = 0, include_undone: bool = False) -> list[dict]:
    """The story so far, oldest first: one sentence per action."""
    names = {s.index: s.name for s in session.seats.all()}  # the prefetched seats, when there are
    table, seat = pgettext("who acted", "Table"), pgettext("who acted", "Seat {index}")

    def who(index: int | None) -> str:
        return table if index is None else names[index] if index in names else seat.format(index=index)

    actions = session.actions.filter(version__gt=since_version).order_by("seq")
    if not include_undone:
        actions = actions.filter(undone=False)
    return [
        {
            "seq": a.seq,
            "version": a.version,
            "seat": a.seat,
            "seat_name": who(a.seat),
            "label": say_stored(a.label_data, english=a.label),  # in the reader's language
            "undone": a.undone,
            "created": a.created,
        }
        for a in actions
    ]


def session_last_action(*, session: GameSession) -> SessionAction | None:
    return session.actions.filter(undone=False).order_by("-seq").first()


class LoggedRow(Protocol):
    """An action of the log as read: its row, or as the screens keep it (``games.versions.LoggedAction``)."""

    @property
    def seq(self) -> int: ...

    @property
    def undoable(self) -> bool | None: ...


def session_undoable_action(
    *, session: GameSession, latest: Sequence[LoggedRow] | None = None
) -> SessionAction | LoggedRow | None:
    """The action Undo would drop, when the engine allows it (the automatic deal never; nothing
    once the game is over: a finished session is never reopened). ``latest``: the newest actions
    in force when already read (``games.versions.VersionFacts.latest``)."""
    if not session.is_running:
        return None
    last: SessionAction | LoggedRow | None
    last = session_last_action(session=session) if latest is None else next(iter(latest), None)
    if last is None or (last.seq == 1 and _rules(session).opening_action is not None):
        return None  # the opening action (the deal) is never undone
    return last if session_action_undoable(session=session, action=last) else None


def session_action_undoable(*, session: GameSession, action: SessionAction | LoggedRow) -> bool:
    """Whether the host may undo ``action``, the last one in force: as recorded when it was applied
    (never once it revealed something hidden). An action logged before that was recorded is asked
    of the engine with the state before it, from a replay of the log up to it."""
    if action.undoable is not None:
        return action.undoable
    if not isinstance(action, SessionAction):  # as a screen keeps it: the row, for its payload
        action = session.actions.get(seq=action.seq)
    rules = _rules(session)
    before = rules.setup(session.config, session.seed)
    earlier = session.actions.filter(undone=False, seq__lt=action.seq).order_by("seq")
    for payload in earlier.values_list("payload", flat=True):
        before = rules.apply(before, payload)
    return rules.undoable(before, action.payload, rules.apply(before, action.payload))


def seat_is_joined(*, seat: Seat) -> bool:
    """A phone opened the seat with its token, or a player linked it to their account (the API's
    claim). A seat a campaign's night gave to its House's player is joined once a device opened it:
    until then the table keeps its code (games/selectors.py, session_join_cards)."""
    if seat.joined_at is not None:
        return True
    return seat.user_id is not None and seat.session.campaign_id is None


def seat_is_open(*, seat: Seat) -> bool:
    """The seat's token still opens its private view: only while the session runs."""
    return seat.session.is_running


def session_join_cards(*, session: GameSession) -> list[dict]:
    """What the table screen shows of each seat's key: the code only while the session runs, for a
    seat no phone has joined yet, never for a bot. (The link itself is shown only on request.)"""
    running = session.is_running
    players = _players_opening_from_campaign(session=session) if running else {}
    cards = []
    for seat in session_seats(session=session):
        player = players.get(seat.pk)
        joined = seat_is_joined(seat=seat)
        cards.append(
            {
                "seat": seat,
                "joined": joined,
                "show_code": running and not seat.is_bot and not joined,
                "can_change": running and not seat.is_bot,
                "opens_from_campaign": OPENS_FROM_CAMPAIGN.format(name=player) if player else "",
            }
        )
    return cards


def session_seats(*, session: GameSession) -> QuerySet[Seat]:
    """In table order (Seat's own ordering), from the prefetched seats when there are; else read
    with their players' accounts and, for a campaign's night, their names in the campaign (one
    query either way)."""
    if "seats" in getattr(session, "_prefetched_objects_cache", {}):
        return session.seats.all()
    seats = session.seats.select_related("user")
    if session.campaign_id is None:
        return seats  # no campaign, no names in it: the players' usernames (nothing asked of the hook)
    return seats.annotate(member_name=_member_name())


def _member_name() -> BaseExpression:
    """The display name the seat's player has in the night's campaign (None: none)."""
    return access.member_name(campaign_id=OuterRef("session__campaign_id"), user_id=OuterRef("user_id"))


def session_list(*, host: AnyUser = None) -> QuerySet[GameSession]:
    sessions = GameSession.objects.prefetch_related("seats")
    if isinstance(host, AnonymousUser):  # nobody's list (the pages ask only for a signed-in host's)
        return sessions.none()
    if host is not None:
        sessions = sessions.filter(host=host)
    return sessions.order_by("-last_activity")


def session_current_version(*, session_id: int) -> tuple[int, str] | None:
    """(version, status) straight from the database: one indexed read for the polling endpoint."""
    return GameSession.objects.filter(pk=session_id).values_list("version", "status").first()


# ---- The players of a campaign's night (a night started from the campaign gives each House's seat
# to the account that plays it) ------------------------------------------------------------------


def _players_opening_from_campaign(*, session: GameSession) -> dict[int, str]:
    """Seat id -> the name (in the campaign) of the account that holds the seat of a campaign's night and has not
    opened it yet (its code stays on the table beside the name)."""
    if session.campaign_id is None:
        return {}
    seats = {
        seat.pk: seat.user_id
        for seat in session_seats(session=session)
        if seat.user_id is not None and seat.joined_at is None and not seat.is_bot
    }
    if not seats:
        return {}
    named = access.member_name(campaign_id=session.campaign_id, user_id=OuterRef("pk"))
    users = get_user_model().objects.filter(pk__in=set(seats.values())).annotate(member_name=named)
    names = {user.pk: user.member_name or user.get_username() for user in users}
    return {seat_id: names[user_id] for seat_id, user_id in seats.items() if user_id in names}
