"""A session's seats through the API: joining one, its code shown again or replaced, its view, its
choices and its actions, and finding a seat from a scanned code."""

from collections.abc import Callable
from typing import ClassVar

from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import exceptions, serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from api.base import ChronicleApi
from api.errors import errors
from api.fields import StrictBooleanField, StrictCharField
from api.sessions.callers import (
    SEAT_TOKEN,
    SessionApi,
    header_seat,
    is_host,
    may_act_for,
    refuse,
    seat_of_scanned_code,
)
from api.sessions.etags import ETAG, IF_NONE_MATCH, NOT_MODIFIED, with_etag
from api.sessions.serializers import (
    ChoiceSerializer,
    SeatSerializer,
    SubmitInputSerializer,
    SubmitOutputSerializer,
    ViewSerializer,
)
from api.sessions.submit import IDEMPOTENCY_KEY, submit_action
from api.sessions.view_data import view_data
from api.sessions.views import TAGS
from games import selectors, versions
from games.models import Seat
from games.presenters.base import presenter_for
from games.services.seats import (
    SEAT_CODE_SESSION_OVER,
    seat_mark_joined,
    seat_rotate_token,
    seat_show_code_again,
    session_seat_claim,
)

ASK_THE_HOST = gettext_lazy("Ask the host for this seat's link (its join token).")
LOG_IN_TO_CLAIM = gettext_lazy("Log in to join a seat with your account.")
SEAT_TAKEN_BY_PHONE = gettext_lazy(
    "A phone has joined this seat: its token is that phone's. Show its code again or give it a new one."
)
SEAT_TOKEN_UNKNOWN = gettext_lazy(
    "No seat opens with this code: scan it again, or ask the host to show the seat's code again."
)


class SeatTokenUnknown(exceptions.NotFound):
    """A seat token no seat has (mistyped, or the host gave the seat a new one): 404, code seat_token_unknown."""

    default_detail = SEAT_TOKEN_UNKNOWN
    default_code = "seat_token_unknown"


class SeatJoinApi(SessionApi):
    class InputSerializer(serializers.Serializer):
        claim = StrictBooleanField(
            default=False,
            help_text="Link the seat to your account (logged in): then your login is enough to play it.",
        )

    class OutputSerializer(SeatSerializer):
        token = StrictCharField(help_text="Send it as X-Seat-Token to act for this seat.")

    @extend_schema(
        tags=TAGS,
        summary="Join a seat: its token (for the host, or whoever holds the seat's link)",
        description="Gives the seat's join token to the host, or to whoever already holds it (a phone sending "
        "it as X-Seat-Token: the phone has then joined the seat). `claim: true`, logged in, links the seat to "
        "your account: your login then opens it. Once a phone has joined the seat, only that phone may (400).",
        request=InputSerializer,
        parameters=[SEAT_TOKEN],
        responses={200: OutputSerializer, **errors(400, 401, 403, 404)},
    )
    def post(self, request: Request, session_id: int, seat_index: int) -> Response:
        seat = get_object_or_404(Seat, session=self.session, index=seat_index)
        seat.session = self.session
        own = may_act_for(request, self.session, seat)
        if not (is_host(self.session, request.user) or own):
            refuse(request, ASK_THE_HOST)
        if not selectors.seat_is_open(seat=seat):
            raise exceptions.ValidationError(SEAT_CODE_SESSION_OVER)
        data = self.input(request)
        by_phone = header_seat(request, self.session.pk) is not None and own
        if not own and selectors.seat_is_joined(seat=seat):
            raise exceptions.ValidationError(SEAT_TAKEN_BY_PHONE)
        if data["claim"]:
            if not request.user.is_authenticated:
                raise exceptions.ValidationError(LOG_IN_TO_CLAIM)
            seat = session_seat_claim(session=self.session, seat=seat, user=request.user, by_phone=by_phone)
        if by_phone:
            seat_mark_joined(seat=seat)
        return Response(self.OutputSerializer(seat).data)


