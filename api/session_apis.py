"""Table sessions (For the King, Council of Four, a King's Dilemma game night) through the
games services. Who may:

- the host (the logged-in user who created the session; for a campaign's night, the campaign's
  owner too, as on the table page): the table view, the table's actions, undo (the host only),
  every seat's join token; never a seat's private view unless it is the host's own seat;
- a seat: the holder of its secret join token (``X-Seat-Token`` header, no login needed: an
  anonymous phone) or the logged-in user who joined it; that seat's view, legal actions and
  actions only (another seat is 403);
- the table view and the log: the host and every seat of the session.

Unknown session or seat: 404. Not allowed: 403 (401 when anonymous without a seat token).
"""

import json
import secrets
from collections.abc import Callable
from types import UnionType
from typing import Annotated, Any, Union, get_args, get_origin, get_type_hints

from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field, extend_schema_view
from rest_framework import exceptions, serializers, status
from rest_framework.generics import GenericAPIView
from rest_framework.permissions import AllowAny
from rest_framework.response import Response

from api.authentication import seat_of_token_player, session_of_token_host
from api.base import ChronicleApi
from api.errors import errors
from api.pagination import ChroniclePagination
from api.serializers import NameField, StrictBooleanField, StrictCharField
from api.view_schema import settings_schema
from games import selectors, services
from games.engines.kernel.choices import Choice
from games.engines.kernel.contract import check_value, settings_type_for
from games.engines.kernel.registry import get_game
from games.join_guard import seat_for_join_token
from games.models import GameSession, Seat
from games.presenters import presenter_for
from games.screens import session_seat_infos
from games.selectors import SessionView

TAGS = ["sessions"]
SEAT_TOKEN_HEADER = "X-Seat-Token"
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
TOO_BIG = "An action is at most 10000 characters of JSON."
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
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    required=False,
    description="Up to 100 characters. Sending the same key again returns the action already applied.",
)


# ---- Access ------------------------------------------------------------------------------


def _is_host(session: GameSession, user) -> bool:
    """Who keeps the table: its host, staff, and for a campaign's night the campaign's owner (the
    host's phone died), as the table page (games.selectors.session_table_open_to)."""
    return selectors.session_table_open_to(session=session, user=user)


def _seat_by_token(request) -> Seat | None:
    """The seat of the request's X-Seat-Token (with its session: one query, once per request)."""
    if not hasattr(request, "_chronicle_token_seat"):
        token = request.headers.get(SEAT_TOKEN_HEADER, "")
        seat = seat_for_join_token(request, token) if token else None
        if seat is not None and not secrets.compare_digest(seat.token, token):
            seat = None
        request._chronicle_token_seat = seat
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
    """A view under /api/sessions/<session_id>/: ``self.session`` (404 when unknown). Seat
    tokens need no login, so each view checks who may itself.

    The session row is read once per request: with the seat of the X-Seat-Token (a phone: one
    query for seat and session), with the seat asked for (a logged-in player), or on its own."""

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
            services.seat_mark_joined(seat=seat)
        return seat

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
    """An action: an object with a 'type' (games/services.py refuses any other)."""


class SubmitInputSerializer(serializers.Serializer):
    action = ActionField(help_text="One of the legal actions ({'type': ..., ...}).")
    expected_version = serializers.IntegerField(
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

PARAM_KEYS = tuple(ParamSerializer._declared_fields)  # kind, min, max, options, max_length, schema
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
    key = request.headers.get("Idempotency-Key") or None
    if key is not None and "\x00" in key:
        raise exceptions.ValidationError(NO_NUL.format(what="An idempotency key"))
    logged = services.session_submit_action(
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
        responses={200: OutputSerializer(many=True), **errors(401)},
    )
    def get(self, request):
        seats = selectors.seats_of_user(user=request.user)
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
            child=serializers.IntegerField(min_value=0, max_value=11),
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
        request=InputSerializer,
        responses={201: OutputSerializer, **errors(400, 401)},
    )
    def post(self, request):
        data = self.input(request)
        session = services.session_create(host=request.user, **data)
        return Response(self.OutputSerializer(session).data, status=status.HTTP_201_CREATED)


class SessionDetailApi(SessionApi):
    @extend_schema(
        tags=TAGS,
        summary="A session and its seats (host and players)",
        parameters=[SEAT_TOKEN],
        responses={200: SessionSerializer, **errors(401, 403, 404)},
    )
    def get(self, request, session_id: int):
        self.require_at_table()
        return Response(SessionSerializer(self.session).data)


