"""One night at a time, in Chromium: a player who presses "Start a game night" while the owner's
night runs is shown that night (their seat), not a second one; the owner abandons the night by
mistake, and the campaign page offers to resume it after a confirmation; the table goes on."""

import pytest

from campaign.services.envelopes import envelope_open
from campaign.services.game_nights import game_night_start
from campaign.services.houses import campaign_create, house_create
from campaign.services.stickers import sticker_attach
from tests.e2e.conftest import DESKTOP, PHONE, login
from tests.factories import UserFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_second_start_shows_the_running_night_and_an_abandoned_one_is_resumed(
    live_server, new_page, screenshot
):
    owner, anna = UserFactory(username="olga"), UserFactory(username="anna")
    campaign = campaign_create(name="Our realm", created_by=owner)
    envelope_open(campaign=campaign, number=0, dilemma_numbers=[1, 2, 3])
    houses = [
        house_create(campaign=campaign, name="Valentine", number=1, user=anna),
        house_create(campaign=campaign, name="Martina", number=2, player_name="Grandpa"),
        house_create(campaign=campaign, name="Armin", number=3, player_name="Cora"),
    ]
    sticker_attach(campaign=campaign, number=12, row="wealth", positive=True, signer=houses[0])
    night = game_night_start(campaign=campaign, houses=houses, king_name="Olaf", host=owner, seed=3)

    phone = new_page(PHONE)
    login(phone, live_server, "anna")
    phone.goto(f"{live_server.url}/campaigns/{campaign.pk}/")
    phone.click("text=Start a game night")
    phone.wait_for_selector("#night-running")
    text = phone.inner_text("#night-running")
    assert f"Game night #{night.pk} (King Olaf) of this campaign is running" in text
    assert "Open your seat (House Valentine)" in text and "Abandon it" not in text
    screenshot(phone, "night-running-phone")

    table = new_page(DESKTOP)
    login(table, live_server, "olga")
    table.goto(f"{live_server.url}/play/s/{night.pk}/")
    table.click("text=Abandon this session")
    table.click("text=Yes, abandon this session")
    table.goto(f"{live_server.url}/campaigns/{campaign.pk}/")
    assert "0 marks" in table.inner_text("#realm-board")  # the abandoned night aged nothing
    table.click("#nights-abandoned summary")
    table.click("text=Resume it")
    table.wait_for_selector("text=Yes, resume this night")
    screenshot(table, "night-resume-confirm")
    table.click("text=Yes, resume this night")
    table.wait_for_selector(f"text=Game night #{night.pk} resumed where it stopped.")
    night.refresh_from_db()
    assert night.status == "active"
