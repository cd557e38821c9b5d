"""Who may see or act for a seat or a night's table: the one rule, asked by the phone's pages, the
API and the event streams alike.

- **A seat's join token** is the key to its seat (``seat_for_join_token``): read here, compared in
  constant time, kept to its session when one is named; guessing is rate limited, and only misses
  count, so a table of phones behind one address is never slowed by its own play. The API and the
  streams send it in a header (``SEAT_TOKEN_HEADER``), never in the address (which ends up in logs).
- **A night's table** is its host's (``session_kept_by``); a campaign's night is also its owner's,
  and its host's only while they play in the campaign. What a campaign says is asked of the rule the
  campaign registers (``register_campaign_night_rule``): this app knows nothing of campaigns.
- **An API token** is read by the reader the API registers (``register_api_tokens``): the streams
  learn its account, and the API's seat and table views check it in the query that reads what it
  acts on.

Nothing registered is nothing allowed: without the campaign's rule no one but a plain session's host
keeps a table; without the API's reader an API token opens nothing.
"""

from __future__ import annotations

import secrets
import threading
from dataclasses import dataclass
from typing import Any, Protocol

from django.db import connections, router
from django.db.models import FETCH_ONE, CharField, F, Q, QuerySet, Value
from django.db.models.expressions import BaseExpression
from django.db.models.query import get_related_populators
from django.http import HttpRequest
from django_ratelimit.core import is_ratelimited
from django_ratelimit.exceptions import Ratelimited

from config.api_errors import TOO_MANY_ATTEMPTS
from games.models import GameSession, Seat

MISSES_PER_MINUTE = "30/m"

# How the API and the streams send a seat's token: a header, never the address (which ends up in logs).
SEAT_TOKEN_HEADER = "X-Seat-Token"

# ---- What the apps above register --------------------------------------------------------------


class CampaignNightRule(Protocol):
    """Whether ``user`` keeps the table of a night of campaign ``campaign_id`` (``hosting``: they
    are the night's host)."""

    def __call__(self, *, campaign_id: int, user: Any, hosting: bool) -> bool: ...


class MemberNames(Protocol):
    """The display name a user has in a campaign, as a subquery (None: none)."""

    def __call__(self, *, campaign_id: Any, user_id: Any) -> BaseExpression: ...


class TokenRefused(Exception):
    """The request sends an API token that is unknown, expired or of an inactive account."""


class ApiTokens(Protocol):
    """The API's tokens, as the access rule needs them."""

    def key(self, request: HttpRequest) -> str | None:
        """The token the request sends in its Authorization header, or None."""

    def user(self, request: HttpRequest) -> Any:
        """The token's user (None: no token sent); TokenRefused when the token is refused."""

    def held_by(self, account: str, key: str) -> Q:
        """The filter that keeps rows whose ``account`` (a relation to the user) holds ``key``."""

    def columns(self, account: str) -> dict[str, F]:
        """What to read of the token with such a row (``signed_in`` receives it)."""

    def signed_in(self, request: HttpRequest, user: Any, row: Any) -> bool:
        """Authenticate the request as ``user`` when the token read with ``row`` is still valid."""


@dataclass
class _Hooks:
    campaign_night_rule: CampaignNightRule | None = None
    member_names: MemberNames | None = None
    api_tokens: ApiTokens | None = None


hooks = _Hooks()


def register_campaign_night_rule(rule: CampaignNightRule) -> None:
    hooks.campaign_night_rule = rule


def register_member_names(names: MemberNames) -> None:
    hooks.member_names = names


def register_api_tokens(tokens: ApiTokens) -> None:
    hooks.api_tokens = tokens


# ---- A seat's join token ---------------------------------------------------------------------


@dataclass(frozen=True)
class _TokenQuery:
    """The query of a seat by its token, with its session, as Django compiles it, with what turns
    its row into the two objects. Every page, panel and API call of a phone asks it, and compiling
    it (the seat's and the session's columns, the join) cost more CPU than running it: compiled
    once per database and thread (a compiler holds its thread's connection)."""

    sql: str
    converters: dict
    compiler: Any
    init_list: list[str]
    columns: slice
    populators: list


_token_queries = threading.local()
_TOKEN_PLACEHOLDER = "token-placeholder"


