"""Read serializers shared by several campaign endpoints (each view keeps its own nested
Input/OutputSerializer; these are the pieces they are built from), and the fields that take a
campaign's House or game by its id."""

from typing import Any

from django.db.models import QuerySet
from django.utils.functional import Promise
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from api.fields import StrictIntegerField, StrictPrimaryKeyField
from campaign.models import CampaignEvent, ChronicleGame, House

BIG = 1_000_000  # integers are bounded so no input reaches the database out of range


class HouseRefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    number = serializers.IntegerField()


class GameRefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    king_name = serializers.CharField()


class StickerSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    row = serializers.CharField()
    positive = serializers.BooleanField()
    signer = HouseRefSerializer(allow_null=True)
    title = serializers.CharField()
    text = serializers.CharField()
    slot = serializers.IntegerField(help_text="0 is the leftmost space of the row.")
    marks = serializers.IntegerField(help_text="Aging marks.")
    covered = serializers.BooleanField()
    game = GameRefSerializer(allow_null=True)
    attached_at = serializers.DateTimeField()


class AchievementSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.CharField()
    agenda = serializers.CharField(help_text="The Secret Agenda of an alignment achievement, else ''.")
    name = serializers.CharField(
        source="said_name", help_text="In the reader's language for an alignment one."
    )
    condition = serializers.CharField(source="said_condition", help_text="In the reader's language likewise.")
    spaces = serializers.IntegerField()
    marked = serializers.IntegerField()
    unlocked = serializers.BooleanField()
    effects = serializers.DictField(child=serializers.IntegerField())
    ability_text = serializers.CharField()


class LedgerEntrySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.CharField(help_text="prestige or crave")
    amount = serializers.IntegerField()
    reason = serializers.CharField(source="said_reason", help_text="Why, in the reader's language.")
    source = serializers.CharField()  # type: ignore[assignment]  # a field named like Field.source
    game = GameRefSerializer(allow_null=True)
    created_at = serializers.DateTimeField()


class HouseSerializer(serializers.Serializer):
    """A House with its Prestige/Crave totals (from ``house_list``), achievements and alignment."""

    id = serializers.IntegerField()
    name = serializers.CharField()
    number = serializers.IntegerField()
    player_name = serializers.CharField()
    prestige = serializers.IntegerField()
    crave = serializers.IntegerField()
    achievements = serializers.SerializerMethodField()
    alignment = serializers.SerializerMethodField()

    @extend_schema_field(AchievementSerializer(many=True))
    def get_achievements(self, house: House) -> Any:
        chosen = [a for a in house.achievements.all() if a.kind != "alignment"]
        return AchievementSerializer(chosen, many=True).data

    @extend_schema_field(AchievementSerializer(many=True))
    def get_alignment(self, house: House) -> Any:
        chosen = [a for a in house.achievements.all() if a.kind == "alignment"]
        return AchievementSerializer(chosen, many=True).data


class ScoreSerializer(serializers.Serializer):
    house = HouseRefSerializer()
    secret_agenda = serializers.CharField()
    agenda_points = serializers.IntegerField()
    open_agenda_points = serializers.IntegerField()
    coins_points = serializers.IntegerField()
    power_points = serializers.IntegerField()
    total = serializers.IntegerField()
    position = serializers.IntegerField()
    last = serializers.BooleanField()
    prestige = serializers.IntegerField()
    crave = serializers.IntegerField()


