"""The Content-Security-Policy holds on the main pages in a real browser: no violation is
reported while the pages load, the service worker and the manifest load, forms work in place
(htmx) and a phone polls its table."""

import pytest

from games.services.sessions import session_create
from tests.e2e.conftest import login
from tests.factories import UserFactory, group_campaign

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

RECORD = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__csp.push(e.violatedDirective + " " + (e.blockedURI || "inline") + " " + (e.sourceFile || ""));
});
"""


def watched(page):
    """Record CSP violations from the console and from securitypolicyviolation events."""
    messages = []
    page.on(
        "console",
        lambda m: messages.append(m.text) if "Content Security Policy" in m.text else None,
    )
    page.add_init_script(RECORD)
    return messages


def violations(page, messages) -> list[str]:
    return messages + page.evaluate("window.__csp || []")


class CspTests:
    def test_the_main_pages_run_without_a_violation(self, live_server, new_page, settings):
        settings.LIVE_POLL_SECONDS = 2.0  # the default: "networkidle" needs half a second without a poll
        campaign = group_campaign(UserFactory(username="anna"))  # the demo account imports nothing
        session = session_create(
            game="for_the_king", seat_names=["Anna", "Ben", "Cleo"], host=campaign.created_by
        )
        seat = session.seats.get(index=0)
        page = new_page()
        messages = watched(page)
        login(page, live_server, "anna")
        found = []
        for path in (
            "/",
            f"/campaigns/{campaign.pk}/",
            f"/campaigns/{campaign.pk}/history/",
            f"/campaigns/{campaign.pk}/chronicles/",
            "/campaigns/import/",
            "/play/",
            f"/play/s/{session.pk}/",
            f"/play/seat/{seat.token}/",
            "/admin/login/",
            "/status/",
            "/offline/",
        ):
            response = page.goto(f"{live_server.url}{path}")
            assert response.status < 400, path
            page.wait_for_load_state("networkidle")
            found += [f"{path}: {v}" for v in violations(page, messages)]
            messages.clear()
        # The policy lets the service worker run and the manifest load (config/pwa.py).
        assert page.evaluate("navigator.serviceWorker.ready.then((r) => r.active.scriptURL)").endswith(
            "/sw.js"
        )
        cdp = page.context.new_cdp_session(page)
        assert cdp.send("Page.getAppManifest")["errors"] == []
        # htmx works under the policy: a form posted in place on the campaign page.
        page.goto(f"{live_server.url}/campaigns/{campaign.pk}/")
        page.evaluate("window.notReloaded = true")
        page.click("summary:has-text('Attach a Chronicle sticker')")
        page.fill("#sticker-form input[name=number]", "150")
        page.select_option("#sticker-form select[name=row]", "wealth")
        page.click("#sticker-form button[type=submit]")
        page.wait_for_selector("text=150")
        assert page.evaluate("window.notReloaded") is True
        # A phone polls its version endpoint (every 2 s) without a violation.
        page.goto(f"{live_server.url}/play/seat/{seat.token}/")
        with page.expect_response(lambda r: "/version" in r.url, timeout=6_000) as polled:
            pass
        assert polled.value.status in (200, 204, 286)
        found += violations(page, messages)
        assert not found, "\n".join(found)
