"""What lies on a campaign's table through the API: the Realm board and its Chronicle stickers,
the Envelopes, the storylines, the save slots and the Mystery stickers."""

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from api.base import CampaignApi
from api.campaigns.serializers import (
    CampaignHouseField,
    DilemmaCardSerializer,
    EnvelopeSerializer,
    MysteryStickerSerializer,
    StickerSerializer,
    StoryCardSerializer,
    bounded_int,
    game_field,
    range_messages,
)
from api.campaigns.views import TAGS
from api.errors import MEMBER_READ, MEMBER_WRITE
from api.fields import (
    LetterField,
    StrictBooleanField,
    StrictCharField,
    TypedTextField,
)
from campaign import selectors
from campaign.models import (
    RESOURCE_ROWS,
)
from campaign.services.envelopes import ENVELOPE_NUMBER_RANGE, envelope_open
from campaign.services.stickers import (
    MYSTERY_LETTER,
    STICKER_NUMBER_RANGE,
    mystery_sticker_attach,
    sticker_attach,
)
from games.engines.kings_dilemma.data import DEFAULT_TRACKS, MYSTERY_LETTERS


class RealmBoardApi(CampaignApi):
    class OutputSerializer(serializers.Serializer):
        class SpaceSerializer(serializers.Serializer):
            slot = serializers.IntegerField(help_text="0 is the leftmost space.")
            sticker = StickerSerializer(allow_null=True, help_text="null: an empty space.")

        row = StrictCharField()
        label = StrictCharField()  # type: ignore[assignment]  # a field named like Field.label
        spaces = SpaceSerializer(many=True, help_text="Left to right.")

    @extend_schema(
        tags=TAGS,
        summary="The Realm board: the five Chronicle rows with their stickers",
        responses={200: OutputSerializer(many=True), **MEMBER_READ},
    )
    def get(self, request: Request, campaign_id: int) -> Response:
        """The Realm board: the five Chronicle rows, each a list of spaces holding the visible sticker or
        null. Any member may read it; a stranger gets 404."""
        rows = [
            {**row, "spaces": [{"slot": i, "sticker": s} for i, s in enumerate(row["spaces"])]}
            for row in selectors.realm_board(campaign=self.campaign)
        ]
        return Response(self.OutputSerializer(rows, many=True).data)


class StickerAttachApi(CampaignApi):
    class InputSerializer(serializers.Serializer):
        number = bounded_int(
            min_value=1,
            max_value=DEFAULT_TRACKS["stickers"],
            error_messages=range_messages(STICKER_NUMBER_RANGE),
            help_text="Chronicle sticker number, 1 to 177.",
        )
        row = serializers.ChoiceField(choices=RESOURCE_ROWS)
        positive = StrictBooleanField()
        signer = CampaignHouseField(allow_null=True, required=False, default=None)
        title = TypedTextField(max_length=120, allow_blank=True, default="")
        text = TypedTextField(max_length=2000, allow_blank=True, default="")
        game = game_field()

    @extend_schema(
        tags=TAGS,
        summary="Attach a Chronicle sticker (leftmost empty space, else over the oldest)",
        request=InputSerializer,
        responses={201: StickerSerializer, **MEMBER_WRITE},
    )
    def post(self, request: Request, campaign_id: int) -> Response:
        """Attaches a Chronicle sticker, placed by the rules (the leftmost empty space of its row, else
        over the oldest); answers 201 with the sticker and its space. A sticker already on the board is
        a 400 with code invalid. The owner and players may; a viewer gets 403 (code
        permission_denied), a stranger 404."""
        data = self.input(request)
        sticker = sticker_attach(campaign=self.campaign, actor=request.user, **data)
        return Response(StickerSerializer(sticker).data, status=status.HTTP_201_CREATED)


class EnvelopeListApi(CampaignApi):
    @extend_schema(
        tags=TAGS,
        summary="The opened envelopes",
        responses={200: EnvelopeSerializer(many=True), **MEMBER_READ},
    )
    def get(self, request: Request, campaign_id: int) -> Response:
        """The Envelopes opened so far, with who opened them and in which game. Any member may read it; a
        stranger gets 404."""
        envelopes = self.campaign.envelopes.select_related("opened_by", "game")
        return Response(EnvelopeSerializer(envelopes, many=True).data)


def effects_field(help_text: str) -> serializers.DictField:
    return serializers.DictField(
        child=bounded_int(min_value=-99, max_value=99), default=dict, help_text=help_text
    )


