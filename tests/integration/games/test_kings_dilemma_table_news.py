"""The King's Dilemma table (issue 26): a card met before drawn by picking it (its front from the
campaign), the outcome applied and the card placed on the Time Counter in one submit, and every
consequence in words at once on the table's banner, in the log and on the chips (table and phones)."""

import html
import re

import pytest
from django.urls import reverse

from campaign.services import game_nights
from games.engines.kings_dilemma import messages as msg
from games.presenters.kings_dilemma_forms import front_fill
from tests.factories import campaign_with_houses
from tests.integration.games.test_ui_kings_dilemma import compose, seat_page
from tests.kings_dilemma_play import LIBRARY_FRONT, draft, play, remember_library, vote_through

pytestmark = pytest.mark.django_db


@pytest.fixture
def night(user):
    campaign, houses = campaign_with_houses("Anna", "Ben", "Cora", user=user)
    remember_library(campaign)
    session = game_nights.game_night_start(
        campaign=campaign, houses=houses, king_name="Harald V", host=user, seed=5
    )
    draft(session)
    return session


def table_page(client, session) -> str:
    return client.get(reverse("games:session_table", args=[session.pk])).content.decode()


def text(page: str) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)))


class CardMetBeforeTests:
    def test_the_draw_form_carries_its_front_never_its_back(self, client, user, night):
        client.force_login(user)
        page = table_page(client, night)
        assert "data-fill-front" in page and "31: The library" in page
        assert "knowledge" in page and "&quot;aye_knowledge&quot;: &quot;up&quot;" in page

    def test_picking_it_and_drawing_takes_two_inputs(self, client, user, night):
        """The select and the submit: the stored front is the card's front."""
        client.force_login(user)
        assert compose(client, night, compose="draw", known=31).status_code == 200
        night.refresh_from_db()
        assert night.state["phase"] == "voting"
        assert night.state["card"]["front"] == LIBRARY_FRONT and night.state["card"]["title"] == "The library"

    def test_its_front_filled_in_and_confirmed_stays_as_stored(self, client, user, night):
        """What the page fills in when the card is picked (``front_fill``), posted unchanged."""
        client.force_login(user)
        filled = front_fill({"number": 31, "title": "The library", "question": "", "front": LIBRARY_FRONT})
        assert compose(client, night, compose="draw", known=31, **filled).status_code == 200
        night.refresh_from_db()
        assert night.state["card"]["front"] == LIBRARY_FRONT  # its tokens in their stored order

    def test_its_front_corrected_at_the_draw_replaces_the_stored_one(self, client, user, night):
        client.force_login(user)
        response = compose(
            client, night, compose="draw", known=31, number=31, title="The library", aye_knowledge="up"
        )
        assert response.status_code == 200
        night.refresh_from_db()
        assert night.state["card"]["front"]["aye"] == {"resources": [["knowledge", "up"]], "sticker": None}


class OutcomeFilledInTests:
    def test_the_back_is_filled_in_from_the_winning_sides_tokens(self, client, user, night):
        client.force_login(user)
        compose(client, night, compose="draw", known=31)
        vote_through(night, "aye")
        page = table_page(client, night)
        assert re.search(r'name="move_1_row"[^>]*>.*?<option value="knowledge" selected>', page, re.S)
        assert re.search(r'name="move_2_amount" value="-1"', page)
        assert re.search(r'name="sticker_positive" value="1"[^>]*checked', page)

    def test_one_submit_applies_the_outcome_and_places_the_card(self, client, user, night):
        """Rulebook '5. Dilemma Resolution' steps B to F in one submit when nothing else is open: the
        sticker's number and row typed, the moves as filled in."""
        client.force_login(user)
        compose(client, night, compose="draw", known=31)
        vote_through(night, "aye")
        night.refresh_from_db()
        form = {"move_1_row": "knowledge", "move_1_amount": 1, "move_2_row": "wealth", "move_2_amount": -1}
        response = compose(
            client, night, compose="outcome", **form, sticker=43, sticker_row="welfare", sticker_positive="1"
        )
        assert response.status_code == 200
        night.refresh_from_db()
        assert night.state["phase"] == "draw" and night.state["time_counter"] == [31]
        spaces = night.state["tracks"]["time_counter"]["spaces"]
        placed = msg.NEWS_TIME_COUNTER.format(number=31, count=1, spaces=spaces)
        label = night.actions.order_by("-seq").first().label
        assert label.splitlines()[-1] == placed
        page = text(table_page(client, night))
        assert placed in page  # on the banner and in the log
        assert page.count(placed) == 2

    def test_a_note_keeps_the_card_open_for_effects_by_hand(self, client, user, night):
        client.force_login(user)
        compose(client, night, compose="draw", known=31)
        vote_through(night, "nay")
        response = compose(
            client, night, compose="outcome", move_1_row="morale", move_1_amount=-1, note="Exile a House"
        )
        assert response.status_code == 200
        night.refresh_from_db()
        assert night.state["phase"] == "resolution"