def _token_query(using: str) -> _TokenQuery:
    kept: dict[str, _TokenQuery] = _token_queries.__dict__.setdefault("by_database", {})
    prepared = kept.get(using)
    if prepared is not None:
        return prepared
    # The token is unique: no ordering (a join and a sort), no limit.
    queryset = Seat.objects.using(using).select_related("session").filter(token=_TOKEN_PLACEHOLDER).order_by()
    compiler = queryset.query.get_compiler(using=using)
    sql, params = compiler.as_sql()
    if list(params) != [_TOKEN_PLACEHOLDER]:  # a query of another shape: never run it with the token
        raise ValueError(f"The seat-by-token query has parameters {params!r}.")
    info = compiler.klass_info
    fields = info["select_fields"]
    columns = slice(fields[0], fields[-1] + 1)
    prepared = _TokenQuery(
        sql=sql,
        converters=compiler.get_converters([column[0] for column in compiler.select]),
        compiler=compiler,
        init_list=[column[0].target.attname for column in compiler.select[columns]],
        columns=columns,
        populators=get_related_populators(info, compiler.select, using, FETCH_ONE),
    )
    kept[using] = prepared
    return prepared


def session_for_token(*, token: str) -> Seat | None:
    """The seat a join token opens (with its session), or None: the query Django would run for
    ``Seat.objects.select_related("session").get(token=token)``, its SQL compiled once."""
    if not token:
        return None
    using = router.db_for_read(Seat)
    prepared = _token_query(using)
    with connections[using].cursor() as cursor:
        cursor.execute(prepared.sql, [token])
        rows = cursor.fetchall()
    if not rows:
        return None
    (row,) = prepared.compiler.apply_converters(rows, prepared.converters) if prepared.converters else rows
    seat = Seat.from_db(using, prepared.init_list, row[prepared.columns])
    for populator in prepared.populators:
        populator.populate(row, seat)
    return seat


def seat_for_join_token(request: HttpRequest, token: str, *, session_id: int | None = None) -> Seat | None:
    """The seat of a join token (compared in constant time), of session ``session_id`` when one is
    named, or None; too many unknown tokens from one address -> Ratelimited."""
    seat = session_for_token(token=token) if token else None
    if seat is not None and not secrets.compare_digest(seat.token, token):
        seat = None
    if seat is None and is_ratelimited(
        request,
        group="seat-token-miss",
        key="ip",
        rate=MISSES_PER_MINUTE,
        method=is_ratelimited.ALL,
        increment=True,
    ):
        raise Ratelimited()
    if seat is not None and session_id is not None and seat.session_id != session_id:
        return None  # a real seat of another session: no guess, not a miss
    return seat


# ---- A night's table -------------------------------------------------------------------------


def session_table_for(*, session_id: int, user: Any) -> GameSession | None:
    """The session when ``user`` may open its table screen (every join code is on it): its host,
    and for a night of a campaign the campaign's owner too (the host's phone died); else
    None, as for a session that does not exist."""
    # With its night (the table's forms ask whether its result is recorded): one query.
    session = GameSession.objects.select_related("campaign", "chronicle_game").filter(pk=session_id).first()
    if session is None or not session_table_open_to(session=session, user=user):
        return None
    return session


def session_table_open_to(*, session: GameSession, user: Any) -> bool:
    """Whether ``user`` may open the session's table (the page, its stream, the API's table views):
    its host, and for a night of a campaign the campaign's owner (a query only then); not staff,
    who see another group's seat codes only in the admin (kept to this machine under make run). A
    campaign's night is its host's while they play in the campaign, asked at every request: a host
    removed from it, or made a viewer, loses the table at once."""
    if user is None or not user.is_authenticated:
        return False
    return session_kept_by(session=session, user=user)


def session_kept_by(*, session: GameSession, user: Any) -> bool:
    """Whether ``user`` keeps the session's table now: its host, and for a night of a campaign what
    the campaign's rule says (its host while a player or owner of the campaign, and its owner)."""
    if user is None or not user.is_authenticated:
        return False
    if session.campaign_id is None:
        return session.host_id == user.pk
    rule = hooks.campaign_night_rule
    if rule is None:
        return False  # no campaign to ask: nobody keeps a campaign's night
    return rule(campaign_id=session.campaign_id, user=user, hosting=session.host_id == user.pk)


def member_name(*, campaign_id: Any, user_id: Any) -> BaseExpression:
    """The display name of a user in a campaign (ids or outer references), as the campaign keeps
    it; None without one (the pages then show the username)."""
    names = hooks.member_names
    if names is None:
        return Value(None, output_field=CharField())
    return names(campaign_id=campaign_id, user_id=user_id)


# ---- A player's own seats --------------------------------------------------------------------


def seats_of_user(*, user: Any, campaign: Any = None) -> QuerySet[Seat]:
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


def seat_of_user(*, user: Any, session_id: int) -> Seat | None:
    """The seat ``user`` holds at this session (running or not), or None."""
    if user is None or not user.is_authenticated:
        return None
    return Seat.objects.filter(user=user, session_id=session_id).select_related("session").first()


