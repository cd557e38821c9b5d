"""The campaign over months for mobile clients: a House's page, the realm's statistics,
the story of a night and its read-only link. One view per operation; members of the campaign only."""

from django.shortcuts import get_object_or_404
from django.urls import reverse
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from api.base import CampaignApi
from api.campaigns.serializers import (
    AchievementSerializer,
    EnvelopeSerializer,
    GameRefSerializer,
    HouseRefSerializer,
    LedgerEntrySerializer,
    ScoreSerializer,
    StickerSerializer,
)
from api.errors import MEMBER_READ, MEMBER_WRITE
from campaign import statistics_selectors, story_selectors
from campaign.access import Need
from campaign.models import Campaign, ChronicleGame, StoryLink
from campaign.services.stories import story_link_create, story_link_revoke
from config.network import phone_base_url

TAGS = ["stories"]


class FiguresSerializer(serializers.Serializer):
    dilemmas = serializers.IntegerField(help_text="Dilemmas voted on in the nights played at the table.")
    led = serializers.IntegerField(help_text="Held the Leader token when the vote ended.")
    moderated = serializers.IntegerField(help_text="Held the Moderator token when the vote ended.")
    voted = serializers.IntegerField(help_text="Votes cast (AYE or NAY with Power).")
    won = serializers.IntegerField(help_text="Votes whose Power was on the side chosen.")
    coins_given = serializers.IntegerField()
    coins_received = serializers.IntegerField()


class SeatHouseSerializer(serializers.Serializer):
    seat = serializers.IntegerField(
        allow_null=True, help_text="Place at the table, clockwise from 0 (null: a House a correction named)."
    )
    name = serializers.CharField()
    house = serializers.IntegerField(allow_null=True, help_text="The House's id in the campaign.")
    colour = serializers.CharField(help_text="The House's colour, #rrggbb.")


class StoryVoteSerializer(serializers.Serializer):
    house = SeatHouseSerializer()
    vote = serializers.CharField(
        allow_null=True, help_text="aye, nay, gather or moderator (the passes); null: none"
    )
    power = serializers.IntegerField()
    words = serializers.CharField(help_text="The vote in the game's words.")


class MoveSerializer(serializers.Serializer):
    row = serializers.CharField(help_text="The Resource.")
    amount = serializers.IntegerField()


class StorySticker(serializers.Serializer):
    """A sticker of the night as the board holds it now (a correction shows here, with ``was``)."""

    number = serializers.IntegerField()
    row = serializers.CharField()
    positive = serializers.BooleanField()
    signer = SeatHouseSerializer(allow_null=True)
    was = serializers.CharField(
        help_text="What the table typed where a correction changed it ('sticker 31 in the Wealth row'); '' if not."
    )
    changed_on = serializers.DateTimeField(allow_null=True, help_text="When it was corrected or removed.")
    removed = serializers.BooleanField(help_text="Removed since: it was attached by mistake.")


class StoryEnvelope(serializers.Serializer):
    number = serializers.IntegerField()
    opened_by = SeatHouseSerializer()
    grand_finale = serializers.BooleanField()


class GiftSerializer(serializers.Serializer):
    giver = SeatHouseSerializer()
    receiver = SeatHouseSerializer()
    coins = serializers.IntegerField()


class ChapterSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    number = serializers.IntegerField(help_text="The Dilemma card's number.")
    title = serializers.CharField(help_text="As typed at the draw.")
    question = serializers.CharField(help_text="As typed at the draw.")
    leader = SeatHouseSerializer(help_text="The Leader when the card was drawn.")
    moderator = SeatHouseSerializer(help_text="The Moderator when the card was drawn.")
    votes = StoryVoteSerializer(many=True)
    aye = serializers.IntegerField(help_text="Power on AYE.")
    nay = serializers.IntegerField(help_text="Power on NAY.")
    side = serializers.CharField(allow_null=True, help_text="aye or nay; null while the vote runs.")
    undecided = serializers.CharField(allow_null=True, help_text="tie or all_pass: the Moderator decided.")
    decided_by = SeatHouseSerializer(allow_null=True)
    carried_by = SeatHouseSerializer(many=True, help_text="The Houses whose Power was on the side chosen.")
    resolved_by = SeatHouseSerializer(allow_null=True, help_text="The Leader when the vote ended.")
    leader_given_by = SeatHouseSerializer(allow_null=True)
    moves = MoveSerializer(many=True, help_text="The outcome's Resource moves, in order, as typed.")
    note = serializers.CharField()
    lightning = serializers.BooleanField()
    stickers = StorySticker(many=True)
    envelopes = StoryEnvelope(many=True)
    effects = serializers.ListField(
        child=serializers.CharField(), help_text="Printed effects applied by hand."
    )
    coins = GiftSerializer(many=True)
    placed = serializers.CharField(allow_null=True, help_text="time_counter or event_area.")


