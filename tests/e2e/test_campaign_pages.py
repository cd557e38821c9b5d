"""A group keeps its campaign through the pages, in a real browser."""

import pytest

from campaign.demo import demo_campaign_load
from campaign.models import ChronicleSticker
from tests.e2e.conftest import DESKTOP, PHONE, login
from tests.factories import UserFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


class CampaignPagesTests:
    def test_create_a_campaign_add_a_house_and_attach_a_sticker(self, live_server, new_page):
        user = UserFactory(username="host")
        page = new_page()
        login(page, live_server, user.username)
        page.click("text=New campaign")
        page.fill("input[name=name]", "Friday table")
        page.click("button[type=submit]")
        # From here on, forms work in place: the page is never reloaded.
        page.evaluate("window.notReloaded = true")
        page.click("summary:has-text('Add a House')")
        page.fill("#house-form input[name=name]", "Smeethe")
        page.fill("#house-form input[name=number]", "7")
        page.click("#house-form button[type=submit]")
        page.wait_for_selector("text=House Smeethe joined the campaign.")
        assert page.locator(".house").count() == 1
        page.click("summary:has-text('Attach a Chronicle sticker')")
        form = "#sticker-form"
        page.fill(f"{form} input[name=number]", "43")
        page.select_option(f"{form} select[name=row]", "welfare")
        page.select_option(f"{form} select[name=positive]", "0")
        page.select_option(f"{form} select[name=signer]", label="House Smeethe")
        page.fill(f"{form} input[name=title]", "Bread riots")
        page.click(f"{form} button[type=submit]")
        page.wait_for_selector("#realm-board .sticker.negative")
        assert page.locator("#realm-board .sticker.negative").first.inner_text().startswith("43")
        assert ChronicleSticker.objects.get(number=43).signer.name == "Smeethe"
        # The same sticker again: the message appears beside the form, nothing is written.
        page.fill(f"{form} input[name=number]", "43")
        page.select_option(f"{form} select[name=row]", "morale")
        page.click(f"{form} button[type=submit]")
        page.wait_for_selector(f"{form} .errorlist")
        assert "Sticker 43 is already on the board." in page.inner_text(form)
        assert ChronicleSticker.objects.count() == 1
        assert page.evaluate("window.notReloaded") is True

    def test_demo_campaign_screenshots_at_phone_and_desktop_width(self, live_server, new_page, screenshot):
        campaign = demo_campaign_load()
        for name, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
            page = new_page(viewport)
            page.goto(live_server.url)  # the demo has no password: its one-click login, on this machine
            page.click("text=Open the demo campaign")
            page.wait_for_selector(".topbar >> text=demo")
            page.goto(f"{live_server.url}/campaigns/{campaign.pk}/")
            assert page.locator("text=House Smeethe").count() >= 1
            # Nothing overflows a phone screen sideways.
            assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"] + 1
            screenshot(page, f"campaign-{name}")
