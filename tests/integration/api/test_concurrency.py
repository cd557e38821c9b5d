"""Two phones submit the same action at the same moment, against PostgreSQL (row locks): it is
applied exactly once."""

import threading
import uuid

import pytest
from django.db import connection
from rest_framework.test import APIClient

from games.models import SessionAction
from games.selectors import session_view_for_seat
from games.services.sessions import session_create
from tests.integration.api.test_sessions import concrete

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def race(post, count=2):
    """Run ``post`` in ``count`` threads released together; each closes its own DB connection."""
    barrier = threading.Barrier(count)
    results = [None] * count

    def run(i):
        try:
            barrier.wait(timeout=10)
            results[i] = post()
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    return results


def first_turn():
    session = session_create(game="for_the_king", seat_names=["Anna", "Ben", "Cleo"])
    (seat_index,) = [
        s
        for s in session_view_for_seat(session=session, seat=session.seats.get(index=0))["active_seats"]
        if s is not None
    ]
    seat = session.seats.get(index=seat_index)
    view = session_view_for_seat(session=session, seat=seat)
    url = f"/api/sessions/{session.pk}/seats/{seat_index}/actions/submit/"
    body = {"action": concrete(view["legal_actions"][0]), "expected_version": view["version"]}
    return session, seat, url, body


class ConcurrentSubmitTests:
    def test_the_same_action_from_two_clients_is_applied_once(self):
        session, seat, url, body = first_turn()

        def post():
            client = APIClient()
            client.credentials(HTTP_X_SEAT_TOKEN=seat.token)
            return client.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY=uuid.uuid4().hex).status_code

        codes = sorted(race(post))
        assert codes == [200, 409]
        assert SessionAction.objects.filter(session=session).count() == 2  # the deal and one

    def test_the_same_idempotency_key_from_two_clients_returns_one_result(self):
        session, seat, url, body = first_turn()

        def post():
            client = APIClient()
            client.credentials(HTTP_X_SEAT_TOKEN=seat.token)
            response = client.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="tap-1")
            return response.status_code, response.json()["action"]["seq"]

        results = race(post)
        assert [code for code, _ in results] == [200, 200]
        assert results[0][1] == results[1][1]
        assert SessionAction.objects.filter(session=session).count() == 2
