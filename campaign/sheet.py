"""The campaign sheet: what legacy players keep on paper between nights (the Realm board with its
stickers, the Houses with Prestige, Crave and achievements, the save slots, the storylines and the
Realm Chronicles), read from the campaign's records for one printable page. Reads only."""

from __future__ import annotations

from campaign import selectors
from campaign.models import Achievement, Campaign


def campaign_sheet(*, campaign: Campaign) -> dict:
    houses = selectors.houses_by_prestige(campaign=campaign)
    achievements: dict[int, list[Achievement]] = {h.pk: [] for h in houses}
    for achievement in Achievement.objects.filter(house__campaign=campaign).order_by("house", "kind", "id"):
        achievements[achievement.house_id].append(achievement)
    for house in houses:
        house.sheet_achievements = achievements[house.pk]  # type: ignore[attr-defined]  # for the template only
    return {
        "houses": houses,
        "board": selectors.realm_board(campaign=campaign),
        "save_slots": selectors.save_slots(campaign=campaign),
        "storylines": selectors.storylines(campaign=campaign),
        "envelopes": campaign.envelopes.order_by("number"),
        "mystery": campaign.mystery_stickers.all(),
        "games": selectors.realm_chronicles(campaign=campaign),
    }
