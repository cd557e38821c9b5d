"""A new group's first evening in Chromium (issue 23), as the box plays it: create the campaign, add
the Houses, open Envelope 00 ('Before your first game': its Story card and the starting Dilemma deck),
start a night, play it to the end (through the session services, as tests/story_play.py plays a
campaign night), save it into the campaign from the table, then 'Correct this night' from the Realm
Chronicles page and find the correction in the ledger and the history. Screenshots at 375 and 1920 px."""

import pytest

from campaign.models import ChronicleGame, DilemmaCard, LedgerEntry
from games.models import GameSession
from tests.e2e.conftest import DESKTOP, PHONE, login
from tests.e2e.table import GUARD_MS, INTERNAL
from tests.factories import UserFactory
from tests.story_play import play_campaign_night

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

HOUSES = [("Valentine", "1"), ("Martina", "2"), ("Armin", "3"), ("Charles", "4")]


def visible(page) -> str:
    return page.inner_text("body")


def fits(page, viewport) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"] + 1


def first_steps(page, live_server) -> str:
    """A new campaign, its Houses and Envelope 00, each form confirming itself without a reload.
    Returns the campaign page's address."""
    page.click("text=New campaign")
    page.fill("input[name=name]", "Friday table")
    page.click("button[type=submit]")
    page.wait_for_selector("#first-step")
    assert "Before your first game: open Envelope 00" in visible(page)
    page.evaluate("window.notReloaded = true")
    page.click("summary:has-text('Add a House')")
    for name, number in HOUSES:
        page.fill("#house-form input[name=name]", name)
        page.fill("#house-form input[name=number]", number)
        page.click("#house-form button[type=submit]")
        page.wait_for_selector(f"#house-form .msg:has-text('House {name} joined the campaign.')")
    form = "#first-envelope-form"
    page.fill(f"{form} input[name=story_number]", "1")
    page.fill(f"{form} input[name=storyline]", "Crown")
    page.fill(f"{form} input[name=title]", "A new reign")
    page.fill(f"{form} input[name=dilemma_numbers]", "1-20")
    page.click(f"{form} button[type=submit]")
    page.wait_for_selector(f"{form}.msg")
    assert page.inner_text("#first-step").count("Envelope 00 opened") == 1
    assert "20 Dilemma cards are your starting Dilemma deck." in page.inner_text(form)
    # The page's other parts followed at once: the Envelope, the storyline, the Dilemma deck.
    assert page.locator("#envelope-list a.pill", has_text="00").count() == 1
    assert "A new reign" in page.inner_text("#storylines")
    assert page.locator("#save-slots a.pill").count() == 20
    assert "Envelope 00 opened" in page.inner_text("#latest-changes")
    assert page.evaluate("window.notReloaded") is True
    return page.url


