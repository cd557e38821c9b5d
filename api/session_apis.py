"""Table sessions (For the King, Council of Four, a King's Dilemma game night) through the
games services. Who may:

- the host (the logged-in user who created the session; for a campaign's night, while a player
  of the campaign, and its owner too, as on the table page): the table view, the table's actions, undo (the host only),
  every seat's join token; never a seat's private view unless it is the host's own seat;
- a seat: the holder of its secret join token (``X-Seat-Token`` header, no login needed: an
  anonymous phone) or the logged-in user who joined it; that seat's view, legal actions and
  actions only (another seat is 403);
- the table view and the log: the host and every seat of the session.

Unknown session or seat: 404. Not allowed: 403 (401 when anonymous without a seat token).
"""

import hashlib
import json
from collections.abc import Callable
from types import UnionType
from typing import Annotated, Any, Union, get_args, get_origin, get_type_hints

from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.http import parse_etags
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_field,
    extend_schema_view,
)
from rest_framework import exceptions, serializers, status
from rest_framework.generics import GenericAPIView
from rest_framework.permissions import AllowAny
from rest_framework.response import Response

from api.base import ChronicleApi
from api.errors import errors
from api.pagination import ChroniclePagination
from api.serializers import NameField, StrictBooleanField, StrictCharField, StrictIntegerField
from api.view_schema import settings_schema
from games import access, selectors
from games.access import SEAT_TOKEN_HEADER, seat_for_join_token, seat_of_token_player, session_of_token_host
from games.engines.kernel.choices import Choice
from games.engines.kernel.contract import check_value, settings_type_for
from games.engines.kernel.registry import get_game
from games.models import GameSession, Seat
from games.presenters import presenter_for
from games.screens import session_seat_infos
from games.selectors import SessionView
from games.services.seats import (
    SEAT_CODE_SESSION_OVER,
    seat_mark_joined,
    seat_rotate_token,
    seat_show_code_again,
    session_seat_claim,
)
from games.services.sessions import session_create
from games.services.taps import session_submit_action
from games.services.undo import session_undo

TAGS = ["sessions"]
MAX_ACTION_JSON = 10_000

NOT_YOUR_SEAT = "Only this seat's player can see or act for it."
NOT_THE_HOST = "Only the host of this session can do that."
NOT_AT_THE_TABLE = "Only the host and the players of this session can see it."
ASK_THE_HOST = "Ask the host for this seat's link (its join token)."
LOG_IN_TO_CLAIM = "Log in to join a seat with your account."
SEAT_TAKEN_BY_PHONE = (
    "A phone has joined this seat: its token is that phone's. Show its code again or give it a new one."
)
NO_NUL = "{what} cannot contain NUL characters."
SEAT_TOKEN_UNKNOWN = (
    "No seat opens with this code: scan it again, or ask the host to show the seat's code again."
)
TOO_BIG = "An action is at most 10000 characters of JSON."
IDEMPOTENCY_KEY_REQUIRED = "Send an Idempotency-Key header with each action: a new key for a new action, the same key to send it again."
CONFIG_WRONG = "Not a setting of this game as GET /api/games/ describes it: {what}."

SEAT_TOKEN = OpenApiParameter(
    SEAT_TOKEN_HEADER,
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    required=False,
    description="The seat's secret join token: lets a phone act for this seat without logging in.",
)
IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key",
    {"type": "string", "minLength": 1, "maxLength": 100, "pattern": "^[^\\s\\x00]([^\\x00]*[^\\s\\x00])?$"},
    OpenApiParameter.HEADER,
    required=True,
    description="Required: a new key (up to 100 characters) for each new action. Sending the same key again "
    "(a retry after a lost answer) returns the action already applied, never applies it twice.",
)


IF_NONE_MATCH = OpenApiParameter(
    "If-None-Match",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    required=False,
    description="The ETag of the answer you have: while nothing changed, the answer is 304 with no body "
    "(cheap: poll this way when the event stream is refused).",
)
ETAG = OpenApiParameter(
    "ETag",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    response=[200, 304],
    description="A weak validator of this answer: send it back as If-None-Match.",
)
NOT_MODIFIED = OpenApiResponse(description="Nothing changed since the ETag sent in If-None-Match: no body.")


