"""Table sessions (For the King, Council of Four, a King's Dilemma game night) through the
games services: the games, creating a session, the session, its table, undo and log. Who may
call each is api/sessions/callers.py's."""

import hashlib
import json
from typing import Any

from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.generics import GenericAPIView
from rest_framework.request import Request
from rest_framework.response import Response

from api.base import ChronicleApi
from api.errors import errors
from api.fields import NameField, StrictCharField, StrictIntegerField
from api.pagination import ChroniclePagination
from api.sessions.callers import SEAT_TOKEN, SessionApi
from api.sessions.etags import ETAG, IF_NONE_MATCH, NOT_MODIFIED, with_etag
from api.sessions.serializers import (
    SETTINGS_NUL,
    LoggedActionSerializer,
    SeatSerializer,
    SessionSerializer,
    SubmitInputSerializer,
    SubmitOutputSerializer,
    ViewSerializer,
    json_without_nul,
)
from api.sessions.submit import IDEMPOTENCY_KEY, submit_action
from api.sessions.view_data import view_data
from api.view_schema import settings_schema
from games import access, selectors
from games.engines.kernel.contract import check_value, settings_type_for
from games.engines.kernel.registry import get_game
from games.services.sessions import session_create
from games.services.undo import session_undo

TAGS = ["sessions"]
CONFIG_WRONG = gettext_lazy("Not a setting of this game as GET /api/games/ describes it: {what}.")


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
    def get(self, request: Request) -> Response:
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
    def get(self, request: Request) -> Response:
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

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.fields["game"].choices = [g["slug"] for g in selectors.game_choices()]  # type: ignore[attr-defined]  # a ChoiceField

        def validate_config(self, config: dict) -> dict:
            json_without_nul(config, SETTINGS_NUL)
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
    def post(self, request: Request) -> Response:
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
    def get(self, request: Request, session_id: int) -> Response:
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
    def get(self, request: Request, session_id: int) -> Response:
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
    def post(self, request: Request, session_id: int) -> Response:
        self.require_host()
        return submit_action(request, self.session, None)


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
    def post(self, request: Request, session_id: int) -> Response:
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
    def get(self, request: Request, session_id: int) -> Response:
        self.require_at_table()
        query = self.QuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        log = selectors.session_log(session=self.session, since_version=query.validated_data["since"])
        page = self.paginate_queryset(log)
        return self.get_paginated_response(LoggedActionSerializer(page, many=True).data)