# ---- A logged-in player's API token, checked in the query that reads what it acts on ----------
# On a miss (no such token, not this seat's player, expired, inactive) the caller falls back to the
# usual authentication, which gives the usual answer (401 for a bad token, 403 for another's seat).


def _token_key(request: HttpRequest) -> str | None:
    tokens = hooks.api_tokens
    if tokens is None or "_user" in request.__dict__:
        return None
    return tokens.key(request)


def seat_of_token_player(request: HttpRequest, *, session_id: int, index: int) -> Seat | None:
    """The seat (with its session) whose player holds the request's API token, the request then
    authenticated as that player: one query. None on a miss (nothing authenticated)."""
    key = _token_key(request)
    if key is None or hooks.api_tokens is None:
        return None
    tokens = hooks.api_tokens
    seat = (
        Seat.objects.select_related("session", "user")
        .filter(tokens.held_by("user", key), session_id=session_id, index=index, user__is_active=True)
        .annotate(**tokens.columns("user"))
        .first()
    )
    if seat is None or not tokens.signed_in(request, seat.user, seat):
        return None
    return seat


def session_of_token_host(request: HttpRequest, *, session_id: int) -> GameSession | None:
    """The session whose host holds the request's API token, the request then authenticated as
    the host: one query. None on a miss (nothing authenticated)."""
    key = _token_key(request)
    if key is None or hooks.api_tokens is None:
        return None
    tokens = hooks.api_tokens
    session = (
        GameSession.objects.select_related("host")
        .filter(tokens.held_by("host", key), pk=session_id, host__is_active=True)
        .annotate(**tokens.columns("host"))
        .first()
    )
    if session is None or not tokens.signed_in(request, session.host, session):
        return None
    return session


# ---- Who reads a session's event stream ------------------------------------------------------
# Open to the people of the API's table view: the host (session cookie, or an API token sent as
# ``Authorization: Bearer``/``Token``), a seat's X-Seat-Token (a phone: no token in the address),
# and a logged-in player holding a seat. Every reader gets the same nudges.

STREAM_NOT_FOUND = "No such session, or not yours to follow: its host, its seats and their players may."
STREAM_TOKEN_REFUSED = "The token sent is unknown or expired: log in again for a new one."
STREAM_NO_CREDENTIALS = "Send the seat's X-Seat-Token, or an API token as 'Authorization: Bearer <token>'."


@dataclass(frozen=True)
class Refusal:
    status: int  # 401, 404 or 429
    message: str
    code: str | None = None  # the API's error code, when not the status's own (config/api_errors.py)


def request_user(request: HttpRequest) -> Any:
    """The API token's user when the request sends one (Refusal 401 if it is refused, or when no
    reader of API tokens is registered), else the session cookie's."""
    tokens = hooks.api_tokens
    if tokens is None:
        if request.headers.get("Authorization"):
            return Refusal(401, STREAM_TOKEN_REFUSED, "authentication_failed")
        return request.user
    try:
        found = tokens.user(request)
    except TokenRefused:
        return Refusal(401, STREAM_TOKEN_REFUSED, "authentication_failed")
    return request.user if found is None else found


def request_account(request: HttpRequest) -> int | None:
    """The account a request counts against (the streams' caps): its API token's, else its
    session cookie's; None for a phone known by its seat token alone."""
    user = request_user(request)
    if isinstance(user, Refusal) or not user.is_authenticated:
        return None
    return user.pk


def _seat_reader(request: HttpRequest, session_id: int, token: str) -> int | Refusal:
    try:
        seat = seat_for_join_token(request, token, session_id=session_id)
    except Ratelimited:
        return Refusal(429, str(TOO_MANY_ATTEMPTS))
    if seat is None:
        return Refusal(404, STREAM_NOT_FOUND)
    return seat.index


def session_stream_reader(request: HttpRequest, session_id: int) -> int | None | Refusal:
    """Who reads the session's stream: a seat's index, None for the table (the host), or a Refusal."""
    token = request.headers.get(SEAT_TOKEN_HEADER, "")
    if token:
        return _seat_reader(request, session_id, token)
    user = request_user(request)
    if isinstance(user, Refusal):
        return user
    if session_table_for(session_id=session_id, user=user) is not None:
        return None
    held = seat_of_user(user=user, session_id=session_id)
    if held is not None:
        return held.index
    if not user.is_authenticated:
        return Refusal(401, STREAM_NO_CREDENTIALS)
    return Refusal(404, STREAM_NOT_FOUND)