class FirstEveningTests:
    def test_a_new_campaign_s_first_evening_and_a_correction_from_the_page(
        self, live_server, new_page, screenshot
    ):
        host = UserFactory(username="host")
        page = new_page(DESKTOP)
        login(page, live_server, host.username)
        screenshot(page, "first-evening-home")
        campaign_url = first_steps(page, live_server)
        screenshot(page, "first-evening-envelope-00")
        phone = new_page(PHONE)
        login(phone, live_server, host.username)
        phone.goto(campaign_url)
        fits(phone, PHONE)
        screenshot(phone, "first-evening-campaign-phone")

        # A night: the host seats the Houses in table order on the page.
        page.click("text=Start a game night")
        page.fill("input[name=king_name]", "Aldric I")
        for seat, (name, _) in enumerate(HOUSES):
            page.select_option(f"select[name=seat{seat}]", label=f"House {name}")
        page.click("text=Start the game night")
        page.wait_for_url("**/play/s/*/", timeout=GUARD_MS)
        session = GameSession.objects.get()
        assert session.config["dilemma_deck"] == list(range(1, 21))  # the starting deck, recorded
        state = play_campaign_night(session, 1)  # to the end of the reign, as a table plays it
        (opened,) = [e["number"] for e in state["result"]["envelopes"]]

        # Save your game, from the table.
        page.reload()
        page.click("text=Save your game")
        page.fill(f"input[name=e{opened}-story]", "2")
        page.fill(f"input[name=e{opened}-storyline]", "Faith")
        page.fill(f"input[name=e{opened}-dilemmas]", "31, 32, 33")
        assert not INTERNAL.search(visible(page))
        page.click("text=Write the night into the campaign")
        page.wait_for_url(campaign_url, timeout=GUARD_MS)
        assert "under King Aldric I is in the Realm Chronicles" in visible(page)
        assert "Before your first game" not in visible(page)
        game = ChronicleGame.objects.get()
        assert game.recorded and game.revision == 0
        assert DilemmaCard.objects.filter(place=DilemmaCard.Place.TRASH).count() == 10

        # 'Correct this night' from the Realm Chronicles page: the form holds tonight's table.
        page.click("nav >> text=Realm Chronicles")
        screenshot(page, "first-evening-chronicles")
        page.click("text=Correct this night")
        assert page.input_value("select[name=end]") == game.end
        first_house = page.input_value("select[name=row0-house]")
        coins = int(page.input_value("input[name=row0-coins_points]"))
        assert first_house
        page.fill("input[name=row0-coins_points]", str(coins + 9))
        page.fill("input[name=reason]", "Coins miscounted")
        screenshot(page, "first-evening-correct-desktop")
        phone.goto(page.url)
        fits(phone, PHONE)
        screenshot(phone, "first-evening-correct-phone")
        page.click("text=Save the correction")
        page.wait_for_url("**/chronicles/", timeout=GUARD_MS)
        text = visible(page)
        assert "Game 1 corrected: the Realm Chronicles keep the result played and this correction" in text
        assert "corrected" in page.inner_text("caption")
        game.refresh_from_db()
        assert game.revision == 1
        for score in game.scores.filter(revision=1):  # the ledger holds the corrected awards, no more
            for kind in ("prestige", "crave"):
                entries = LedgerEntry.objects.filter(house=score.house, game=game, kind=kind)
                assert sum(e.amount for e in entries) == getattr(score, kind), (score.house, kind)
        screenshot(page, "first-evening-corrected")

        # The history keeps the original and the correction, with who made it.
        page.click("text=" + "← Friday table")
        page.click("nav >> text=History")
        history = visible(page)
        assert "Game 1 corrected (revision 1): Coins miscounted" in history
        assert "Game 1 recorded" in history
        assert page.locator("tr:has-text('Game 1 corrected') td", has_text="host").count() == 1
        screenshot(page, "first-evening-history")

    def test_a_sticker_entered_wrongly_is_corrected_from_the_board(self, live_server, new_page, screenshot):
        host = UserFactory(username="host")
        page = new_page(DESKTOP)
        login(page, live_server, host.username)
        campaign_url = first_steps(page, live_server)
        page.click("summary:has-text('Attach a Chronicle sticker')")
        form = "#sticker-form"
        page.fill(f"{form} input[name=number]", "43")
        page.select_option(f"{form} select[name=row]", "welfare")
        page.select_option(f"{form} select[name=positive]", "0")
        page.click(f"{form} button[type=submit]")
        page.wait_for_selector(f"{form} .msg")
        page.click("[aria-label='Correct sticker 43']")
        page.select_option("select[name=row]", "morale")
        page.select_option("select[name=signer]", label="House Armin")
        phone = new_page(PHONE)
        login(phone, live_server, host.username)
        phone.goto(page.url)
        fits(phone, PHONE)
        screenshot(phone, "first-evening-sticker-correct-phone")
        page.click("text=Save the correction")
        page.wait_for_url(campaign_url + "#board", timeout=GUARD_MS)
        assert "Sticker 43 corrected." in visible(page)
        assert "Armin" in page.locator("#realm-board .sticker").first.inner_text()
        page.click("nav >> text=History")
        assert "Chronicle sticker 43 corrected: row Welfare → Morale; signer nobody → House Armin" in visible(
            page
        )
