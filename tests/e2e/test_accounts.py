"""A group's own accounts in a real browser (issue 24 item 1): a visitor signs up from the top bar,
is logged in, creates a campaign, logs out and logs in again by email."""

import pytest
from django.contrib.auth import get_user_model

from campaign.models import Campaign
from tests.e2e.conftest import PHONE

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


class AccountsTests:
    def test_a_visitor_signs_up_creates_a_campaign_and_logs_in_again_by_email(
        self, live_server, new_page, screenshot
    ):
        page = new_page(PHONE)
        page.goto(live_server.url)
        page.click(".topbar >> text=Sign up")
        page.fill("input[name=email]", "anna@example.org")
        page.fill("input[name=username]", "anna")
        page.fill("input[name=password1]", "a-long-secret-1")
        page.fill("input[name=password2]", "a-long-secret-1")
        screenshot(page, "accounts-sign-up")
        page.click("main button[type=submit]")
        page.wait_for_selector(".topbar >> text=anna")
        assert not get_user_model().objects.get(username="anna").is_superuser  # first, yet no administrator
        page.click("text=New campaign")
        page.fill("input[name=name]", "Our realm")
        page.click("main button[type=submit]")
        page.wait_for_selector("h1:has-text('Our realm')")
        assert Campaign.objects.get(name="Our realm").created_by.username == "anna"
        page.click(".topbar >> text=Log out")
        page.wait_for_selector(".topbar >> text=Log in")
        page.click(".topbar >> text=Log in")
        assert "chronicle-demo" not in page.content()  # the demo password make run once printed
        page.fill("input[name=login]", "anna@example.org")
        page.fill("input[name=password]", "a-long-secret-1")
        page.click("main button[type=submit]")
        page.wait_for_selector(".topbar >> text=anna")
        assert page.locator("text=Our realm").count() >= 1
