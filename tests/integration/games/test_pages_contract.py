"""Issue 13 item 2: the table and every seat page render random states of every game through their
presenters, with no raw key in the visible text (an underscore word, "seat 2", "side aye")."""

import html
import random
import re

import pytest
from django.urls import reverse

from games.services.sessions import session_create
from tests.factories import UserFactory
from tests.integration.games.conftest import play

pytestmark = pytest.mark.django_db

RAW = re.compile(r"\b[a-z]+_[a-z_]+\b|\bseat \d|\bside (aye|nay)\b", re.I)
TAGS = re.compile(r"<(script|style)\b.*?</\1>|<[^>]+>", re.S)
GAMES = {
    "for_the_king": ["Anna", "Ben", "Cleo"],
    "council_of_four": ["Anna", "Ben"],
    "kings_dilemma": ["House Solad", "House Crann", "House Vaclav"],
}


def visible(page) -> str:
    return html.unescape(TAGS.sub(" ", page.content.decode()))


@pytest.mark.parametrize("game", list(GAMES))
@pytest.mark.parametrize("seed", [1, 2])
def test_random_states_render_in_words(client, game, seed):
    host = UserFactory()
    session = session_create(game=game, seat_names=GAMES[game], host=host, seed=seed)
    client.force_login(host)
    rng = random.Random(seed)
    for _ in range(6):
        table = client.get(reverse("games:session_table", args=[session.pk]))
        assert table.status_code == 200
        board = visible(table).split("Join the table")[0]  # the join links carry secret tokens
        assert not RAW.search(board), (game, RAW.search(board).group(0))
        for seat in session.seats.all():
            page = client.get(reverse("games:seat_page", args=[seat.token]))
            assert page.status_code == 200
            text = visible(page)
            assert not RAW.search(text), (game, seat.name, RAW.search(text).group(0))
        if not play(session, rng, rng.randint(3, 12)):
            break
        session.refresh_from_db()
