"""A player's campaign page on a phone (375 px): their House, tonight's seat and the Realm board come
first, the forms after everything they read. Measured: how far a player scrolls to reach the board
(the campaign page of a campaign with two nights played, a night running): 1,364 px when the
player's page was the owner's, 664 px now, within the first screen."""

from __future__ import annotations

import pytest

from campaign.services.game_nights import game_night_start
from campaign.services.members import invitation_accept, invitation_create
from tests.e2e.conftest import PHONE, login
from tests.factories import UserFactory
from tests.story_play import campaign_of_nights

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

BOARD_TOP = "document.getElementById('realm-board').getBoundingClientRect().top + window.scrollY"


def test_a_player_reaches_the_board_within_a_phone_screen_and_the_forms_come_last(
    new_page, live_server, screenshot
):
    owner, anna = UserFactory(username="phone-owner"), UserFactory(username="anna")
    campaign, houses, _games = campaign_of_nights(2, user=owner, name="Pocket realm")
    invitation_accept(
        invitation=invitation_create(campaign=campaign, role="player", house=houses[0]), user=anna
    )
    game_night_start(campaign=campaign, houses=houses[:3], king_name="Aldric 3", host=owner, seed=5)
    page = new_page(PHONE)
    login(page, live_server, anna.username)
    page.goto(f"{live_server.url}/campaigns/{campaign.pk}/")
    board_top = page.evaluate(BOARD_TOP)
    print(f"a player scrolls {board_top:.0f} px to reach the board at 375 px")
    assert page.get_by_text("Your House:").is_visible()
    assert page.get_by_text("Tonight's game").is_visible()
    assert board_top < PHONE["height"]
    record = page.evaluate("document.getElementById('record').getBoundingClientRect().top + window.scrollY")
    latest = page.evaluate("document.getElementById('latest').getBoundingClientRect().top + window.scrollY")
    assert latest < record
    screenshot(page, "campaign-player-375")
