"""Chronicle in the pocket and at the table, in Chromium (installability: test_installable.py): the
service worker registers; a campaign page read earlier opens
offline with its "Offline copy from" line, a page never read says it needs the server, and after
log-out nothing of the campaign is kept; the table screen asks for a wake lock while its night runs
(again when it comes back to the foreground) and lets it go when the game ends; a phone vibrates
once when its turn comes, never when it is not its turn, marks its tab title while it is, and its
setting turns that off; Copy puts an invitation's link, and a story's, in the clipboard."""

import random

import pytest

from campaign.services.houses import house_create
from campaign.services.members import invitation_create
from campaign.services.stories import story_link_create
from games.engines.kernel.bots import bot_choose_action
from games.engines.kernel.registry import get_game
from games.models import GameSession
from games.services.sessions import session_abandon, session_create
from games.services.taps import session_submit_action
from tests.e2e.conftest import DESKTOP, PHONE, login
from tests.e2e.table import reload_session
from tests.factories import UserFactory, group_campaign

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

KEPT_URLS = """async () => {
  const urls = [];
  for (const name of await caches.keys()) {
    for (const request of await (await caches.open(name)).keys()) urls.push(request.url);
  }
  return urls;
}"""

# Records what the table asks of the screen's wake lock; a sentinel's release() is what the
# browser does when the page is hidden.
WAKE_LOCK_STUB = """(() => {
  window.__wakeLock = [];
  const lock = {
    request(type) {
      window.__wakeLock.push("request " + type);
      const sentinel = new EventTarget();
      sentinel.released = false;
      sentinel.release = () => {
        sentinel.released = true;
        window.__wakeLock.push("release");
        sentinel.dispatchEvent(new Event("release"));
        return Promise.resolve();
      };
      window.__sentinel = sentinel;
      return Promise.resolve(sentinel);
    },
  };
  Object.defineProperty(Navigator.prototype, "wakeLock", { configurable: true, get: () => lock });
})();"""

VIBRATE_STUB = """(() => {
  window.__vibrations = [];
  Navigator.prototype.vibrate = function (pattern) { window.__vibrations.push(pattern); return true; };
})();"""


def worker_ready(page) -> None:
    """The service worker is active and controls the page: it claims the pages open at its
    activation, but a page whose load was under way then is controlled from its next load."""
    page.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
    if not page.evaluate("() => navigator.serviceWorker.controller !== null"):
        page.reload()
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")


def kept(page, url: str) -> None:
    """Waits until the worker has kept ``url`` (it writes the copy as the page loads)."""
    page.wait_for_function(
        "async (url) => (await (await caches.open('chronicle-pages')).match(url)) !== undefined", arg=url
    )


class OfflineTests:
    def test_a_campaign_page_read_earlier_opens_offline_and_log_out_forgets_it(
        self, live_server, new_page, screenshot
    ):
        campaign = group_campaign(UserFactory(username="anna"))
        page_url = f"{live_server.url}/campaigns/{campaign.pk}/"
        for viewport, name in ((PHONE, "phone"), (DESKTOP, "desktop")):
            page = new_page(viewport)
            login(page, live_server, "anna")
            page.wait_for_url(f"{live_server.url}/")
            worker_ready(page)
            form_url = f"{live_server.url}/campaigns/{campaign.pk}/stickers/new/"
            page.goto(form_url)  # read online, but a form that changes the campaign is never kept
            page.goto(page_url)
            kept(page, page_url)
            assert page.locator(".offline-copy").count() == 0  # the server answered: never a copy

            page.context.set_offline(True)
            page.goto(page_url)
            line = page.locator(".offline-copy")
            assert line.inner_text().startswith("Offline copy from ")
            assert campaign.name in page.inner_text("main")
            # A form on the copy says it needs the server instead of leading to the browser's error.
            page.evaluate("document.querySelector('#sticker-form').requestSubmit()")
            assert "a change needs the server" in line.inner_text()
            assert page.url == page_url
            screenshot(page, f"pocket-offline-copy-{name}")
            page.emulate_media(color_scheme="dark")  # a dim room: the copy's line reads in the dark theme too
            screenshot(page, f"pocket-offline-copy-dark-{name}")
            page.emulate_media(color_scheme="light")
            # A page never read here, and one that changes the campaign, say they need the server.
            for url in (f"{live_server.url}/campaigns/{campaign.pk}/history/", form_url):
                page.goto(url)
                assert "This page needs the server" in page.inner_text("main")
            assert page.locator(f".kept-pages a[href='/campaigns/{campaign.pk}/']").count() == 1
            screenshot(page, f"pocket-offline-page-{name}")

            # Back online, the server's page as it is now, never the copy.
            house_create(campaign=campaign, name=f"Newcomer{name}", number=10 if name == "phone" else 11)
            page.context.set_offline(False)
            page.goto(page_url)
            assert page.locator(".offline-copy").count() == 0
            assert f"House Newcomer{name}" in page.inner_text("#house-list")
            page.click("button:has-text('Log out')")
            page.wait_for_url(f"{live_server.url}/")
            urls = page.evaluate(KEPT_URLS)
            assert not [u for u in urls if "/campaigns/" in u], urls
            page.context.set_offline(True)
            page.goto(page_url)
            assert "This page needs the server" in page.inner_text("main")
            page.context.set_offline(False)


def acting(session: GameSession) -> int | None:
    active = get_game(session.game).active_seats(session.state)
    return active[0] if active else None


