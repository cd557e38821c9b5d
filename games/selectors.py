"""Read-only views of game sessions. Selectors never write.

A seat sees the engine's view for that seat (its own hand, nobody else's); the table sees the
engine's view for ``None`` (no hand at all).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields
from typing import Annotated, Any, TypedDict

from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db.models import OuterRef, QuerySet, Subquery

from campaign.access import Need, Role, campaign_role_by_id, role_allows
from campaign.models import Membership
from games.engines.kernel.choices import Choice
from games.engines.kernel.registry import get_game, slugs
from games.engines.kernel.rules import TABLE, GameRules
from games.models import GameSession, Seat, SessionAction
from games.presenters.common import seat_hex

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
    actions = session.actions.filter(version__gt=since_version).order_by("seq")
    if not include_undone:
        actions = actions.filter(undone=False)
    return [
        {
            "seq": a.seq,
            "version": a.version,
            "seat": a.seat,
            "seat_name": "Table" if a.seat is None else names.get(a.seat, f"Seat {a.seat}"),
            "label": a.label,
            "undone": a.undone,
            "created": a.created,
        }
        for a in actions
    ]


def session_last_action(*, session: GameSession) -> SessionAction | None:
    return session.actions.filter(undone=False).order_by("-seq").first()


# ---- What every screen of one version shares -------------------------------------------------
# The seats (what a presenter knows of each) and the newest actions in force change only with a new
# version (a seat claimed by an account moves the version on too: services.session_seat_claim), so
# the screens of one version (each seat's phone, the table) read them once between them. The writer
# of an action makes them from the version before's (the same seats, its action first) and keeps
# them at the commit (games.services), before any screen is nudged; a new session reads its first
# version's at the commit; a screen that finds none (after an undo, a seat claimed, the cache
# emptied) reads them and keeps them. Kept in Django's cache by session, version and the row's last
# write: ``updated`` is in the key, so a version written and rolled back never lends its facts to
# the version that replaces it.

SEAT_LOG = 8  # the newest actions a phone shows ("Latest")
TABLE_LOG = 30  # the newest actions the table shows
FACTS_CACHE_SECONDS = 300


@dataclass(frozen=True, slots=True)
class LoggedAction:
    """An action of the log as the screens show it: never its payload (light to keep and read)."""

    seq: int
    seat: int | None
    label: str
    undoable: bool | None
    version: int


LOGGED_FIELDS = tuple(f.name for f in fields(LoggedAction))  # read as they are named on the row


@dataclass(frozen=True)
class VersionFacts:
    infos: dict[int, dict]  # seat index -> what a presenter knows of the seat (``seat_infos``)
    latest: tuple[LoggedAction, ...]  # the TABLE_LOG newest actions in force, newest first


def _player(seat: Seat) -> str:
    """The name of who plays the seat (a campaign night gives each House's seat to its player: their
    display name in the campaign, else their username), when read with the seat: never a query of
    its own."""
    if seat.user_id is None or not type(seat).user.is_cached(seat) or seat.user is None:
        return ""
    return getattr(seat, "member_name", "") or seat.user.get_username()


def seat_infos(seats: Iterable[Seat]) -> dict[int, dict]:
    """Index -> what a presenter knows of a seat (index, name, colour, bot, player), from seats read
    once (``session_seats``)."""
    return {
        s.index: {
            "index": s.index,
            "name": s.name,
            "hex": seat_hex(s.colour),
            "is_bot": s.is_bot,
            "player": _player(s),
        }
        for s in seats
    }


def version_key(session: GameSession) -> str:
    """The session at its version, as written: what a panel or the facts of a version are kept by."""
    written = session.updated.timestamp() if session.updated else ""
    return f"{session.pk}:{session.version}:{written}"


def version_facts_read(*, session: GameSession) -> VersionFacts:
    """The version's facts from the database (two queries): the seats with their players, and the
    newest actions in force up to this version."""
    latest = session.actions.filter(undone=False, version__lte=session.version).order_by("-seq")
    return VersionFacts(
        infos=seat_infos(session_seats(session=session)),
        latest=tuple(LoggedAction(*row) for row in latest.values_list(*LOGGED_FIELDS)[:TABLE_LOG]),
    )


def logged_action(logged: SessionAction) -> LoggedAction:
    return LoggedAction(*(getattr(logged, name) for name in LOGGED_FIELDS))


def version_facts_after(*, before: str, action: LoggedAction) -> VersionFacts | None:
    """The facts of the version ``action`` made, from those of the version before it (``before``:
    its ``version_key``) when they are kept: the same seats, ``action`` first. None otherwise."""
    kept = cache.get(f"facts:{before}")
    if kept is None:
        return None
    return VersionFacts(infos=kept.infos, latest=(action, *kept.latest[: TABLE_LOG - 1]))


def version_facts_keep(*, key: str, facts: VersionFacts) -> None:
    cache.set(f"facts:{key}", facts, FACTS_CACHE_SECONDS)


def session_version_facts(*, session: GameSession) -> VersionFacts:
    """The facts of the session's version: as kept by its writer or an earlier screen, else read
    and kept."""
    key = version_key(session)
    facts = cache.get(f"facts:{key}")
    if facts is None:
        facts = version_facts_read(session=session)
        version_facts_keep(key=key, facts=facts)
    return facts


def session_undoable_action(
    *, session: GameSession, latest: Sequence[LoggedAction] | None = None
) -> SessionAction | LoggedAction | None:
    """The action Undo would drop, when the engine allows it (the automatic deal never; nothing
    once the game is over: a finished session is never reopened). ``latest``: the newest actions
    in force when already read (``VersionFacts.latest``)."""
    if not session.is_running:
        return None
    last: SessionAction | LoggedAction | None
    last = session_last_action(session=session) if latest is None else next(iter(latest), None)
    if last is None or (last.seq == 1 and _rules(session).opening_action is not None):
        return None  # the opening action (the deal) is never undone
    return last if session_action_undoable(session=session, action=last) else None


def session_action_undoable(*, session: GameSession, action: SessionAction | LoggedAction) -> bool:
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


def session_for_token(*, token: str) -> Seat | None:
    """The seat a join token opens (with its session), or None."""
    if not token:
        return None
    try:  # the token is unique: get() asks for it without the seats' ordering (a join and a sort)
        return Seat.objects.select_related("session").get(token=token)
    except Seat.DoesNotExist:
        return None


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
    with their players' accounts (one query either way)."""
    if "seats" in getattr(session, "_prefetched_objects_cache", {}):
        return session.seats.all()
    return session.seats.select_related("user").annotate(member_name=_member_name())