class RankSerializer(ScoreSerializer):
    """A row of the night's ranking as the engine scored it (the Prestige and Crave are the
    campaign's: see the game's Realm Chronicles ``scores``)."""

    house = SeatHouseSerializer()  # type: ignore[assignment]
    prestige = None  # type: ignore[assignment]
    crave = None  # type: ignore[assignment]
    heir = serializers.BooleanField(help_text="Married into the royal line (tied winners only).")
    was = serializers.DictField(
        child=serializers.CharField(),
        help_text="What the table played where a correction changed the row: rank, secret_agenda, total.",
    )
    corrected_on = serializers.DateTimeField(allow_null=True, help_text="When that correction was made.")


class DroppedSerializer(serializers.Serializer):
    house = SeatHouseSerializer()
    rank = serializers.CharField(
        allow_null=True, help_text="The rank the table gave it (null: a House a correction had added)."
    )
    removed_on = serializers.DateTimeField(allow_null=True, help_text="When the correction took it out.")


class ResourceEndSerializer(serializers.Serializer):
    row = serializers.CharField()
    position = serializers.IntegerField()


class StorySerializer(serializers.Serializer):
    king_name = serializers.CharField()
    houses = SeatHouseSerializer(many=True)
    over = serializers.BooleanField()
    chapters = ChapterSerializer(many=True)
    end = serializers.CharField(allow_null=True)
    end_words = serializers.CharField()
    end_was = serializers.CharField(
        help_text="How the table ended it, where a correction changed it; '' if not."
    )
    end_corrected_on = serializers.DateTimeField(allow_null=True)
    resources_final = ResourceEndSerializer(many=True)
    ranking = RankSerializer(
        many=True,
        allow_null=True,
        help_text="Only once the night is over; as the Realm Chronicles hold it now (corrections included).",
    )
    dropped = DroppedSerializer(
        many=True, help_text="The Houses a correction took out of the night's Realm Chronicles table."
    )
    coins = GiftSerializer(many=True, help_text="The Coins each House gave another over the night.")


def _game(campaign: Campaign, game_id: int) -> ChronicleGame:
    return get_object_or_404(ChronicleGame, campaign=campaign, pk=game_id)


def _link_url(request: Request, link: StoryLink | None) -> str | None:
    return phone_base_url(request) + reverse("shared-story", args=[link.token]) if link else None


class HousePageApi(CampaignApi):
    class OutputSerializer(serializers.Serializer):
        class NightSerializer(serializers.Serializer):
            game = GameRefSerializer()
            score = ScoreSerializer(
                allow_null=True, help_text="Its Realm Chronicles row (null: not recorded)."
            )
            figures = FiguresSerializer(allow_null=True, help_text="null: played on paper.")
            was = serializers.DictField(
                child=serializers.CharField(),
                help_text="What the table played where a correction changed the row: rank, secret_agenda, total.",
            )
            corrected_on = serializers.DateTimeField(
                allow_null=True, help_text="When that correction was made."
            )

        class MarkSerializer(serializers.Serializer):
            summary = serializers.CharField()
            game = GameRefSerializer(allow_null=True)
            created_at = serializers.DateTimeField()

        house = HouseRefSerializer()
        prestige = serializers.IntegerField()
        crave = serializers.IntegerField()
        ledger = LedgerEntrySerializer(many=True)
        stickers = StickerSerializer(
            many=True, help_text="Every Chronicle sticker it signed, covered or not."
        )
        achievements = AchievementSerializer(many=True)
        marks = MarkSerializer(many=True, help_text="Achievement and alignment marks, when they came.")
        nights = NightSerializer(many=True)
        figures = FiguresSerializer()

    @extend_schema(
        tags=TAGS,
        summary="A House across the campaign",
        responses={200: OutputSerializer, **MEMBER_READ},
    )
    def get(self, request: Request, campaign_id: int, house_id: int) -> Response:
        """A House across the campaign: its ledger with reasons, stickers signed, achievements, alignment
        marks, each night's Secret Agenda and result, and its council figures. Any member may read it; a
        stranger gets 404."""
        house = get_object_or_404(self.campaign.houses, pk=house_id)
        page = statistics_selectors.house_page(campaign=self.campaign, house=house)
        page["stickers"] = [s for row in page["sticker_rows"] for s in row["positive"] + row["negative"]]
        return Response(self.OutputSerializer(page).data)


