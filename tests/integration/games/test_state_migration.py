"""games/migrations/0009: sessions stored before the engines took one shape (issue 28) get their cached
state rebuilt from their log, so a game in progress across the upgrade goes on; snapshots in the old
shape are dropped; a log the engines refuse keeps its state."""

import random
from importlib import import_module

import pytest
from django.apps import apps

from games.models import GameSession, SessionSnapshot
from games.selectors import session_view_for_seat, session_view_for_table
from tests.integration.games.conftest import new_session, play, rules_of

pytestmark = pytest.mark.django_db
MIGRATION = import_module("games.migrations.0009_cached_states_follow_the_engines")


def old_shape(state: dict) -> dict:
    """For the King's state as it was stored before: ``stage`` for the guard, ``phase`` for the part."""
    old = {k: v for k, v in state.items() if k not in ("phase", "part")}
    return {**old, "stage": state["phase"], "phase": state["part"]}


class StateMigrationTests:
    @pytest.mark.parametrize("game", ["for_the_king", "council_of_four", "kings_dilemma"])
    def test_a_game_in_progress_is_rebuilt_from_its_log_and_goes_on(self, game):
        names = (
            ["House Solad", "House Crann", "House Vaclav"]
            if game == "kings_dilemma"
            else ["Anna", "Ben", "Cleo"]
        )
        session = new_session(game=game, names=names)
        play(session, random.Random(3), 25)
        session.refresh_from_db()
        truth = session.state
        broken = old_shape(truth) if game == "for_the_king" else {**truth, "phase": "an old phase"}
        GameSession.objects.filter(pk=session.pk).update(state=broken)
        SessionSnapshot.objects.create(session=session, seq=1, state={"old": True})
        MIGRATION.cached_states_rebuilt(apps, None)
        session.refresh_from_db()
        assert session.state == truth
        assert not SessionSnapshot.objects.exists()
        assert session_view_for_table(session=session)["view"]["phase"] == truth["phase"]
        assert session_view_for_seat(session=session, seat=session.seats.get(index=0))["view"]["you"] == 0
        play(session, random.Random(4), 5)  # the game goes on

    def test_a_log_the_engines_refuse_keeps_its_state(self):
        session = new_session()
        play(session, random.Random(3), 5)
        session.actions.filter(seq=2).update(payload={"type": "draw", "seat": None})  # an older rule's move
        kept = {**session.state, "kept": True}
        GameSession.objects.filter(pk=session.pk).update(state=kept)
        MIGRATION.cached_states_rebuilt(apps, None)
        session.refresh_from_db()
        assert session.state == kept
        assert rules_of(session).slug == "for_the_king"
