"""The fields every area of the API builds its serializers from: strict JSON types (a number is a
JSON number, a boolean a JSON boolean) and texts held to the archive's rule (no control or bidi
characters)."""

from typing import Any

from django.core.validators import ProhibitNullCharactersValidator
from django.utils.translation import gettext_lazy
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from campaign.services.common import TEXT_CONTROL_CHARACTERS
from games.engines.kernel.text import has_control_characters

NAME_CONTROL_CHARACTERS = gettext_lazy("A name cannot hold control characters (such as NUL, ESC or U+202E).")
NOT_A_TEXT = gettext_lazy("Not a valid string.")


class StrictCharField(serializers.CharField):
    """A CharField that refuses numbers and booleans instead of turning them into text."""

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictBooleanField(serializers.BooleanField):
    """A BooleanField that takes only true and false, as the schema says (not 1, "yes" or "on")."""

    def to_internal_value(self, data: Any) -> bool:
        if not isinstance(data, bool):
            self.fail("invalid", input=data)
        return data


NUMBER_NOT_A_NUMBER = gettext_lazy(
    "A whole number is required: a JSON number, not text, a fraction or true/false."
)


class StrictIntegerField(serializers.IntegerField):
    """An IntegerField that takes only a JSON integer, as the schema says (not "3", 3.0 or true,
    which DRF's own turns into 3)."""

    default_error_messages = {"not_a_number": NUMBER_NOT_A_NUMBER}

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("not_a_number")
        return super().to_internal_value(data)


class LetterField(serializers.ChoiceField):
    """A letter among capitals (the schema's enum lists each once): a lower-case letter is read as
    its capital, so generators see one enum without duplicate keys."""

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, str):
            data = data.upper()
        return super().to_internal_value(data)


def _no_control_characters(value: str) -> None:
    if has_control_characters(value):
        raise serializers.ValidationError(NAME_CONTROL_CHARACTERS)


def _text_without_control_characters(value: str) -> None:
    if has_control_characters(value):
        raise serializers.ValidationError(TEXT_CONTROL_CHARACTERS)


class NameField(StrictCharField):
    """A name (campaign, House, player, seat): text without control or bidi characters (the same
    rule as the services; a JSON Schema pattern cannot state it for every generator)."""

    message_check = staticmethod(_no_control_characters)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        # One sentence for every control character, NUL included (DRF's own says only NUL).
        self.validators = [
            v for v in self.validators if not isinstance(v, ProhibitNullCharactersValidator)
        ] + [self.message_check]


class TypedTextField(NameField):
    """A text typed from a card or a reason (a sticker's title and text, a Story card's): held to the
    same rule as a name, the one the campaign archive's import holds it to, so an export of what
    the API took always imports again."""

    message_check = staticmethod(_text_without_control_characters)


@extend_schema_field(OpenApiTypes.INT)
class StrictPrimaryKeyField(serializers.PrimaryKeyRelatedField):
    """An id is a JSON integer, as the schema says (not "7", 7.0 or true; nor "" for null, which
    DRF's related fields take)."""

    def run_validation(self, data: Any = serializers.empty) -> Any:
        if data == "":
            self.fail("incorrect_type", data_type="str")
        return super().run_validation(data)

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("incorrect_type", data_type=type(data).__name__)
        return super().to_internal_value(data)
