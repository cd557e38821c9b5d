"""What the table typed of a card is kept from night to night: a card met before shows its typed title
on the picker, the table, the phones and the log; its remembered back never re-adds what is on the
board; and the host is told whether a card can be drawn before its front is typed
(docs/rules-decisions.md)."""

import re

import pytest

from campaign.models import DilemmaCard
from campaign.services import game_nights, night_saves
from campaign.services.envelopes import dilemma_card_remember, envelope_open
from campaign.services.stickers import sticker_attach
from games.engines.kings_dilemma import messages as msg
from games.engines.kings_dilemma.story import night_story
from games.presenters.kings_dilemma_forms import PUT_BACK_FIRST, TITLE_NEEDED
from tests.factories import campaign_with_houses
from tests.integration.games.test_kings_dilemma_table_news import table_page, text
from tests.integration.games.test_ui_kings_dilemma import compose, seat_page
from tests.kings_dilemma_play import draft, play, play_night, vote_through

pytestmark = pytest.mark.django_db

FRONT = {
    "aye": {"resources": [["wealth", "down"]], "sticker": "negative"},
    "nay": {"resources": [["wealth", "up"]], "sticker": None},
}
STICKER = {"number": 31, "row": "wealth", "positive": False}


def remember_as_the_save_does(campaign, back_aye=None) -> None:
    """Card 7 as a saved night leaves it (``game_nights`` writes the title apart from the rest)."""
    typed = {"question": "", "front": FRONT, "back": {"aye": back_aye, "nay": None}}
    dilemma_card_remember(campaign=campaign, number=7, title="The Bread Tax", outcomes=typed)


def night_with_card_7(user, back_aye=None, sticker_on_board=False, trashed=None):
    campaign, houses = campaign_with_houses("Anna", "Ben", "Cora", user=user)
    envelope_open(campaign=campaign, number=0, dilemma_numbers=[2, 7, 19])
    DilemmaCard.objects.filter(campaign=campaign, number=trashed).update(place=DilemmaCard.Place.TRASH)
    remember_as_the_save_does(campaign, back_aye)
    if sticker_on_board:
        sticker_attach(campaign=campaign, number=31, row="wealth", positive=False, signer=houses[0])
    session = game_nights.game_night_start(
        campaign=campaign, houses=houses, king_name="Harald V", host=user, seed=5
    )
    draft(session)
    return session


class TitleKeptTests:
    def test_the_night_hands_the_typed_title_to_the_table(self, user):
        session = night_with_card_7(user)
        assert session.config["known_cards"]["7"]["title"] == "The Bread Tax"

    def test_the_picker_the_table_the_phones_and_the_log_say_its_title(self, client, user):
        """Rulebook '1. Draw and Read a Card': read aloud by its title, night after night."""
        session = night_with_card_7(user)
        client.force_login(user)
        page = table_page(client, session)
        assert "7: The Bread Tax" in page and "Dilemma 7" not in page
        assert compose(client, session, compose="draw", known=7).status_code == 200
        session.refresh_from_db()
        assert session.state["card"]["title"] == "The Bread Tax"
        assert "The table drew Dilemma card 7: The Bread Tax." in session.actions.order_by("-seq")[0].label
        for page in (text(table_page(client, session)), text(seat_page(client, session, 1))):
            assert "Dilemma 7: The Bread Tax" in page and "Dilemma 7: Dilemma 7" not in page
        payloads = [a.payload for a in session.actions.filter(undone=False).order_by("seq")]
        story = night_story(session.config, session.seed, payloads)
        assert [d["title"] for d in story["dilemmas"]] == ["The Bread Tax"]


