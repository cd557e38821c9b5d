"""Cheap redraws (issue 27): a panel fetched after a change is built from one read of the session, reads
only the newest actions of its log, and is shared (cached by session, version and seat) by every
screen that may see it, never by another seat."""

import json
import random
import re

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import screens, versions
from games.engines.kernel.choices import random_action
from games.models import SessionAction
from games.services.seats import seat_mark_joined, session_seat_claim
from games.services.taps import session_submit_action
from tests.factories import UserFactory
from tests.integration.games.conftest import acting_seat, new_session, play, random_move, rules_of
from tests.unit.contract import described

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
CSRF_FIELD = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
KEY_FIELD = re.compile(r'name="key" value="([^"]+)"')


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()
    yield
    cache.clear()


def seat_url(seat):
    return reverse("games:seat_page", args=[seat.token])


def table_url(session):
    return reverse("games:session_table", args=[session.pk])


def played(moves: int, host=None):
    """A running session with ``moves`` random actions logged after the deal."""
    session = new_session(host=host, seed=11)
    assert play(session, random.Random(5), moves) == moves and session.is_running
    return session


def panel_reads(client, url) -> tuple[int, int]:
    """(queries, action rows read) of one panel fetch, the cache empty. Every query of the log is
    limited (LIMIT: rows past it are never read); the rows are those the screens were given."""
    cache.clear()
    read = []
    original = versions.version_facts_read

    def counting(**kwargs):
        facts = original(**kwargs)
        read.append(len(facts.latest))
        return facts

    versions.version_facts_read = counting
    try:
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url, **HTMX)
    finally:
        versions.version_facts_read = original
    assert response.status_code == 200 and b"panel" in response.content
    of_the_log = [q["sql"] for q in queries.captured_queries if '"games_sessionaction"' in q["sql"]]
    assert of_the_log and all(" LIMIT " in sql for sql in of_the_log)
    return len(queries.captured_queries), sum(read)


def counting_screens(monkeypatch):
    """How many times each screen was built."""
    built = {"seat": 0, "table": 0}
    seat_screen, table_screen = screens.seat_screen, screens.table_screen

    def seat(**kwargs):
        built["seat"] += 1
        return seat_screen(**kwargs)

    def table(**kwargs):
        built["table"] += 1
        return table_screen(**kwargs)

    monkeypatch.setattr(screens, "seat_screen", seat)
    monkeypatch.setattr(screens, "table_screen", table)
    return built


class PanelCostTests:
    def test_a_seat_panel_costs_the_same_queries_and_reads_the_same_rows_after_a_long_night(self, client):
        short, long = played(2), played(60)
        short_seat, long_seat = short.seats.get(index=0), long.seats.get(index=0)
        client.get(seat_url(short_seat))  # joined: later fetches write nothing
        client.get(seat_url(long_seat))
        assert long.actions.count() > 2 * versions.TABLE_LOG
        queries, rows = panel_reads(client, seat_url(long_seat))
        assert queries == panel_reads(client, seat_url(short_seat))[0]
        assert rows == versions.TABLE_LOG  # the newest actions only (the table's), not the whole log

    def test_the_table_panel_costs_the_same_queries_after_a_long_night(self, client):
        host = UserFactory()
        client.force_login(host)
        short, long = played(2, host=host), played(60, host=host)
        queries, rows = panel_reads(client, table_url(long))
        assert queries == panel_reads(client, table_url(short))[0]
        assert rows == versions.TABLE_LOG


