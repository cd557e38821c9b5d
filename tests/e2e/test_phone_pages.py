"""Readable on a phone (issue 26, item 9): at 375 px the Realm Chronicles show each House's rank,
total and Prestige/Crave without scrolling sideways, the points behind the total under its name."""

import pytest

from tests.e2e.conftest import PHONE, login
from tests.factories import UserFactory
from tests.story_play import campaign_of_nights

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_realm_chronicles_fit_a_phone(live_server, new_page, screenshot):
    user = UserFactory(username="phone-reader")
    campaign, _houses, _games = campaign_of_nights(2, user=user, name="Pocket realm")
    page = new_page(PHONE)
    login(page, live_server, user.username)
    page.goto(f"{live_server.url}/campaigns/{campaign.pk}/chronicles/")
    table = page.locator("table.chronicle").first
    assert table.evaluate("t => t.parentElement.scrollWidth <= t.parentElement.clientWidth + 1")
    box = table.locator("th", has_text="Tot.").bounding_box()
    assert box and box["x"] + box["width"] <= PHONE["width"]
    first = table.locator("tbody tr").first
    assert "Coins" in first.locator("td").nth(1).inner_text()  # the points, under the House
    assert not first.locator("td.wide-only").first.is_visible()
    screenshot(page, "chronicles-phone")
