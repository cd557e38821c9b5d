"""The host's hand effects in Chromium (the table screen, 1920 px): "each House that voted NAY pays 1
Coin" in at most 4 host inputs (``tests.e2e.table.HostInputs``: a field typed, a box ticked and the
Apply tap are one each), applied as one effect naming both Houses; the form then stays open with
what it held, ready for the card's next effect. Before, it took 7 inputs per House, because the
fold closed and the form emptied after each Apply."""

import time

import pytest

from campaign.services import game_nights
from tests.e2e.conftest import DESKTOP, PHONE, login
from tests.e2e.table import HostInputs, reload_session
from tests.e2e.test_accessibility import AXE
from tests.factories import UserFactory, campaign_with_houses
from tests.guards import HANG_GUARD_SECONDS
from tests.kings_dilemma_play import draft, front, outcome, play, vote_as

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

HOUSES = ["House Solad", "House Tiberius", "House Crann", "House Vaclav"]
GUARD_MS = int(HANG_GUARD_SECONDS * 1000)
CARD = {"number": 12, "title": "Bread taxes", "aye": outcome("wealth", 1), "nay": outcome("wealth", -1)}


def night_at_the_resolution(host):
    """Tiberius and Crann vote NAY, Solad AYE, Vaclav passes: NAY wins; the back is read and the
    card kept open for the effect printed on it."""
    campaign, houses = campaign_with_houses(*HOUSES, user=host)
    session = game_nights.game_night_start(
        campaign=campaign, houses=houses, king_name="Harald V", host=host, seed=3
    )
    draft(session)
    play(session, None, "draw_dilemma", card=front(CARD))
    state = vote_as(session, {0: ("aye", 1), 1: ("nay", 2), 2: ("nay", 1)})
    if state["phase"] == "leader_choice":  # the biggest NAY voters tied: the Moderator decides
        state = play(session, state["moderator"], "give_leader", to=state["leader_candidates"][0])
    assert state["phase"] == "outcome" and state["winning_side"] == "nay", state["phase"]
    state = play(session, None, "read_outcome", outcome=CARD["nay"], place="resolution")
    assert state["phase"] == "resolution"
    return session


def wait_moved(session, version: int) -> None:
    guard = time.monotonic() + HANG_GUARD_SECONDS
    reload_session(session)
    while session.version == version and time.monotonic() < guard:
        time.sleep(0.05)
        reload_session(session)


def axe_clean(page) -> None:
    """No critical or serious axe-core problem in the effect form (the Houses' toggles, the voters'
    and the fold), where make test has installed axe-core. The rest of the page is the accessibility
    test's (tests/e2e/test_accessibility.py)."""
    if not AXE.exists():
        return
    page.add_script_tag(path=str(AXE))
    found = page.evaluate(
        """async () => {
            const result = await axe.run("details.kd-effect", {resultTypes: ["violations"]});
            return result.violations.filter(v => v.impact === "critical" || v.impact === "serious")
                .map(v => v.id + ": " + v.nodes.map(n => n.target.join(" ")).join(", "));
        }"""
    )
    assert not found, found


class HandEffectTests:
    def test_every_nay_voter_pays_one_coin_in_four_inputs(self, live_server, new_page, screenshot):
        host = UserFactory(username="host")
        session = night_at_the_resolution(host)
        coins = [seat["coins"] for seat in session.state["seats"]]
        table = new_page(DESKTOP, bypass_csp=True)  # axe-core is injected into the page
        login(table, live_server, host.username)
        table.goto(f"{live_server.url}/play/s/{session.pk}/")
        fold = table.locator("details.kd-effect")
        assert fold.get_attribute("open") is not None  # the card was kept open for this
        form = fold.locator("form")
        # Only the fields of the kind chosen show: Coins given or taken to begin with.
        assert form.locator("select[name=what]").is_visible()
        assert not form.locator("select[name=letter]").is_visible()
        assert not form.locator("select[name=row]").is_visible()
        screenshot(table, "kd-hand-effect-form-1920")
        axe_clean(table)

        inputs = HostInputs(table)
        inputs.phase = "nay-pays"
        inputs.fill(form.locator("input[name=label]"), "Each House that voted NAY pays 1 Coin")
        inputs.tap(form.locator("label.tok:has(input[name=voters][value=nay])"))
        inputs.fill(form.locator("input[name=amount]"), "-1")
        version = session.version
        inputs.tap(form.locator("button[type=submit]"))
        wait_moved(session, version)
        table.wait_for_selector(f'#table-panel[data-version="{session.version}"]', timeout=GUARD_MS)
        assert inputs.total("nay-pays") <= 4, inputs.counts

        # One effect, both Houses named in one log line.
        assert [seat["coins"] for seat in session.state["seats"]] == [
            coins[0],
            coins[1] - 1,
            coins[2] - 1,
            coins[3],
        ]
        logged = session.actions.order_by("-seq").first()
        assert logged.payload["target"] == [1, 2]
        assert logged.label.splitlines()[0] == (
            "The table took 1 Coin from each of House Tiberius and House Crann "
            "(Each House that voted NAY pays 1 Coin)."
        )
        assert "from each of House Tiberius and House Crann" in table.inner_text("body")

        # The form stays open with what it held: the card's next effect starts from there.
        fold = table.locator("details.kd-effect")
        assert fold.get_attribute("open") is not None
        form = fold.locator("form")
        assert form.locator("select[name=kind]").input_value() == "adjust"
        assert form.locator("input[name=label]").input_value() == "Each House that voted NAY pays 1 Coin"
        assert form.locator("input[name=voters][value=nay]").is_checked()
        assert form.locator("select[name=what]").input_value() == "coins"
        assert form.locator("input[name=amount]").input_value() == "-1"
        fold.scroll_into_view_if_needed()
        screenshot(table, "kd-hand-effect-kept-open-1920")
        axe_clean(table)
        table.set_viewport_size(PHONE)
        screenshot(table, "kd-hand-effect-kept-open-375")
        table.emulate_media(color_scheme="dark")  # the host's form in a dim room
        screenshot(table, "kd-hand-effect-kept-open-dark-375")
        axe_clean(table)
        table.set_viewport_size(DESKTOP)
        screenshot(table, "kd-hand-effect-kept-open-dark-1920")
