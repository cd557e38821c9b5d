"""A live refresh keeps what a player is typing on their phone (static/js/live.js, keep/restore): an
amount typed for a bid is still there after the panel is fetched and morphed again, so the tap that
follows bids what was typed, not the form's default (CI: a forced bid came back as the lowest one)."""

import random

import pytest

from games.engines.kernel.bots import bot_choose_action
from games.engines.kernel.registry import get_game
from games.services.taps import session_submit_action
from tests.e2e.table import GUARD_MS, reload_session, screen, start_session

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

RULES = get_game("for_the_king")
MAX_ACTIONS = 200

KEY = "() => document.querySelector('#seat-panel form.control-bid input[name=key]').value"


class RefreshKeepsTypingTests:
    def test_an_amount_being_typed_survives_a_refresh(self, live_server, new_page):
        session, _table, phones = start_session(
            live_server, new_page, game="for_the_king", names=["Anna", "Bruno"], seed=11
        )
        rng = random.Random(11)
        for _ in range(MAX_ACTIONS):  # played by the services up to the first bid
            reload_session(session)
            state = session.state
            seat = RULES.view(state, None)["to_act"][0]
            if state["phase"] == "bidding":
                break
            action = bot_choose_action(RULES, state, seat, rng)
            session_submit_action(
                session=session,
                seat=session.seats.get(index=seat),
                action=action,
                expected_version=session.version,
            )
        assert state["phase"] == "bidding"
        phone = phones[seat]
        screen(phone, session.version)
        amount = phone.locator("#seat-panel form.control-bid input[name=p_amount]")
        typed = str(int(amount.get_attribute("min")) + 2)
        amount.fill(typed)
        key = phone.evaluate(KEY)
        # A refresh, as after a nudge or a version poll: the panel is fetched and morphed in again.
        phone.evaluate("() => document.dispatchEvent(new CustomEvent('session-changed', {detail: {}}))")
        phone.wait_for_function(f"(key) => ({KEY})() !== key", arg=key, timeout=GUARD_MS)
        assert amount.input_value() == typed
