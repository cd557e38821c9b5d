"""Base classes of the API views: JSON in, one error shape out, campaign membership checked once."""

import math
from typing import Any, NoReturn

from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.utils.translation import ngettext
from rest_framework import exceptions, serializers
from rest_framework.generics import GenericAPIView
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.pagination import ChroniclePagination
from api.parsers import ChronicleJSONParser
from api.schema import ChronicleAutoSchema
from campaign.access import Need, campaign_for
from campaign.models import Campaign, ChronicleGame


def member_campaign(*, user: User | AnonymousUser, campaign_id: int, need: Need = Need.READ) -> Campaign:
    """The campaign, for a member whose role allows ``need``: a stranger gets 404 (as for an
    unknown id, the same answer as the campaign pages), a short role 403 with the reason."""
    try:
        campaign, _role = campaign_for(user=user, campaign_id=campaign_id, need=need)
    except Http404 as error:
        raise exceptions.NotFound(str(error)) from error
    except PermissionDenied as error:
        raise exceptions.PermissionDenied(str(error)) from error
    return campaign


class Throttled(exceptions.Throttled):
    """DRF's, said whole in the reader's language: DRF words the wait before looking its plural up,
    so no catalogue ever matches it."""

    def __init__(self, wait: float | None) -> None:
        seconds = math.ceil(wait or 0)
        message = ngettext(
            "Too many requests: wait {n} second and try again.",
            "Too many requests: wait {n} seconds and try again.",
            seconds,
        )
        super().__init__(detail=message.format(n=seconds))
        self.wait = None if wait is None else seconds  # the Retry-After header


class ChronicleApi(APIView):
    schema = ChronicleAutoSchema()
    parser_classes = [ChronicleJSONParser]
    InputSerializer: type[serializers.Serializer]  # declared by each view that takes a body

    def get_serializer_context(self) -> dict:
        return {"request": self.request}

    def throttled(self, request: Request, wait: float | None) -> NoReturn:
        raise Throttled(wait)

    def input(self, request: Request) -> dict:
        """The body, validated by the view's InputSerializer (a 400 with the reason otherwise)."""
        serializer = self.InputSerializer(data=request.data, context=self.get_serializer_context())
        serializer.is_valid(raise_exception=True)
        return dict(serializer.validated_data)


class CampaignApi(ChronicleApi):
    """A view under /api/campaigns/<campaign_id>/: ``self.campaign`` is set for members whose role
    allows ``need`` (by default: reading for safe methods, playing for writes)."""

    campaign: Campaign
    need: Need | None = None

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        super().initial(request, *args, **kwargs)
        need = self.need or (Need.READ if request.method in ("GET", "HEAD", "OPTIONS") else Need.PLAY)
        self.campaign = member_campaign(user=request.user, campaign_id=kwargs["campaign_id"], need=need)

    def get_serializer_context(self) -> dict:
        return {"request": self.request, "campaign": self.campaign}

    def input(self, request: Request) -> dict:
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

    def paginated(self, items: Any, serializer_class: type[serializers.Serializer]) -> Response:
        page = self.paginate_queryset(items)
        return self.get_paginated_response(serializer_class(page, many=True).data)
