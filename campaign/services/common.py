"""What every campaign service shares: the event each change records, and the checks of a House
and of ability effects."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError

from campaign.models import (
    Campaign,
    CampaignEvent,
    House,
)

NAME_CONTROL_CHARACTERS = "A name cannot hold control characters (such as NUL, ESC or U+202E)."


HOUSE_NOT_IN_CAMPAIGN = "House {house} is not part of this campaign."


UNKNOWN_AGENDA = "{agenda!r} is not a Secret Agenda."


CAMPAIGN_CLOSED = "The campaign is closed: the Grand Finale has been reached."


EFFECT_KEYS = {"start_power", "start_coins", "prestige", "crave", "power", "coins"}


UNKNOWN_EFFECT = (
    "Unknown ability effect {key!r}; use start_power, start_coins, prestige, crave, power or coins."
)


def record_event(campaign, kind, summary, *, actor=None, house=None, game=None, **data) -> CampaignEvent:
    return CampaignEvent.objects.create(
        campaign=campaign,
        kind=kind,
        summary=summary,
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