class EnvelopeOpenApi(CampaignApi):
    class InputSerializer(serializers.Serializer):
        class StoryCardSerializer(serializers.Serializer):
            number = bounded_int(min_value=1, max_value=9999)
            storyline = TypedTextField(max_length=40, allow_blank=True)
            title = TypedTextField(max_length=120, allow_blank=True, default="")
            text = TypedTextField(max_length=2000, allow_blank=True, default="")
            signer = CampaignHouseField(
                allow_null=True, required=False, help_text="Omitted: the House that opened the envelope."
            )
            is_ending = StrictBooleanField(default=False)
            cohesion = bounded_int(min_value=0, max_value=99, default=0)
            dissent = bounded_int(min_value=0, max_value=99, default=0)
            majority_signer_bonus = effects_field("Ending cards: {'prestige': n, 'crave': n}.")
            effects = effects_field("start_power, start_coins, prestige, crave, power, coins.")
            ability_text = TypedTextField(max_length=2000, allow_blank=True, default="")

        number = bounded_int(
            min_value=0,
            max_value=DEFAULT_TRACKS["envelopes"] - 1,
            error_messages=range_messages(ENVELOPE_NUMBER_RANGE),
            help_text="Envelope number, 00 to 74.",
        )
        opened_by = CampaignHouseField(allow_null=True, required=False, default=None)
        special = StrictBooleanField(default=False)
        story_card = StoryCardSerializer(required=False, allow_null=True, default=None)
        dilemma_numbers = serializers.ListField(
            child=bounded_int(min_value=1, max_value=9999),
            max_length=20,
            default=list,
            help_text="A standard envelope holds 3 Dilemma cards.",
        )
        trigger_numbers = serializers.ListField(
            child=bounded_int(min_value=1, max_value=9999), max_length=20, default=list
        )
        event_numbers = serializers.ListField(
            child=bounded_int(min_value=1, max_value=9999), max_length=20, default=list
        )
        game = game_field()

    class OutputSerializer(EnvelopeSerializer):
        story_cards = StoryCardSerializer(many=True)
        cards = DilemmaCardSerializer(many=True)

    @extend_schema(
        tags=TAGS,
        summary="Open an envelope: its Story card on its storyline, its cards into the save slots",
        request=InputSerializer,
        responses={201: OutputSerializer, **MEMBER_WRITE},
    )
    def post(self, request: Request, campaign_id: int) -> Response:
        """Opens an Envelope: its Story card goes on its storyline and its Dilemma cards into the save
        slots; answers 201 with the Envelope. An Envelope opened already is a 400 with code invalid.
        The owner and players may; a viewer gets 403 (code permission_denied), a stranger 404."""
        data = self.input(request)
        envelope = envelope_open(campaign=self.campaign, actor=request.user, **data)
        return Response(self.OutputSerializer(envelope).data, status=status.HTTP_201_CREATED)


class StorylineListApi(CampaignApi):
    class OutputSerializer(serializers.Serializer):
        storyline = StrictCharField()
        top = StoryCardSerializer(help_text="The top card: the only one whose ability is active.")
        cards = StoryCardSerializer(many=True, help_text="Top first.")

    @extend_schema(
        tags=TAGS,
        summary="Story cards by storyline",
        responses={200: OutputSerializer(many=True), **MEMBER_READ},
    )
    def get(self, request: Request, campaign_id: int) -> Response:
        """The Story cards by storyline, the active (top) card first. Any member may read it; a stranger
        gets 404."""
        return Response(self.OutputSerializer(selectors.storylines(campaign=self.campaign), many=True).data)


class SaveSlotsApi(CampaignApi):
    class OutputSerializer(serializers.Serializer):
        deck = DilemmaCardSerializer(many=True, help_text="The Dilemma save slot.")
        event_area = DilemmaCardSerializer(many=True)
        story_slot = DilemmaCardSerializer(many=True, help_text="Ongoing Event cards.")
        trash = DilemmaCardSerializer(many=True)

    @extend_schema(
        tags=TAGS,
        summary="The save slots: Dilemma deck, Event area, Story save slot, Trash",
        responses={200: OutputSerializer, **MEMBER_READ},
    )
    def get(self, request: Request, campaign_id: int) -> Response:
        """The save slots: the Dilemma deck, the Event area, the Story save slot and the Trash, each a list
        of cards. Any member may read it; a stranger gets 404."""
        return Response(self.OutputSerializer(selectors.save_slots(campaign=self.campaign)).data)


class MysteryStickerAttachApi(CampaignApi):
    class InputSerializer(serializers.Serializer):
        letter = LetterField(
            choices=list(MYSTERY_LETTERS),
            error_messages={"invalid_choice": MYSTERY_LETTER},
            help_text="A to L (a lower-case letter is read as its capital).",
        )
        storyline = TypedTextField(max_length=40, allow_blank=True, default="")
        game = game_field()

    @extend_schema(
        tags=TAGS,
        summary="Attach a Mystery sticker (the sixth makes Envelope 70 due)",
        request=InputSerializer,
        responses={201: MysteryStickerSerializer, **MEMBER_WRITE},
    )
    def post(self, request: Request, campaign_id: int) -> Response:
        """Attaches a Mystery sticker (a letter A to L) on a storyline; the sixth makes Envelope 70, the
        Grand Finale, due. Answers 201. A letter attached already is a 400 with code invalid. The
        owner and players may; a viewer gets 403 (code permission_denied), a stranger 404."""
        data = self.input(request)
        sticker = mystery_sticker_attach(campaign=self.campaign, actor=request.user, **data)
        return Response(MysteryStickerSerializer(sticker).data, status=status.HTTP_201_CREATED)