class ChronicleGameSerializer(serializers.Serializer):
    """One Realm Chronicles table, with the rows of its current revision."""

    id = serializers.IntegerField()
    number = serializers.IntegerField()
    king_name = serializers.CharField()
    played_on = serializers.DateField()
    end = serializers.CharField(help_text="king_died, abdicated_top, abdicated_bottom or '' (not ended).")
    recorded = serializers.BooleanField()
    revision = serializers.IntegerField(help_text="0, then one more for each correction.")
    resources_final = serializers.DictField(child=serializers.IntegerField())
    conflicts = serializers.SerializerMethodField(
        help_text="What the night could not write into the campaign (it conflicted with it), kept as typed "
        "for a correction: {kind, number, message, what, typed}, message and what in the reader's language.",
    )
    scores = ScoreSerializer(source="current_scores", many=True)

    @extend_schema_field(serializers.ListField(child=serializers.DictField()))
    def get_conflicts(self, game: ChronicleGame) -> list[dict]:
        said = game.said_conflicts
        return [
            {key: value for key, value in {**item, **words}.items() if not key.endswith("_data")}
            for item, words in zip((c for c in game.conflicts if isinstance(c, dict)), said, strict=True)
        ]


class EnvelopeSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    special = serializers.BooleanField()
    opened_at = serializers.DateTimeField()
    opened_by = HouseRefSerializer(allow_null=True)
    game = GameRefSerializer(allow_null=True)


class StoryCardSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    storyline = serializers.CharField()
    title = serializers.CharField()
    text = serializers.CharField()
    signer = HouseRefSerializer(allow_null=True)
    order = serializers.IntegerField(
        help_text="The order its storyline received it; the setup puts the highest number on top."
    )
    is_ending = serializers.BooleanField()
    cohesion = serializers.IntegerField()
    dissent = serializers.IntegerField()
    majority_signer_bonus = serializers.DictField(child=serializers.IntegerField())
    effects = serializers.DictField(child=serializers.IntegerField())
    ability_text = serializers.CharField()


class DilemmaCardSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    kind = serializers.CharField(help_text="dilemma, trigger or event")
    place = serializers.CharField(help_text="deck, event_area, story_slot or trash")
    title = serializers.CharField()


class MysteryStickerSerializer(serializers.Serializer):
    letter = serializers.CharField()
    storyline = serializers.CharField()
    game = GameRefSerializer(allow_null=True)
    attached_at = serializers.DateTimeField()


class EventSerializer(serializers.Serializer):
    """One entry of the campaign history: who, what, when, in which game."""

    id = serializers.IntegerField()
    kind = serializers.CharField()
    summary = serializers.CharField(source="said", help_text="What happened, in the reader's language.")
    data = serializers.JSONField()  # type: ignore[assignment]  # the event's data, not Serializer.data
    actor = serializers.SerializerMethodField()
    house = HouseRefSerializer(allow_null=True)
    game = GameRefSerializer(allow_null=True)
    created_at = serializers.DateTimeField()

    def get_actor(self, event: CampaignEvent) -> str | None:
        """Who made the change: a user here, or by name one of an imported campaign's history."""
        return event.actor.get_username() if event.actor is not None else (event.actor_name or None)


class CampaignHouseField(StrictPrimaryKeyField):
    """The id of a House of the campaign in the serializer context (others: 'does not exist')."""

    def get_queryset(self) -> QuerySet[House]:
        return self.context["campaign"].houses.all()


@extend_schema_field(OpenApiTypes.INT)
class CampaignGameField(StrictPrimaryKeyField):
    """The id of a game (Realm Chronicles table) of the campaign in the serializer context."""

    def get_queryset(self) -> QuerySet[ChronicleGame]:
        return self.context["campaign"].games.all()


def bounded_int(**kwargs: Any) -> StrictIntegerField:
    kwargs.setdefault("min_value", -BIG)
    kwargs.setdefault("max_value", BIG)
    return StrictIntegerField(**kwargs)


def range_messages(message: str | Promise) -> dict:
    """The service's own sentence for a number out of its range (the schema states the range)."""
    return {"min_value": message, "max_value": message}


def game_field(**kwargs: Any) -> CampaignGameField:
    return CampaignGameField(
        required=False,
        allow_null=True,
        help_text="Id of the game in which it happens; omitted: the latest game; null: between games.",
        **kwargs,
    )
