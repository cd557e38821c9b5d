"""One colour per House (issue 26): a House's colour at the table and on the phones is its colour on
the campaign pages and charts (campaign.colours), whatever seat it takes; other games keep their seat
colours."""

import re

import pytest
from django.urls import reverse

from campaign import charts
from campaign.colours import house_colour
from campaign.services import game_nights
from campaign.services.envelopes import envelope_open
from games.services.sessions import SEAT_COLOURS, session_create
from tests.factories import campaign_with_houses

pytestmark = [pytest.mark.database, pytest.mark.django_db]


def chip_colour(page: str, name: str) -> str:
    """The colour of the House chip named ``name`` on the table's board."""
    chip = re.search(
        r'<li class="seat-chip[^"]*" style="--seat: (#[0-9a-fA-F]{6})">\s*<div class="seat-chip-name">'
        r'<span class="dot" aria-hidden="true"></span>' + re.escape(name),
        page,
    )
    assert chip, f"no chip for {name}"
    return chip.group(1)


class HouseColourTests:
    def night(self, user):
        campaign, houses = campaign_with_houses("Valentine", "Tork", "Armin", "Charles", "Martina", user=user)
        envelope_open(campaign=campaign, number=0, dilemma_numbers=[1, 2, 3])
        seated = [houses[4], houses[1], houses[0], houses[3], houses[2]]  # table order is not House order
        session = game_nights.game_night_start(
            campaign=campaign, houses=seated, king_name="Harald V", host=user, seed=7
        )
        return campaign, seated, session

    def test_a_house_wears_its_campaign_colour_at_the_table_on_its_phone_and_on_the_charts(
        self, client, user
    ):
        campaign, seated, session = self.night(user)
        client.force_login(user)
        table = client.get(reverse("games:session_table", args=[session.pk])).content.decode()
        detail = client.get(reverse("campaign-detail", args=[campaign.pk])).content.decode()
        chart = charts.prestige_chart(campaign=campaign)
        for index, house in enumerate(seated):
            assert house.colour == house_colour(house.number)
            assert chip_colour(table, house.name) == house.colour  # the table's House chip
            seat = session.seats.get(index=index)
            assert seat.colour == house.colour
            phone = client.get(reverse("games:seat_page", args=[seat.token])).content.decode()
            assert f'style="--seat: {house.colour}"' in phone  # the phone wears it
            assert f'id="house-{house.pk}" style="--house: {house.colour}"' in detail  # the campaign page
            assert house.colour in chart  # the Prestige chart's line

    def test_nights_started_before_take_their_house_colours_at_the_migration(self, user):
        """games/migrations/0008: seats of campaign nights stored with a seat colour."""
        from importlib import import_module

        from django.apps import apps

        migration = import_module("games.migrations.0008_campaign_seats_wear_their_house_colour")
        _, seated, session = self.night(user)
        session.seats.update(colour="blue")
        other = session_create(game="for_the_king", seat_names=["Anna", "Bruno"], seed=1)
        migration.seats_wear_house_colours(apps, None)
        assert [s.colour for s in session.seats.order_by("index")] == [h.colour for h in seated]
        assert [s.colour for s in other.seats.order_by("index")] == SEAT_COLOURS[:2]

    def test_a_game_outside_a_campaign_keeps_its_seat_colours(self):
        session = session_create(game="for_the_king", seat_names=["Anna", "Bruno"], seed=1)
        assert [s.colour for s in session.seats.order_by("index")] == SEAT_COLOURS[:2]