def _member_name() -> Subquery:
    """The display name the seat's player has in the night's campaign (None: none)."""
    named = Membership.objects.filter(
        campaign_id=OuterRef("session__campaign_id"), user_id=OuterRef("user_id")
    )
    return Subquery(named.values("display_name")[:1])


def session_list(*, host=None) -> QuerySet[GameSession]:
    sessions = GameSession.objects.prefetch_related("seats")
    if host is not None:
        sessions = sessions.filter(host=host)
    return sessions.order_by("-last_activity")


def session_current_version(*, session_id: int) -> tuple[int, str] | None:
    """(version, status) straight from the database: one indexed read for the polling endpoint."""
    return GameSession.objects.filter(pk=session_id).values_list("version", "status").first()


def session_table_for(*, session_id: int, user) -> GameSession | None:
    """The session when ``user`` may open its table screen (every join code is on it): its host,
    and for a night of a campaign the campaign's owner too (the host's phone died); else
    None, as for a session that does not exist."""
    # With its night (the table's forms ask whether its result is recorded): one query.
    session = GameSession.objects.select_related("campaign", "chronicle_game").filter(pk=session_id).first()
    if session is None or not session_table_open_to(session=session, user=user):
        return None
    return session


def session_table_open_to(*, session: GameSession, user) -> bool:
    """Whether ``user`` may open the session's table (the page, its stream, the API's table views):
    its host, and for a night of a campaign the campaign's owner (a query only then); not staff,
    who see another group's seat codes only in the admin (kept to this machine under make run). A
    campaign's night is its host's while they play in the campaign, asked at every request: a host
    removed from it, or made a viewer, loses the table at once."""
    if user is None or not user.is_authenticated:
        return False
    return session_kept_by(session=session, user=user)


def session_kept_by(*, session: GameSession, user) -> bool:
    """Whether ``user`` keeps the session's table now: its host, and for a night of a campaign its
    host while a player (or owner) of the campaign, and the campaign's owner."""
    if user is None or not user.is_authenticated:
        return False
    if session.campaign_id is None:
        return session.host_id == user.pk
    role = campaign_role_by_id(campaign_id=session.campaign_id, user=user)
    return role == Role.OWNER or (session.host_id == user.pk and role_allows(role, Need.PLAY))


# ---- A player's own seats (issue 24: a night started from the campaign gives each House's seat to
# the account that plays it) ----------------------------------------------------------------


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
    named = Membership.objects.filter(campaign_id=session.campaign_id, user_id=OuterRef("pk"))
    users = get_user_model().objects.filter(pk__in=set(seats.values()))
    users = users.annotate(member_name=Subquery(named.values("display_name")[:1]))
    names = {user.pk: user.member_name or user.get_username() for user in users}
    return {seat_id: names[user_id] for seat_id, user_id in seats.items() if user_id in names}


def seats_of_user(*, user, campaign=None) -> QuerySet[Seat]:
    """The seats ``user`` holds at sessions still running (of one campaign when given), newest
    session first, each with its session."""
    if user is None or not user.is_authenticated:
        return Seat.objects.none()
    seats = Seat.objects.filter(user=user, session__status=GameSession.Status.ACTIVE).select_related(
        "session"
    )
    if campaign is not None:
        seats = seats.filter(session__campaign=campaign)
    return seats.order_by("-session__last_activity", "session_id", "index")


def seat_of_user(*, user, session_id: int) -> Seat | None:
    """The seat ``user`` holds at this session (running or not), or None."""
    if user is None or not user.is_authenticated:
        return None
    return Seat.objects.filter(user=user, session_id=session_id).select_related("session").first()
