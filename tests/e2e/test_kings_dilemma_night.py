"""A whole King's Dilemma night in Chromium: the table screen (1920 px) and four phones (375 px), played
by tapping what a person taps (issue 13): the Secret Agenda draft, three Dilemmas (the front tapped at the
draw, the back after the vote), a tie the Moderator decides, Coins given, an Envelope from an outcome,
the end of the reign, the save and the campaign page afterwards.

At every decision: the acting phone's controls fit one phone screen, only the acting phone says "Your
turn", no visible text shows an internal key, and nothing of a card's back shows before its vote ends.

The host's inputs are counted per Dilemma (issue 26; ``tests.e2e.table.HostInputs`` defines an input:
each control the host changes or taps, the submit taps included). A card met before with two Resource
moves per side and a sticker takes at most 5: picking it and drawing it (its front fills in from the
campaign), then at the resolution the sticker's number and row and the submit (the moves are filled in
from the front's tokens, and the card goes on the Time Counter in the same submit). A new card of that
kind takes 8 at the draw (number, title, four ▲/▼ taps, the sticker's tap, the submit); its back is
counted at the resolution."""

import re

import pytest

from campaign.services import game_nights
from games.engines.kings_dilemma.turn import to_act
from tests.e2e.conftest import DESKTOP, PHONE
from tests.e2e.table import GUARD_MS, HostInputs, following, open_table_and_phones
from tests.factories import UserFactory, campaign_with_houses
from tests.kings_dilemma_play import remember_library

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

HOUSES = ["House Solad", "House Tiberius", "House Crann", "House Vaclav"]
INTERNAL = re.compile(r"\b[a-z]+_[a-z_]+\b|\bseat \d|\bside (aye|nay)\b", re.I)
WEDDING_TOKENS = {  # a new card of the same kind, tapped at the draw
    "aye_knowledge": "up",
    "aye_welfare": "up",
    "nay_morale": "down",
    "nay_influence": "up",
    "aye_sticker": "positive",
}
CARDS = [  # number, title, front tokens tapped (None: met before), what the host changes on the back of AYE
    (12, "Bread taxes", {"aye_influence": "up"}, {"envelope": "5"}),
    (31, "The library", None, {"sticker": "43", "sticker_row": "welfare"}),
    (
        44,
        "A royal wedding",
        WEDDING_TOKENS,
        {
            "move_1_amount": "3",
            "move_2_amount": "3",
            "move_3_row": "influence",
            "move_3_amount": "3",
            "sticker": "12",
            "sticker_row": "knowledge",
        },
    ),
]


def visible_text(page) -> str:
    return page.inner_text("body")


def check_screens(table, phones, acting: int | None, shots=None, name=""):
    """Only the acting phone says "Your turn"; no internal key on any screen; the decision fits."""
    for index, phone in phones.items():
        text = visible_text(phone)
        assert not INTERNAL.search(text), (HOUSES[index], INTERNAL.search(text).group(0))
        assert ("Your turn." in text) == (index == acting), (HOUSES[index], acting)
    board = table.inner_text("#table-panel")  # the join links beside it carry secret tokens, not words
    assert not INTERNAL.search(board), INTERNAL.search(board).group(0)
    if acting is not None:
        actions = phones[acting].locator("#seat-panel .actions-card").bounding_box()
        assert actions["height"] <= PHONE["height"], f"the decision is {actions['height']} px tall"
        if shots:
            shots(phones[acting], f"kd-phone-{name}")


