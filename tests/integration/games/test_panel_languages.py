"""A panel shared by the screens of one version is kept per reader's language: two phones of one
seat, one in German and one in Italian, each get the panel in their own words, though the second
is served from the panel the first one drew."""

import random

import pytest
from django.conf import settings
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from games import versions
from tests.factories import UserFactory
from tests.integration.games.conftest import new_session, play

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
# The seat page's own words (templates/games/seat.html), as the catalogues say them.
LATEST = {"de": "Neueste", "it": "Ultime", "en": "Latest"}


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()
    yield
    cache.clear()


def phone(language: str) -> Client:
    """A phone whose reader chose ``language`` with the seat page's chooser (its cookie)."""
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return client


def panel(client: Client, seat) -> str:
    answer = client.get(reverse("games:seat_page", args=[seat.token]), **HTMX)
    assert answer.status_code == 200
    return answer.content.decode()


def a_running_game(game: str):
    session = new_session(game=game, names=["Anna", "Bruno", "Carla"], seed=3, host=UserFactory())
    play(session, random.Random(2), 3)
    assert session.is_running
    return session


class PanelLanguageTests:
    @pytest.mark.parametrize("game", ["for_the_king", "council_of_four"])
    def test_a_german_phone_never_gets_the_panel_drawn_for_an_italian_one(self, game):
        session = a_running_game(game)
        seat = session.seats.get(index=0)
        italian = panel(phone("it"), seat)
        assert LATEST["it"] in italian and LATEST["de"] not in italian
        german = panel(phone("de"), seat)  # the same seat and version: the panel kept for Italian exists
        assert LATEST["de"] in german and LATEST["it"] not in german
        english = panel(Client(HTTP_ACCEPT_LANGUAGE="en"), seat)
        assert LATEST["en"] in english and LATEST["de"] not in english

    def test_each_language_keeps_its_own_panel_for_one_version(self):
        session = a_running_game("for_the_king")
        seat = session.seats.get(index=1)
        panel(phone("de"), seat)
        panel(phone("it"), seat)
        kept = {
            language: versions.panel_cache_key(session=session, seat=seat).rsplit(":", 1)[0] + f":{language}"
            for language in ("de", "it")
        }
        assert kept["de"] != kept["it"]
        assert all(LATEST[language] in cache.get(key) for language, key in kept.items())

    def test_the_table_panel_is_kept_per_host_language_too(self):
        host_session = a_running_game("council_of_four")
        host = host_session.host
        url = reverse("games:session_table", args=[host_session.pk])
        seen = {}
        for language in ("it", "de"):
            client = phone(language)
            client.force_login(host)
            seen[language] = client.get(url, **HTMX).content.decode()
        assert "Registro" in seen["it"] and "Protokoll" in seen["de"]
        assert "Protokoll" not in seen["it"] and "Registro" not in seen["de"]
