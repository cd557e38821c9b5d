"""What every campaign service shares: the event each change records, the checks of a House
and of ability effects, and the Celery tasks sent by name."""

from __future__ import annotations

import datetime
import json
from typing import Any

from celery import Task
from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import ValidationError
from django.db import models
from django.utils import timezone, translation
from django.utils.dateparse import parse_datetime
from django.utils.functional import lazy
from django.utils.translation import gettext, gettext_lazy

from campaign.models import (
    Campaign,
    CampaignEvent,
    ChronicleGame,
    House,
)
from config.celery import app as celery_app
from games.engines.kernel.messages import Message, to_data
from games.engines.kernel.text import has_control_characters

# Who does something: an account, the anonymous visitor of a page, or nobody (a script, the import).
type Actor = User | AnonymousUser | None

NAME_CONTROL_CHARACTERS = gettext_lazy("A name cannot hold control characters (such as NUL, ESC or U+202E).")
TEXT_CONTROL_CHARACTERS = gettext_lazy("A text cannot hold control characters (such as NUL, ESC or U+202E).")


def text_checked(value: str) -> None:
    """A typed text, held to the rule the archive's import holds it to (its one home:
    ``has_control_characters``): what a form takes, an export carries and the import takes again."""
    if isinstance(value, str) and has_control_characters(value):
        raise ValidationError(TEXT_CONTROL_CHARACTERS)


HOUSE_NOT_IN_CAMPAIGN = gettext_lazy("House {house} is not part of this campaign.")


UNKNOWN_AGENDA = gettext_lazy("{agenda!r} is not a Secret Agenda.")


CAMPAIGN_CLOSED = gettext_lazy("The campaign is closed: the Grand Finale has been reached.")


# What the table types from a Story card (story_card_place's arguments; the archive adds its place).
STORY_CARD_FIELDS = (
    "number",
    "storyline",
    "title",
    "text",
    "is_ending",
    "cohesion",
    "dissent",
    "majority_signer_bonus",
    "effects",
    "ability_text",
)
EFFECT_KEYS = {"start_power", "start_coins", "prestige", "crave", "power", "coins"}


UNKNOWN_EFFECT = gettext_lazy(
    "Unknown ability effect {key!r}; use start_power, start_coins, prestige, crave, power or coins."
)


class _Unfilled(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"  # left for the ``.format`` where the message is said


def _fill(message: Any, fixed: dict[str, Any]) -> str:
    return str(message).format_map(_Unfilled(fixed))


_fill_lazy = lazy(_fill, str)


def fill_lazy(message: Any, **fixed: Any) -> Any:
    """A lazy message with the rules' numbers filled in now and the rest (``{count}``) left for
    ``.format`` when it is said, in the reader's language: a message formatted at import time would
    be frozen in one language."""
    return _fill_lazy(message, fixed)


def in_english(text: Any) -> str:
    """``text`` in English: the campaign's history and ledger keep their words as written, in
    one language, whoever made the change."""
    with translation.override("en"):
        return str(text)


def message_data(text: Any) -> Any:
    """What a record keeps of its words besides their English: the message's data (a ``Message``
    of games/engines/kernel/messages.py), so each reader reads them in their own language; None for
    words a person typed."""
    if not isinstance(text, Message):
        return None
    try:
        return json.loads(json.dumps(to_data(text)))
    except (TypeError, ValueError):  # a parameter that is no JSON: the English stays, always
        return None


def record_event(
    campaign: Campaign,
    kind: str,
    summary: str,
    *,
    actor: Actor = None,
    house: House | None = None,
    game: ChronicleGame | None = None,
    **data: Any,
) -> CampaignEvent:
    """One line of the history. ``summary`` is a ``Message`` (its English is kept, and the message
    said again in each reader's language)."""
    return CampaignEvent.objects.create(
        campaign=campaign,
        kind=kind,
        summary=str(summary)[:300],
        summary_data=message_data(summary),
        actor=actor if isinstance(actor, User) else None,
        house=house,
        game=game,
        data=data,
    )


def check_house(campaign: Campaign, house: House | None) -> None:
    if house is not None and house.campaign_id != campaign.id:
        raise ValidationError(HOUSE_NOT_IN_CAMPAIGN.format(house=house.name))


def check_effects(effects: dict) -> dict:
    for key, value in (effects or {}).items():
        if key not in EFFECT_KEYS or not isinstance(value, int) or isinstance(value, bool):
            raise ValidationError(UNKNOWN_EFFECT.format(key=key))
    return effects or {}


def json_value(field: Any, value: Any) -> Any:
    """The value of one model field from JSON, of the right JSON type (ranges are checked by the
    model's validators afterwards). Raises ValueError with the reason."""
    if value is None and field.null:  # a field that may be empty (SessionAction.undoable)
        return None
    if isinstance(field, models.BooleanField):
        if not isinstance(value, bool):
            raise ValueError(gettext("must be true or false"))
        return value
    if isinstance(field, models.IntegerField):
        if not isinstance(value, int) or isinstance(value, bool):
            raise ValueError(gettext("must be a whole number"))
        return value
    if isinstance(field, models.CharField | models.TextField):
        if not isinstance(value, str):
            raise ValueError(gettext("must be a text"))
        if has_control_characters(value, multiline=isinstance(field, models.TextField)):
            raise ValueError(gettext("cannot hold control characters"))
        return value
    if isinstance(field, models.DateTimeField):
        parsed = parse_datetime(value) if isinstance(value, str) else None
        if parsed is None:
            raise ValueError(gettext("must be a date and time (ISO 8601)"))
        return parsed if timezone.is_aware(parsed) else timezone.make_aware(parsed, datetime.UTC)
    if isinstance(field, models.DateField):
        try:
            if isinstance(value, str):
                return datetime.date.fromisoformat(value)
        except ValueError:
            pass
        raise ValueError(gettext("must be a date (YYYY-MM-DD)"))
    if isinstance(field, models.JSONField):
        if field.default is list:  # ChronicleGame.conflicts: a list of objects
            if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
                raise ValueError(gettext("must be a list of objects"))
            return value
        if not isinstance(value, dict):
            raise ValueError(gettext("must be an object"))
        return value
    raise ValueError("cannot be imported")  # pragma: no cover (every field kind is listed above)


def task_named(name: str) -> Task:
    """The Celery task registered under ``name``. The services send campaign/tasks.py's tasks by
    name and never import that module, which imports the services at its top: no circle. Every
    process registers the tasks at start-up (``CampaignConfig.ready``), so an eager run (no Redis)
    runs them in-process as before."""
    return celery_app.tasks[name]
