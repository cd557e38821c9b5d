"""One request per tap: the submit answer carries the new view, and the request path reads the
session row once.

Query budgets, counted as the database sees them in production (``transaction=True``: a real
BEGIN and COMMIT, both counted, no test savepoints). A phone (X-Seat-Token): the seat view in one
query (the seat with its session), a submit in at most five: the seat with its session; BEGIN;
the update of the session row, conditional on the version the first query read; the insert;
COMMIT. A tap the locked path answers (the same key again, a table that moved on) costs no more:
the seat with its session; BEGIN; the locked row, which carries its last sequence number and
whether a bot sits at the table, read with the action of its idempotency key; that action (or the
update and the insert); COMMIT. A logged-in player or host pays nothing more: the API token is
checked in the query that reads the seat (or, for the host, the session). Its last use is written
at most once a minute, by one conditional UPDATE (counted in test_devices.py): the tokens here were
used just now (token_client), so that write is not due.
"""

import json

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from games.models import SessionAction
from games.services.sessions import session_create
from tests.factories import UserFactory
from tests.integration.api.conftest import fresh_key, token_client

pytestmark = [pytest.mark.database, pytest.mark.django_db(transaction=True)]

SEAT_VIEW_QUERIES = 2
SUBMIT_QUERIES = 5


@pytest.fixture
def counting_engine(monkeypatch):
    from games.engines.kernel import registry

    monkeypatch.setitem(registry.EXTRA_MODULES, "counting", "tests.integration.games.fake_engine")


@pytest.fixture
def table(counting_engine):
    """A Counting session of Anna (seat 0, a phone with her token) and Bruno (seat 1, logged in)."""
    host = UserFactory(username="host")
    session = session_create(game="counting", seat_names=["Anna", "Bruno"], host=host, seed=1)
    bruno = UserFactory(username="bruno")
    session.seats.filter(index=1).update(user=bruno)
    anna = APIClient()
    anna.credentials(HTTP_X_SEAT_TOKEN=session.seats.get(index=0).token)
    anna.get(seat_url(session, 0))  # Anna's phone joins: its first opening writes joined_at, once
    return session, host, anna, token_client(bruno)


def seat_url(session, index: int, submit: bool = False) -> str:
    name = "api:seat-action-submit" if submit else "api:seat-view"
    return reverse(name, kwargs={"session_id": session.pk, "seat_index": index})


def add(client, session, index: int, version: int, key: str | None = None):
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else fresh_key()
    body = {"action": {"type": "add", "amount": 1}, "expected_version": version}
    return client.post(seat_url(session, index, submit=True), body, format="json", **headers)


class SubmitAnswerTests:
    def test_the_submit_answer_carries_the_new_view_the_phone_would_read(self, table):
        session, _, anna, _ = table
        response = add(anna, session, 0, 0, key="tap-1")
        assert response.status_code == 200
        body = response.json()
        assert set(body) == {"action", "view"}
        assert body["action"] == {"seq": 1, "version": 1, "seat": 0, "label": body["action"]["label"]}
        assert body["view"] == anna.get(seat_url(session, 0)).json()
        assert body["view"]["version"] == 1 and body["view"]["view"]["total"] == 1

    def test_a_repeated_key_answers_the_same_action_with_the_current_view(self, table):
        session, _, anna, bruno = table
        first = add(anna, session, 0, 0, key="tap-1").json()
        assert add(bruno, session, 1, 1).status_code == 200
        again = add(anna, session, 0, 0, key="tap-1")
        assert again.status_code == 200
        assert again.json()["action"] == first["action"]
        assert again.json()["view"] == anna.get(seat_url(session, 0)).json()
        assert again.json()["view"]["version"] == 2
        assert SessionAction.objects.filter(session=session).count() == 2


