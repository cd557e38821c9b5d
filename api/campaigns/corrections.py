"""Corrections of a campaign entered wrongly, through the same services as the pages: a
Chronicle sticker (corrected or removed), an Envelope (corrected or removed), a card moved to
another save slot. Each writes its event in the history; a refusal is a 400 with its reason. A
correction rewrites what the group recorded: the campaign's owner only (a player gets 403)."""

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from api.base import CampaignApi
from api.campaigns.board import StickerAttachApi
from api.campaigns.serializers import (
    CampaignHouseField,
    DilemmaCardSerializer,
    EnvelopeSerializer,
    StickerSerializer,
)
from api.campaigns.views import TAGS
from api.errors import MEMBER_WRITE
from api.fields import StrictBooleanField
from campaign.access import Need
from campaign.models import DilemmaCard
from campaign.services.envelopes import dilemma_card_move, envelope_correct, envelope_remove
from campaign.services.stickers import sticker_correct, sticker_remove

REMOVED = {204: None, **MEMBER_WRITE}


class StickerCorrectApi(CampaignApi):
    need = Need.OWN

    class InputSerializer(StickerAttachApi.InputSerializer):
        text = None  # type: ignore[assignment]  # not corrected here: the attach's fields less these
        game = None  # type: ignore[assignment]

    @extend_schema(
        tags=TAGS,
        summary="Correct a Chronicle sticker typed wrongly (number, row, side, signer, title)",
        request=InputSerializer,
        responses={200: StickerSerializer, **MEMBER_WRITE},
    )
    def post(self, request: Request, campaign_id: int, sticker_number: int) -> Response:
        """Corrects a Chronicle sticker typed wrongly (its number, row, side, signer or title); answers the
        sticker. Correcting to a number already on the board is a 400 with code invalid. The
        campaign's owner only: another member gets 403 (code permission_denied), a stranger 404."""
        sticker = get_object_or_404(self.campaign.stickers, number=sticker_number)
        corrected = sticker_correct(sticker=sticker, actor=request.user, **self.input(request))
        return Response(StickerSerializer(corrected).data)


class StickerRemoveApi(CampaignApi):
    need = Need.OWN

    @extend_schema(
        tags=TAGS,
        summary="Remove a sticker attached by mistake (one it covered is visible again)",
        request=None,
        responses=REMOVED,
    )
    def post(self, request: Request, campaign_id: int, sticker_number: int) -> Response:
        """Removes a sticker attached by mistake; a sticker it covered is visible again. Answers 204. The
        campaign's owner only: another member gets 403 (code permission_denied), a stranger 404."""
        sticker = get_object_or_404(self.campaign.stickers, number=sticker_number)
        sticker_remove(sticker=sticker, actor=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class EnvelopeCorrectApi(CampaignApi):
    need = Need.OWN

    class InputSerializer(serializers.Serializer):
        opened_by = CampaignHouseField(allow_null=True, required=False, default=None)
        special = StrictBooleanField(default=False)

    @extend_schema(
        tags=TAGS,
        summary="Correct an Envelope recorded wrongly (who opened it, Special or not)",
        request=InputSerializer,
        responses={200: EnvelopeSerializer, **MEMBER_WRITE},
    )
    def post(self, request: Request, campaign_id: int, envelope_number: int) -> Response:
        """Corrects an Envelope recorded wrongly (who opened it, Special or not); answers the Envelope. The
        campaign's owner only: another member gets 403 (code permission_denied), a stranger 404."""
        envelope = get_object_or_404(self.campaign.envelopes, number=envelope_number)
        corrected = envelope_correct(envelope=envelope, actor=request.user, **self.input(request))
        return Response(EnvelopeSerializer(corrected).data)


class EnvelopeRemoveApi(CampaignApi):
    need = Need.OWN

    @extend_schema(
        tags=TAGS,
        summary="Remove an Envelope opened by mistake, with its cards (refused once one was played)",
        request=None,
        responses=REMOVED,
    )
    def post(self, request: Request, campaign_id: int, envelope_number: int) -> Response:
        """Removes an Envelope opened by mistake, with its cards; answers 204. Refused (400, code
        invalid) once one of its cards was played. The campaign's owner only: another member gets
        403 (code permission_denied), a stranger 404."""
        envelope = get_object_or_404(self.campaign.envelopes, number=envelope_number)
        envelope_remove(envelope=envelope, actor=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class DilemmaCardMoveApi(CampaignApi):
    need = Need.OWN

    class InputSerializer(serializers.Serializer):
        place = serializers.ChoiceField(choices=DilemmaCard.Place.values)

    @extend_schema(
        tags=TAGS,
        summary="Move a card put in the wrong save slot (deck, story_slot, event_area, trash)",
        request=InputSerializer,
        responses={200: DilemmaCardSerializer, **MEMBER_WRITE},
    )
    def post(self, request: Request, campaign_id: int, card_number: int) -> Response:
        """Moves a card put in the wrong save slot to its right place (deck, story_slot, event_area or
        trash); answers the card. The campaign's owner only: another member gets 403 (code
        permission_denied), a stranger 404."""
        card = get_object_or_404(self.campaign.dilemma_cards, number=card_number)
        moved = dilemma_card_move(card=card, actor=request.user, **self.input(request))
        return Response(DilemmaCardSerializer(moved).data)