def etag_matches(request, etag: str) -> bool:
    """Whether If-None-Match names ``etag`` (the weak comparison: W/ prefixes aside) or is ``*``."""
    sent = parse_etags(request.headers.get("If-None-Match", ""))
    return "*" in sent or etag.removeprefix("W/") in {tag.removeprefix("W/") for tag in sent}


def with_etag(request, etag: str, build: Callable[[], Any]) -> Response:
    """304 when the client has ``etag`` already (``build`` is not called), else ``build()``'s data."""
    if etag_matches(request, etag):
        return Response(status=status.HTTP_304_NOT_MODIFIED, headers={"ETag": etag})
    return Response(build(), headers={"ETag": etag})


class SeatTokenUnknown(exceptions.NotFound):
    """A seat token no seat has (mistyped, or the host gave the seat a new one): 404, code seat_token_unknown."""

    default_detail = SEAT_TOKEN_UNKNOWN
    default_code = "seat_token_unknown"


class IdempotencyKeyRequired(exceptions.APIException):
    """A submit without its Idempotency-Key (shared decision 5): 400, code idempotency_key_required."""

    status_code = status.HTTP_400_BAD_REQUEST
    default_detail = IDEMPOTENCY_KEY_REQUIRED
    default_code = "idempotency_key_required"


# ---- Access ------------------------------------------------------------------------------


def _is_host(session: GameSession, user) -> bool:
    """Who keeps the table: its host, and for a campaign's night the campaign's owner (the
    host's phone died), as the table page (games.access.session_table_open_to)."""
    return access.session_table_open_to(session=session, user=user)


def _seat_by_token(request) -> Seat | None:
    """The seat of the request's X-Seat-Token (with its session: one query, once per request)."""
    if not hasattr(request, "_chronicle_token_seat"):
        token = request.headers.get(SEAT_TOKEN_HEADER, "")
        request._chronicle_token_seat = seat_for_join_token(request, token) if token else None
    return request._chronicle_token_seat


def _token_seat(request, session_id: int) -> Seat | None:
    seat = _seat_by_token(request)
    return seat if seat is not None and seat.session_id == session_id else None


def _refuse(request, message: str):
    if not request.user.is_authenticated and not request.headers.get(SEAT_TOKEN_HEADER):
        raise exceptions.NotAuthenticated()
    raise exceptions.PermissionDenied(message)


def _may_act_for(request, session: GameSession, seat: Seat) -> bool:
    token_seat = _token_seat(request, session.pk)
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

    def perform_authentication(self, request):
        """Lazy (DRF's documented way): a logged-in player's or host's API token is checked in the
        query that reads the seat or the session (``seat_for``, ``require_host``); anything else
        authenticates as usual on the first use of ``request.user``."""

    def initial(self, request, *args, **kwargs):
        super().initial(request, *args, **kwargs)
        self.session_id = kwargs["session_id"]
        token_seat = _token_seat(request, self.session_id)
        self._session = token_seat.session if token_seat is not None else None

    @property
    def session(self) -> GameSession:
        if self._session is None:
            self._session = get_object_or_404(GameSession, pk=self.session_id)
        return self._session

    def require_host(self) -> None:
        if self._session is None:
            self._session = session_of_token_host(self.request, session_id=self.session_id)
        if not _is_host(self.session, self.request.user):
            _refuse(self.request, NOT_THE_HOST)

    def require_at_table(self) -> None:
        if _is_host(self.session, self.request.user) or _token_seat(self.request, self.session.pk):
            return
        user = self.request.user
        if user.is_authenticated and self.session.seats.filter(user=user).exists():
            return
        _refuse(self.request, NOT_AT_THE_TABLE)

    def seat_for(self, seat_index: int) -> Seat:
        """The seat, for its own player only."""
        token_seat = _token_seat(self.request, self.session_id)
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
        if not _may_act_for(self.request, self.session, seat):
            _refuse(self.request, NOT_YOUR_SEAT)
        return seat

    def open_seat_for(self, seat_index: int) -> Seat:
        """The seat, for its own player; a phone opening it with its token has joined it."""
        seat = self.seat_for(seat_index)
        if _token_seat(self.request, self.session_id) is not None and selectors.seat_is_open(seat=seat):
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


