"""A phone whose taps are answered slowly (a loaded server, a weak Wi-Fi) (static/js/live.js).

The version poll (or a nudge) says the session moved on before a tap's own answer arrives. A refresh
fetched then would show the new panel while the tap's request is still on its way; the next tap, on a
form htmx still holds, would be queued behind it and dropped when the slow answer replaced that
form (CI stop 35: "place was not applied"), and the slow answer would put an older panel back. So
a page waits for its tap's answer before it refreshes, never shows a panel older than the one it
shows, and the tapped form takes no second tap until its answer is in."""

import json
import random
import threading
import time

import pytest

import games.views
from games.engines.kernel.bots import bot_choose_action
from games.engines.kernel.registry import get_game
from games.services.taps import STALE_VERSION, session_submit_action
from tests.e2e.conftest import PHONE
from tests.e2e.table import GUARD_MS, reload_session, screen, start_session, wait_applied
from tests.guards import HANG_GUARD_SECONDS

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

RULES = get_game("for_the_king")
TAPS = 8

# Every version the seat panel has shown, in order (a MutationObserver on the page).
SHOWN_VERSIONS = """(() => {
  const shown = (window.__shown = []);
  const note = () => {
    const panel = document.getElementById("seat-panel");
    const version = panel && Number(panel.getAttribute("data-version"));
    if (version && shown[shown.length - 1] !== version) shown.push(version);
  };
  new MutationObserver(note).observe(document, { subtree: true, childList: true, attributes: true,
    attributeFilter: ["data-version"] });
  document.addEventListener("DOMContentLoaded", note);
})();"""


WAITING_BUTTONS = """({
  version: Number(document.getElementById("seat-panel").getAttribute("data-version")),
  buttons: Array.from(document.querySelectorAll("#seat-panel form.control-place button"),
    (b) => getComputedStyle(b).pointerEvents),
})"""


@pytest.fixture
def held_answers(monkeypatch):
    """Each tap is applied at once and answered only when the test lets its answer go (the function
    returned): a slow answer, as slow as the test needs, without a clock."""
    gate = threading.Semaphore(0)
    submit = games.views._submit_action

    def answered_when_let_go(*args, **kwargs):
        outcome = submit(*args, **kwargs)
        gate.acquire(timeout=HANG_GUARD_SECONDS)
        return outcome

    monkeypatch.setattr(games.views, "_submit_action", answered_when_let_go)
    return gate.release


def polled(response) -> bool:
    """An answer to the page's version poll."""
    return "/version?" in response.url


def changed(response) -> bool:
    """The page's version poll saying the session moved on."""
    return polled(response) and response.status == 200


def adviser_at_table(live_server, new_page):
    """A two-player game at its first decision: the session, its phones and the Adviser's seat (who
    places the Favor cards one by one: the same form, tap after tap)."""
    session, _table, phones = start_session(
        live_server, new_page, game="for_the_king", names=["Anna", "Bruno"], seed=11
    )
    reload_session(session)
    return session, phones, RULES.view(session.state, None)["to_act"][0]