class RememberedBackTests:
    def test_a_sticker_on_the_board_is_not_offered_and_one_submit_applies_the_rest(self, client, user):
        """Rulebook 'Chronicle stickers': sticker 31 exists once; the host submits what is offered."""
        back = {"resources": [["wealth", -2]], "sticker": STICKER, "envelope": None, "lightning": False}
        session = night_with_card_7(user, back_aye={**back, "note": ""}, sticker_on_board=True)
        client.force_login(user)
        compose(client, session, compose="draw", known=7)
        vote_through(session, "aye")
        page = table_page(client, session)
        assert re.search(r'name="move_1_amount" value="-2"', page)
        sticker_field = re.search(r'<input[^>]*name="sticker"[^>]*>', page).group(0)
        assert "value=" not in sticker_field  # nothing to clear by hand
        offered = {"move_1_row": "wealth", "move_1_amount": -2, "sticker_positive": "0"}
        assert compose(client, session, compose="outcome", **offered).status_code == 200
        session.refresh_from_db()
        assert session.state["time_counter"] == [7] and session.state["stickers"] == []
        assert msg.NEWS_STICKER_NOT_AGAIN.format(number=31) in text(table_page(client, session))


class ToldBeforeTypingTests:
    def test_a_card_in_the_trash_is_refused_at_its_number_not_asked_for_a_title(self, client, user):
        """'Final Cleanup' step 2: a trashed card "will never be used again": said at once."""
        session = night_with_card_7(user, trashed=2)
        client.force_login(user)
        page = table_page(client, session)
        refusal = msg.DILEMMA_NOT_IN_DECK.format(number=2, place=msg.OUT_OF_DECK_PLACES["trash"])
        assert "data-undrawable" in page and "data-number-refusal" in page
        response = compose(client, session, compose="draw", number=2)
        assert response.status_code == 422
        page = text(response.content.decode())
        assert refusal in page and TITLE_NEEDED.format(number=2) not in page

    def test_a_card_put_back_into_the_deck_tonight_is_drawn_under_its_title(self, client, user):
        """The testers' night: card 7, in the Trash, is put into the deck by a card effect. Before the
        effect its number is refused at once (with the way back); after it, it is a card met before."""
        session = night_with_card_7(user, trashed=7)
        client.force_login(user)
        response = compose(client, session, compose="draw", number=7)
        assert response.status_code == 422
        page = text(response.content.decode())
        refusal = msg.DILEMMA_NOT_IN_DECK.format(number=7, place=msg.OUT_OF_DECK_PLACES["trash"])
        assert f"{refusal} {PUT_BACK_FIRST}" in page and TITLE_NEEDED.format(number=7) not in page
        effect = {"kind": "to_dilemma_deck", "number": 7, "label": "The Exile returns"}
        assert compose(client, session, compose="effect", **effect).status_code == 200
        assert "7: The Bread Tax" in table_page(client, session)
        assert compose(client, session, compose="draw", number=7).status_code == 200
        session.refresh_from_db()
        assert session.state["card"]["title"] == "The Bread Tax" and session.state["phase"] == "voting"

    def test_a_card_out_of_the_deck_comes_to_the_night_with_its_title_and_front_only(self, user):
        back = {"resources": [["wealth", -2]], "sticker": None, "envelope": None, "lightning": False}
        session = night_with_card_7(user, back_aye={**back, "note": ""}, trashed=7)
        known = session.config["known_cards"]["7"]
        assert known["title"] == "The Bread Tax" and known["front"] == FRONT
        assert known["back"] == {"aye": None, "nay": None}

    def test_the_save_puts_it_in_the_dilemma_save_slot(self, user):
        """'Final Cleanup' step 1: the Dilemma deck, with the card the effect put there, is saved."""
        session = night_with_card_7(user, trashed=19)
        play(session, None, "to_dilemma_deck", number=19, label="The Exile returns")
        play_night(session, sticker_card=None, envelope_card=None)  # cards 1 to 10, never 19
        game = night_saves.game_night_record(session=session, actor=user)
        assert game.conflicts == []
        card = DilemmaCard.objects.get(campaign=session.campaign, number=19)
        assert card.place == DilemmaCard.Place.DECK and card.resolved_in is None
        assert session.campaign.events.filter(kind="dilemma_card_moved", game=game).count() == 1
