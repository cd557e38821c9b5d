"""Base classes of the API views: JSON in, one error shape out, campaign membership checked once."""

from django.shortcuts import get_object_or_404
from rest_framework import exceptions
from rest_framework.generics import GenericAPIView
from rest_framework.parsers import JSONParser
from rest_framework.views import APIView

from api.pagination import ChroniclePagination
from api.schema import ChronicleAutoSchema
from campaign.models import Campaign
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
    parser_classes = [JSONParser]


class CampaignApi(ChronicleApi):
    """A view under /api/campaigns/<campaign_id>/: ``self.campaign`` is set for members only."""

    campaign: Campaign

    def initial(self, request, *args, **kwargs):
        super().initial(request, *args, **kwargs)
        self.campaign = member_campaign(user=request.user, campaign_id=kwargs["campaign_id"])

    def get_serializer_context(self) -> dict:
        return {"request": self.request, "campaign": self.campaign}


class CampaignPagedApi(CampaignApi, GenericAPIView):
    """A growing list of a campaign: LimitOffset pagination and django-filter filters."""

    pagination_class = ChroniclePagination

    def paginated(self, items, serializer_class):
        page = self.paginate_queryset(items)
        return self.get_paginated_response(serializer_class(page, many=True).data)
