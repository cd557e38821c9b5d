"""A game night in the browser: the host's table screen (1920 px) and one phone (375 px) per seat,
and the test's own reads of the session, which share the in-memory SQLite test database with the
live server (a read may meet a lock: it is retried)."""

import json
import re
import time

from django.db import OperationalError

from tests.e2e.conftest import DESKTOP, PHONE, login
from tests.guards import HANG_GUARD_SECONDS

# Visible text never shows an internal key: an underscore word, "seat 2", "side aye".
INTERNAL = re.compile(r"\b[a-z]+_[a-z_]+\b|\bseat \d|\bside (aye|nay)\b", re.I)
GUARD_MS = int(HANG_GUARD_SECONDS * 1000)


def value(v) -> str:
    """A control's posted value (JSON) as a CSS attribute selector value."""
    return json.dumps(json.dumps(v))


def open_table_and_phones(live_server, new_page, session, host):
    """The host logged in on the table screen, and each seat's phone on its join link."""
    table = new_page(DESKTOP)
    login(table, live_server, host.username)
    table.goto(f"{live_server.url}/play/s/{session.pk}/")
    phones = {}
    for seat in session.seats.order_by("index"):
        phone = new_page(PHONE)
        phone.goto(f"{live_server.url}/play/seat/{seat.token}/")
        phones[seat.index] = phone
    return table, phones


def start_session(live_server, new_page, *, game: str, names: list[str], seed: int):
    """A host starts a session of ``game``; its table screen and every seat's phone are open."""
    from games.services.sessions import session_create
    from tests.factories import UserFactory

    host = UserFactory(username="host")
    session = session_create(game=game, seat_names=names, host=host, seed=seed)
    table, phones = open_table_and_phones(live_server, new_page, session, host)
    return session, table, phones


def reload_session(session) -> None:
    for _ in range(200):
        try:
            return session.refresh_from_db()
        except OperationalError:
            time.sleep(0.05)
    session.refresh_from_db()


def following(session, table, phones):
    """``refresh(moved=True)``: after a tap, wait until the session has moved on (a hang guard, no
    deadline), then until the table and every phone show its version; returns the new state."""
    seen = [session.version]

    def refresh(moved: bool = True) -> dict:
        guard = time.monotonic() + HANG_GUARD_SECONDS
        reload_session(session)
        while moved and session.version == seen[0] and time.monotonic() < guard:
            time.sleep(0.05)
            reload_session(session)
        seen[0] = session.version
        for phone in phones.values():
            phone.wait_for_selector(f'#seat-panel[data-version="{session.version}"]', timeout=GUARD_MS)
        table.wait_for_selector(f'#table-panel[data-version="{session.version}"]', timeout=GUARD_MS)
        return session.state

    return refresh


def wait_applied(session, version: int, phone=None) -> None:
    """After a tap on ``phone``: wait until the session has moved past ``version`` (a hang guard, no
    deadline). A tap never applied fails with what the phone shows and what it sent."""
    guard = time.monotonic() + HANG_GUARD_SECONDS
    reload_session(session)
    while session.version == version and time.monotonic() < guard:
        time.sleep(0.03)
        reload_session(session)
    if session.version == version and phone is not None:
        raise AssertionError(f"the tap at version {version} was never applied\n{phone_state(phone)}")


def assert_applied_as(session, action: dict) -> None:
    """The action the server logged last is the one tapped for: its type, and each choice it carries
    (a list of cards in any order; a list of changes is left to the game's own checks)."""
    from games.models import SessionAction

    logged = SessionAction.objects.filter(session=session).order_by("-seq").first().payload

    def plain(value):
        if isinstance(value, list) and all(isinstance(v, str | int) for v in value):
            return sorted(value)
        return value if not isinstance(value, list) else None

    wanted = {k: plain(v) for k, v in action.items() if plain(v) is not None}
    assert {k: plain(logged.get(k)) for k in wanted} == wanted, f"tapped for {action}, applied {logged}"


# A phone's panel and htmx's hold on each of its forms (a request on its way, requests queued behind).
PHONE_STATE = """() => {
  const data = (elt) => elt["htmx-internal-data"] || {}; // where htmx 2 keeps its data on a node
  const panel = document.querySelector("[data-version]");
  return {
    htmx: (window.__htmxLog || []).slice(-30),
    version: panel && panel.getAttribute("data-version"),
    notice: Array.from(document.querySelectorAll(".notice, .messages"), (e) => e.innerText).join(" | "),
    forms: Array.from(document.querySelectorAll("form[hx-post]"), (f) => {
      const d = data(f);
      return (f.className || "form") + (d.xhr ? " (request on its way)" : "") +
        (d.queuedRequests && d.queuedRequests.length ? " (" + d.queuedRequests.length + " queued)" : "") +
        (f.querySelector("button[disabled]") ? " (button disabled)" : "");
    }),
  };
}"""


def phone_state(phone) -> str:
    from tests.e2e.conftest import page_log

    try:
        state = json.dumps(phone.evaluate(PHONE_STATE), indent=1)
    except Exception as exc:  # the page itself is gone: say so, with its log
        state = f"(could not be read: {exc})"
    return f"phone: {state}\nits requests:\n{page_log(phone)}"


# What a person sees now, read in one round trip (the games check it at every decision).
SCREEN = """(panel) => {
  const decision = document.querySelector(panel + " .actions-card");
  return {
    text: document.body.innerText,
    cards: Array.from(document.querySelectorAll("[data-card]"), (e) => e.getAttribute("data-card")),
    decision_height: decision ? decision.getBoundingClientRect().height : null,
    page_width: document.documentElement.scrollWidth,
  };
}"""


def screen(page, version: int, panel: str = "#seat-panel") -> dict:
    """Once ``panel`` shows ``version``: the visible text, the cards shown anywhere on the page (their
    ``data-card``), the height of the decision (None without one) and the page's width."""
    page.wait_for_selector(f'{panel}[data-version="{version}"]', timeout=GUARD_MS)
    return page.evaluate(SCREEN, panel)


def assert_fits_a_phone(facts: dict, name: str) -> None:
    """The decision fits one phone screen, and nothing scrolls sideways."""
    height = facts["decision_height"]
    assert height is not None, f"{name}: no decision on the screen"
    assert height <= PHONE["height"], f"{name}: the decision is {height} px tall"
    assert facts["page_width"] <= PHONE["width"], f"{name}: the page is {facts['page_width']} px wide"


def first_time(screenshot):
    """``take(page, name)``: the screenshot ``name``, the first time a screen of that name is met."""
    taken: set[str] = set()

    def take(page, name: str) -> None:
        if name not in taken:
            taken.add(name)
            screenshot(page, name)

    return take


class HostInputs:
    """The host's inputs on the table screen, counted as the issue counts them (issue 26): every
    control the host changes or taps is one input (a field typed, a select changed, a toggle or a
    button tapped), and so is the submit tap. Reading the screen is not an input. ``phase`` names the
    step being counted (a Dilemma's draw, its resolution); ``total(prefix)`` adds a Dilemma's steps."""

    def __init__(self, page):
        self.page = page
        self.counts: dict[str, int] = {}
        self.phase = ""

    def _one(self) -> None:
        self.counts[self.phase] = self.counts.get(self.phase, 0) + 1

    def fill(self, locator, text: str) -> None:
        locator.fill(text)
        self._one()

    def select(self, locator, value: str) -> None:
        locator.select_option(value)
        self._one()

    def tap(self, locator) -> None:
        locator.click()
        self._one()

    def total(self, prefix: str) -> int:
        return sum(n for phase, n in self.counts.items() if phase.startswith(prefix))
