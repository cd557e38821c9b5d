"""Joining from a real phone (issue 17 items 3, 4 and 6): the host browses the table screen on
localhost; the seat codes point at this machine's LAN address, which the server answers, and a
phone opens exactly the link the code holds. A joined seat's code leaves the table; a new code
sends the old phone to a page that says what to do; the phone page has no way out of the seat."""

import re

import pytest
import segno
from pytest_django.live_server_helper import LiveServer

from config.network import lan_addresses
from games.models import Seat
from games.services.sessions import session_create
from tests.e2e.conftest import DESKTOP, PHONE, login
from tests.factories import UserFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

LIVE_TIMEOUT = 120_000  # a hang guard (ms): the pages poll every few seconds


@pytest.fixture
def lan_server():
    """A live server listening on every interface, as make run does (0.0.0.0)."""
    if not lan_addresses():
        pytest.skip("this machine has no private LAN address")
    server = LiveServer("0.0.0.0")
    yield server
    server.stop()


def qr_path(link: str) -> str:
    """The path data of the QR code segno draws for ``link`` (what the table page inlines)."""
    svg = segno.make(link, error="m").svg_inline(scale=1, border=2, omitsize=True)
    return re.search(r'class="qrline"[^>]* d="([^"]+)"', svg).group(1)


def visible_text(page) -> str:
    return page.inner_text("body")


def test_a_phone_joins_from_the_lan_address_the_table_shows(lan_server, new_page, screenshot):
    port = lan_server.thread.port
    lan = lan_addresses()[0]
    host = UserFactory(username="host")
    session = session_create(
        game="for_the_king", seat_names=["Anna", "Bruno", "Chiara"], host=host, seed=11, bot_seats=[2]
    )
    anna = session.seats.get(index=0)

    table = new_page(DESKTOP)
    local = f"http://localhost:{port}"
    login(table, type("S", (), {"url": local}), host.username)
    table.goto(f"{local}/play/s/{session.pk}/")
    expected_base = f"http://{lan}:{port}"
    assert f"Phones join at {expected_base}" in visible_text(table)
    assert table.locator("#join-panel .qr svg").count() == 2  # the bot has no code
    anna_item = table.locator(".join-item", has_text="Anna")
    assert not anna_item.locator("a.join").is_visible()  # the link only on request
    anna_item.locator("summary", has_text="Show the link").click()
    link = anna_item.locator("a.join").get_attribute("href")
    assert link == f"{expected_base}/play/seat/{anna.token}/"
    assert anna_item.locator(".qr svg path.qrline").get_attribute("d") == qr_path(link)
    screenshot(table, "join-table-codes")
    # The join panel refreshes itself every few seconds: the fold the host opened stays open.
    table.evaluate(
        "() => { window.joinSwaps = 0; document.body.addEventListener('htmx:afterSettle', e => {"
        " if (e.detail.target && e.detail.target.id === 'join-panel') window.joinSwaps += 1; }); }"
    )
    table.wait_for_function("() => window.joinSwaps >= 1", timeout=LIVE_TIMEOUT)
    assert anna_item.locator("a.join").is_visible(), "the refresh folded the link away"

    phone = new_page(PHONE)
    phone.goto(link)  # exactly what the code holds: the LAN address, answered by the server
    phone.wait_for_selector("#seat-panel")
    assert "Anna" in visible_text(phone) and "Log in" not in visible_text(phone)
    # No link leaves the seat: the brand is not a link; every link reloads this seat.
    hrefs = phone.eval_on_selector_all("a[href]", "links => links.map(a => a.getAttribute('href'))")
    assert all(h.startswith(f"/play/seat/{anna.token}/") for h in hrefs), hrefs
    assert phone.locator(".topbar a").count() == 0
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    screenshot(phone, "join-phone-seat")

    # Once joined, Anna's code leaves the table by itself (the join panel refreshes).
    table.wait_for_function(
        "() => document.querySelectorAll('#join-panel .qr svg').length === 1", timeout=LIVE_TIMEOUT
    )
    assert anna.token not in table.content()
    assert "joined" in table.locator(".join-item", has_text="Anna").inner_text()
    for tool in ("Show the code again", "Give a new code"):  # each on one line, not squeezed
        button = table.locator(".join-item", has_text="Anna").locator("button", has_text=tool)
        assert button.bounding_box()["height"] < 1.5 * float(
            button.evaluate("b => getComputedStyle(b).lineHeight").rstrip("px") or 20
        ), tool

    # A lost phone: the host gives Anna a new code; the old phone is told what to do.
    table.locator(".join-item", has_text="Anna").locator("button", has_text="Give a new code").click()
    assert "will be disconnected" in table.inner_text("main")  # the host is asked first
    assert Seat.objects.get(pk=anna.pk).token == anna.token
    screenshot(table, "join-table-replace-phone")
    table.get_by_role("button", name="Yes, replace this phone").click()
    table.wait_for_selector(".join-item:has-text('Anna') .qr svg")
    phone.wait_for_function(
        '() => document.body.innerText.includes("Ask the host to show your seat\'s code again")',
        timeout=LIVE_TIMEOUT,
    )
    assert Seat.objects.get(pk=anna.pk).token != anna.token
    screenshot(phone, "join-phone-old-code")