class KingsDilemmaNightTests:
    def test_a_whole_night_by_taps(self, live_server, new_page, screenshot):
        host = UserFactory(username="host")
        campaign, houses = campaign_with_houses(*HOUSES, user=host)
        remember_library(campaign)
        session = game_nights.game_night_start(
            campaign=campaign, houses=houses, king_name="Harald V", host=host, seed=3
        )
        table, phones = open_table_and_phones(live_server, new_page, session, host)

        refresh = following(session, table, phones)

        def acting_seat(state):
            seats = [s for s in to_act(state) if s is not None]
            return seats[0] if seats else None

        # The draft: each House in turn taps one of the Secret Agendas offered to it.
        state = refresh(moved=False)
        while state["phase"] == "draft":
            seat = state["draft"]["order"][state["draft"]["index"]]
            check_screens(table, phones, seat, screenshot if state["draft"]["index"] == 0 else None, "draft")
            phones[seat].locator("form.control-choose_secret_agenda button.choice").first.click()
            state = refresh()
        assert "Secret Agenda:" in visible_text(phones[0])

        def both_widths(name: str):
            """The table screen at 1920 px and at 375 px."""
            screenshot(table, f"{name}-1920")
            table.set_viewport_size(PHONE)
            screenshot(table, f"{name}-375")
            table.set_viewport_size(DESKTOP)

        inputs = HostInputs(table)
        gave_coins = False
        for round_, (number, title, tokens, back) in enumerate(CARDS, start=1):
            # Draw: the host picks a card met before (its front fills in) or taps a new one's front.
            inputs.phase = f"{number}:draw"
            form = table.locator("form:has(input[name=compose][value=draw])")
            if tokens is None:
                inputs.select(form.locator("select[name=known]"), str(number))
                assert form.locator("input[name=title]").input_value() == title  # filled in
                assert form.locator("input[name=aye_sticker][value=positive]").is_checked()
                assert form.locator("input[name=nay_influence][value=up]").is_checked()
            else:
                inputs.fill(form.locator("input[name=number]"), str(number))
                inputs.fill(form.locator("input[name=title]"), title)
                for field, direction in tokens.items():
                    inputs.tap(form.locator(f"label.tok:has(input[name={field}][value={direction}])"))
            if round_ == len(CARDS):
                both_widths("kd-table-draw")
            inputs.tap(form.locator("button[type=submit]"))
            state = refresh()
            assert state["phase"] == "voting"
            for phone in phones.values():
                assert title in visible_text(phone)
                assert "Envelope 05" not in visible_text(phone) or round_ > 1  # the back stays hidden
            if round_ == 1:
                screenshot(table, "kd-table-vote")
            # The vote: one AYE (and one NAY on the tie card), the others pass; voters stay after.
            tie = round_ == 2
            while state["phase"] == "voting":
                seat = acting_seat(state)
                vote = state["vote"]
                check_screens(table, phones, seat, screenshot if round_ == 1 else None, f"vote-{seat}")
                phone = phones[seat]
                if tie and not gave_coins:  # bargaining: another House gives Coins, turn or not
                    giver = phones[(seat + 1) % 4]
                    giver.locator("details.bargaining summary").click()
                    gift = giver.locator("form.control-give_coins")
                    gift.locator("input[name=p_coins]").fill("2")
                    gift.locator("button.choice").first.click()
                    gave_coins = True
                    state = refresh()
                    continue
                if vote["choice"][seat] is not None:
                    phone.locator("form.control-stay button.choice").click()
                elif "aye" not in vote["choice"]:
                    form = phone.locator("form.control-vote")
                    form.locator("input[name=p_power]").fill("1")
                    form.locator("button", has_text="VOTE AYE").click()
                elif tie and "nay" not in vote["choice"]:
                    form = phone.locator("form.control-vote")
                    form.locator("button.step[data-step='1']").click()  # the stepper, then back down
                    form.locator("button.step[data-step='-1']").click()
                    form.locator("button", has_text="VOTE NAY").click()
                else:
                    phone.locator("form.control-pass_gather button.choice").click()
                state = refresh()
            assert (state["phase"] == "tie_break") == tie  # the second card ends tied, 1 Power each
            if state["phase"] == "tie_break":
                moderator = state["moderator"]
                check_screens(table, phones, moderator, screenshot, "tie")
                phones[moderator].locator("form.control-break_tie button", has_text="AYE wins").click()
                state = refresh()
            assert state["phase"] == "outcome"
            # Turn the card over: the moves are filled in from the front's tokens; the host changes
            # what the back says otherwise, and the card goes on the Time Counter in the same submit.
            inputs.phase = f"{number}:resolution"
            form = table.locator("form:has(input[name=compose][value=outcome])")
            front = state["card"]["front"]["aye"]["resources"]
            assert form.locator("select[name=move_1_row]").input_value() == front[0][0]
            for field, value in back.items():
                if field.endswith("_row"):
                    inputs.select(form.locator(f"select[name={field}]"), value)
                else:
                    inputs.fill(form.locator(f"input[name={field}]"), value)
            if round_ == len(CARDS):
                both_widths("kd-table-outcome")
            inputs.tap(form.locator("button[type=submit]"))
            state = refresh()
            assert number in state["time_counter"] and state["phase"] in ("draw", "end")
            news = table.inner_text(".kd-news")
            assert f"Card {number} goes on the Time Counter" in news
            if "envelope" in back:
                assert "opens Envelope 05" in visible_text(phones[0])  # shown once the vote has ended
                both_widths("kd-table-news")
                screenshot(phones[0], "kd-phone-news")
        assert gave_coins
        assert state["phase"] == "end" and state["end"] == "abdicated_top"
        # The table's banner says why: Stability reached the end of its track.
        assert "the King abdicates at the end of the round" in table.inner_text(".kd-news")
        both_widths("kd-table-abdication")
        print("Host inputs per Dilemma step:", inputs.counts)
        assert inputs.total("31:") <= 5, inputs.counts  # met before: two moves per side and a sticker
        assert inputs.counts["44:draw"] == 8, inputs.counts  # new: number, title, 5 taps, submit

        table.locator("form.control-score button.choice").click()
        state = refresh()
        if state["phase"] == "heir":
            phones[state["moderator"]].locator("form.control-choose_heir button.choice").first.click()
            state = refresh()
        assert state["over"]
        for phone in phones.values():
            assert "King Harald V abdicated: Stability rose to the top of its track." in visible_text(phone)
            assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        screenshot(phones[0], "kd-phone-result")
        screenshot(table, "kd-table-result")

        # Save the night into the campaign, then the campaign page shows it.
        table.click("text=Save your game")
        assert "What will be written into the campaign" in visible_text(table)
        assert not INTERNAL.search(visible_text(table))
        table.fill("input[name=e5-story]", "5")
        table.fill("input[name=e5-storyline]", "Crown")
        table.fill("input[name=e5-dilemmas]", "61, 62, 63")
        screenshot(table, "kd-save")
        table.click("text=Write the night into the campaign")
        table.wait_for_url(f"**/campaigns/{campaign.pk}/", timeout=GUARD_MS)
        assert "under King Harald V is in the Realm Chronicles" in visible_text(table)
        table.goto(f"{live_server.url}/play/s/{session.pk}/")
        assert "Open the campaign" in visible_text(table)


class OpenAgendaScreenTests:
    """Issue 26, item 2: the Open Agendas lie in front of each House, as in the box: on the table's
    House chips and on each House's own phone, in words."""

    def test_the_table_and_each_phone_show_the_open_agendas(self, live_server, new_page, screenshot):
        from tests.story_play import _first_two_open_agendas, campaign_of_nights

        host = UserFactory(username="host")
        campaign, houses, _games = campaign_of_nights(1, user=host, name="Agendas")
        keep = _first_two_open_agendas(campaign, houses)
        session = game_nights.game_night_start(
            campaign=campaign, houses=houses, king_name="Aldric 2", host=host, seed=12, keep=keep
        )
        table, phones = open_table_and_phones(live_server, new_page, session, host)
        board = table.inner_text("#table-panel")
        assert "Open Agenda" in board, board[:500]
        screenshot(table, "kd-table-open-agendas-1920")
        table.set_viewport_size(PHONE)
        screenshot(table, "kd-table-open-agendas-375")
        phone = phones[0]  # each phone sees the chips, and its own House's agendas explained
        assert "Open Agenda" in visible_text(phone)
        screenshot(phone, "kd-phone-open-agendas-375")
