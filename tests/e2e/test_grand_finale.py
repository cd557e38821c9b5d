"""The last night of a campaign in Chromium: the table screen (1920 px) and three phones (375 px).
The campaign holds Mystery stickers A to E and two Ending cards; nine Dilemmas are played through the
services, then the tenth by taps: drawn on the table screen, voted on the phones, its back read with
the lightning, Mystery sticker F attached by hand (rulebook 'Triggering the end of the campaign': the
seventh is then no longer offered), the card placed: the table opens Envelope 70 after the card's
resolution and says so. The King is dead; the night is scored and saved with nothing typed for
Envelope 70; the campaign is closed, with the Ending cards, Cohesion and Dissent in its final
standings."""

import pytest

from campaign.models import Campaign, Envelope
from campaign.services import game_nights
from games.engines.kings_dilemma import messages as msg
from games.engines.kings_dilemma.turn import to_act
from tests.e2e.conftest import DESKTOP, PHONE, SCREENSHOT_DIR
from tests.e2e.table import GUARD_MS, INTERNAL, following, open_table_and_phones
from tests.factories import UserFactory, campaign_at_the_last_mystery
from tests.integration.campaign.test_night_conflicts import round_
from tests.kings_dilemma_play import draft

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

HOUSES = ["Solad", "Tiberius", "Crann"]


def the_last_campaign_night():
    """Envelope 00 (cards 1-10), Ending cards 61 (Crown, Cohesion 3) and 66 (Faith, Dissent 2),
    Mystery stickers A to E; the night begun, drafted, nine Dilemmas on the Time Counter."""
    host = UserFactory(username="host")
    campaign, houses = campaign_at_the_last_mystery(*HOUSES, user=host, name="The long reign")
    session = game_nights.game_night_start(
        campaign=campaign, houses=houses, king_name="Harald IX", host=host, seed=3
    )
    draft(session)
    for number in range(1, 10):
        round_(session, number)
    return host, campaign, session