class SharedPanelTests:
    def test_a_seat_open_on_two_devices_is_drawn_once_per_version(self, monkeypatch):
        session = played(1)
        seat = session.seats.get(index=0)
        built = counting_screens(monkeypatch)
        phone, tablet = Client(), Client()
        first, second = phone.get(seat_url(seat), **HTMX), tablet.get(seat_url(seat), **HTMX)
        assert built["seat"] == 1
        assert first.status_code == second.status_code == 200
        assert f'data-version="{session.version}"'.encode() in second.content

    def test_each_answer_carries_its_own_csrf_token_and_key(self):
        session = new_session()
        _, seat = acting_seat(session)
        assert seat is not None
        phone, tablet = Client(enforce_csrf_checks=True), Client(enforce_csrf_checks=True)
        phone.get(seat_url(seat))
        tablet.get(seat_url(seat))  # each device has its CSRF cookie
        first = phone.get(seat_url(seat), **HTMX).content.decode()
        second = tablet.get(seat_url(seat), **HTMX).content.decode()
        assert versions.CSRF_SLOT not in second and versions.KEY_SLOT not in second
        assert KEY_FIELD.search(first).group(1) != KEY_FIELD.search(second).group(1)
        _, action = random_move(session, random.Random(1))
        answer = tablet.post(
            seat_url(seat),
            {
                "csrfmiddlewaretoken": CSRF_FIELD.search(second).group(1),
                "action": json.dumps(action),
                "version": session.version,
                "key": KEY_FIELD.search(second).group(1),
            },
            **HTMX,
        )
        assert answer.status_code == 200  # the cached panel's form passes the tablet's CSRF check
        session.refresh_from_db()
        assert session.version == 2

    def test_a_cached_seat_panel_is_never_served_to_another_seat(self, monkeypatch):
        session = played(1)
        anna, bruno = session.seats.get(index=0), session.seats.get(index=1)
        built = counting_screens(monkeypatch)
        mine = Client().get(seat_url(anna), **HTMX).content.decode()
        theirs = Client().get(seat_url(bruno), **HTMX).content.decode()
        assert built["seat"] == 2
        assert "<h1>" in mine and anna.name in mine.split("<h1>")[1].split("</h1>")[0]
        assert bruno.name in theirs.split("<h1>")[1].split("</h1>")[0]
        assert seat_url(anna) not in theirs

    def test_an_unknown_token_gets_no_cached_panel(self):
        session = played(1)
        Client().get(seat_url(session.seats.get(index=0)), **HTMX)
        response = Client().get(reverse("games:seat_page", args=["not-a-token"]), **HTMX)
        assert response.status_code == 200 and response.content == b""  # htmx: reload the page
        assert response["HX-Refresh"] == "true"

    def test_a_new_version_gets_a_new_panel(self, monkeypatch):
        session = played(1)
        seat = session.seats.get(index=0)
        built = counting_screens(monkeypatch)
        before = Client().get(seat_url(seat), **HTMX).content
        actor, action = random_move(session, random.Random(2))
        session_submit_action(session=session, seat=actor, action=action, expected_version=session.version)
        after = Client().get(seat_url(seat), **HTMX).content
        assert built["seat"] == 2
        assert f'data-version="{session.version}"'.encode() in after and after != before

    def test_the_table_panel_is_drawn_once_for_two_screens_of_its_host_never_for_a_stranger(
        self, monkeypatch
    ):
        host = UserFactory()
        session = played(1, host=host)
        built = counting_screens(monkeypatch)
        screen, other = Client(), Client()
        screen.force_login(host)
        other.force_login(host)
        assert screen.get(table_url(session), **HTMX).status_code == 200
        assert other.get(table_url(session), **HTMX).status_code == 200
        assert built["table"] == 1
        stranger = Client()
        stranger.force_login(UserFactory())
        assert stranger.get(table_url(session), **HTMX).status_code == 404  # checked before the cache

    def test_a_step_of_a_choice_is_drawn_for_its_request(self, monkeypatch):
        session = played(1)
        seat = session.seats.get(index=0)
        built = counting_screens(monkeypatch)
        Client().get(seat_url(seat), **HTMX)
        Client().get(seat_url(seat) + "?step=anything", **HTMX)
        assert built["seat"] == 2


