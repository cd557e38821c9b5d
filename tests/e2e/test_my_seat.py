"""A player's House is theirs (issue 24 item 4), in Chromium: the owner starts a night from the
campaign on the laptop; the table says who opens each seat from their campaign page; a player
logged in on a 375 px phone taps "open your seat" on the campaign page, without scanning, and sees
their own House's private view; their seat's code then leaves the table."""

import pytest

from campaign.services.envelopes import envelope_open
from campaign.services.houses import campaign_create, house_create
from tests.e2e.conftest import DESKTOP, PHONE, login
from tests.factories import UserFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def visible_text(page) -> str:
    return page.inner_text("body")


def test_a_player_opens_their_seat_from_the_campaign_page(live_server, new_page, screenshot):
    owner, anna = UserFactory(username="olga"), UserFactory(username="anna")
    campaign = campaign_create(name="Our realm", created_by=owner)
    envelope_open(campaign=campaign, number=0, dilemma_numbers=[1, 2, 3])
    house_create(campaign=campaign, name="Valentine", number=1, user=anna)
    house_create(campaign=campaign, name="Martina", number=2, player_name="Grandpa")
    house_create(campaign=campaign, name="Armin", number=3, player_name="Cora")

    table = new_page(DESKTOP)
    login(table, live_server, "olga")
    table.goto(f"{live_server.url}/campaigns/{campaign.pk}/night/new/")
    table.fill("input[name=king_name]", "Harald V")
    for seat, house in enumerate(["House Valentine", "House Martina", "House Armin"]):
        table.select_option(f"select[name=seat{seat}]", label=house)
    table.click("text=Start the game night")
    table.wait_for_selector("#join-panel")
    valentine = table.locator(".join-item", has_text="Valentine")
    assert "anna can open it from their campaign page" in valentine.inner_text()
    assert valentine.locator(".qr svg").count() == 1  # the code stays, for a phone not logged in
    assert table.locator("#join-panel .qr svg").count() == 3

    phone = new_page(PHONE)
    login(phone, live_server, "anna")
    phone.goto(f"{live_server.url}/campaigns/{campaign.pk}/")
    tonight = phone.locator(".tonight-seat")
    assert "Tonight's game: open your seat (House Valentine)" in tonight.inner_text()
    assert "Played by you" in phone.locator("#house-list").inner_text()
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    screenshot(phone, "my-seat-campaign-phone")

    tonight.locator("a", has_text="open your seat").click()
    phone.wait_for_selector("#seat-panel")
    assert "Valentine" in phone.inner_text("h1, .seat-name, header") or "Valentine" in visible_text(phone)
    private = phone.locator("#seat-panel .private")
    assert "Power" in private.inner_text() and "Coins" in private.inner_text()
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    screenshot(phone, "my-seat-phone")

    # Opening it counted as her phone joining: her code leaves the table by itself.
    table.wait_for_function("() => document.querySelectorAll('#join-panel .qr svg').length === 2")
    assert "can open it from their campaign page" not in table.inner_text("#join-panel")
