"""The session answers' serializers. A view's fields follow one declaration, the type hints of
``games.selectors.SessionView``, read once: the API schema, ``view_data`` and the selectors agree
by construction."""

import json
from types import UnionType
from typing import TYPE_CHECKING, Annotated, Any, Union, get_args, get_origin, get_type_hints

from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from api.fields import StrictCharField, StrictIntegerField
from games import selectors
from games.engines.kernel.choices import Choice
from games.models import Seat
from games.selectors import SessionView

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

MAX_ACTION_JSON = 10_000
# Whole sentences, not one with the thing named as a parameter: words agree with it in other languages.
ACTION_NUL = gettext_lazy("An action cannot contain NUL characters.")
SETTINGS_NUL = gettext_lazy("Game settings cannot contain NUL characters.")
KEY_NUL = gettext_lazy("An idempotency key cannot contain NUL characters.")
TOO_BIG = gettext_lazy("An action is at most 10000 characters of JSON.")


def json_without_nul(value: Any, refusal: "StrOrPromise") -> str:
    text = json.dumps(value)
    if "\\u0000" in text:
        raise serializers.ValidationError(refusal)
    return text


class SeatSerializer(serializers.Serializer):
    index = serializers.IntegerField()
    name = StrictCharField()
    colour = StrictCharField()
    is_bot = serializers.BooleanField()
    joined = serializers.SerializerMethodField(
        help_text="A phone opened this seat with its token, or a logged-in player linked it to their account."
    )

    def get_joined(self, seat: Seat) -> bool:
        return selectors.seat_is_joined(seat=seat)


class SessionSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    game = StrictCharField()
    status = StrictCharField(help_text="active, finished or abandoned")
    version = serializers.IntegerField(help_text="Grows by one with every change.")
    created = serializers.DateTimeField()
    seats = SeatSerializer(many=True)


class ParamSerializer(serializers.Serializer):
    """One parameter of a choice and its bounds (games/engines/kernel/choices.py)."""

    kind = serializers.ChoiceField(
        choices=["amount", "pick", "cards", "text", "flag", "typed", "payment"],
        help_text="amount: a whole number from min to max; pick: one of options; cards: min to max "
        "distinct options; text: at most max_length characters; flag: true or false; typed: what "
        "the table types from a physical card (schema names it), validated by the engine; payment: "
        "one of options, each a way to pay (submit its cards).",
    )
    min = serializers.IntegerField(required=False)
    max = serializers.IntegerField(required=False)
    options = serializers.ListField(child=serializers.JSONField(), required=False)
    max_length = serializers.IntegerField(required=False)
    schema = serializers.CharField(required=False)
    nonzero = serializers.BooleanField(required=False, help_text="An amount: true means 0 is not offered.")


class ChoiceSerializer(serializers.Serializer):
    """What a seat may do now: submit {"type", "seat", <param>: value, ...} with a value in bounds."""

    type = serializers.CharField()
    seat = serializers.IntegerField(allow_null=True)
    params = serializers.DictField(child=ParamSerializer())
    title = serializers.CharField(
        required=False, help_text='Words for the choice\'s button ("Vote", "Give Coins").'
    )
    open = serializers.BooleanField(
        required=False,
        help_text="True: open to this seat whoever must act now (bargaining: a gift of Coins during "
        "another House's vote). Such a choice never means the game waits for this seat: to_act says who must act.",
    )


def unwrapped(hint: Any) -> tuple[Any, str, bool]:
    """(the type, its help text, whether it may be null) of a declared field."""
    help_text = ""
    if get_origin(hint) is Annotated:
        hint, help_text = get_args(hint)[0], get_args(hint)[1]
    args = get_args(hint)
    if get_origin(hint) in (Union, UnionType) and type(None) in args:
        return next(a for a in args if a is not type(None)), help_text, True
    return hint, help_text, False


def _field_for(hint: Any) -> serializers.Field:
    """The serializer field of a field declared in ``games.selectors.SessionView``."""
    kind, help_text, nullable = unwrapped(hint)
    options: dict[str, Any] = {"help_text": help_text} if help_text else {}
    if nullable:
        options["allow_null"] = True
    origin = get_origin(kind) or kind
    if origin is list:
        (item,) = get_args(kind)
        if item is Choice:
            return ChoiceSerializer(many=True, **options)
        return serializers.ListField(child=_field_for(item), **options)
    fields = {int: serializers.IntegerField, str: StrictCharField, bool: serializers.BooleanField}
    if origin is dict:
        return serializers.JSONField(**options)
    return fields[kind](**options)


SESSION_VIEW_FIELDS = get_type_hints(SessionView, include_extras=True)

# What one seat (or the table) may see, from the engine: its fields follow the one declaration,
# games.selectors.SessionView (the API schema, view_data and the selectors agree by construction).
ViewSerializer = type(
    "ViewSerializer",
    (serializers.Serializer,),
    {
        "__module__": __name__,
        "__doc__": "What one seat (or the table) may see, from the engine.",
        **{name: _field_for(hint) for name, hint in SESSION_VIEW_FIELDS.items()},
    },
)


class LoggedActionSerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    version = serializers.IntegerField(help_text="The session's version right after this action.")
    seat = serializers.IntegerField(allow_null=True)
    label = StrictCharField(help_text="What happened, as a sentence.")  # type: ignore[assignment]  # a field named like Field.label


@extend_schema_field(
    {
        "type": "object",
        "properties": {"type": {"type": "string", "pattern": "^[^\\x00]*$"}},
        "required": ["type"],
        "additionalProperties": True,
    }
)
class ActionField(serializers.DictField):
    """An action: an object with a 'type' (games/services/taps.py refuses any other)."""


class SubmitInputSerializer(serializers.Serializer):
    action = ActionField(help_text="One of the legal actions ({'type': ..., ...}).")
    expected_version = StrictIntegerField(
        min_value=0, max_value=2**31 - 1, help_text="The version your view showed."
    )

    def validate_action(self, action: dict) -> dict:
        if len(json_without_nul(action, ACTION_NUL)) > MAX_ACTION_JSON:
            raise serializers.ValidationError(TOO_BIG)
        return action


class SubmitOutputSerializer(serializers.Serializer):
    action = LoggedActionSerializer()
    view = ViewSerializer(help_text="Your view after the action.")
