"""The printed campaign sheet: the Realm board with its stickers, the Houses with Prestige, Crave and
achievements, the save slots and the Realm Chronicles, on at most two A4 pages and with no control
on paper (Chromium's own PDF of the page under print media). The campaign page itself prints
without its top bar, buttons and folded forms."""

from __future__ import annotations

import re

import pytest

from tests.e2e.conftest import DESKTOP, PHONE, login
from tests.factories import UserFactory
from tests.story_play import campaign_of_nights

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# What a control shows: none of it may be on paper.
CONTROLS = "button, select, input, textarea, summary, form"
VISIBLE_CONTROLS = f"""() => [...document.querySelectorAll("{CONTROLS}")]
    .filter(el => el.getClientRects().length > 0).map(el => el.outerHTML.slice(0, 80))"""


def pdf_pages(page) -> int:
    """Pages of the page printed to A4 by Chromium (each page is one /Type /Page object)."""
    return len(re.findall(rb"/Type\s*/Page(?![a-z])", page.pdf(format="A4", print_background=True)))


def test_the_sheet_prints_on_at_most_two_a4_pages_with_no_control(new_page, live_server, screenshot):
    owner = UserFactory(username="sheet-owner")
    campaign, houses, games = campaign_of_nights(6, user=owner, name="Realm on paper")
    page = new_page(DESKTOP)
    login(page, live_server, owner.username)
    page.goto(f"{live_server.url}/campaigns/{campaign.pk}/")
    page.click("text=Print sheet")
    page.wait_for_url(f"**/campaigns/{campaign.pk}/sheet/")
    page.emulate_media(media="print")
    text = page.inner_text("body")
    for house in houses:
        assert f"House {house.name}" in text
    assert "Realm board" in text and "Dilemma deck" in text and "Trash" in text
    assert all(f"King {g.king_name}" in text or g.king_name in text for g in games)
    assert page.evaluate(VISIBLE_CONTROLS) == []
    assert "Log out" not in text and "Print sheet" not in text
    assert 1 <= pdf_pages(page) <= 2
    screenshot(page, "campaign-sheet-print-1920")


def test_the_campaign_page_prints_without_its_controls(new_page, live_server):
    owner = UserFactory(username="sheet-owner")
    campaign, _houses, _games = campaign_of_nights(2, user=owner, name="Realm on paper")
    page = new_page(PHONE)
    login(page, live_server, owner.username)
    page.goto(f"{live_server.url}/campaigns/{campaign.pk}/")
    assert page.evaluate(VISIBLE_CONTROLS), "the screen has its controls"
    page.emulate_media(media="print")
    assert page.evaluate(VISIBLE_CONTROLS) == []
    assert "Log out" not in page.inner_text("body")


def test_pdf_pages_counts_a_long_page(new_page, live_server):
    """The page count can fail: a page of three A4 heights prints on three pages or more."""
    page = new_page(DESKTOP)
    page.goto(f"{live_server.url}/healthz")
    page.set_content('<html><body><div style="height:3000mm">long</div></body></html>')
    assert pdf_pages(page) >= 3
