"""Filters of the growing lists (history, Realm Chronicles): query parameters, validated (400)."""

import datetime
from typing import Any

import django_filters
from django import forms
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema_field

from campaign.models import CampaignEvent, ChronicleGame, GameEnd
from campaign.selectors import sticker_event_ids
from games.engines.kings_dilemma.data import DEFAULT_TRACKS

EMPTY_VALUE = gettext_lazy("Give a value or leave the parameter out.")
NOT_A_BOOLEAN = gettext_lazy("Write true or false.")
TIME_OUT_OF_RANGE = gettext_lazy("This time is out of range once read in UTC (years 1 to 9999).")


class StrictFilterSet(django_filters.FilterSet):
    """An empty value of a typed parameter (a number, a date, a choice) is a 400, as the schema
    says, instead of being ignored."""

    def is_valid(self) -> bool:
        valid = super().is_valid()
        for name, filter_ in self.filters.items():
            value = self.data.get(name, None)
            if not isinstance(filter_, django_filters.CharFilter) and value == "":
                self.form.add_error(name, EMPTY_VALUE)
                valid = False
            elif isinstance(filter_, django_filters.BooleanFilter) and value not in (None, "true", "false"):
                self.form.add_error(name, NOT_A_BOOLEAN)
                valid = False
        return valid


@extend_schema_field({"type": "integer", "minimum": 1, "maximum": 2**53})
class IntegerFilter(django_filters.NumberFilter):
    """An integer query parameter, bounded (an id out of the database's range is a 400)."""

    field_class = forms.IntegerField

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("min_value", 1)
        kwargs.setdefault("max_value", 2**53)
        super().__init__(*args, **kwargs)


@extend_schema_field({"type": "integer", "minimum": 1, "maximum": DEFAULT_TRACKS["stickers"]})
class StickerNumberFilter(IntegerFilter):
    """A Chronicle sticker number, 1 to 177 (the schema states the range)."""


class UtcDateTimeField(django_filters.fields.IsoDateTimeField):
    """An ISO 8601 time with any offset, read in UTC: one whose UTC value falls outside the years
    a date can hold (0001-01-01T00:00+14:00) is a 400, never an overflow."""

    def to_python(self, value: Any) -> datetime.datetime | None:
        parsed = super().to_python(value)
        if parsed is None:
            return None
        try:
            return parsed.astimezone(datetime.UTC)
        except OverflowError:
            raise forms.ValidationError(TIME_OUT_OF_RANGE) from None


class UtcDateTimeFilter(django_filters.IsoDateTimeFilter):
    field_class = UtcDateTimeField


def text_filter(*, max_length: int, **kwargs: Any) -> django_filters.CharFilter:
    """A text query parameter of at most ``max_length`` characters, without NUL (the schema says
    both)."""
    schema = {"type": "string", "maxLength": max_length, "pattern": "^[^\\x00]*$"}
    kind = extend_schema_field(schema)(type("TextFilter", (django_filters.CharFilter,), {}))
    return kind(max_length=max_length, **kwargs)


class HistoryFilter(StrictFilterSet):
    kind = text_filter(
        max_length=40, help_text="Event kind: sticker_attached, envelope_opened, game_recorded, ledger..."
    )
    house = IntegerFilter(field_name="house_id", help_text="Events of one House (its id).")
    game = IntegerFilter(field_name="game_id", help_text="Events of one game (its id).")
    sticker = StickerNumberFilter(
        method="filter_sticker",
        min_value=1,
        max_value=DEFAULT_TRACKS["stickers"],
        help_text=(
            "Who attached (signed) Chronicle sticker N, in which game: the events of each sticker that "
            "carried the number, then or now (its attachment, corrections and removal)."
        ),
    )
    since = UtcDateTimeFilter(
        method="filter_since", help_text="Events at or after this time (any UTC offset)."
    )

    class Meta:
        model = CampaignEvent
        fields = ["kind", "house", "game", "sticker", "since"]

    def filter_since(self, queryset: QuerySet, name: str, value: datetime.datetime) -> QuerySet:
        # PostgreSQL refuses offsets beyond ±15:59 that ISO 8601 allows: the field reads it in UTC.
        return queryset.filter(created_at__gte=value)

    def filter_sticker(self, queryset: QuerySet, name: str, value: int) -> QuerySet:
        # Followed through its corrections: a sticker typed 31 and corrected to 13 answers for 13.
        campaign_events = CampaignEvent.objects.filter(campaign__in=queryset.values("campaign_id"))
        return queryset.filter(pk__in=sticker_event_ids(events=campaign_events, number=value))


class ChronicleFilter(StrictFilterSet):
    recorded = django_filters.BooleanFilter(help_text="Only games with (true) or without (false) a result.")
    end = django_filters.ChoiceFilter(choices=GameEnd.choices, help_text="How the game ended.")
    king = text_filter(
        field_name="king_name", lookup_expr="icontains", max_length=80, help_text="Part of the King's name."
    )
    played_after = django_filters.DateFilter(field_name="played_on", lookup_expr="gte")
    played_before = django_filters.DateFilter(field_name="played_on", lookup_expr="lte")

    class Meta:
        model = ChronicleGame
        fields = ["recorded", "end", "king", "played_after", "played_before"]
