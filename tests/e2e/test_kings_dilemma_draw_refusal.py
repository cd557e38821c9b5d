"""The host is told whether a Dilemma card can be drawn as its number is typed, before the title and the
tokens (docs/rules-decisions.md "Whether a card can be drawn is known at its number")."""

import pytest

from campaign.models import DilemmaCard
from campaign.services import game_nights
from campaign.services.envelopes import envelope_open
from games.engines.kings_dilemma import messages as msg
from games.presenters.kings_dilemma_forms import PUT_BACK_FIRST
from tests.e2e.conftest import DESKTOP, login
from tests.factories import UserFactory, campaign_with_houses
from tests.kings_dilemma_play import draft

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


class DrawRefusalTests:
    def test_a_trashed_card_is_refused_as_its_number_is_typed(self, live_server, new_page):
        host = UserFactory(username="host")
        campaign, houses = campaign_with_houses("Anna", "Ben", "Cora", user=host)
        envelope_open(campaign=campaign, number=0, dilemma_numbers=[1, 2, 3])
        DilemmaCard.objects.filter(campaign=campaign, number=2).update(place=DilemmaCard.Place.TRASH)
        session = game_nights.game_night_start(
            campaign=campaign, houses=houses, king_name="Harald V", host=host, seed=5
        )
        draft(session)
        table = new_page(DESKTOP)
        login(table, live_server, host.username)
        table.goto(f"{live_server.url}/play/s/{session.pk}/")
        said = table.locator("[data-number-refusal]")
        number = table.locator(".kd-draw input[name=number]")
        number.fill("2")
        refusal = msg.DILEMMA_NOT_IN_DECK.format(number=2, place=msg.OUT_OF_DECK_PLACES["trash"])
        assert said.inner_text() == f"{refusal} {PUT_BACK_FIRST}" and said.is_visible()
        assert number.get_attribute("aria-invalid") == "true"
        number.fill("3")  # in the deck: nothing to say
        assert not said.is_visible()