class QueryBudgetTests:
    def test_a_phone_reads_its_seat_view_in_one_query(self, table, django_assert_max_num_queries):
        session, _, anna, _ = table
        with django_assert_max_num_queries(1):
            assert anna.get(seat_url(session, 0)).status_code == 200

    def test_only_a_phones_first_opening_writes_once_more(self, counting_engine, django_assert_num_queries):
        session = session_create(game="counting", seat_names=["Anna", "Bruno"], seed=1)
        phone = APIClient()
        phone.credentials(HTTP_X_SEAT_TOKEN=session.seats.get(index=1).token)
        with django_assert_num_queries(2):  # the seat with its session, and joined_at
            assert phone.get(seat_url(session, 1)).status_code == 200
        with django_assert_num_queries(1):
            assert phone.get(seat_url(session, 1)).status_code == 200

    def test_a_logged_in_player_reads_the_seat_view_in_two(self, table, django_assert_max_num_queries):
        session, _, _, bruno = table
        with django_assert_max_num_queries(SEAT_VIEW_QUERIES):
            assert bruno.get(seat_url(session, 1)).status_code == 200

    def test_a_phone_submits_in_five_queries_at_most(self, table, django_assert_max_num_queries):
        session, _, anna, _ = table
        with django_assert_max_num_queries(SUBMIT_QUERIES):
            assert add(anna, session, 0, 0, key="tap-1").status_code == 200
        with django_assert_max_num_queries(SUBMIT_QUERIES):  # the same tap again: the stored action
            assert add(anna, session, 0, 0, key="tap-1").status_code == 200

    def test_a_logged_in_player_and_the_host_submit_in_five_queries_too(
        self, table, django_assert_max_num_queries
    ):
        """Their API token is checked in the query that reads the seat (or the session)."""
        session, host, anna, bruno = table
        add(anna, session, 0, 0)
        with django_assert_max_num_queries(SUBMIT_QUERIES):
            assert add(bruno, session, 1, 1, key="bruno-1").status_code == 200
        url = reverse("api:session-table-action", kwargs={"session_id": session.pk})
        body = {"action": {"type": "bump"}, "expected_version": 2}
        host_client = token_client(host)
        with django_assert_max_num_queries(SUBMIT_QUERIES):
            assert host_client.post(url, body, format="json", **fresh_key()).status_code == 200

    def test_the_phone_page_reads_seat_session_seats_and_log_once(
        self, table, client, django_assert_max_num_queries
    ):
        """The seat page also shows the names and the log: three reads, and a tap in seven."""
        session, _, _, _ = table
        page = reverse("games:seat_page", args=[session.seats.get(index=0).token])
        with django_assert_max_num_queries(3):
            assert client.get(page, HTTP_HX_REQUEST="true").status_code == 200
        tap = {"action": json.dumps({"type": "add", "amount": 1}), "version": 0, "key": "page-1"}
        with django_assert_max_num_queries(3 + SUBMIT_QUERIES - 1):
            response = client.post(page, tap, HTTP_HX_REQUEST="true")
        assert response.status_code == 200 and b"Done:" in response.content


class TokenInTheSeatQueryTests:
    """The API token checked in the seat's (or session's) query answers as the usual login would."""

    def test_another_players_token_is_refused_for_a_seat(self, table):
        session, _, _, bruno = table
        response = add(bruno, session, 0, 0)  # Anna's seat
        assert response.status_code == 403
        assert not SessionAction.objects.filter(session=session, seq__gt=1).exists()

    def test_an_unknown_token_is_401(self, table):
        session, *_ = table
        stranger = APIClient()
        stranger.credentials(HTTP_AUTHORIZATION="Token not-a-token")
        assert add(stranger, session, 1, 0).status_code == 401

    def test_an_expired_token_is_401_even_for_its_own_seat(self, table, settings):
        session, _, _, bruno = table
        settings.API_TOKEN_LIFETIME = 0
        response = add(bruno, session, 1, 0)
        assert response.status_code == 401
        assert "expired" in response.json()["message"]

    def test_the_host_token_acts_for_the_table_and_a_players_does_not(self, table):
        session, host, _, bruno = table
        url = reverse("api:session-table-action", kwargs={"session_id": session.pk})
        body = {"action": {"type": "bump"}, "expected_version": session.version}
        assert bruno.post(url, body, format="json", **fresh_key()).status_code == 403
        assert token_client(host).post(url, body, format="json", **fresh_key()).status_code == 200

    def test_each_of_a_players_devices_opens_the_seat_and_an_expired_one_does_not(self, table, settings):
        """Issue 24: a token per device; the seat's query joins the one the request carries."""
        import datetime

        from django.utils import timezone

        from api.models import DeviceToken

        session, _, _, bruno = table
        tablet = token_client_named(session.seats.get(index=1).user, "tablet-of-bruno")
        DeviceToken.objects.exclude(name="tablet").update(
            created=timezone.now() - datetime.timedelta(seconds=settings.API_TOKEN_LIFETIME + 1)
        )
        assert bruno.get(seat_url(session, 1)).status_code == 401
        assert tablet.get(seat_url(session, 1)).status_code == 200

    def test_a_stale_last_use_is_written_by_the_seat_query_path(self, table):
        from django.utils import timezone

        from api.authentication import LAST_USED_EVERY
        from api.models import DeviceToken

        session, _, _, bruno = table
        stale = timezone.now() - LAST_USED_EVERY
        DeviceToken.objects.update(last_used=stale)
        assert bruno.get(seat_url(session, 1)).status_code == 200
        assert DeviceToken.objects.get(user__username="bruno").last_used > stale


def token_client_named(user, key: str) -> APIClient:
    from tests.integration.api.conftest import device_token

    client = APIClient()
    device_token(user, key, name="tablet")
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client
