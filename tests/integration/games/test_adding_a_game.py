"""Adding a game touches its engine folder, its presenter and its templates folder only
(docs/architecture.md, "Adding a game"): a game registered only through its engine module gets
working pages with the generic presenter, and each game's presenter is found by its slug."""

import json
from importlib import import_module
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

import games.presenters
from games.engines.kernel import registry
from games.models import GameSession
from games.presenters.base import GENERIC, GENERIC_TEMPLATES, presenter_for
from games.views import COMPOSE_NOT_NOW
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

TEMPLATES = Path(settings.BASE_DIR) / "templates"


@pytest.fixture
def counting(monkeypatch):
    """The fake engine, known to the registry only (no presenter, no templates of its own)."""
    monkeypatch.setitem(registry.EXTRA_MODULES, "counting", "tests.integration.games.fake_engine")


def start(host):
    from games.services.sessions import session_create

    return session_create(game="counting", seat_names=["Anna", "Bruno"], host=host, seed=1)


def add(client, seat, amount, version):
    action = {"type": "add", "seat": seat.index, "amount": amount}
    return client.post(
        reverse("games:seat_page", args=[seat.token]),
        {"action": json.dumps(action), "version": version, "key": f"k{version}"},
        follow=True,
    )


class PresenterRegistryTests:
    def test_each_game_s_presenter_is_found_by_its_slug(self):
        for slug in registry.slugs():
            presenter = presenter_for(slug)
            assert presenter is import_module(f"games.presenters.{slug}").PRESENTER
            assert presenter is not GENERIC
            for part in ("seat", "table", "result"):
                assert (TEMPLATES / presenter.template(part)).is_file(), (slug, part)

    def test_a_game_without_a_presenter_module_gets_the_generic_one(self, counting):
        assert presenter_for("counting") is GENERIC
        for part in ("seat", "table"):
            assert GENERIC.template(part).startswith(GENERIC_TEMPLATES)
            assert (TEMPLATES / GENERIC.template(part)).is_file()

    def test_an_error_inside_a_presenter_module_is_raised_not_hidden(self, monkeypatch, tmp_path):
        (tmp_path / "broken_game.py").write_text("PRESENTER = 1 / 0\n")
        monkeypatch.setattr(games.presenters, "__path__", [*games.presenters.__path__, str(tmp_path)])
        with pytest.raises(ZeroDivisionError):
            presenter_for("broken_game")


class GenericGamePagesTests:
    def test_the_host_s_table_page_draws_the_view_and_the_table_s_choices(self, client, counting):
        host = UserFactory()
        session = start(host)
        client.force_login(host)
        page = client.get(reverse("games:session_table", args=[session.pk]))
        assert page.status_code == 200
        text = page.content.decode()
        assert "The table acts" in text and "Everything on the table" in text and "Total" in text
        panel = client.get(reverse("games:session_table", args=[session.pk]), headers={"HX-Request": "true"})
        assert panel.status_code == 200 and "The table acts" in panel.content.decode()

    def test_the_phones_play_the_game_to_its_result(self, client, counting):
        host = UserFactory()
        session = start(host)
        anna, bruno = session.seats.order_by("index")
        page = client.get(reverse("games:seat_page", args=[anna.token]))
        assert page.status_code == 200 and "What you can do" in page.content.decode()
        assert (
            "What you can do"
            not in client.get(reverse("games:seat_page", args=[bruno.token])).content.decode()
        )
        for turn in range(5):
            response = add(client, (anna, bruno)[turn % 2], 2, session.version)
            assert response.status_code == 200
            session.refresh_from_db()
        assert session.status == GameSession.Status.FINISHED and session.state["total"] == 10
        closed = client.get(reverse("games:seat_page", args=[anna.token]))
        assert closed.status_code == 200 and "Result" in closed.content.decode()
        client.force_login(host)
        table = client.get(reverse("games:session_table", args=[session.pk])).content.decode()
        assert "The game is over." in table and "Result" in table

    def test_the_table_s_own_forms_are_not_something_this_game_has(self, client, counting):
        host = UserFactory()
        session = start(host)
        client.force_login(host)
        response = client.post(
            reverse("games:session_table_compose", args=[session.pk]),
            {"compose": "draw", "version": session.version},
            headers={"HX-Request": "true"},
        )
        assert response.status_code == 422 and str(COMPOSE_NOT_NOW) in response.content.decode()
        session.refresh_from_db()
        assert session.version == 0 and session.actions.count() == 0