# ---- Serializers -------------------------------------------------------------------------


def _json_without_nul(value, what: str):
    text = json.dumps(value)
    if "\\u0000" in text:
        raise serializers.ValidationError(NO_NUL.format(what=what))
    return text


class SeatSerializer(serializers.Serializer):
    index = serializers.IntegerField()
    name = StrictCharField()
    colour = StrictCharField()
    is_bot = serializers.BooleanField()
    joined = serializers.SerializerMethodField(
        help_text="A phone opened this seat with its token, or a logged-in player linked it to their account."
    )

    def get_joined(self, seat: Seat) -> bool:
        return selectors.seat_is_joined(seat=seat)


class SessionSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    game = StrictCharField()
    status = StrictCharField(help_text="active, finished or abandoned")
    version = serializers.IntegerField(help_text="Grows by one with every change.")
    created = serializers.DateTimeField()
    seats = SeatSerializer(many=True)


class ParamSerializer(serializers.Serializer):
    """One parameter of a choice and its bounds (games/engines/kernel/choices.py)."""

    kind = serializers.ChoiceField(
        choices=["amount", "pick", "cards", "text", "flag", "typed", "payment"],
        help_text="amount: a whole number from min to max; pick: one of options; cards: min to max "
        "distinct options; text: at most max_length characters; flag: true or false; typed: what "
        "the table types from a physical card (schema names it), validated by the engine; payment: "
        "one of options, each a way to pay (submit its cards).",
    )
    min = serializers.IntegerField(required=False)
    max = serializers.IntegerField(required=False)
    options = serializers.ListField(child=serializers.JSONField(), required=False)
    max_length = serializers.IntegerField(required=False)
    schema = serializers.CharField(required=False)
    nonzero = serializers.BooleanField(required=False, help_text="An amount: true means 0 is not offered.")


class ChoiceSerializer(serializers.Serializer):
    """What a seat may do now: submit {"type", "seat", <param>: value, ...} with a value in bounds."""

    type = serializers.CharField()
    seat = serializers.IntegerField(allow_null=True)
    params = serializers.DictField(child=ParamSerializer())
    title = serializers.CharField(
        required=False, help_text='Words for the choice\'s button ("Vote", "Give Coins").'
    )
    open = serializers.BooleanField(
        required=False,
        help_text="True: open to this seat whoever must act now (bargaining: a gift of Coins during "
        "another House's vote). Such a choice never means the game waits for this seat: to_act says who must act.",
    )


def _unwrapped(hint) -> tuple[Any, str, bool]:
    """(the type, its help text, whether it may be null) of a declared field."""
    help_text = ""
    if get_origin(hint) is Annotated:
        hint, help_text = get_args(hint)[0], get_args(hint)[1]
    args = get_args(hint)
    if get_origin(hint) in (Union, UnionType) and type(None) in args:
        return next(a for a in args if a is not type(None)), help_text, True
    return hint, help_text, False


def _field_for(hint) -> serializers.Field:
    """The serializer field of a field declared in ``games.selectors.SessionView``."""
    kind, help_text, nullable = _unwrapped(hint)
    options: dict[str, Any] = {"help_text": help_text} if help_text else {}
    if nullable:
        options["allow_null"] = True
    origin = get_origin(kind) or kind
    if origin is list:
        (item,) = get_args(kind)
        if item is Choice:
            return ChoiceSerializer(many=True, **options)
        return serializers.ListField(child=_field_for(item), **options)
    fields = {int: serializers.IntegerField, str: StrictCharField, bool: serializers.BooleanField}
    if origin is dict:
        return serializers.JSONField(**options)
    return fields[kind](**options)


