"""Campaign endpoints (issue 8). One view per operation: validate, call one service (or selector),
serialize. Members of a campaign only: an unknown campaign or one you are not a member of is a 404;
a viewer's write or a player's correction is a 403 with the reason (campaign/access.py)."""

from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, serializers, status
from rest_framework.response import Response

from api.base import CampaignApi, CampaignPagedApi, ChronicleApi
from api.campaigns.serializers import (
    AchievementSerializer,
    CampaignGameField,
    CampaignHouseField,
    ChronicleGameSerializer,
    DilemmaCardSerializer,
    EnvelopeSerializer,
    EventSerializer,
    GameRefSerializer,
    HouseRefSerializer,
    HouseSerializer,
    LedgerEntrySerializer,
    MysteryStickerSerializer,
    StickerSerializer,
    StoryCardSerializer,
)
from api.errors import MEMBER_READ, MEMBER_WRITE, errors
from api.fields import (
    LetterField,
    NameField,
    StrictBooleanField,
    StrictCharField,
    StrictIntegerField,
    TypedTextField,
)
from api.filters import ChronicleFilter, HistoryFilter
from campaign import selectors
from campaign.access import Need, demo_adds_no_campaign
from campaign.legacy import MAX_SPACES
from campaign.models import (
    RESOURCE_ROWS,
    SECRET_AGENDAS,
    Achievement,
    Campaign,
    CampaignEvent,
    ChronicleGame,
    GameEnd,
    Membership,
)
from campaign.services.chronicles import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    game_begin,
    game_result_correct,
    game_result_record,
)
from campaign.services.envelopes import ENVELOPE_NUMBER_RANGE, envelope_open
from campaign.services.houses import (
    HOUSE_NUMBER_RANGE,
    MARKS_POSITIVE,
    MAX_HOUSES,
    achievement_mark,
    campaign_create,
    house_create,
)
from campaign.services.stickers import (
    MYSTERY_LETTER,
    STICKER_NUMBER_RANGE,
    mystery_sticker_attach,
    sticker_attach,
)
from games.engines.kings_dilemma.data import DEFAULT_TRACKS, MYSTERY_LETTERS

BIG = 1_000_000  # integers are bounded so no input reaches the database out of range
TAGS = ["campaigns"]
RESULT_HOUSES = "A game has 3 to 5 Houses: one row per House that played."


def bounded_int(**kwargs) -> StrictIntegerField:
    kwargs.setdefault("min_value", -BIG)
    kwargs.setdefault("max_value", BIG)
    return StrictIntegerField(**kwargs)


def range_messages(message: str) -> dict:
    """The service's own sentence for a number out of its range (the schema states the range)."""
    return {"min_value": message, "max_value": message}


def game_field(**kwargs) -> CampaignGameField:
    return CampaignGameField(
        required=False,
        allow_null=True,
        help_text="Id of the game in which it happens; omitted: the latest game; null: between games.",
        **kwargs,
    )


def chronicle(campaign: Campaign, game_id: int) -> ChronicleGame:
    for game in selectors.realm_chronicles(campaign=campaign):
        if game.pk == game_id:
            return game
    raise ChronicleGame.DoesNotExist


def house_with_totals(campaign: Campaign, house_id: int):
    return get_object_or_404(selectors.house_list(campaign=campaign), pk=house_id)


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


# ---- Campaigns ----------------------------------------------------------------------------


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
    def get(self, request):
        """Lists every campaign you are a member of, with your role in it (owner, player or viewer) and the
        Houses you play there. An empty list if you belong to none."""
        campaigns = list(selectors.campaign_list_for_user(user=request.user))
        roles = dict(
            Membership.objects.filter(user=request.user, campaign__in=campaigns).values_list(
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
    def get(self, request, campaign_id: int):
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
    def post(self, request):
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


# ---- Houses, ledger, achievements ---------------------------------------------------------


class HouseListApi(CampaignApi):
    @extend_schema(
        tags=TAGS,
        summary="Houses with Prestige, Crave, achievements and alignment",
        responses={200: HouseSerializer(many=True), **MEMBER_READ},
    )
    def get(self, request, campaign_id: int):
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
    def get(self, request, campaign_id: int, house_id: int):
        """One House with its Prestige/Crave ledger (each entry with its reason). Any member may read it; a
        stranger gets 404. A House of another campaign is 404."""
        house = house_with_totals(self.campaign, house_id)
        house.ledger_entries = house.ledger.select_related("game")
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
    def post(self, request, campaign_id: int):
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
    def post(self, request, campaign_id: int, achievement_id: int):
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


# ---- The Realm board, envelopes, storylines, save slots, Mystery stickers -----------------


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
    def get(self, request, campaign_id: int):
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
    def post(self, request, campaign_id: int):
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
    def get(self, request, campaign_id: int):
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
    def post(self, request, campaign_id: int):
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
    def get(self, request, campaign_id: int):
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
    def get(self, request, campaign_id: int):
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
    def post(self, request, campaign_id: int):
        """Attaches a Mystery sticker (a letter A to L) on a storyline; the sixth makes Envelope 70, the
        Grand Finale, due. Answers 201. A letter attached already is a 400 with code invalid. The
        owner and players may; a viewer gets 403 (code permission_denied), a stranger 404."""
        data = self.input(request)
        sticker = mystery_sticker_attach(campaign=self.campaign, actor=request.user, **data)
        return Response(MysteryStickerSerializer(sticker).data, status=status.HTTP_201_CREATED)


# ---- Games: Realm Chronicles, begin, result ------------------------------------------------


class GameListApi(CampaignPagedApi):
    queryset = ChronicleGame.objects.none()  # for the filter's schema; the data comes from selectors
    filterset_class = ChronicleFilter

    @extend_schema(
        tags=TAGS,
        summary="The Realm Chronicles: one table per game (paginated, filterable)",
        responses={200: ChronicleGameSerializer(many=True), **errors(400, 401, 403, 404)},
    )
    def get(self, request, campaign_id: int):
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
    def get(self, request, campaign_id: int, game_id: int):
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
    def post(self, request, campaign_id: int):
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
    def post(self, request, campaign_id: int, game_id: int):
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
    def post(self, request, campaign_id: int, game_id: int):
        """Corrects a recorded result: a new revision of the table with its reason; the old one stays and
        the ledger is rebalanced by correction entries. Answers the table. The campaign's owner only:
        another member gets 403 (code permission_denied), a stranger 404."""
        game = get_object_or_404(self.campaign.games, pk=game_id)
        data = self.input(request)
        game_result_correct(game=game, actor=request.user, **data)
        return Response(ChronicleGameSerializer(chronicle(self.campaign, game.pk)).data)


# ---- History ------------------------------------------------------------------------------


class HistoryListApi(CampaignPagedApi):
    queryset = CampaignEvent.objects.none()  # for the filter's schema; the data comes from selectors
    filterset_class = HistoryFilter

    @extend_schema(
        tags=TAGS,
        summary="The campaign history, newest first (paginated, filterable)",
        responses={200: EventSerializer(many=True), **errors(400, 401, 403, 404)},
    )
    def get(self, request, campaign_id: int):
        """The campaign's history, newest first: every change with who made it, when and in which game;
        paginated and filtered by the query parameters. Any member may read it; a stranger gets 404."""
        events = self.filter_queryset(selectors.campaign_history(campaign=self.campaign))
        return self.paginated(events, EventSerializer)
