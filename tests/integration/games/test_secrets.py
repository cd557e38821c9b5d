"""Secrets never leave their seat: for seats A != B, nothing private of A's view appears in B's view,
B's phone page or the table page (boardgame.io's STRIP_SECRETS, checked Zulip-style)."""

import json
import random

import pytest
from django.urls import reverse

from games.models import GameSession
from games.selectors import session_view_for_seat, session_view_for_table
from tests.factories import UserFactory
from tests.integration.games.conftest import NAMES, new_session, play, without_tokens

pytestmark = pytest.mark.django_db


def card_ids(value) -> set[str]:
    """Every value under an ``id`` key, anywhere in a view (the card ids of For the King)."""
    found: set[str] = set()
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "id" and isinstance(item, str):
                found.add(item)
            else:
                found |= card_ids(item)
    elif isinstance(value, list):
        for item in value:
            found |= card_ids(item)
    return found


def secrets_of_each_seat(session) -> tuple[dict, dict, dict]:
    """(seat views, table view, the card ids each seat sees that the table does not)."""
    table = session_view_for_table(session=session)
    public = card_ids(table)
    views = {s.index: session_view_for_seat(session=session, seat=s) for s in session.seats.all()}
    return views, table, {i: card_ids(v) - public for i, v in views.items()}


class SeatSecretsTests:
    def test_no_seat_view_holds_another_seats_private_cards(self):
        session = new_session(seed=31)
        rng = random.Random(31)
        secrets_seen = 0
        while session.status == GameSession.Status.ACTIVE:
            play(session, rng, 1)
            views, table, private = secrets_of_each_seat(session)
            for a, mine in private.items():
                secrets_seen += len(mine)
                assert not mine & card_ids(table)
                for b, view in views.items():
                    if a != b:
                        text = json.dumps(view)
                        leaked = [card for card in mine if f'"{card}"' in text]
                        assert not leaked, f"seat {b} sees {leaked} of seat {a}"
        assert secrets_seen > 100  # the test looked at real secrets

    def test_no_page_shows_another_seats_private_cards(self, client):
        host = UserFactory()
        session = new_session(seed=32, host=host)
        rng = random.Random(32)
        client.force_login(host)
        checked = 0
        while session.status == GameSession.Status.ACTIVE:
            play(session, rng, 15)
            _, _, private = secrets_of_each_seat(session)
            table = client.get(reverse("games:session_table", args=[session.pk])).content.decode()
            table_html = without_tokens(table, session)
            pages = {
                s.index: without_tokens(
                    client.get(reverse("games:seat_page", args=[s.token])).content.decode(), session
                )
                for s in session.seats.all()
            }
            for a, mine in private.items():
                for card in mine:
                    checked += 1
                    if session.status == GameSession.Status.ACTIVE:  # once over, a seat is closed
                        assert card in pages[a], "a seat sees its own cards on its phone"
                    else:
                        assert card not in pages[a], "a closed seat shows no private hand"
                    assert card not in table_html
                    for b, html in pages.items():
                        if b != a:
                            assert card not in html, f"seat {b}'s page shows {card} of seat {a}"
        assert checked > 20

    def test_the_table_page_shows_no_seat_token_to_a_stranger(self, client):
        host = UserFactory()
        session = new_session(host=host)
        client.force_login(UserFactory())
        response = client.get(reverse("games:session_table", args=[session.pk]))
        assert response.status_code == 404
        for seat in session.seats.all():
            assert seat.token not in response.content.decode()

    def test_a_phone_page_shows_no_other_seats_token(self, client):
        session = new_session()
        seats = list(session.seats.all())
        html = client.get(reverse("games:seat_page", args=[seats[0].token])).content.decode()
        assert seats[0].name in html
        for other in seats[1:]:
            assert other.token not in html
        assert len(NAMES) == len(seats)
