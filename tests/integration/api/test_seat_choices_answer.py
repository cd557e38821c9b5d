"""A seat's choices through the API: the answer is written by one serializer made once
(api/sessions/seat_views.py), as a serializer made for each answer writes it, and its titles word
the version's seats as the screens keep them."""

import random

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from api.sessions.seat_views import SeatLegalActionsApi
from tests.integration.games.conftest import acting_seat, new_session, play

pytestmark = [pytest.mark.django_db]


@pytest.mark.parametrize("game", ["for_the_king", "council_of_four"])  # a seat acts after a few moves
def test_the_choices_answer_is_the_one_a_fresh_serializer_writes(game):
    session = new_session(game=game, seed=3)
    play(session, random.Random(2), 3)
    index, _ = acting_seat(session)
    seat = session.seats.get(index=index)
    phone = APIClient()
    phone.credentials(HTTP_X_SEAT_TOKEN=seat.token)
    url = reverse("api:seat-legal-actions", kwargs={"session_id": session.pk, "seat_index": index})
    answer = phone.get(url)
    assert answer.status_code == 200
    sent = answer.json()
    assert sent["choices"] and sent["version"] == session.version
    fresh = SeatLegalActionsApi.OutputSerializer(sent).data
    assert sent == fresh
    again = phone.get(url)  # the same serializer answers the next request alike
    assert again.json() == sent
