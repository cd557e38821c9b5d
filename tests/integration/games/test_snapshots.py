"""Undo from a snapshot (issue 27, item 4): a snapshot of the state every SNAPSHOT_EVERY actions
lets an undo replay from the nearest one, so a long night undoes as fast as a short one. The
state after any mix of actions and undos equals the state of a full replay of the log from the
setup, for every game of the registry."""

import random

import pytest
from django.core.exceptions import ValidationError

from games.engines.kernel.registry import slugs
from games.models import GameSession, SessionSnapshot
from games.services import taps
from games.services.taps import session_rules, session_submit_action
from games.services.undo import session_replay, session_undo

from .conftest import new_session, random_move

pytestmark = [pytest.mark.database, pytest.mark.django_db]

MOVES = 40


def folded(session, *, upto: int) -> dict:
    rules = session_rules(session)
    state = rules.setup(session.config, session.seed)
    for action in session.actions.filter(undone=False, seq__lte=upto).order_by("seq"):
        state = rules.apply(state, action.payload)
    return state


@pytest.fixture
def every_three(monkeypatch):
    monkeypatch.setattr(taps, "SNAPSHOT_EVERY", 3)


@pytest.mark.parametrize("game", slugs())
class SnapshotUndoTests:
    def test_undos_between_snapshots_equal_a_full_replay(self, game, user, every_three):
        session = new_session(game=game, seed=11, host=user)
        rng = random.Random(f"{game}-snapshots")
        undos = 0
        for _ in range(MOVES):
            if session.status != GameSession.Status.ACTIVE:
                break
            seat, action = random_move(session, rng)
            session_submit_action(session=session, seat=seat, action=action, expected_version=session.version)
            last = session.actions.filter(undone=False).order_by("-seq").first()
            if last.undoable and last.seq > 1 and rng.random() < 0.5 and session.status == "active":
                session_undo(session=session, by=user)
                undos += 1
                assert session.state == session_replay(session=session)
                for snapshot in session.snapshots.all():  # each one is the log in force up to it
                    assert snapshot.state == folded(session, upto=snapshot.seq), snapshot.seq
        assert session.snapshots.exists()
        assert session.state == session_replay(session=session)
        assert undos or game != "counting"

    def test_a_snapshot_holds_the_state_after_its_action(self, game, every_three):
        session = new_session(game=game, seed=3)
        rng = random.Random(game)
        while session.last_seq < 6 and session.status == GameSession.Status.ACTIVE:
            seat, action = random_move(session, rng)
            session_submit_action(session=session, seat=seat, action=action, expected_version=session.version)
        for snapshot in SessionSnapshot.objects.filter(session=session):
            assert snapshot.seq % 3 == 0
        if session.last_seq % 3 == 0:
            assert session.snapshots.get(seq=session.last_seq).state == session.state


class OlderLogTests:
    def test_an_undo_over_a_move_todays_rules_lack_says_so_and_changes_nothing(self, user):
        """A For the King game begun before the Adviser's draw happened by itself holds a "draw" in
        its log: its undo is refused with a sentence, never a server error, and nothing changes."""
        session = new_session(game="for_the_king", seed=4, host=user)
        rng = random.Random("older")
        while session.last_seq < 3:
            seat, action = random_move(session, rng)
            session_submit_action(session=session, seat=seat, action=action, expected_version=session.version)
        first = session.actions.order_by("seq").first()
        first.payload = {"type": "draw", "seat": 0}  # as an older Chronicle logged it
        first.save(update_fields=["payload"])
        last = session.actions.filter(undone=False).order_by("-seq").first()
        last.undoable = True
        last.save(update_fields=["undoable"])
        before = (session.version, list(session.actions.values_list("seq", "undone")))
        with pytest.raises(ValidationError, match="older Chronicle"):
            session_undo(session=session, by=user)
        session.refresh_from_db()
        assert (session.version, list(session.actions.values_list("seq", "undone"))) == before