class _SeatCodeApi(SessionApi):
    # The host changes how a seat is opened (a lost phone).

    class OutputSerializer(SeatSerializer):
        token = StrictCharField(help_text="The seat's join token now: give it to its player only.")

    # The service that changes the seat's code: each operation below names its own.
    change: ClassVar[Callable[..., Seat]]

    def post(self, request: Request, session_id: int, seat_index: int) -> Response:
        self.require_host()
        seat = get_object_or_404(Seat, session=self.session, index=seat_index)
        seat.session = self.session
        return Response(self.OutputSerializer(self.change(seat=seat)).data)


def _seat_code_schema(summary: str, description: str) -> Callable[[type], type]:
    return extend_schema_view(
        post=extend_schema(
            tags=TAGS,
            summary=summary,
            description=description,
            request=None,
            responses={200: _SeatCodeApi.OutputSerializer, **errors(400, 401, 403, 404)},
        )
    )


@_seat_code_schema(
    "Show a seat's code on the table again (host; same token): its phone was closed or lost",
    "The host only. The seat counts as not joined again and the table shows its QR code; the token stays "
    "the same. Answers the seat with its token. A session over, or a bot's seat: 400.",
)
class SeatShowCodeApi(_SeatCodeApi):
    change = staticmethod(seat_show_code_again)


@_seat_code_schema(
    "Give a seat a new token (host): the old one stops opening the seat",
    "The host only. The old token stops working at once (and an account linked through it is unlinked); "
    "the session's version moves on. Answers the seat with its new token: show it to its player only.",
)
class SeatRotateTokenApi(_SeatCodeApi):
    change = staticmethod(seat_rotate_token)


class SeatViewApi(SessionApi):
    @extend_schema(
        tags=TAGS,
        summary="A seat's private view (its hand, its secrets; nobody else's); once the session is over, "
        "the result without the hand",
        description="The seat's own view: its hand and secrets (never another seat's), its legal actions, who "
        "must act. For the seat's phone (X-Seat-Token) or its player's login; another seat is 403. Once the "
        "session is over the seat is closed: the result, no hand, no choices. Send the ETag back as "
        "If-None-Match: 304 while nothing changed (cheap polling).",
        parameters=[SEAT_TOKEN, IF_NONE_MATCH, ETAG],
        responses={200: ViewSerializer, 304: NOT_MODIFIED, **errors(401, 403, 404)},
    )
    def get(self, request: Request, session_id: int, seat_index: int) -> Response:
        seat = self.open_seat_for(seat_index)
        return with_etag(request, self.etag("view", seat), lambda: view_data(self.seat_view(seat)))


class SeatLegalActionsApi(SessionApi):
    class OutputSerializer(serializers.Serializer):
        class TitledChoiceSerializer(serializers.Serializer):
            choice = ChoiceSerializer()
            title = StrictCharField(help_text="The choice in the game's words.")

        version = serializers.IntegerField(help_text="Send it back as expected_version.")
        seat = serializers.IntegerField()
        choices = TitledChoiceSerializer(many=True)

    @extend_schema(
        tags=TAGS,
        summary="What this seat may do now: each choice with its parameters, bounds and title",
        description="The seat's choices now, each with its parameters and their bounds (build one control per "
        "parameter) and a title for its button, and the version to send back as expected_version. For the "
        "seat's phone or its player. ETag and If-None-Match as on the seat view.",
        parameters=[SEAT_TOKEN, IF_NONE_MATCH, ETAG],
        responses={200: OutputSerializer, 304: NOT_MODIFIED, **errors(401, 403, 404)},
    )
    def get(self, request: Request, session_id: int, seat_index: int) -> Response:
        seat = self.open_seat_for(seat_index)
        return with_etag(request, self.etag("actions", seat), lambda: self.choices(seat))

    def choices(self, seat: Seat) -> dict:
        view = self.seat_view(seat)
        # The version's seats as its screens have them (kept by the writer at the commit): no query.
        infos = versions.session_version_facts(session=self.session).infos
        words = presenter_for(self.session.game).words(view["view"], infos, view["legal_actions"])
        choices = [{"choice": choice, "title": words.title(choice)} for choice in view["legal_actions"]]
        data = {"version": view["version"], "seat": seat.index, "choices": choices}
        return _LEGAL_ACTIONS_OUTPUT.to_representation(data)


