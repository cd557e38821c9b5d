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

from games import screens
from games.models import SessionAction
from games.services import session_submit_action
from tests.factories import UserFactory
from tests.integration.games.conftest import acting_seat, new_session, play, random_move

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
    """(queries, action rows read) of one panel fetch, the cache empty."""
    cache.clear()
    read = []
    original = SessionAction.from_db

    def counting(cls, db, field_names, values, **kwargs):
        read.append(values)
        return original.__func__(cls, db, field_names, values, **kwargs)

    SessionAction.from_db = classmethod(counting)  # type: ignore[method-assign]
    try:
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url, **HTMX)
    finally:
        SessionAction.from_db = original  # type: ignore[method-assign]
    assert response.status_code == 200 and b"panel" in response.content
    return len(queries.captured_queries), len(read)


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
        assert long.actions.count() > 2 * screens.TABLE_LOG
        queries, rows = panel_reads(client, seat_url(long_seat))
        assert queries == panel_reads(client, seat_url(short_seat))[0]
        assert rows == screens.SEAT_LOG  # the newest actions only, not the whole log

    def test_the_table_panel_costs_the_same_queries_after_a_long_night(self, client):
        host = UserFactory()
        client.force_login(host)
        short, long = played(2, host=host), played(60, host=host)
        queries, rows = panel_reads(client, table_url(long))
        assert queries == panel_reads(client, table_url(short))[0]
        assert rows == screens.TABLE_LOG


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
        assert screens.CSRF_SLOT not in second and screens.KEY_SLOT not in second
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