SESSION_VIEW_FIELDS = get_type_hints(SessionView, include_extras=True)

# What one seat (or the table) may see, from the engine: its fields follow the one declaration,
# games.selectors.SessionView (the API schema, view_data below and the selectors agree by construction).
ViewSerializer = type(
    "ViewSerializer",
    (serializers.Serializer,),
    {
        "__module__": __name__,
        "__doc__": "What one seat (or the table) may see, from the engine.",
        **{name: _field_for(hint) for name, hint in SESSION_VIEW_FIELDS.items()},
    },
)


class LoggedActionSerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    version = serializers.IntegerField(help_text="The session's version right after this action.")
    seat = serializers.IntegerField(allow_null=True)
    label = StrictCharField(help_text="What happened, as a sentence.")  # type: ignore[assignment]  # a field named like Field.label


@extend_schema_field(
    {
        "type": "object",
        "properties": {"type": {"type": "string", "pattern": "^[^\\x00]*$"}},
        "required": ["type"],
        "additionalProperties": True,
    }
)
class ActionField(serializers.DictField):
    """An action: an object with a 'type' (games/services/taps.py refuses any other)."""


class SubmitInputSerializer(serializers.Serializer):
    action = ActionField(help_text="One of the legal actions ({'type': ..., ...}).")
    expected_version = StrictIntegerField(
        min_value=0, max_value=2**31 - 1, help_text="The version your view showed."
    )

    def validate_action(self, action: dict) -> dict:
        if len(_json_without_nul(action, "An action")) > MAX_ACTION_JSON:
            raise serializers.ValidationError(TOO_BIG)
        return action


class SubmitOutputSerializer(serializers.Serializer):
    action = LoggedActionSerializer()
    view = ViewSerializer(help_text="Your view after the action.")


# ---- The answers of every tap, without DRF's field machinery ------------------------------
# A seat view is read on every tap and carried by every submit's answer. The serializers above
# declare these answers (the OpenAPI schema, through extend_schema); the functions below build the
# same data as ``ViewSerializer(view).data`` and ``SubmitOutputSerializer(...).data``, keys in the
# declared order, without instantiating and deep-copying a tree of fields for each request
# (tests/integration/api/test_view_data.py compares the two on every game).

PARAM_KEYS = tuple(ParamSerializer._declared_fields)  # kind, min, max, options, max_length, schema, nonzero
PARAM_INTEGERS = frozenset({"min", "max", "max_length"})


def _int(value):
    return None if value is None else int(value)


def _param_data(param: dict) -> dict:
    data = {}
    for key in PARAM_KEYS:
        if key in param:
            value = param[key]
            if value is not None:
                if key in PARAM_INTEGERS:
                    value = int(value)
                elif key == "options":
                    value = list(value)
                elif key == "nonzero":
                    value = bool(value)
                else:
                    value = str(value)
            data[key] = value
    return data


def _choice_data(choice: dict) -> dict:
    data = {
        "type": _str(choice["type"]),
        "seat": _int(choice["seat"]),
        "params": {
            str(name): None if param is None else _param_data(param)
            for name, param in choice["params"].items()
        },
    }
    if "title" in choice:  # as the serializer: fields not required, left out when absent
        data["title"] = _str(choice["title"])
    if "open" in choice:
        data["open"] = _bool(choice["open"])
    return data


def _str(value):
    return None if value is None else str(value)


def _reader(hint) -> Callable[[Any], Any]:
    """How ``view_data`` reads a declared field, as its serializer field would."""
    kind, _, _ = _unwrapped(hint)
    origin = get_origin(kind) or kind
    if origin is list:
        (item,) = get_args(kind)
        read = _choice_data if item is Choice else _reader(item)
        return lambda values: [read(value) for value in values]
    if origin is dict:
        return lambda value: value
    scalars: dict[Any, Callable[[Any], Any]] = {int: _int, str: _str, bool: _bool}
    return scalars[kind]