# One serializer for every answer: DRF copies a serializer's fields (its nested ones too) whenever one
# is made, and representing data reads them without changing them.
_LEGAL_ACTIONS_OUTPUT = SeatLegalActionsApi.OutputSerializer()


class SeatActionSubmitApi(SessionApi):
    @extend_schema(
        tags=TAGS,
        summary="Submit an action for this seat (stale expected_version: 409)",
        description="Submits one of the seat's choices with a value per parameter and the version it saw. "
        "Requires an Idempotency-Key: a new key per action; after a lost answer, send the same request with the "
        "same key (never applied twice). Answers the logged action and the seat's view after it: draw it, no "
        "second request. A stale version is 409 with extra.current_version; a move against the rules is 400.",
        request=SubmitInputSerializer,
        parameters=[SEAT_TOKEN, IDEMPOTENCY_KEY],
        responses={200: SubmitOutputSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, session_id: int, seat_index: int) -> Response:
        seat = self.open_seat_for(seat_index)
        return submit_action(request, self.session, seat)


class SeatFindApi(ChronicleApi):
    # The token travels in the body, never in an address (addresses end up in logs). Unknown tokens
    # count against the same per-address limit as every other use of a seat token (games.access).
    authentication_classes: list = []
    permission_classes = [AllowAny]

    class InputSerializer(serializers.Serializer):
        token = StrictCharField(
            max_length=100,
            help_text="The seat's join token: the last part of the address in the seat's QR code "
            "(.../play/seat/<token>/).",
        )

    class OutputSerializer(serializers.Serializer):
        session = serializers.IntegerField(help_text="The session's id.")
        seat = serializers.IntegerField(help_text="The seat's index in the session (table order).")
        seat_name = StrictCharField(help_text="The seat's name (for a campaign's night: its House).")
        game = StrictCharField(help_text="The game's slug (GET /api/games/).")
        version = serializers.IntegerField(help_text="The session's version now.")
        view_url = StrictCharField(help_text="Path of the seat's view (GET, with X-Seat-Token).")
        actions_url = StrictCharField(help_text="Path of the seat's choices (GET, with X-Seat-Token).")
        submit_url = StrictCharField(
            help_text="Path to submit an action (POST, with X-Seat-Token and Idempotency-Key)."
        )
        stream_url = StrictCharField(help_text="Path of the session's event stream (GET, with X-Seat-Token).")

    @extend_schema(
        tags=TAGS,
        summary="Find the session and seat of a scanned seat code",
        description="A phone that scanned a seat's QR code sends the token it holds (the last part of the "
        "address) and gets the session, the seat, the game and the paths to play it: then send the token as "
        "X-Seat-Token on each of them. No login needed. An unknown token (mistyped, or replaced by the host) "
        "is 404 with code seat_token_unknown; too many unknown tokens from one address are 429.",
        request=InputSerializer,
        responses={200: OutputSerializer, **errors(400, 404, 429)},
    )
    def post(self, request: Request) -> Response:
        token = self.input(request)["token"]
        seat = seat_of_scanned_code(request, token)
        if seat is None:
            raise SeatTokenUnknown()
        return Response(self.OutputSerializer(_seat_found(seat)).data)


def _seat_found(seat: Seat) -> dict:
    at = {"session_id": seat.session_id, "seat_index": seat.index}
    return {
        "session": seat.session_id,
        "seat": seat.index,
        "seat_name": seat.name,
        "game": seat.session.game,
        "version": seat.session.version,
        "view_url": reverse("api:seat-view", kwargs=at),
        "actions_url": reverse("api:seat-legal-actions", kwargs=at),
        "submit_url": reverse("api:seat-action-submit", kwargs=at),
        "stream_url": reverse("api:session-events", kwargs={"session_id": seat.session_id}),
    }