def play_until_turn_of(session: GameSession, index: int, rng: random.Random) -> None:
    """Random legal moves of the other seats (through the service) until ``index`` must act."""
    rules = get_game(session.game)
    for _ in range(200):
        reload_session(session)
        if acting(session) == index:
            return
        mover = acting(session)
        seat = None if mover is None else session.seats.get(index=mover)
        action = bot_choose_action(rules, session.state, mover, rng)
        session_submit_action(session=session, seat=seat, action=action, expected_version=session.version)
    raise AssertionError(f"seat {index} never came to act")


class TableAndPhoneTests:
    def test_the_table_holds_a_wake_lock_while_its_night_runs(self, live_server, new_page, screenshot):
        host = UserFactory(username="host")
        session = session_create(game="council_of_four", seat_names=["Anna", "Ben"], host=host, seed=3)
        table = new_page(DESKTOP)
        table.add_init_script(WAKE_LOCK_STUB)
        login(table, live_server, "host")
        table.goto(f"{live_server.url}/play/s/{session.pk}/")
        table.wait_for_function("() => window.__wakeLock.length === 1")
        assert table.evaluate("window.__wakeLock") == ["request screen"]
        screenshot(table, "pocket-table-night")
        table.emulate_media(color_scheme="dark")
        screenshot(table, "pocket-table-night-dark")
        # Hidden, the browser lets the lock go; back in the foreground, the table asks again.
        table.evaluate(
            "() => { window.__sentinel.release(); document.dispatchEvent(new Event('visibilitychange')); }"
        )
        table.wait_for_function("() => window.__wakeLock.length === 3")
        assert table.evaluate("window.__wakeLock") == ["request screen", "release", "request screen"]
        # The game ends: the table lets the screen sleep again.
        session_abandon(session=session)
        table.wait_for_function("() => window.__wakeLock.length === 4", timeout=20_000)
        assert table.evaluate("window.__wakeLock")[-1] == "release"
        assert table.get_attribute("#table-panel", "data-night") == "over"

    def test_a_phone_vibrates_once_when_its_turn_comes_and_marks_its_tab(
        self, live_server, new_page, screenshot
    ):
        host = UserFactory(username="host")
        session = session_create(game="council_of_four", seat_names=["Anna", "Ben"], host=host, seed=5)
        rng = random.Random(5)
        first = acting(session)
        other = 1 - first
        phones = {}
        for index in (first, other):
            phone = new_page(PHONE)
            phone.add_init_script(VIBRATE_STUB)
            phone.goto(f"{live_server.url}/play/seat/{session.seats.get(index=index).token}/")
            phone.wait_for_selector("#seat-panel")
            phones[index] = phone
        waiting, opened_on_turn = phones[other], phones[first]
        # A phone opened on its turn is looked at: its tab is marked, it does not buzz.
        assert opened_on_turn.title().startswith("● Your turn – ")
        assert not waiting.title().startswith("●")
        play_until_turn_of(session, other, rng)
        version = session.version
        waiting.wait_for_function(
            f"() => Number(document.querySelector('#seat-panel').dataset.version) >= {version}"
        )
        waiting.wait_for_function("() => document.title.startsWith('● Your turn – ')")
        assert waiting.evaluate("window.__vibrations") == [200]
        assert opened_on_turn.evaluate("window.__vibrations") == []  # not its turn: no buzz
        screenshot(waiting, "pocket-phone-your-turn")
        waiting.emulate_media(color_scheme="dark")
        screenshot(waiting, "pocket-phone-your-turn-dark")
        # Its turn over, the title is restored; the other phone's turn comes: it buzzes once.
        play_until_turn_of(session, first, rng)
        waiting.wait_for_function("() => !document.title.startsWith('●')")
        opened_on_turn.wait_for_function("() => window.__vibrations.length === 1")
        assert waiting.evaluate("window.__vibrations") == [200]
        # The setting turns it off, and is kept on the phone.
        waiting.uncheck("[data-turn-alerts]")
        waiting.reload()
        waiting.wait_for_selector("#seat-panel")
        assert not waiting.is_checked("[data-turn-alerts]")
        play_until_turn_of(session, other, rng)
        waiting.wait_for_function("() => document.querySelector('#seat-panel').dataset.myTurn === 'yes'")
        assert waiting.evaluate("window.__vibrations") == []
        assert not waiting.title().startswith("●")


class CopyTests:
    def test_copy_puts_an_invitations_link_in_the_clipboard(self, live_server, new_page, screenshot):
        campaign = group_campaign(UserFactory(username="anna"))
        invitation = invitation_create(campaign=campaign, role="viewer")
        for viewport, name in ((PHONE, "phone"), (DESKTOP, "desktop")):
            page = new_page(viewport)
            page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
            login(page, live_server, "anna")
            page.goto(f"{live_server.url}/campaigns/{campaign.pk}/members/")
            tools = page.locator(f"#invitation-{invitation.pk} .share-tools")
            link = tools.get_attribute("data-share-link")
            assert link.endswith(f"/invitations/{invitation.token}/")
            tools.locator("button:has-text('Copy')").click()
            tools.locator("[data-share-status]", has_text="Copied").wait_for()  # the clipboard answers later
            assert page.evaluate("navigator.clipboard.readText()") == link
            assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
            screenshot(page, f"pocket-copied-{name}")
        # A story's read-only link too.
        game = campaign.games.order_by("number").first()
        story_link_create(game=game, actor=campaign.created_by)
        page.goto(f"{live_server.url}/campaigns/{campaign.pk}/games/{game.number}/story/")
        tools = page.locator("#share .share-tools")
        tools.locator("button:has-text('Copy')").click()
        tools.locator("[data-share-status]", has_text="Copied").wait_for()
        link = page.evaluate("navigator.clipboard.readText()")
        assert link == page.input_value("#share .share-url") and "/stories/" in link
