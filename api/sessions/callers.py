"""Who is calling a session's API, and what they may do. Who may:

- the host (the logged-in user who created the session; for a campaign's night, while a player
  of the campaign, and its owner too, as on the table page): the table view, the table's actions,
  undo (the host only), every seat's join token; never a seat's private view unless it is the
  host's own seat;
- a seat: the holder of its secret join token (``X-Seat-Token`` header, no login needed: an
  anonymous phone) or the logged-in user who joined it; that seat's view, legal actions and
  actions only (another seat is 403);
- the table view and the log: the host and every seat of the session.

Unknown session or seat: 404. Not allowed: 403 (401 when anonymous without a seat token). The
session views of the API ask only this module who is calling.
"""

from typing import TYPE_CHECKING, Any, NoReturn

from django.contrib.auth.models import AnonymousUser, User
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter
from rest_framework import exceptions
from rest_framework.permissions import AllowAny
from rest_framework.request import Request

from api.base import ChronicleApi
from games import access, selectors
from games.access import SEAT_TOKEN_HEADER, seat_for_join_token, seat_of_token_player, session_of_token_host
from games.models import GameSession, Seat
from games.selectors import SessionView
from games.services.seats import seat_mark_joined

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

NOT_YOUR_SEAT = gettext_lazy("Only this seat's player can see or act for it.")
NOT_THE_HOST = gettext_lazy("Only the host of this session can do that.")
NOT_AT_THE_TABLE = gettext_lazy("Only the host and the players of this session can see it.")

SEAT_TOKEN = OpenApiParameter(
    SEAT_TOKEN_HEADER,
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    required=False,
    description="The seat's secret join token: lets a phone act for this seat without logging in.",
)


def is_host(session: GameSession, user: User | AnonymousUser) -> bool:
    """Who keeps the table: its host, and for a campaign's night the campaign's owner (the
    host's phone died), as the table page (games.access.session_table_open_to)."""
    return access.session_table_open_to(session=session, user=user)


def _seat_by_token(request: Request) -> Seat | None:
    """The seat of the request's X-Seat-Token (with its session: one query, once per request)."""
    if not hasattr(request, "_chronicle_token_seat"):
        token = request.headers.get(SEAT_TOKEN_HEADER, "")
        request._chronicle_token_seat = seat_for_join_token(request, token) if token else None  # type: ignore[attr-defined]  # kept on the request
    return request._chronicle_token_seat  # type: ignore[attr-defined]  # set above


def header_seat(request: Request, session_id: int) -> Seat | None:
    """The seat of the request's X-Seat-Token when it is one of this session's."""
    seat = _seat_by_token(request)
    return seat if seat is not None and seat.session_id == session_id else None


def seat_of_scanned_code(request: Request, token: str) -> Seat | None:
    """The seat a scanned code (its join token, sent in a body) opens, or None."""
    return seat_for_join_token(request, token)


def refuse(request: Request, message: "StrOrPromise") -> NoReturn:
    if not request.user.is_authenticated and not request.headers.get(SEAT_TOKEN_HEADER):
        raise exceptions.NotAuthenticated()
    raise exceptions.PermissionDenied(message)


def may_act_for(request: Request, session: GameSession, seat: Seat) -> bool:
    token_seat = header_seat(request, session.pk)
    if token_seat is not None:
        return token_seat.pk == seat.pk
    return request.user.is_authenticated and seat.user_id == request.user.pk


class SessionApi(ChronicleApi):
    # A view under /api/sessions/<session_id>/: ``self.session`` (404 when unknown). Seat tokens
    # need no login, so each view checks who may itself. (A comment, not a docstring: the schema
    # would give it to every operation as its description, and generated clients as docstrings.)
    #
    # The session row is read once per request: with the seat of the X-Seat-Token (a phone: one
    # query for seat and session), with the seat asked for (a logged-in player), or on its own.

    permission_classes = [AllowAny]
    session_id: int
    _session: GameSession | None = None

    def perform_authentication(self, request: Request) -> None:
        """Lazy (DRF's documented way): a logged-in player's or host's API token is checked in the
        query that reads the seat or the session (``seat_for``, ``require_host``); anything else
        authenticates as usual on the first use of ``request.user``."""

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        super().initial(request, *args, **kwargs)
        self.session_id = kwargs["session_id"]
        token_seat = header_seat(request, self.session_id)
        self._session = token_seat.session if token_seat is not None else None

    @property
    def session(self) -> GameSession:
        if self._session is None:
            self._session = get_object_or_404(GameSession, pk=self.session_id)
        return self._session

    def require_host(self) -> None:
        if self._session is None:
            self._session = session_of_token_host(self.request, session_id=self.session_id)
        if not is_host(self.session, self.request.user):
            refuse(self.request, NOT_THE_HOST)

    def require_at_table(self) -> None:
        if is_host(self.session, self.request.user) or header_seat(self.request, self.session.pk):
            return
        user = self.request.user
        if user.is_authenticated and self.session.seats.filter(user=user).exists():
            return
        refuse(self.request, NOT_AT_THE_TABLE)

    def seat_for(self, seat_index: int) -> Seat:
        """The seat, for its own player only."""
        token_seat = header_seat(self.request, self.session_id)
        if token_seat is not None and token_seat.index == seat_index:
            return token_seat  # read with its session already
        if self._session is None:
            seat = seat_of_token_player(self.request, session_id=self.session_id, index=seat_index)
            if seat is not None:
                self._session = seat.session
                return seat  # its player's token: read with the seat and the session
        if self._session is None:
            seats = Seat.objects.select_related("session").filter(session_id=self.session_id)
            seat = get_object_or_404(seats, index=seat_index)
            self._session = seat.session
        else:
            seat = get_object_or_404(Seat, session=self.session, index=seat_index)
            seat.session = self.session
        if not may_act_for(self.request, self.session, seat):
            refuse(self.request, NOT_YOUR_SEAT)
        return seat

    def open_seat_for(self, seat_index: int) -> Seat:
        """The seat, for its own player; a phone opening it with its token has joined it."""
        seat = self.seat_for(seat_index)
        if header_seat(self.request, self.session_id) is not None and selectors.seat_is_open(seat=seat):
            seat_mark_joined(seat=seat)
        return seat

    def etag(self, what: str, seat: Seat | None = None) -> str:
        """A weak ETag of an answer about this session: what it is, the session, its version and
        status (a seat closes with its session), and whose it is. The session row alone gives it."""
        session, whose = self.session, "table" if seat is None else f"seat{seat.index}"
        return f'W/"{what}-{session.pk}-{session.version}-{session.status}-{whose}"'

    def seat_view(self, seat: Seat) -> SessionView:
        """The seat's view while the session runs; once it is over, the closed seat's (the result,
        no hand, no choices)."""
        if selectors.seat_is_open(seat=seat):
            return selectors.session_view_for_seat(session=self.session, seat=seat)
        return selectors.session_view_for_closed_seat(session=self.session, seat=seat)