class StatisticsApi(CampaignApi):
    class OutputSerializer(serializers.Serializer):
        class NightSerializer(serializers.Serializer):
            game = GameRefSerializer()
            end = serializers.CharField(source="game.end", help_text="'' while not recorded.")
            end_words = serializers.CharField()
            resources = serializers.ListField(
                child=serializers.IntegerField(allow_null=True),
                help_text="Rows of Influence, Wealth, Morale, Welfare, Knowledge at the end.",
            )

        class ReignSerializer(serializers.Serializer):
            end = serializers.CharField()
            words = serializers.CharField()
            count = serializers.IntegerField()

        class RowSerializer(serializers.Serializer):
            class CountSerializer(serializers.Serializer):
                house = HouseRefSerializer()
                count = serializers.IntegerField()

            row = serializers.CharField()
            total = serializers.IntegerField()
            counts = CountSerializer(many=True)
            most = HouseRefSerializer(many=True, help_text="Who signed the most in the row (ties: all).")

        class DilemmaSerializer(serializers.Serializer):
            game = GameRefSerializer()
            number = serializers.IntegerField()
            title = serializers.CharField()
            side = serializers.ChoiceField(choices=["aye", "nay"], help_text="As in a night's story.")
            side_words = serializers.CharField(help_text="The side in words: AYE or NAY.")
            aye = serializers.IntegerField()
            nay = serializers.IntegerField()
            power = serializers.IntegerField(help_text="The Power on the side chosen.")
            undecided = serializers.CharField(allow_null=True)
            carried_by = SeatHouseSerializer(many=True)

        class CouncilSerializer(FiguresSerializer):
            house = HouseRefSerializer()

        nights = NightSerializer(many=True)
        reigns = ReignSerializer(many=True)
        sticker_rows = RowSerializer(many=True)
        dilemmas = DilemmaSerializer(many=True)
        envelopes = EnvelopeSerializer(many=True)
        council = CouncilSerializer(many=True)

    @extend_schema(
        tags=TAGS,
        summary="The realm's statistics",
        responses={200: OutputSerializer, **MEMBER_READ},
    )
    def get(self, request: Request, campaign_id: int) -> Response:
        """The realm's statistics: the Resources at each night's end, how each reign ended, who signed
        most, the Dilemmas met, the Envelopes opened, each House's council figures. Any member may read
        it; a stranger gets 404."""
        return Response(
            self.OutputSerializer(statistics_selectors.realm_statistics(campaign=self.campaign)).data
        )


class GameStoryApi(CampaignApi):
    class OutputSerializer(serializers.Serializer):
        game = GameRefSerializer()
        story = StorySerializer(allow_null=True, help_text="null: a night recorded from paper.")
        scores = ScoreSerializer(many=True, help_text="The game's Realm Chronicles rows.")
        link = serializers.URLField(allow_null=True, help_text="The live read-only link, if shared.")

    @extend_schema(
        tags=TAGS,
        summary="The story of a night",
        responses={200: OutputSerializer, **MEMBER_READ},
    )
    def get(self, request: Request, campaign_id: int, game_id: int) -> Response:
        """The story of a night told from its log: each Dilemma with its votes and outcome, the end of the
        reign and the ranking (once the night is over); link is its read-only link or null. Any member
        may read it; a stranger gets 404."""
        game = _game(self.campaign, game_id)
        data = {
            "game": game,
            "story": story_selectors.night_chapter(campaign=self.campaign, game=game),
            "scores": story_selectors.game_scores(game=game),
            "link": _link_url(request, story_selectors.story_link_live(game=game)),
        }
        return Response(self.OutputSerializer(data).data)


class StoryLinkOutput(serializers.Serializer):
    game = GameRefSerializer()
    url = serializers.URLField(help_text="Needs no account; shows this story and nothing else.")
    created_at = serializers.DateTimeField()
    revoked_at = serializers.DateTimeField(allow_null=True)


def _link_data(request: Request, link: StoryLink) -> dict:
    url = phone_base_url(request) + reverse("shared-story", args=[link.token])
    return {"game": link.game, "url": url, "created_at": link.created_at, "revoked_at": link.revoked_at}


class StoryLinkCreateApi(CampaignApi):
    need = Need.OWN  # a link opens the story to anyone: the owner decides

    @extend_schema(
        tags=TAGS,
        summary="Share a night's story by a read-only link (the live one if already shared)",
        request=None,
        responses={201: StoryLinkOutput, **MEMBER_WRITE},
    )
    def post(self, request: Request, campaign_id: int, game_id: int) -> Response:
        """Shares a night's story by a read-only link that needs no account; answers 201 with it (the live
        link if already shared). The campaign's owner only: another member gets 403 (code
        permission_denied), a stranger 404."""
        link = story_link_create(game=_game(self.campaign, game_id), actor=request.user)
        return Response(StoryLinkOutput(_link_data(request, link)).data, status=status.HTTP_201_CREATED)


class StoryLinkRevokeApi(CampaignApi):
    need = Need.OWN

    @extend_schema(
        tags=TAGS,
        summary="Revoke a night's read-only link (its address says it was revoked: 410)",
        request=None,
        responses={200: StoryLinkOutput, **MEMBER_WRITE},
    )
    def post(self, request: Request, campaign_id: int, game_id: int) -> Response:
        """Revokes a night's read-only link: its address answers 410 from now on. None live is a 400. The
        campaign's owner only: another member gets 403 (code permission_denied), a stranger 404."""
        link = story_link_revoke(game=_game(self.campaign, game_id), actor=request.user)
        return Response(StoryLinkOutput(_link_data(request, link)).data)