def _bool(value):
    return None if value is None else bool(value)


VIEW_READERS = {name: _reader(hint) for name, hint in SESSION_VIEW_FIELDS.items()}


def view_data(view: SessionView) -> dict:
    """``ViewSerializer(view).data``, cheaply."""
    return {name: read(view[name]) for name, read in VIEW_READERS.items()}  # type: ignore[literal-required]  # the declared names


def submit_data(logged, view: SessionView) -> dict:
    """``SubmitOutputSerializer({"action": logged, "view": view}).data``, cheaply."""
    action = {
        "seq": _int(logged.seq),
        "version": _int(logged.version),
        "seat": _int(logged.seat),
        "label": _str(logged.label),
    }
    return {"action": action, "view": view_data(view)}


def _submit(request, session: GameSession, seat: Seat | None) -> Response:
    serializer = SubmitInputSerializer(data=request.data)
    serializer.is_valid(raise_exception=True)
    key = request.headers.get("Idempotency-Key", "")
    if not key.strip():
        raise IdempotencyKeyRequired()
    if "\x00" in key:
        raise exceptions.ValidationError(NO_NUL.format(what="An idempotency key"))
    logged = session_submit_action(
        session=session,
        seat=seat,
        action=serializer.validated_data["action"],
        expected_version=serializer.validated_data["expected_version"],
        idempotency_key=key,
    )
    # The service brought ``session`` up to date (version, state, status): no second read.
    if seat is None:
        view = selectors.session_view_for_table(session=session)
    else:
        view = selectors.session_view_for_seat(session=session, seat=seat)
    return Response(submit_data(logged, view))


# ---- Games and sessions ------------------------------------------------------------------


class TableGameListApi(ChronicleApi):
    class OutputSerializer(serializers.Serializer):
        slug = StrictCharField()
        name = StrictCharField()
        min_seats = serializers.IntegerField()
        max_seats = serializers.IntegerField()
        config_schema = serializers.DictField(
            help_text="The game's settings (a session's config) as a JSON Schema (2020-12); also the "
            "component <Game>Settings of this schema. Keys it does not declare are refused."
        )

    @extend_schema(
        tags=TAGS,
        summary="The games a session can play, each with its settings",
        description="The games a table session can play, with their slug (send it as `game` to create a "
        "session), how many seats each takes and its settings (`config_schema`: what `config` may hold "
        "when you create a session). Any logged-in user.",
        responses={200: OutputSerializer(many=True), **errors(401)},
    )
    def get(self, request):
        found = [
            {**game, "config_schema": settings_schema(get_game(game["slug"]))}
            for game in selectors.game_choices()
        ]
        return Response(self.OutputSerializer(found, many=True).data)


class MySeatListApi(ChronicleApi):
    class OutputSerializer(serializers.Serializer):
        session = serializers.IntegerField(source="session_id", help_text="The session's id.")
        game = StrictCharField(source="session.game", help_text="The game's slug (GET /api/games/).")
        version = serializers.IntegerField(source="session.version")
        campaign = serializers.IntegerField(
            source="session.campaign_id",
            allow_null=True,
            help_text="The campaign of a game night (null: none).",
        )
        seat_index = serializers.IntegerField(source="index", help_text="Your seat at /seats/<seat_index>/.")
        seat_name = StrictCharField(source="name", help_text="For a campaign's night: your House.")

    @extend_schema(
        tags=TAGS,
        summary="Your seats at the sessions still running (a campaign's night gives each House's seat to "
        "the account that plays it): open one with your login, no seat token needed",
        description="The seats your account holds at sessions still running: a campaign's game night gives each "
        "House's seat to the account that plays it, and a seat you joined with `claim: true` is yours too. Open "
        "each at /api/sessions/{session}/seats/{seat_index}/ with your login: no seat token needed.",
        responses={200: OutputSerializer(many=True), **errors(401)},
    )
    def get(self, request):
        seats = access.seats_of_user(user=request.user)
        return Response(self.OutputSerializer(seats, many=True).data)


