"""A small demo campaign built only through the services (two games played, stickers, envelopes)."""

import datetime

from django.contrib.auth import get_user_model
from django.db import transaction

from campaign.access import DEMO_USER
from campaign.models import Campaign
from campaign.services.chronicles import game_begin, game_result_record
from campaign.services.envelopes import envelope_open, game_save
from campaign.services.houses import campaign_create, house_create
from campaign.services.stickers import sticker_attach

DEMO_CAMPAIGN = "Ankist, Thursday group"


@transaction.atomic
def demo_campaign_load() -> Campaign:
    """The demo campaign and its account, which has no password (an install that gave it one loses
    it): only the one-click demo login on the machine that runs Chronicle opens it."""
    user, _ = get_user_model().objects.get_or_create(username=DEMO_USER)
    if user.has_usable_password():
        user.set_unusable_password()
        user.save(update_fields=["password"])
    existing = Campaign.objects.filter(name=DEMO_CAMPAIGN).first()
    if existing:
        return existing
    campaign = campaign_create(name=DEMO_CAMPAIGN, created_by=user)
    names = [("Smeethe", 7, "Anna"), ("Humblescore", 2, "Ben"), ("Tork", 3, "Carla"), ("Allwed", 6, "Dario")]
    houses = [
        house_create(campaign=campaign, name=n, number=num, player_name=p, actor=user) for n, num, p in names
    ]
    smeethe, humble, tork, allwed = houses
    envelope_open(
        campaign=campaign,
        number=0,
        dilemma_numbers=[1, 2, 3],
        story_card={"number": 1, "storyline": "Crown", "title": "A new reign"},
        actor=user,
    )
    game = game_begin(
        campaign=campaign, king_name="Harald V", played_on=datetime.date(2026, 9, 3), actor=user
    )
    sticker_attach(
        campaign=campaign,
        number=43,
        row="welfare",
        positive=False,
        signer=tork,
        title="Bread riots",
        game=game,
        actor=user,
    )
    sticker_attach(
        campaign=campaign,
        number=12,
        row="influence",
        positive=True,
        signer=smeethe,
        title="The northern pact",
        game=game,
        actor=user,
    )
    envelope_open(
        campaign=campaign,
        number=5,
        opened_by=humble,
        game=game,
        dilemma_numbers=[14, 15, 16],
        story_card={"number": 5, "storyline": "Faith", "title": "The Mother's voice"},
        actor=user,
    )
    game_save(game=game, resolved=[1, 2], actor=user)
    game_result_record(
        game=game,
        end="king_died",
        rows=[
            {
                "house": smeethe,
                "secret_agenda": "opulent",
                "agenda_points": 10,
                "open_agenda_points": 0,
                "coins_points": 4,
                "power_points": 2,
            },
            {
                "house": humble,
                "secret_agenda": "rebel",
                "agenda_points": 13,
                "open_agenda_points": 0,
                "coins_points": 1,
                "power_points": 0,
            },
            {
                "house": tork,
                "secret_agenda": "moderate",
                "agenda_points": 7,
                "open_agenda_points": 0,
                "coins_points": 3,
                "power_points": 1,
            },
            {
                "house": allwed,
                "secret_agenda": "greedy",
                "agenda_points": 4,
                "open_agenda_points": 0,
                "coins_points": 6,
                "power_points": 0,
            },
        ],
        resources_final={"influence": 12, "wealth": 9, "morale": 6, "welfare": 4, "knowledge": 10},
        actor=user,
    )
    game2 = game_begin(
        campaign=campaign, king_name="Adelmo I", played_on=datetime.date(2026, 9, 17), actor=user
    )
    sticker_attach(
        campaign=campaign,
        number=77,
        row="wealth",
        positive=True,
        signer=allwed,
        title="Spice road",
        game=game2,
        actor=user,
    )
    sticker_attach(
        campaign=campaign,
        number=91,
        row="welfare",
        positive=True,
        signer=humble,
        title="Granaries",
        game=game2,
        actor=user,
    )
    game_save(game=game2, resolved=[3, 14], actor=user)
    game_result_record(
        game=game2,
        end="abdicated_top",
        rows=[
            {
                "house": smeethe,
                "secret_agenda": "greedy",
                "agenda_points": 7,
                "open_agenda_points": 3,
                "coins_points": 8,
                "power_points": 1,
            },
            {
                "house": humble,
                "secret_agenda": "extremist",
                "agenda_points": 9,
                "open_agenda_points": 1,
                "coins_points": 2,
                "power_points": 2,
            },
            {
                "house": tork,
                "secret_agenda": "opportunist",
                "agenda_points": 4,
                "open_agenda_points": -1,
                "coins_points": 4,
                "power_points": 0,
            },
        ],
        resources_final={"influence": 14, "wealth": 11, "morale": 8, "welfare": 7, "knowledge": 13},
        actor=user,
    )
    return campaign
