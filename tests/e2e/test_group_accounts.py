"""A group's own accounts, end to end in real browsers (issue 24, "Done means"): a visitor signs up,
creates a campaign and invites a second person by link; that person opens the link in another
browser, signs up and sees the campaign; a third account and the demo account get the 404 of an
unknown campaign; the owner removes the second member, who then gets 404 too."""

import pytest

from campaign.access import DEMO_USER
from campaign.models import Campaign, Membership
from campaign.services.members import DEMO_CANNOT_JOIN
from tests.e2e.conftest import PHONE, login
from tests.factories import UserFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def sign_up(page, username: str) -> None:
    page.fill("input[name=email]", f"{username}@example.org")
    page.fill("input[name=username]", username)
    page.fill("input[name=password1]", f"a-long-secret-of-{username}")
    page.fill("input[name=password2]", f"a-long-secret-of-{username}")
    page.click("main button[type=submit]")


class GroupAccountsTests:
    def test_a_group_signs_up_invites_by_link_and_removes_a_member(
        self, live_server, new_page, screenshot, settings
    ):
        settings.CHRONICLE_PUBLIC_URL = live_server.url  # the live server listens on localhost only

        # The organiser signs up through the real sign-up page and creates the campaign.
        owner = new_page(PHONE)
        owner.goto(live_server.url)
        owner.click(".topbar >> text=Sign up")
        sign_up(owner, "olga")
        owner.wait_for_selector(".topbar >> text=olga")
        owner.click("text=New campaign")
        owner.fill("input[name=name]", "Our realm")
        owner.click("main button[type=submit]")
        owner.wait_for_selector("h1:has-text('Our realm')")
        campaign = Campaign.objects.get(name="Our realm")
        campaign_url = f"{live_server.url}/campaigns/{campaign.pk}/"

        # ... and invites a player by link from the member list.
        owner.click("nav[aria-label=Campaign] >> text=Members")
        owner.wait_for_selector("h1:has-text('Members')")
        owner.select_option("select[name=role]", "player")
        owner.fill("input[name=days]", "3")
        owner.click("text=Make an invitation link")
        owner.wait_for_selector(".invitation")
        qr = owner.locator(".invitation .qr")
        assert qr.get_attribute("role") == "img"
        assert "QR code of the invitation link" in qr.get_attribute("aria-label")
        assert qr.locator("svg").count() == 1
        link = owner.locator(".invitation input[readonly]").input_value()
        assert link.startswith(f"{live_server.url}/invitations/")

        # The second person opens the link in another browser, signs up and sees the campaign.
        second = new_page(PHONE)
        second.goto(link)
        assert "You're invited to Our realm" in second.inner_text("main")
        assert "olga invites you." in second.inner_text("main")
        assert "as player" in second.inner_text("main")
        screenshot(second, "invitation-phone")
        second.locator("main").get_by_role("link", name="Sign up").click()
        sign_up(second, "bruno")
        second.wait_for_selector("main >> text=Join Our realm")  # back on the invitation, logged in
        second.click("main >> text=Join Our realm")
        second.wait_for_selector("h1:has-text('Our realm')")
        assert "You joined Our realm as player." in second.inner_text("main")
        assert Membership.objects.get(campaign=campaign, user__username="bruno").role == "player"

        # A third account and the demo account do not see it, even holding the link.
        UserFactory(username="carla")
        UserFactory(username=DEMO_USER)
        for username in ("carla", DEMO_USER):
            other = new_page(PHONE)
            login(other, live_server, username)
            other.wait_for_selector(f".topbar >> text={username}")
            assert other.goto(campaign_url).status == 404
            assert other.goto(f"{live_server.url}/campaigns/{campaign.pk}/members/").status == 404
        other.goto(link)
        other.click("main >> text=Join Our realm")
        other.wait_for_selector("main .errorlist")
        assert str(DEMO_CANNOT_JOIN) in other.inner_text("main")
        assert other.goto(campaign_url).status == 404

        # The owner sees both members, removes the second; the second then gets 404.
        owner.goto(f"{live_server.url}/campaigns/{campaign.pk}/members/")
        assert owner.locator(".member").count() == 2
        screenshot(owner, "members-phone")
        bruno = owner.locator(".member", has_text="bruno")
        bruno.locator("summary:has-text('Remove')").click()
        bruno.locator("text=Yes, remove bruno").click()
        owner.wait_for_selector("text=bruno was removed from the campaign.")
        assert owner.locator(".member").count() == 1
        assert second.goto(campaign_url).status == 404
        assert not Membership.objects.filter(campaign=campaign, user__username="bruno").exists()