class GrandFinaleTests:
    def test_the_last_night_at_the_table_closes_the_campaign(self, live_server, new_page, screenshot):
        host, campaign, session = the_last_campaign_night()
        table, phones = open_table_and_phones(live_server, new_page, session, host)
        refresh = following(session, table, phones)

        state = refresh(moved=False)
        assert state["phase"] == "draw" and len(state["time_counter"]) == 9

        # The tenth card: drawn on the table screen, one Outcome token tapped.
        form = table.locator("form:has(input[name=compose][value=draw])")
        form.locator("input[name=number]").fill("10")
        form.locator("input[name=title]").fill("The last dossier")
        form.locator("label.tok:has(input[name=aye_influence][value=up])").click()
        form.locator("button[type=submit]").click()
        state = refresh()
        assert state["phase"] == "voting"

        # The vote on the phones: the first House with its turn votes AYE with 1 Power, the others pass.
        while state["phase"] == "voting":
            seat = next(s for s in to_act(state) if s is not None)
            phone = phones[seat]
            if state["vote"]["choice"][seat] is not None:
                phone.locator("form.control-stay button.choice").click()
            elif "aye" not in state["vote"]["choice"]:
                vote = phone.locator("form.control-vote")
                vote.locator("input[name=p_power]").fill("1")
                vote.locator("button", has_text="VOTE AYE").click()
            else:
                phone.locator("form.control-pass_gather button.choice").click()
            state = refresh()
        if state["phase"] == "tie_break":
            phones[state["moderator"]].locator("form.control-break_tie button", has_text="AYE wins").click()
            state = refresh()
        assert state["phase"] == "outcome"

        # The back: the lightning on its central space, and a note: attach Mystery sticker F.
        outcome = table.locator("form:has(input[name=compose][value=outcome])")
        outcome.locator("input[name=move_1_amount]").fill("0")
        outcome.locator("input[name=lightning]").check()
        outcome.locator("input[name=note]").fill("Attach Mystery sticker F")
        outcome.locator("button[type=submit]").click()
        state = refresh()
        assert state["phase"] == "resolution"

        effect = table.locator("form:has(input[name=compose][value=effect])")
        fold = table.locator("details:has(input[name=compose][value=effect])")
        assert fold.get_attribute("open") is not None  # at the resolution the effect form starts open
        effect.locator("select[name=kind]").select_option("mystery_sticker")
        letters = effect.locator("select[name=letter] option").all_inner_texts()
        assert letters == ["—", *"FGHIJKL"]  # A to E are on the campaign's board
        effect.locator("input[name=label]").fill("The last dossier")
        effect.locator("select[name=letter]").select_option("F")
        screenshot(table, "finale-table-mystery-1920")
        effect.locator("button[type=submit]").click()
        state = refresh()
        assert [m["letter"] for m in state["mystery_stickers"]] == ["F"]
        assert state["envelopes"] == []  # not before the card's resolution is complete
        kinds = table.locator("form:has(input[name=compose][value=effect]) select[name=kind] option")
        assert "Attach a Mystery sticker" not in kinds.all_inner_texts()  # no seventh

        # The card on the Time Counter: its resolution is over, the table opens Envelope 70.
        table.locator("form.control-to_time_counter button.choice").click()
        state = refresh()
        assert [e["number"] for e in state["envelopes"]] == [70] and state["phase"] == "end"
        leader = HOUSES[state["leader"]]
        news = table.inner_text(".kd-news")
        assert msg.NEWS_GRAND_FINALE.format(leader=leader, number=70) in news
        assert "the King is dead" in news
        screenshot(table, "finale-table-envelope-70-1920")
        assert "Envelope 70" in phones[0].inner_text("body")
        screenshot(phones[0], "finale-phone-envelope-70-375")

        table.locator("form.control-score button.choice").click()
        state = refresh()
        if state["phase"] == "heir":
            phones[state["moderator"]].locator("form.control-choose_heir button.choice").first.click()
            state = refresh()
        assert state["over"]

        # Save the night: nothing to type for Envelope 70.
        table.click("text=Save your game")
        save = table.inner_text("body")
        assert "Envelope 70 is the Grand Finale: there is nothing to type for it." in save
        assert table.locator("input[name^=e70-]").count() == 0
        assert not INTERNAL.search(save)
        screenshot(table, "finale-save-1920")
        table.click("text=Write the night into the campaign")
        table.wait_for_url(f"**/campaigns/{campaign.pk}/", timeout=GUARD_MS)

        campaign = Campaign.objects.get(pk=campaign.pk)
        session.refresh_from_db()  # the save names the game it wrote
        assert campaign.closed and campaign.grand_finale_ready and session.chronicle_game_id
        assert Envelope.objects.get(campaign=campaign, number=70).game_id == session.chronicle_game_id
        page = table.inner_text("body")
        assert "closed: Grand Finale" in page and "Start a game night" not in page
        assert "Attach a Mystery sticker" not in page and "Record a game played on paper" not in page
        finale = table.inner_text("#grand-finale")
        assert "Story card 61 (Crown), signed by House Solad: Cohesion 3, Dissent 0" in finale
        assert "Story card 66 Schism (Faith), signed by House Tiberius: Cohesion 0, Dissent 2" in finale
        assert "Cohesion 3 · Dissent 2" in finale
        for house in HOUSES:
            assert f"House {house}" in finale
        screenshot(table, "finale-campaign-1920")
        table.set_viewport_size(PHONE)
        table.reload()
        assert table.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        screenshot(table, "finale-campaign-375")
        table.locator("#grand-finale").screenshot(path=str(SCREENSHOT_DIR / "finale-standings-375.png"))
        table.set_viewport_size(DESKTOP)

        # The story of the last night ends with the final standings.
        table.goto(f"{live_server.url}/campaigns/{campaign.pk}/games/{session.chronicle_game.number}/story/")
        assert "Story card 66 Schism (Faith)" in table.inner_text("#grand-finale")
        screenshot(table, "finale-story-1920")
        table.locator("#grand-finale").screenshot(
            path=str(SCREENSHOT_DIR / "finale-story-standings-1920.png")
        )