class ConsequencesOnTheChipsTests:
    def to_resolution(self, client, night):
        compose(client, night, compose="draw", known=31)
        vote_through(night, "aye")
        compose(client, night, compose="outcome", move_1_row="knowledge", move_1_amount=1, keep_open="on")
        night.refresh_from_db()
        assert night.state["phase"] == "resolution"

    def test_prestige_given_by_hand_shows_on_every_chip_at_once(self, client, user, night):
        """The issue saw "The table gave 1 Prestige to Ben" while Ben's chip still said 0."""
        client.force_login(user)
        self.to_resolution(client, night)
        before = night.state["seats"][1]["prestige"]
        compose(
            client,
            night,
            compose="effect",
            kind="adjust",
            label="A feast",
            target=1,
            what="prestige",
            amount=1,
        )
        night.refresh_from_db()
        line = msg.NEWS_PRESTIGE.format(name="Ben", before=before, after=before + 1)
        table = text(table_page(client, night))
        assert line in table
        for page in (table, text(seat_page(client, night, 1)), text(seat_page(client, night, 0))):
            assert re.search(rf"Ben .*?Prestige {before + 1}\b", page), "Ben's chip"

    def test_the_moderators_coin_shows_on_the_phone_and_the_banner(self, client, user, night):
        """Rulebook 'PASS AND BECOME MODERATOR': the Coin lies on the PASS card until the vote ends."""
        client.force_login(user)
        compose(client, night, compose="draw", known=31)
        night.refresh_from_db()
        seat = night.state["vote"]["turn"]
        coins = night.state["seats"][seat]["coins"]
        play(night, seat, "pass_moderator")
        name = night.state["seats"][seat]["name"]
        phone = text(seat_page(client, night, seat))
        assert f"Coins {coins} + 1 on your PASS card" in phone
        assert msg.NEWS_MODERATOR.format(name=name) in text(table_page(client, night))

    def test_momentum_is_said_on_the_banner_and_in_the_log(self, client, user, night):
        client.force_login(user)
        compose(client, night, compose="draw", known=31)
        vote_through(night, "aye")
        night.refresh_from_db()
        knowledge = night.state["resources"]["knowledge"]
        compose(client, night, compose="outcome", move_1_row="knowledge", move_1_amount=1, keep_open="on")
        night.refresh_from_db()
        after = night.state["resources"]["knowledge"]["position"]
        words = msg.NEWS_MOMENTUM if knowledge["momentum"] == "up" else msg.NEWS_AGAINST
        stability = night.state["stability"]
        moved = after - knowledge["position"]
        line = words.format(
            row="Knowledge",
            amount=1,
            before=knowledge["position"],
            after=after,
            arrow="▲",
            stability=msg.NEWS_STABILITY.format(before=stability - moved, after=stability),
        )
        assert line in night.actions.order_by("-seq").first().label.splitlines()
        assert text(table_page(client, night)).count(line) == 2  # the banner and the log
