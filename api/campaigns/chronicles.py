"""A campaign's games through the API (the Realm Chronicles): the list, one game, a game begun
on paper, its result recorded and corrected."""

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from api.base import CampaignApi, CampaignPagedApi
from api.campaigns.filters import ChronicleFilter
from api.campaigns.serializers import (
    CampaignHouseField,
    ChronicleGameSerializer,
    bounded_int,
)
from api.campaigns.views import TAGS
from api.errors import MEMBER_READ, MEMBER_WRITE, errors
from api.fields import (
    NameField,
    TypedTextField,
)
from campaign import selectors
from campaign.access import Need
from campaign.models import (
    SECRET_AGENDAS,
    Campaign,
    ChronicleGame,
    GameEnd,
)
from campaign.services.chronicles import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    game_begin,
    game_result_correct,
    game_result_record,
)

RESULT_HOUSES = gettext_lazy("A game has 3 to 5 Houses: one row per House that played.")


def chronicle(campaign: Campaign, game_id: int) -> ChronicleGame:
    for game in selectors.realm_chronicles(campaign=campaign):
        if game.pk == game_id:
            return game
    raise ChronicleGame.DoesNotExist


class GameListApi(CampaignPagedApi):
    queryset = ChronicleGame.objects.none()  # for the filter's schema; the data comes from selectors
    filterset_class = ChronicleFilter

    @extend_schema(
        tags=TAGS,
        summary="The Realm Chronicles: one table per game (paginated, filterable)",
        responses={200: ChronicleGameSerializer(many=True), **errors(400, 401, 403, 404)},
    )
    def get(self, request: Request, campaign_id: int) -> Response:
        """The Realm Chronicles, one table per game, oldest first; paginated (limit, offset) and filtered
        by the query parameters. Any member may read it; a stranger gets 404."""
        wanted = set(self.filter_queryset(self.campaign.games.all()).values_list("pk", flat=True))
        games = [g for g in selectors.realm_chronicles(campaign=self.campaign) if g.pk in wanted]
        return self.paginated(games, ChronicleGameSerializer)


class GameDetailApi(CampaignApi):
    @extend_schema(
        tags=TAGS,
        summary="One Realm Chronicles table",
        responses={200: ChronicleGameSerializer, **MEMBER_READ},
    )
    def get(self, request: Request, campaign_id: int, game_id: int) -> Response:
        """One game's Realm Chronicles table: its King, how the reign ended and each House's score. Any
        member may read it; a stranger gets 404. A game of another campaign is 404."""
        game = get_object_or_404(self.campaign.games, pk=game_id)
        return Response(ChronicleGameSerializer(chronicle(self.campaign, game.pk)).data)


class GameBeginApi(CampaignApi):
    class InputSerializer(serializers.Serializer):
        king_name = NameField(max_length=80, allow_blank=True, default="")
        played_on = serializers.DateField(required=False, help_text="Omitted: today.")

    @extend_schema(
        tags=TAGS,
        summary="Begin a game: its Realm Chronicles table, then Chronicle aging",
        request=InputSerializer,
        responses={201: ChronicleGameSerializer, **MEMBER_WRITE},
    )
    def post(self, request: Request, campaign_id: int) -> Response:
        """Begins the campaign's next game: its Realm Chronicles table, then Chronicle aging on the board;
        answers 201 with the game. The owner and players may; a viewer gets 403 (code
        permission_denied), a stranger 404."""
        data = self.input(request)
        game = game_begin(campaign=self.campaign, actor=request.user, **data)
        game.current_scores = []
        return Response(ChronicleGameSerializer(game).data, status=status.HTTP_201_CREATED)


class GameResultRecordApi(CampaignApi):
    class InputSerializer(serializers.Serializer):
        class RowSerializer(serializers.Serializer):
            house = CampaignHouseField()
            secret_agenda = serializers.ChoiceField(choices=SECRET_AGENDAS)
            agenda_points = bounded_int(min_value=-999, max_value=999)
            open_agenda_points = bounded_int(min_value=-999, max_value=999)
            coins_points = bounded_int(min_value=-999, max_value=999)
            power_points = bounded_int(min_value=-999, max_value=999)

        end = serializers.ChoiceField(choices=GameEnd.choices)
        rows = serializers.ListField(
            child=RowSerializer(),
            min_length=MIN_PLAYERS,
            max_length=MAX_PLAYERS,
            error_messages={"min_length": RESULT_HOUSES, "max_length": RESULT_HOUSES},
            help_text="One row per House that played (3 to 5).",
        )

    @extend_schema(
        tags=TAGS,
        summary="Record a game's result: ranking, Prestige/Crave, alignment marks",
        request=InputSerializer,
        responses={200: ChronicleGameSerializer, **MEMBER_WRITE},
    )
    def post(self, request: Request, campaign_id: int, game_id: int) -> Response:
        """Records a game's result, one row per House that played: the ranking, Prestige and Crave and
        alignment marks follow from it; answers the scored table. A result recorded already is a 400
        with code invalid (correct it instead). The owner and players may; a viewer gets 403 (code
        permission_denied), a stranger 404."""
        game = get_object_or_404(self.campaign.games, pk=game_id)
        data = self.input(request)
        game_result_record(game=game, actor=request.user, **data)
        return Response(ChronicleGameSerializer(chronicle(self.campaign, game.pk)).data)


class GameResultCorrectApi(CampaignApi):
    need = Need.OWN  # a correction rewrites a recorded night

    class InputSerializer(GameResultRecordApi.InputSerializer):
        reason = TypedTextField(max_length=200, allow_blank=True, default="")

    @extend_schema(
        tags=TAGS,
        summary="Correct a recorded result (a new revision; the ledger is rebalanced)",
        request=InputSerializer,
        responses={200: ChronicleGameSerializer, **MEMBER_WRITE},
    )
    def post(self, request: Request, campaign_id: int, game_id: int) -> Response:
        """Corrects a recorded result: a new revision of the table with its reason; the old one stays and
        the ledger is rebalanced by correction entries. Answers the table. The campaign's owner only:
        another member gets 403 (code permission_denied), a stranger 404."""
        game = get_object_or_404(self.campaign.games, pk=game_id)
        data = self.input(request)
        game_result_correct(game=game, actor=request.user, **data)
        return Response(ChronicleGameSerializer(chronicle(self.campaign, game.pk)).data)
