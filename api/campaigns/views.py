"""Campaign endpoints: one view per operation, validate, call one service (or selector),
serialize. Members of a campaign only: an unknown campaign or one you are not a member of is a 404;
a viewer's write or a player's correction is a 403 with the reason (campaign/access.py). This
module: the campaigns themselves and their history."""

from django.core.exceptions import PermissionDenied
from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from api.base import CampaignApi, CampaignPagedApi, ChronicleApi
from api.campaigns.filters import HistoryFilter
from api.campaigns.serializers import (
    EventSerializer,
    GameRefSerializer,
    HouseRefSerializer,
    MysteryStickerSerializer,
    StoryCardSerializer,
)
from api.errors import MEMBER_READ, errors
from api.fields import (
    NameField,
    StrictCharField,
)
from campaign import selectors
from campaign.access import demo_adds_no_campaign
from campaign.models import (
    Campaign,
    CampaignEvent,
    Membership,
)
from campaign.services.houses import (
    campaign_create,
)

TAGS = ["campaigns"]


def campaign_detail(campaign: Campaign) -> dict:
    return {
        "id": campaign.pk,
        "name": campaign.name,
        "created_at": campaign.created_at,
        "closed": campaign.closed,
        "grand_finale_ready": campaign.grand_finale_ready,
        "settings": campaign.settings,
        "houses": selectors.houses_by_prestige(campaign=campaign),
        "mystery_stickers": campaign.mystery_stickers.select_related("game"),
        "games": campaign.games.order_by("number"),
        "final_standings": _final_standings(campaign),
    }


def _final_standings(campaign: Campaign) -> dict | None:
    """Once the sixth Mystery sticker is attached: what the Grand Finale counts (None before)."""
    if not campaign.grand_finale_ready:
        return None
    standings = selectors.final_standings(campaign=campaign)
    envelope = standings.pop("envelope")
    return {**standings, "grand_finale_game": envelope.game if envelope else None}


class CampaignListApi(ChronicleApi):
    class OutputSerializer(serializers.Serializer):
        id = serializers.IntegerField()
        name = StrictCharField()
        created_at = serializers.DateTimeField()
        closed = serializers.BooleanField()
        grand_finale_ready = serializers.BooleanField()
        role = StrictCharField(
            allow_null=True, help_text="owner, player or viewer (campaign/access.py says who may do what)"
        )
        houses = HouseRefSerializer(
            many=True,
            source="houses_played",
            help_text="The Houses you play in it (usually one; none: you don't).",
        )

    @extend_schema(
        tags=TAGS,
        summary="The campaigns you belong to",
        responses={200: OutputSerializer(many=True), **errors(401)},
    )
    def get(self, request: Request) -> Response:
        """Lists every campaign you are a member of, with your role in it (owner, player or viewer) and the
        Houses you play there. An empty list if you belong to none."""
        campaigns = list(selectors.campaign_list_for_user(user=request.user))
        roles = dict(
            Membership.objects.filter(user=request.user, campaign__in=campaigns).values_list(  # type: ignore[misc]  # a logged-in user
                "campaign_id", "role"
            )
        )
        played = selectors.houses_played_by(user=request.user, campaigns=campaigns)
        for campaign in campaigns:
            campaign.role = roles.get(campaign.pk)
            campaign.houses_played = played.get(campaign.pk, [])  # type: ignore[attr-defined]  # for the serializer
        return Response(self.OutputSerializer(campaigns, many=True).data)


class CampaignDetailApi(CampaignApi):
    class OutputSerializer(serializers.Serializer):
        class RankedHouseSerializer(HouseRefSerializer):
            player_name = StrictCharField()
            prestige = serializers.IntegerField()
            crave = serializers.IntegerField()

        id = serializers.IntegerField()
        name = StrictCharField()
        created_at = serializers.DateTimeField()
        closed = serializers.BooleanField()
        grand_finale_ready = serializers.BooleanField()
        settings = serializers.DictField(help_text="The group's corrections of DEFAULT data.")
        houses = RankedHouseSerializer(many=True, help_text="Highest Prestige first (ties: House number).")
        mystery_stickers = MysteryStickerSerializer(many=True)
        games = GameRefSerializer(many=True)

        class FinalStandingsSerializer(serializers.Serializer):
            class StandingSerializer(HouseRefSerializer):
                prestige = serializers.IntegerField()
                crave = serializers.IntegerField()

            houses = StandingSerializer(many=True, help_text="By Prestige (ties: House number).")
            endings = StoryCardSerializer(many=True, help_text="The Ending cards played.")
            cohesion = serializers.IntegerField(help_text="The Ending cards' Cohesion, summed.")
            dissent = serializers.IntegerField(help_text="The Ending cards' Dissent, summed.")
            grand_finale_game = GameRefSerializer(
                allow_null=True, help_text="The game that opened Envelope 70 (null: not opened yet)."
            )

        final_standings = FinalStandingsSerializer(
            allow_null=True,
            help_text="Once the sixth Mystery sticker is attached (null before): each House's Prestige and "
            "Crave and the Ending cards. Envelope 70 tells how they decide the overall winner.",
        )

    @extend_schema(tags=TAGS, summary="One campaign", responses={200: OutputSerializer, **MEMBER_READ})
    def get(self, request: Request, campaign_id: int) -> Response:
        """One campaign: its Houses ordered by Prestige, its Mystery stickers and its games. Any member may
        read it; a stranger gets 404."""
        return Response(self.OutputSerializer(campaign_detail(self.campaign)).data)


class CampaignCreateApi(ChronicleApi):
    class InputSerializer(serializers.Serializer):
        name = NameField(max_length=120, allow_blank=True)

    @extend_schema(
        tags=TAGS,
        summary="Create a campaign (you become its owner; not with the demo account)",
        request=InputSerializer,
        responses={201: CampaignDetailApi.OutputSerializer, **errors(400, 401, 403)},
    )
    def post(self, request: Request) -> Response:
        """Creates a new, empty campaign and makes you its owner; answers 201 with it. Add Houses next. The
        demo account cannot create campaigns (403)."""
        try:
            demo_adds_no_campaign(request.user)
        except PermissionDenied as error:
            raise exceptions.PermissionDenied(str(error)) from error
        data = self.input(request)
        campaign = campaign_create(created_by=request.user, **data)
        data = CampaignDetailApi.OutputSerializer(campaign_detail(campaign)).data
        return Response(data, status=status.HTTP_201_CREATED)


class HistoryListApi(CampaignPagedApi):
    queryset = CampaignEvent.objects.none()  # for the filter's schema; the data comes from selectors
    filterset_class = HistoryFilter

    @extend_schema(
        tags=TAGS,
        summary="The campaign history, newest first (paginated, filterable)",
        responses={200: EventSerializer(many=True), **errors(400, 401, 403, 404)},
    )
    def get(self, request: Request, campaign_id: int) -> Response:
        """The campaign's history, newest first: every change with who made it, when and in which game;
        paginated and filtered by the query parameters. Any member may read it; a stranger gets 404."""
        events = self.filter_queryset(selectors.campaign_history(campaign=self.campaign))
        return self.paginated(events, EventSerializer)
