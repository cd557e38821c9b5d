"""The campaign over months in a real browser: a House's page, the realm's statistics and the story
of a night at 375 and 1920 px, and the read-only link opened by an anonymous browser."""

import re

import pytest

from tests.e2e.conftest import DESKTOP, PHONE, login
from tests.e2e.test_csp import violations, watched
from tests.factories import UserFactory
from tests.story_play import campaign_of_nights

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

INTERNAL = re.compile(r"abdicated_|king_died|time_counter|event_area|\bseat \d|\bside (aye|nay)\b|\bNone\b")


def _fits(page, viewport) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"] + 1


def _clean(page) -> str:
    text = page.inner_text("body")
    assert not INTERNAL.search(text), INTERNAL.search(text)
    return text


class StoryPagesTests:
    def test_house_statistics_and_story_pages_at_phone_and_desktop_width(
        self, live_server, new_page, screenshot
    ):
        user = UserFactory(username="chronicler")
        campaign, houses, games = campaign_of_nights(3, user=user, name="Autumn campaign")
        for name, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
            page = new_page(viewport)
            messages = watched(page)
            login(page, live_server, user.username)
            page.goto(f"{live_server.url}/campaigns/{campaign.pk}/")
            page.click("nav.actions >> text=Statistics")
            page.wait_for_selector('h1:has-text("The realm\'s statistics")')
            text = _clean(page)
            assert "Dilemmas met" in text and "Envelope 01" in text
            assert page.locator("img.chart").count() == 3
            page.wait_for_load_state("networkidle")  # the charts are loaded (wait_for_function needs eval)
            assert page.locator("img.chart").evaluate_all(
                "imgs => imgs.every(i => i.complete && i.naturalWidth > 0)"
            )
            _fits(page, viewport)
            screenshot(page, f"story-statistics-{name}")

            page.click(".houses-links >> text=House Martina")
            page.wait_for_selector("h1:has-text('House Martina')")
            text = _clean(page)
            assert "Prestige and Crave ledger" in text and "Night by night" in text
            _fits(page, viewport)
            screenshot(page, f"story-house-{name}")

            page.click("#nights-table >> text=Game 2")
            page.wait_for_selector("h1:has-text('The reign of King Aldric 2')")
            text = _clean(page)
            assert "Dilemma 21" in text and "The council was split" in text and "The King died." in text
            _fits(page, viewport)
            screenshot(page, f"story-night-{name}")
            assert violations(page, messages) == []  # the Content-Security-Policy holds on every page

    def test_the_read_only_link_shows_the_story_to_an_anonymous_browser_until_revoked(
        self, live_server, new_page, screenshot
    ):
        user = UserFactory(username="chronicler")
        campaign, houses, games = campaign_of_nights(2, user=user, name="Autumn campaign")
        member = new_page(PHONE)
        login(member, live_server, user.username)
        member.goto(f"{live_server.url}/campaigns/{campaign.pk}/games/1/story/")
        member.click("button:has-text('Share a read-only link')")
        member.wait_for_selector("text=Stop sharing")
        shared = member.input_value("input.share-url")
        assert "/stories/" in shared
        # The link names the address phones reach (the LAN address when the member browses on
        # localhost, as the seat codes do); this test's server listens on localhost only.
        url = live_server.url + shared[shared.index("/stories/") :]

        for name, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
            stranger = new_page(viewport)
            messages = watched(stranger)
            stranger.goto(url)
            text = _clean(stranger)
            assert "The reign of King Aldric 1" in text and "Dilemma 11" in text
            assert "Autumn campaign" not in text and "Aldric 2" not in text and "Log in" not in text
            hrefs = stranger.eval_on_selector_all(
                "a[href]", "links => links.map(a => a.getAttribute('href'))"
            )
            assert hrefs == []  # nothing leads into the campaign
            assert stranger.locator("form").count() == 0
            _fits(stranger, viewport)
            screenshot(stranger, f"story-shared-{name}")
            assert violations(stranger, messages) == []
            # Printed, the page keeps the story.
            stranger.emulate_media(media="print")
            assert stranger.locator("article.story").is_visible()

        member.click("button:has-text('Stop sharing')")
        member.wait_for_selector("button:has-text('Share a read-only link')")
        gone = new_page(PHONE)
        response = gone.goto(url)
        assert response.status == 410  # a revoked link says so
        assert "This story link was revoked" in gone.inner_text("body")
        assert "The reign of King" not in gone.inner_text("body")

    def test_the_story_prints_without_its_buttons(self, live_server, new_page):
        user = UserFactory(username="chronicler")
        campaign, houses, games = campaign_of_nights(1, user=user)
        page = new_page(DESKTOP)
        login(page, live_server, user.username)
        page.goto(f"{live_server.url}/campaigns/{campaign.pk}/games/1/story/")
        assert page.locator("#share").is_visible()
        page.emulate_media(media="print")
        assert not page.locator("#share").is_visible()
        assert not page.locator("header.topbar").is_visible()
        assert page.locator("article.story").is_visible()