class VersionFactsTests:
    """The seats' infos and the newest actions are read once per version, by the first screen that
    draws it (games.versions.session_version_facts)."""

    def test_the_second_seat_of_a_version_reads_only_its_own_row(self, client):
        session = played(2)
        anna, bruno = session.seats.get(index=0), session.seats.get(index=1)
        Client().get(seat_url(anna))  # both joined: later fetches write nothing
        Client().get(seat_url(bruno))
        cache.clear()
        with CaptureQueriesContext(connection) as first:
            assert Client().get(seat_url(anna), **HTMX).status_code == 200
        with CaptureQueriesContext(connection) as second:
            answer = Client().get(seat_url(bruno), **HTMX)
        assert answer.status_code == 200 and bruno.name in answer.content.decode()
        assert len(first.captured_queries) == 3  # the seat by its token, the seats, the newest actions
        assert len(second.captured_queries) == 1  # the seat by its token (with its session row)

    def test_the_writer_of_a_version_keeps_its_facts_for_every_screen(
        self, django_capture_on_commit_callbacks
    ):
        session = played(2)
        seats = list(session.seats.order_by("index"))
        for seat in seats:
            Client().get(seat_url(seat))  # joined: later fetches write nothing
        actor, action = random_move(session, random.Random(4))
        with django_capture_on_commit_callbacks(execute=True):
            session_submit_action(
                session=session, seat=actor, action=action, expected_version=session.version
            )
        label = SessionAction.objects.get(session=session, version=session.version).label
        for seat in seats:  # nudged at once, each finds the seats and the newest actions ready
            with CaptureQueriesContext(connection) as fetched:
                answer = Client().get(seat_url(seat), **HTMX)
            assert len(fetched.captured_queries) == 1 and label in answer.content.decode()

    def test_the_cache_is_never_asked_while_the_tap_holds_the_row(
        self, monkeypatch, django_capture_on_commit_callbacks
    ):
        """A cache that hangs must not keep the session's row locked: the facts are made at the
        commit, not in the transaction."""
        session = played(2)
        Client().get(seat_url(session.seats.get(index=0)))  # the version's facts are kept
        asked = []
        real_get = versions.cache.get

        def get(key, *args, **kwargs):
            asked.append((key, len(connection.atomic_blocks) > outside))
            return real_get(key, *args, **kwargs)

        monkeypatch.setattr(versions.cache, "get", get)
        outside = len(connection.atomic_blocks)  # the test's own transaction
        actor, action = random_move(session, random.Random(4))
        with django_capture_on_commit_callbacks(execute=True):
            session_submit_action(
                session=session, seat=actor, action=action, expected_version=session.version
            )
        facts_asked = [inside for key, inside in asked if key.startswith("facts:")]
        assert facts_asked == [False]  # once, after the commit
        monkeypatch.undo()
        assert versions.cache.get(f"facts:{versions.version_key(session)}") is not None

    def test_a_new_session_keeps_its_first_versions_facts(self, django_capture_on_commit_callbacks):
        with django_capture_on_commit_callbacks(execute=True):
            session = new_session(seed=11)
        for seat in session.seats.all():
            seat_mark_joined(seat=seat)
        for seat in session.seats.all():
            with CaptureQueriesContext(connection) as fetched:
                assert Client().get(seat_url(seat), **HTMX).status_code == 200
            assert len(fetched.captured_queries) == 1

    def test_a_tap_through_the_api_keeps_the_facts_too(self, django_capture_on_commit_callbacks):
        from rest_framework.test import APIClient

        with django_capture_on_commit_callbacks(execute=True):  # its first version's facts: kept
            session = new_session(seed=11)
        seats = list(session.seats.order_by("index"))
        for seat in seats:
            Client().get(seat_url(seat))  # each phone joins its seat (its first opening writes)
        for _ in range(3):  # taps in a row: each version's facts made from the one before
            actor, action = random_move(session, random.Random(session.version))
            phone = APIClient()
            phone.credentials(HTTP_X_SEAT_TOKEN=actor.token)
            url = reverse(
                "api:seat-action-submit", kwargs={"session_id": session.pk, "seat_index": actor.index}
            )
            with django_capture_on_commit_callbacks(execute=True):
                tapped = phone.post(
                    url,
                    {"action": action, "expected_version": session.version},
                    format="json",
                    HTTP_IDEMPOTENCY_KEY=f"tap-{session.version}",
                )
            assert tapped.status_code == 200, tapped.content
            session.refresh_from_db()
            for seat in seats:
                with CaptureQueriesContext(connection) as fetched:
                    assert Client().get(seat_url(seat), **HTMX).status_code == 200
                assert len(fetched.captured_queries) == 1

    def test_a_seat_claimed_moves_the_version_on_and_every_screen_shows_its_player(self):
        host = UserFactory()
        session = new_session(host=host, game="kings_dilemma", seed=5)  # its board says who plays
        seat = session.seats.get(index=1)
        table = Client()
        table.force_login(host)
        assert "dora-plays" not in table.get(table_url(session), **HTMX).content.decode()
        before = session.version
        player = UserFactory(username="dora-plays")
        session_seat_claim(session=session, seat=seat, user=player)
        session.refresh_from_db()
        assert session.version == before + 1
        assert "dora-plays" in table.get(table_url(session), **HTMX).content.decode()
        session_seat_claim(session=session, seat=seat, user=player)  # already theirs: nothing moves
        session.refresh_from_db()
        assert session.version == before + 1

    def test_a_version_written_and_rolled_back_never_lends_its_facts(self):
        from django.db import transaction

        session, rng = new_session(seed=11), random.Random(5)
        rules = rules_of(session)
        for _ in range(40):  # to a decision with two actions told otherwise (two places for a card)
            told = {}
            actor, _ = acting_seat(session)
            for attempt in range(60):
                action = random_action(rules, session.state, actor, random.Random(attempt))
                told.setdefault(described(rules, session.state, action), action)
            if len(told) > 1:
                break
            play(session, rng, 1)
        (gone, action), (kept, other) = list(told.items())[:2]
        actor = session.seats.get(index=actor)
        seat = session.seats.get(index=0)

        class RolledBack(Exception):
            pass

        with pytest.raises(RolledBack), transaction.atomic():
            session_submit_action(
                session=session, seat=actor, action=action, expected_version=session.version
            )
            assert gone in Client().get(seat_url(seat), **HTMX).content.decode()  # drawn, then undone
            raise RolledBack
        session.refresh_from_db()
        session_submit_action(session=session, seat=actor, action=other, expected_version=session.version)
        shown = Client().get(seat_url(seat), **HTMX).content.decode()
        assert kept in shown and gone not in shown
