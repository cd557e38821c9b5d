"""Undo from a snapshot (issue 27, item 4): a snapshot of the state every SNAPSHOT_EVERY actions
lets an undo replay from the nearest one, so a long night undoes as fast as a short one. The
state after any mix of actions and undos equals the state of a full replay of the log from the
setup, for every game of the registry."""

import random

import pytest

from games import services
from games.engine.registry import slugs
from games.models import GameSession, SessionSnapshot
from games.services import session_replay, session_rules, session_submit_action, session_undo

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
    monkeypatch.setattr(services, "SNAPSHOT_EVERY", 3)


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
