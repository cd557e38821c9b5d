"""A campaign's Houses through the API: the list with Prestige and Crave, one House with its
ledger, a new House, an achievement's spaces marked."""

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from api.base import CampaignApi
from api.campaigns.serializers import (
    AchievementSerializer,
    HouseSerializer,
    LedgerEntrySerializer,
    bounded_int,
    game_field,
    range_messages,
)
from api.campaigns.views import TAGS
from api.errors import MEMBER_READ, MEMBER_WRITE
from api.fields import (
    NameField,
)
from campaign import selectors
from campaign.legacy import MAX_SPACES
from campaign.models import (
    Achievement,
    Campaign,
    House,
)
from campaign.services.houses import (
    HOUSE_NUMBER_RANGE,
    MARKS_POSITIVE,
    MAX_HOUSES,
    achievement_mark,
    house_create,
)


def house_with_totals(campaign: Campaign, house_id: int) -> House:
    return get_object_or_404(selectors.house_list(campaign=campaign), pk=house_id)


class HouseListApi(CampaignApi):
    @extend_schema(
        tags=TAGS,
        summary="Houses with Prestige, Crave, achievements and alignment",
        responses={200: HouseSerializer(many=True), **MEMBER_READ},
    )
    def get(self, request: Request, campaign_id: int) -> Response:
        """Every House of the campaign with its Prestige, Crave, achievements and alignment marks. Any
        member may read it; a stranger gets 404."""
        return Response(HouseSerializer(selectors.house_list(campaign=self.campaign), many=True).data)


class HouseDetailApi(CampaignApi):
    class OutputSerializer(HouseSerializer):
        ledger = LedgerEntrySerializer(
            source="ledger_entries", many=True, help_text="Every Prestige/Crave entry with its reason."
        )

    @extend_schema(
        tags=TAGS,
        summary="One House with its Prestige/Crave ledger",
        responses={200: OutputSerializer, **MEMBER_READ},
    )
    def get(self, request: Request, campaign_id: int, house_id: int) -> Response:
        """One House with its Prestige/Crave ledger (each entry with its reason). Any member may read it; a
        stranger gets 404. A House of another campaign is 404."""
        house = house_with_totals(self.campaign, house_id)
        house.ledger_entries = house.ledger.select_related("game")  # type: ignore[attr-defined]  # read by the serializer
        return Response(self.OutputSerializer(house).data)


class HouseCreateApi(CampaignApi):
    class InputSerializer(serializers.Serializer):
        name = NameField(max_length=80, allow_blank=True)
        number = bounded_int(
            min_value=1,
            max_value=MAX_HOUSES,
            error_messages=range_messages(HOUSE_NUMBER_RANGE),
            help_text="House number, 1 to 12, once per campaign.",
        )
        player_name = NameField(max_length=80, allow_blank=True, default="")

    @extend_schema(
        tags=TAGS,
        summary="Add a House",
        request=InputSerializer,
        responses={201: HouseSerializer, **MEMBER_WRITE},
    )
    def post(self, request: Request, campaign_id: int) -> Response:
        """Adds a House (name, House number, optional player name); answers 201 with it. A number already
        taken or a full table is a 400 with code invalid. The owner and players may; a viewer gets
        403 (code permission_denied), a stranger 404."""
        data = self.input(request)
        house = house_create(campaign=self.campaign, actor=request.user, **data)
        return Response(
            HouseSerializer(house_with_totals(self.campaign, house.pk)).data, status=status.HTTP_201_CREATED
        )


class AchievementMarkApi(CampaignApi):
    class InputSerializer(serializers.Serializer):
        count = bounded_int(
            min_value=1,
            max_value=MAX_SPACES,
            default=1,
            error_messages=range_messages(MARKS_POSITIVE),
            help_text="Spaces to mark (the last one unlocks the ability).",
        )
        game = game_field()

    @extend_schema(
        tags=TAGS,
        summary="Mark spaces of an achievement",
        request=InputSerializer,
        responses={200: AchievementSerializer, **MEMBER_WRITE},
    )
    def post(self, request: Request, campaign_id: int, achievement_id: int) -> Response:
        """Marks spaces of an achievement (count) in a game; answers the achievement with its marked
        spaces. Marking past its last space is a 400 with code invalid. The owner and players may; a
        viewer gets 403 (code permission_denied), a stranger 404."""
        achievement = get_object_or_404(Achievement, pk=achievement_id, house__campaign=self.campaign)
        data = self.input(request)
        achievement = achievement_mark(
            achievement=achievement,
            count=data["count"],
            game=data["game"],
            actor=request.user,
        )
        return Response(AchievementSerializer(achievement).data)
