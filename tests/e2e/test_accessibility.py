"""Every page type passes axe-core (issue 26, item 8): no critical and no serious problem, at the
width a person uses it (phones at 375 px, the table at 1920 px). axe-core comes from the npm
registry at the version tests/e2e/axe/package-lock.json pins (make test installs it) and runs in
the page itself, as a browser extension would.

The pages are those of a campaign with two nights played and told, a King's Dilemma night at the
table with a seat on a phone, a For the King and a Council of Four game mid-play, the accounts
pages and the error pages."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

from campaign.services.game_nights import game_night_start
from campaign.services.members import invitation_accept, invitation_create
from campaign.services.stories import story_link_create, story_link_revoke
from games.services.sessions import session_abandon, session_create
from tests.e2e.conftest import DESKTOP, PHONE, login
from tests.factories import UserFactory
from tests.integration.games.conftest import play
from tests.story_play import campaign_of_nights

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

AXE = Path(__file__).resolve().parent / "axe" / "node_modules" / "axe-core" / "axe.min.js"
BLOCKING = ("critical", "serious")


@pytest.fixture
def axe_page(new_page):
    """A page whose context lets the test inject axe-core (the site's CSP allows only its own
    scripts, rightly)."""
    if not AXE.exists():
        if os.environ.get("CI"):
            pytest.fail(f"axe-core missing at {AXE}: make test installs it with npm ci.")
        pytest.skip("axe-core not installed: run through make test")
    return lambda viewport, scheme="light": new_page(viewport, bypass_csp=True, color_scheme=scheme)


def problems(page) -> list[str]:
    """The critical and serious axe-core violations of the page as it is now, one line each."""
    page.add_script_tag(path=str(AXE))
    found = page.evaluate(
        """async () => {
            const result = await axe.run(document, {resultTypes: ["violations"]});
            return result.violations.map(v => ({
                id: v.id, impact: v.impact, help: v.help,
                nodes: v.nodes.slice(0, 3).map(n => n.target.join(" ") + " :: " + n.failureSummary),
                count: v.nodes.length,
            }));
        }"""
    )
    return [
        f"{v['impact']} {v['id']} ({v['count']}x): {v['help']}\n      " + "\n      ".join(v["nodes"])
        for v in found
        if v["impact"] in BLOCKING
    ]


def test_problems_reports_a_page_with_a_serious_problem(axe_page, live_server):
    """The check can fail: a page with an unlabelled field and text without contrast."""
    page = axe_page(PHONE)
    page.goto(f"{live_server.url}/healthz")
    page.set_content(
        '<html lang="en"><body><main><h1>x</h1><p style="color:#eee;background:#fff">faint</p>'
        '<input type="text"></main></body></html>'
    )
    found = "\n".join(problems(page))
    assert "color-contrast" in found and "label" in found


def _pages(live_server) -> tuple[UserFactory, list[tuple[str, str, dict]]]:
    owner = UserFactory(username="axe-owner")
    campaign, houses, games = campaign_of_nights(2, user=owner, name="Accessible realm")
    last_night = game_night_start(
        campaign=campaign, houses=houses[:3], king_name="Aldric 3", host=owner, seed=4
    )
    session_abandon(session=last_night)  # its seats closed, pointing to tonight's
    night = game_night_start(campaign=campaign, houses=houses[:3], king_name="Aldric 3", host=owner, seed=5)
    ftk = session_create(game="for_the_king", seat_names=["Anna", "Ben", "Carla"], host=owner, seed=5)
    c4 = session_create(game="council_of_four", seat_names=["Anna", "Ben"], host=owner, seed=5)
    c = f"/campaigns/{campaign.pk}"
    number = games[0].number
    invitation = invitation_create(campaign=campaign, role="player", house=None)
    revoked = story_link_create(game=games[0], actor=owner)
    story_link_revoke(game=games[0], actor=owner)
    pages = [
        ("home", "/", DESKTOP),
        ("campaign", f"{c}/", PHONE),
        ("campaign at the table", f"{c}/", DESKTOP),
        ("history", f"{c}/history/", PHONE),
        ("campaign sheet", f"{c}/sheet/", PHONE),
        ("campaign sheet at the table", f"{c}/sheet/", DESKTOP),
        (
            "last night's closed seat",
            f"/play/seat/{last_night.seats.order_by('index').first().token}/",
            PHONE,
        ),
        ("Realm Chronicles", f"{c}/chronicles/", PHONE),
        ("statistics", f"{c}/statistics/", PHONE),
        ("House page", f"{c}/houses/{houses[0].pk}/", PHONE),
        ("night's story", f"{c}/games/{number}/story/", PHONE),
        ("game correction", f"{c}/games/{number}/correct/", PHONE),
        ("night start", f"{c}/night/new/", PHONE),
        ("sticker form", f"{c}/stickers/new/", PHONE),
        ("envelope form", f"{c}/envelopes/new/", PHONE),
        ("import", "/campaigns/import/", PHONE),
        ("sessions", "/play/", PHONE),
        ("members", f"{c}/members/", PHONE),
        ("invitation, signed in", f"/invitations/{invitation.token}/", PHONE),
    ]
    for label, session in (("King's Dilemma", night), ("For the King", ftk), ("Council of Four", c4)):
        seat = session.seats.order_by("index").first()
        pages.append((f"{label} table", f"/play/s/{session.pk}/", DESKTOP))
        pages.append((f"{label} seat", f"/play/seat/{seat.token}/", PHONE))
    pages.extend(_played(owner))
    player = UserFactory(username="axe-player")
    invitation_accept(
        invitation=invitation_create(campaign=campaign, role="player", house=houses[0]), user=player
    )
    pages.extend(
        [
            ("a player's campaign page", f"{c}/", PHONE, player),
            ("a player's sheet", f"{c}/sheet/", PHONE, player),
        ]
    )
    anonymous = [
        ("login", "/accounts/login/"),
        ("sign up", "/accounts/signup/"),
        ("404", "/nope/"),
        ("invitation, anonymous", f"/invitations/{invitation.token}/"),
        ("revoked story link", f"/stories/{revoked.token}/"),
    ]
    return owner, pages, anonymous


def _played(owner) -> list[tuple[str, str, dict]]:
    """Games far enough in for their logs to scroll (a list a keyboard must reach), every seat
    colour of a four-seat game on its board, and the session list with an abandoned game."""
    rng = random.Random(41)
    ftk = session_create(
        game="for_the_king", seat_names=["Anna", "Ben", "Carla", "Dario"], host=owner, seed=9
    )
    c4 = session_create(
        game="council_of_four", seat_names=["Anna", "Ben", "Carla", "Dario"], host=owner, seed=9
    )
    play(ftk, rng, 40)
    play(c4, rng, 40)
    gone = session_create(game="for_the_king", seat_names=["Anna", "Ben", "Carla"], host=owner, seed=3)
    session_abandon(session=gone)
    pages = []
    for label, session in (("For the King, played", ftk), ("Council of Four, four seats", c4)):
        pages.append((f"{label}: table", f"/play/s/{session.pk}/", DESKTOP))
        pages.append((f"{label}: table on a phone", f"/play/s/{session.pk}/", PHONE))
        for seat in session.seats.order_by("index"):
            pages.append((f"{label}: seat {seat.index + 1}", f"/play/seat/{seat.token}/", PHONE))
    pages.append(("sessions with an abandoned one", "/play/", DESKTOP))
    return pages


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_page_type_has_no_critical_or_serious_problem(axe_page, live_server, scheme):
    owner, pages, anonymous_pages = _pages(live_server)
    report: dict[str, list[str]] = {}
    anonymous = axe_page(PHONE, scheme)
    for label, path in anonymous_pages:
        anonymous.goto(live_server.url + path)
        report[label] = problems(anonymous)
    by_viewport = {}
    for label, path, viewport, *who in pages:
        user = who[0] if who else owner
        key = (viewport["width"], user.username)
        if key not in by_viewport:
            by_viewport[key] = axe_page(viewport, scheme)
            login(by_viewport[key], live_server, user.username)
        page = by_viewport[key]
        page.goto(live_server.url + path)
        page.wait_for_load_state("domcontentloaded")
        report[label] = problems(page)
    failing = {label: found for label, found in report.items() if found}
    assert len(report) >= 34
    assert not failing, json.dumps(failing, indent=1)
