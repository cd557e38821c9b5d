"""Sessions of an engine without a deal and with table actions (a fake engine, registered here)."""

import json

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from games.engines.kernel import registry
from games.models import GameSession
from games.services.taps import session_submit_action
from games.services.undo import GAME_OVER_NO_UNDO, session_undo
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def counting(monkeypatch):
    monkeypatch.setitem(registry.EXTRA_MODULES, "counting", "tests.integration.games.fake_engine")


def start(host=None):
    from games.services.sessions import session_create

    return session_create(game="counting", seat_names=["Anna", "Bruno"], host=host, seed=1)


class FakeEngineSessionTests:
    def test_without_a_deal_the_session_starts_at_version_zero(self):
        session = start()
        assert session.version == 0 and session.actions.count() == 0

    def test_the_table_acts_and_the_host_undoes_it(self, verify_nudge):
        host = UserFactory()
        session = start(host=host)
        with verify_nudge(session):
            logged = session_submit_action(
                session=session, seat=None, action={"type": "bump"}, expected_version=0
            )
        assert logged.seat is None and session.state["total"] == 1
        with verify_nudge(session):
            session_undo(session=session, by=host)
        assert session.state["total"] == 0 and session.version == 2

    def test_the_game_finishes_and_undo_never_reopens_it(self, verify_nudge):
        host = UserFactory()
        session = start(host=host)
        seats = list(session.seats.order_by("index"))
        for i in range(5):
            with verify_nudge(session):
                session_submit_action(
                    session=session,
                    seat=seats[i % 2],
                    action={"type": "add", "amount": 2},
                    expected_version=session.version,
                )
        assert session.status == GameSession.Status.FINISHED
        version = session.version
        with pytest.raises(ValidationError, match=GAME_OVER_NO_UNDO):
            session_undo(session=session, by=host)
        session.refresh_from_db()
        assert session.status == GameSession.Status.FINISHED and session.version == version
        assert not session.actions.filter(undone=True).exists()

    def test_the_host_page_offers_the_table_actions(self, client):
        host = UserFactory()
        session = start(host=host)
        client.force_login(host)
        page = client.get(reverse("games:session_table", args=[session.pk])).content.decode()
        assert "The table acts" in page
        response = client.post(
            reverse("games:session_table_action", args=[session.pk]),
            {"action": json.dumps({"type": "bump", "seat": None}), "version": 0, "key": "k"},
            follow=True,
        )
        assert response.status_code == 200
        session.refresh_from_db()
        assert session.state["total"] == 1
        assert (
            client.post(
                reverse("games:session_table_action", args=[session.pk]),
                {"action": json.dumps({"type": "bump"}), "version": 0, "key": "k2"},
                follow=True,
            )
            .content.decode()
            .count("The table moved on")
            == 1
        )