class SessionCreateApi(ChronicleApi):
    class InputSerializer(serializers.Serializer):
        game = serializers.ChoiceField(choices=[])
        seat_names = serializers.ListField(
            child=NameField(max_length=80, allow_blank=True),
            max_length=12,
            help_text="In table order (clockwise).",
        )
        config = serializers.DictField(
            required=False,
            default=dict,
            help_text="The game's settings: the component <Game>Settings of its game, also answered by "
            "GET /api/games/ as config_schema. Another game's settings, an undeclared key or a value of "
            "another type is refused (400, code invalid, extra.fields.config says what).",
        )
        bot_seats = serializers.ListField(
            child=StrictIntegerField(min_value=0, max_value=11),
            max_length=12,
            default=list,
            help_text="Seat indexes played by bots.",
        )

        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.fields["game"].choices = [g["slug"] for g in selectors.game_choices()]  # type: ignore[attr-defined]  # a ChoiceField

        def validate_config(self, config: dict) -> dict:
            _json_without_nul(config, "Game settings")
            return config

        def validate(self, attrs: dict) -> dict:
            declared = settings_type_for(get_game(attrs["game"]))
            wrong = check_value(declared, attrs.get("config", {}), "config") if declared else []
            if wrong:
                raise serializers.ValidationError({"config": [CONFIG_WRONG.format(what=w) for w in wrong]})
            return attrs

    class OutputSerializer(SessionSerializer):
        class SeatWithTokenSerializer(SeatSerializer):
            token = StrictCharField(help_text="The seat's secret join token: give it to its player only.")

        seats = SeatWithTokenSerializer(many=True)

    @extend_schema(
        tags=TAGS,
        summary="Start a session (you are its host); the answer holds each seat's join token",
        description="Starts a table session of a game (GET /api/games/) with its seats in table order; you "
        "become its host. The answer holds every seat's secret join token: give each to its player only (the "
        "table page shows them as QR codes). The cards are dealt at once: the session starts at version 1.",
        request=InputSerializer,
        responses={201: OutputSerializer, **errors(400, 401)},
    )
    def post(self, request):
        data = self.input(request)
        session = session_create(host=request.user, **data)
        return Response(self.OutputSerializer(session).data, status=status.HTTP_201_CREATED)


class SessionDetailApi(SessionApi):
    @extend_schema(
        tags=TAGS,
        summary="A session and its seats (host and players)",
        description="The session (game, status, version) and its seats (name, colour, bot, joined). For its "
        "host and its seats' players (X-Seat-Token or their login). Send the ETag back as If-None-Match: 304 "
        "while nothing changed.",
        parameters=[SEAT_TOKEN, IF_NONE_MATCH, ETAG],
        responses={200: SessionSerializer, 304: NOT_MODIFIED, **errors(401, 403, 404)},
    )
    def get(self, request, session_id: int):
        self.require_at_table()
        data = SessionSerializer(self.session).data
        # Seats join and are claimed without moving the version: this ETag follows the answer itself.
        digest = hashlib.sha256(json.dumps(data, sort_keys=True, default=str).encode()).hexdigest()[:20]
        return with_etag(request, f'W/"detail-{digest}"', lambda: data)


class SessionTableApi(SessionApi):
    @extend_schema(
        tags=TAGS,
        summary="The table view (no hand at all) and the table's own legal actions",
        description="What the table screen shows: the board, whose turn it is, the result once over; never a "
        "hand. legal_actions holds the table's own choices (the host types a card's outcome). For the host and "
        "the seats. Send the ETag back as If-None-Match: 304 while the session has not changed.",
        parameters=[SEAT_TOKEN, IF_NONE_MATCH, ETAG],
        responses={200: ViewSerializer, 304: NOT_MODIFIED, **errors(401, 403, 404)},
    )
    def get(self, request, session_id: int):
        self.require_at_table()
        return with_etag(
            request,
            self.etag("table"),
            lambda: view_data(selectors.session_view_for_table(session=self.session)),
        )


