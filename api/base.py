"""Base classes of the API views: JSON in, one error shape out, campaign membership checked once."""

from django.shortcuts import get_object_or_404
from rest_framework import exceptions, serializers
from rest_framework.generics import GenericAPIView
from rest_framework.views import APIView

from api.pagination import ChroniclePagination
from api.parsers import ChronicleJSONParser
from api.schema import ChronicleAutoSchema
from campaign.models import Campaign, ChronicleGame
from campaign.selectors import campaign_is_member

NOT_A_MEMBER = "Only members of this campaign can see it."


def member_campaign(*, user, campaign_id: int) -> Campaign:
    """The campaign, for one of its members: unknown id 404, existing but not a member 403
    (the same answer as the campaign pages)."""
    campaign = get_object_or_404(Campaign, pk=campaign_id)
    if not campaign_is_member(campaign=campaign, user=user):
        raise exceptions.PermissionDenied(NOT_A_MEMBER)
    return campaign


class ChronicleApi(APIView):
    schema = ChronicleAutoSchema()
    parser_classes = [ChronicleJSONParser]
    InputSerializer: type[serializers.Serializer]  # declared by each view that takes a body

    def get_serializer_context(self) -> dict:
        return {"request": self.request}

    def input(self, request) -> dict:
        """The body, validated by the view's InputSerializer (a 400 with the reason otherwise)."""
        serializer = self.InputSerializer(data=request.data, context=self.get_serializer_context())
        serializer.is_valid(raise_exception=True)
        return dict(serializer.validated_data)


class CampaignApi(ChronicleApi):
    """A view under /api/campaigns/<campaign_id>/: ``self.campaign`` is set for members only."""

    campaign: Campaign

    def initial(self, request, *args, **kwargs):
        super().initial(request, *args, **kwargs)
        self.campaign = member_campaign(user=request.user, campaign_id=kwargs["campaign_id"])

    def get_serializer_context(self) -> dict:
        return {"request": self.request, "campaign": self.campaign}

    def input(self, request) -> dict:
        """As ChronicleApi.input; a write about a game left out of the body is about the latest."""
        data = super().input(request)
        if "game" in self.InputSerializer().fields:
            data["game"] = chosen_game(self.campaign, data)
        return data


def chosen_game(campaign: Campaign, data: dict) -> ChronicleGame | None:
    if "game" in data:
        return data["game"]
    return campaign.games.order_by("number").last()


class CampaignPagedApi(CampaignApi, GenericAPIView):
    """A growing list of a campaign: LimitOffset pagination and django-filter filters."""

    pagination_class = ChroniclePagination

    def paginated(self, items, serializer_class):
        page = self.paginate_queryset(items)
        return self.get_paginated_response(serializer_class(page, many=True).data)