class SessionTableApi(SessionApi):
    @extend_schema(
        tags=TAGS,
        summary="The table view (no hand at all) and the table's own legal actions",
        parameters=[SEAT_TOKEN],
        responses={200: ViewSerializer, **errors(401, 403, 404)},
    )
    def get(self, request, session_id: int):
        self.require_at_table()
        return Response(view_data(selectors.session_view_for_table(session=self.session)))


class SessionTableActionApi(SessionApi):
    @extend_schema(
        tags=TAGS,
        summary="Submit an action of the table (host)",
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
        request=None,
        responses={200: SessionSerializer, **errors(400, 401, 403, 404)},
    )
    def post(self, request, session_id: int):
        self.require_host()
        services.session_undo(session=self.session, by=request.user)
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
            raise exceptions.ValidationError(services.SEAT_CODE_SESSION_OVER)
        data = self.input(request)
        by_phone = _token_seat(request, self.session.pk) is not None and own
        if not own and selectors.seat_is_joined(seat=seat):
            raise exceptions.ValidationError(SEAT_TAKEN_BY_PHONE)
        if data["claim"]:
            if not request.user.is_authenticated:
                raise exceptions.ValidationError(LOG_IN_TO_CLAIM)
            seat = services.session_seat_claim(
                session=self.session, seat=seat, user=request.user, by_phone=by_phone
            )
        if by_phone:
            services.seat_mark_joined(seat=seat)
        return Response(self.OutputSerializer(seat).data)


class _SeatCodeApi(SessionApi):
    """The host changes how a seat is opened (a lost phone)."""

    class OutputSerializer(SeatSerializer):
        token = StrictCharField(help_text="The seat's join token now: give it to its player only.")

    def change(self, seat: Seat) -> Seat:
        raise NotImplementedError

    def post(self, request, session_id: int, seat_index: int):
        self.require_host()
        seat = get_object_or_404(Seat, session=self.session, index=seat_index)
        seat.session = self.session
        return Response(self.OutputSerializer(self.change(seat)).data)


def _seat_code_schema(summary: str):
    return extend_schema_view(
        post=extend_schema(
            tags=TAGS,
            summary=summary,
            request=None,
            responses={200: _SeatCodeApi.OutputSerializer, **errors(400, 401, 403, 404)},
        )
    )


@_seat_code_schema("Show a seat's code on the table again (host; same token): its phone was closed or lost")
class SeatShowCodeApi(_SeatCodeApi):
    def change(self, seat: Seat) -> Seat:
        return services.seat_show_code_again(seat=seat)


@_seat_code_schema("Give a seat a new token (host): the old one stops opening the seat")
class SeatRotateTokenApi(_SeatCodeApi):
    def change(self, seat: Seat) -> Seat:
        return services.seat_rotate_token(seat=seat)


class SeatViewApi(SessionApi):
    @extend_schema(
        tags=TAGS,
        summary="A seat's private view (its hand, its secrets; nobody else's); once the session is over, "
        "the result without the hand",
        parameters=[SEAT_TOKEN],
        responses={200: ViewSerializer, **errors(401, 403, 404)},
    )
    def get(self, request, session_id: int, seat_index: int):
        seat = self.open_seat_for(seat_index)
        return Response(view_data(self.seat_view(seat)))


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
        parameters=[SEAT_TOKEN],
        responses={200: OutputSerializer, **errors(401, 403, 404)},
    )
    def get(self, request, session_id: int, seat_index: int):
        seat = self.open_seat_for(seat_index)
        view = self.seat_view(seat)
        words = presenter_for(self.session.game).words(view["view"], session_seat_infos(self.session))
        choices = [{"choice": choice, "title": words.title(choice)} for choice in view["legal_actions"]]
        data = {"version": view["version"], "seat": seat.index, "choices": choices}
        return Response(self.OutputSerializer(data).data)


class SeatActionSubmitApi(SessionApi):
    @extend_schema(
        tags=TAGS,
        summary="Submit an action for this seat (stale expected_version: 409)",
        request=SubmitInputSerializer,
        parameters=[SEAT_TOKEN, IDEMPOTENCY_KEY],
        responses={200: SubmitOutputSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request, session_id: int, seat_index: int):
        seat = self.open_seat_for(seat_index)
        return _submit(request, self.session, seat)