class SessionTableActionApi(SessionApi):
    @extend_schema(
        tags=TAGS,
        summary="Submit an action of the table (host)",
        description="The host submits one of the table's legal actions (GET .../table/) with the version "
        "it saw. Requires an Idempotency-Key (a new one per action; the same one to retry). Answers the logged "
        "action and the table view after it. A stale version is 409 (fetch the view and decide again); a move "
        "against the rules is 400 with the rule's sentence.",
        request=SubmitInputSerializer,
        parameters=[IDEMPOTENCY_KEY],
        responses={200: SubmitOutputSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request, session_id: int):
        self.require_host()
        return _submit(request, self.session, None)


class SessionUndoApi(SessionApi):
    @extend_schema(
        tags=TAGS,
        summary="Undo the last action (host; not an action that revealed hidden information)",
        description="The host drops the last action still in force; the state is rebuilt. Never an action "
        "that revealed something hidden (a card drawn, shown or placed face up), nor the deal, nor once the "
        "game is over: 400 with the reason. Answers the session.",
        request=None,
        responses={200: SessionSerializer, **errors(400, 401, 403, 404)},
    )
    def post(self, request, session_id: int):
        self.require_host()
        session_undo(session=self.session, by=request.user)
        return Response(SessionSerializer(self.session).data)


class SessionLogApi(SessionApi, GenericAPIView):
    pagination_class = ChroniclePagination
    filter_backends: list = []

    class QuerySerializer(serializers.Serializer):
        since = serializers.IntegerField(
            min_value=0, max_value=2**31 - 1, default=0, help_text="Actions after this version."
        )

    @extend_schema(
        tags=TAGS,
        summary="The action log since a version, oldest first (paginated)",
        description='What happened, as sentences ("Ben drew a card"), each with the version it made: the '
        "actions after `since`, oldest first. For the host and the seats.",
        parameters=[QuerySerializer, SEAT_TOKEN],
        responses={200: LoggedActionSerializer(many=True), **errors(400, 401, 403, 404)},
    )
    def get(self, request, session_id: int):
        self.require_at_table()
        query = self.QuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        log = selectors.session_log(session=self.session, since_version=query.validated_data["since"])
        page = self.paginate_queryset(log)
        return self.get_paginated_response(LoggedActionSerializer(page, many=True).data)


# ---- Seats -------------------------------------------------------------------------------


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
    def post(self, request, session_id: int, seat_index: int):
        seat = get_object_or_404(Seat, session=self.session, index=seat_index)
        seat.session = self.session
        own = _may_act_for(request, self.session, seat)
        if not (_is_host(self.session, request.user) or own):
            _refuse(request, ASK_THE_HOST)
        if not selectors.seat_is_open(seat=seat):
            raise exceptions.ValidationError(SEAT_CODE_SESSION_OVER)
        data = self.input(request)
        by_phone = _token_seat(request, self.session.pk) is not None and own
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

    def change(self, seat: Seat) -> Seat:
        raise NotImplementedError

    def post(self, request, session_id: int, seat_index: int):
        self.require_host()
        seat = get_object_or_404(Seat, session=self.session, index=seat_index)
        seat.session = self.session
        return Response(self.OutputSerializer(self.change(seat)).data)


def _seat_code_schema(summary: str, description: str):
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
    def change(self, seat: Seat) -> Seat:
        return seat_show_code_again(seat=seat)


@_seat_code_schema(
    "Give a seat a new token (host): the old one stops opening the seat",
    "The host only. The old token stops working at once (and an account linked through it is unlinked); "
    "the session's version moves on. Answers the seat with its new token: show it to its player only.",
)
class SeatRotateTokenApi(_SeatCodeApi):
    def change(self, seat: Seat) -> Seat:
        return seat_rotate_token(seat=seat)


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
    def get(self, request, session_id: int, seat_index: int):
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
    def get(self, request, session_id: int, seat_index: int):
        seat = self.open_seat_for(seat_index)
        return with_etag(request, self.etag("actions", seat), lambda: self.choices(seat))

    def choices(self, seat: Seat) -> dict:
        view = self.seat_view(seat)
        words = presenter_for(self.session.game).words(view["view"], session_seat_infos(self.session))
        choices = [{"choice": choice, "title": words.title(choice)} for choice in view["legal_actions"]]
        data = {"version": view["version"], "seat": seat.index, "choices": choices}
        return self.OutputSerializer(data).data


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
    def post(self, request, session_id: int, seat_index: int):
        seat = self.open_seat_for(seat_index)
        return _submit(request, self.session, seat)


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
    def post(self, request):
        token = self.input(request)["token"]
        seat = seat_for_join_token(request, token)
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


# ---- The session's event stream: described here, served by api.session_stream ------------------

LAST_EVENT_ID = OpenApiParameter(
    "Last-Event-ID",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    required=False,
    description="Reconnecting: the id of the last event received (session-<id>:<version>). If the session "
    "moved on meanwhile, one session_version event with its version now comes at once.",
)
LAST_EVENT_ID_QUERY = OpenApiParameter(
    "lastEventId",
    OpenApiTypes.STR,
    OpenApiParameter.QUERY,
    required=False,
    description="The same as Last-Event-ID, for clients that cannot set headers: session-<id>:<version> of "
    "the view you have, so a change made before the stream opened is not missed.",
)
STREAM_EXAMPLE = (
    "event: stream-open\ndata: \n\n"
    "event: session_version\nid: session-12:3\n"
    'data: {"type": "session_version", "session": 12, "version": 3}\n\n'
)
STREAM_DESCRIPTION = """Server-sent events (text/event-stream) telling that the session changed: never
data, only a nudge. Each event is `session_version` with the JSON data
`{"type": "session_version", "session": <id>, "version": <n>}` and the id `session-<id>:<n>`: then fetch
your own view (GET the seat view or the table view), unless you already have version n (the answer of
your own submit carries it). `stream-reset` means: fetch your view again (the server lost track). A
comment line comes every 20 seconds to keep the connection open; the server ends a stream after an hour:
reconnect with `Last-Event-ID`.

Who may: the host (`Authorization: Bearer <token>`, or the browser's login), a seat's phone
(`X-Seat-Token`), a player whose account holds a seat. Anyone else, or an unknown session: 404.

Too many streams (per seat, per table, or on the server): 429 or 503 with `Retry-After`. Then poll
instead: `GET /api/sessions/{id}/seats/{index}/` (or `/table/`) with `If-None-Match` and the ETag of the
view you have answers 304 while nothing changed, cheaply."""


STREAM_CAPPED = OpenApiResponse(
    OpenApiTypes.STR,
    description="Too many open streams (for this seat, this table or this server): poll instead, and try "
    "the stream again after Retry-After seconds.",
)


class SessionEventsApi(ChronicleApi):
    # Described only: api/urls.py serves this address with the async api.session_stream.session_events
    # (games/live/asgi.py: outside DRF and the middleware, no thread per open stream).

    permission_classes = [AllowAny]  # a phone's X-Seat-Token needs no login

    @extend_schema(
        tags=TAGS,
        summary="Follow a session live: an event each time it changes (server-sent events)",
        description=STREAM_DESCRIPTION,
        parameters=[SEAT_TOKEN, LAST_EVENT_ID, LAST_EVENT_ID_QUERY],
        responses={
            (200, "text/event-stream"): OpenApiResponse(
                OpenApiTypes.STR,
                description="The stream: one event per change (see above), open until the client leaves.",
                examples=[OpenApiExample("A change to version 3", value=STREAM_EXAMPLE)],
            ),
            204: OpenApiResponse(
                description="This server cannot hold a stream open (not served under ASGI): poll instead."
            ),
            **errors(401, 404),
            **{(code, "application/json"): answer for code, answer in errors(429, 503).items()},
            **{(code, "text/plain"): STREAM_CAPPED for code in (429, 503)},
        },
    )
    def get(self, request, session_id: int):
        raise exceptions.NotFound()  # never routed here: see the comment above