class SlowAnswerTests:
    def test_taps_made_as_soon_as_each_change_shows_are_all_applied_and_the_panel_never_goes_back(
        self, live_server, new_page, held_answers
    ):
        session, phones, adviser = adviser_at_table(live_server, new_page)
        phone = new_page(PHONE)
        phone.add_init_script(SHOWN_VERSIONS)
        phone.goto(phones[adviser].url)
        rng = random.Random(11)
        for _ in range(TAPS):
            state = session.state
            action = bot_choose_action(RULES, state, adviser, rng)
            if action is None or action["type"] != "place":
                break
            version = session.version
            screen(phone, version)  # tapped as soon as the change shows, as a person does
            buttons = phone.locator("#seat-panel form.control-place button[name=p_area]")
            areas = [json.loads(value) for value in buttons.evaluate_all("(bs) => bs.map((b) => b.value)")]
            with phone.expect_response(changed, timeout=GUARD_MS):
                buttons.nth(areas.index(action["area"])).click()
            with phone.expect_response(polled, timeout=GUARD_MS):
                pass  # and once more: time for a refresh, if the page made one
            # The page knows of the change; the tap's answer is still on its way: the page waits for
            # it (no refresh), and meanwhile no button of the tapped form takes a tap.
            assert phone.evaluate(WAITING_BUTTONS) == {"version": version, "buttons": ["none"] * len(areas)}
            held_answers()
            wait_applied(session, version, phone)
            assert session.version == version + 1, "a tap was not applied"
        placed = session.version - 1
        assert placed >= 3, f"only {placed} taps were played: the test proves nothing"
        screen(phone, session.version)
        shown = phone.evaluate("window.__shown")
        assert shown == sorted(shown), f"the panel went back in time: {shown}"
        assert shown[-1] == session.version

    def test_a_phone_whose_tap_is_never_answered_still_follows_the_table(self, live_server, new_page):
        """A tap lost under a dead Wi-Fi holds the page's refreshes only for a while: the change made
        meanwhile (here the same seat's move from another device) still shows."""
        session, phones, adviser = adviser_at_table(live_server, new_page)
        phone = phones[adviser]
        unanswered = []
        # The phone's taps never reach the server, nor does an answer come back.
        phone.route(
            "**/play/seat/**", lambda r: unanswered.append(r) if r.request.method == "POST" else r.continue_()
        )
        version = session.version
        screen(phone, version)
        phone.locator("#seat-panel form.control-place button[name=p_area]").first.click()
        phone.wait_for_function("() => document.querySelector('#seat-panel form.htmx-request') !== null")
        action = bot_choose_action(RULES, session.state, adviser, random.Random(3))
        session_submit_action(
            session=session, seat=session.seats.get(index=adviser), action=action, expected_version=version
        )
        screen(phone, version + 1)  # once the unanswered tap stops holding the page
        assert len(unanswered) == 1

    def test_a_refresh_overtaken_by_a_taps_answer_leaves_the_answer_shown(self, live_server, new_page):
        """A refresh fetched before a tap, answered after the tap's answer, at the same version: the
        tap's answer stays (here "The table moved on", for a tap made as the table changed)."""
        session, phones, adviser = adviser_at_table(live_server, new_page)
        phone = phones[adviser]
        version = session.version
        screen(phone, version)
        held = []  # the phone's next refresh, answered only after its tap's
        phone.route(
            "**/play/seat/**",
            lambda r: held.append(r) if r.request.method == "GET" and not held else r.continue_(),
        )
        action = bot_choose_action(RULES, session.state, adviser, random.Random(3))
        session_submit_action(  # the same seat, from another device
            session=session, seat=session.seats.get(index=adviser), action=action, expected_version=version
        )
        guard = time.monotonic() + HANG_GUARD_SECONDS
        while not held and time.monotonic() < guard:  # the version poll notices; its refresh is held
            phone.wait_for_timeout(50)
        phone.locator("#seat-panel form.control-place button[name=p_area]").first.click()
        screen(phone, version + 1)
        # The tap's answer: the table moved on (another refresh of the new version, not held, may
        # come first under load: wait for the answer itself).
        phone.locator("#seat-panel", has_text=str(STALE_VERSION)).wait_for(timeout=HANG_GUARD_SECONDS * 1000)
        with phone.expect_event("requestfinished", lambda r: r.method == "GET" and "/play/seat/" in r.url):
            held[0].continue_()
        phone.evaluate("() => new Promise((done) => requestAnimationFrame(() => setTimeout(done, 50)))")
        assert str(STALE_VERSION) in phone.locator("#seat-panel").inner_text()
        reload_session(session)
        assert session.version == version + 1  # the tap made on the old panel was refused
