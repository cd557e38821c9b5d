"""The dark room: a phone or a laptop set to dark mode gets the dark theme, and a reader can choose
light, dark or the system's with the control in the top bar; the choice holds from the first paint
of the next page. Screenshots of the campaign, the tables and phones in each theme at 375 and 1920 px.
(tests/e2e/test_accessibility.py runs axe on every page state in both themes.)"""

from __future__ import annotations

import random

import pytest

from campaign.services.game_nights import game_night_start
from games.services.sessions import session_create
from tests.e2e.conftest import DESKTOP, PHONE, login
from tests.factories import UserFactory
from tests.integration.games.conftest import play
from tests.story_play import campaign_of_nights

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PAPER, DARK_PAPER = "rgb(247, 241, 227)", "rgb(20, 17, 13)"


def background(page) -> str:
    return page.evaluate("getComputedStyle(document.body).backgroundColor")


def test_a_dark_system_gets_the_dark_theme_and_a_light_one_the_light(new_page, live_server):
    UserFactory(username="night-owl")
    dark = new_page(PHONE, color_scheme="dark")
    dark.goto(f"{live_server.url}/accounts/login/")
    assert background(dark) == DARK_PAPER
    light = new_page(PHONE, color_scheme="light")
    light.goto(f"{live_server.url}/accounts/login/")
    assert background(light) == PAPER


def test_the_chosen_theme_holds_on_the_next_page_from_its_first_paint(new_page, live_server):
    UserFactory(username="night-owl")
    page = new_page(DESKTOP, color_scheme="light")
    login(page, live_server, "night-owl")
    page.select_option("#theme-choice", "dark")
    assert background(page) == DARK_PAPER
    # The next page is dark before any deferred script runs: the attribute is set in <head>.
    page.add_init_script(
        "document.addEventListener('readystatechange', () => { if (document.readyState === 'interactive') window.__firstTheme = document.documentElement.dataset.theme; });"
    )
    page.goto(f"{live_server.url}/play/")
    assert page.evaluate("window.__firstTheme") == "dark"
    assert page.input_value("#theme-choice") == "dark"
    page.select_option("#theme-choice", "system")
    assert background(page) == PAPER
    page.reload()
    assert background(page) == PAPER and page.input_value("#theme-choice") == "system"


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_screenshots_of_the_campaign_a_table_and_a_phone_in_each_theme(
    new_page, live_server, screenshot, scheme
):
    owner = UserFactory(username="dark-owner")
    campaign, houses, _games = campaign_of_nights(2, user=owner, name="Realm by candlelight")
    night = game_night_start(campaign=campaign, houses=houses[:3], king_name="Aldric 3", host=owner, seed=5)
    c4 = session_create(
        game="council_of_four", seat_names=["Anna", "Ben", "Carla", "Dario"], host=owner, seed=9
    )
    ftk = session_create(game="for_the_king", seat_names=["Anna", "Ben", "Carla"], host=owner, seed=9)
    rng = random.Random(41)
    play(c4, rng, 30)
    play(ftk, rng, 20)
    shots = [
        ("campaign", f"/campaigns/{campaign.pk}/"),
        ("kings-dilemma-table", f"/play/s/{night.pk}/"),
        ("council-of-four-table", f"/play/s/{c4.pk}/"),
        ("for-the-king-table", f"/play/s/{ftk.pk}/"),
        ("council-of-four-seat", f"/play/seat/{c4.seats.get(index=1).token}/"),
        ("for-the-king-seat", f"/play/seat/{ftk.seats.order_by('index').first().token}/"),
        ("sessions", "/play/"),
    ]
    for viewport, width in ((PHONE, 375), (DESKTOP, 1920)):
        page = new_page(viewport, color_scheme=scheme)
        login(page, live_server, owner.username)
        for name, path in shots:
            page.goto(live_server.url + path)
            page.wait_for_load_state("domcontentloaded")
            assert background(page) == (DARK_PAPER if scheme == "dark" else PAPER), name
            screenshot(page, f"{scheme}-{name}-{width}")
