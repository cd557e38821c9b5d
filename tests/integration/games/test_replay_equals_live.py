"""Replay equals live, for every game of the registry (Zulip's ``verify_action``, docs/architecture.md
``verify_nudge``): after each action of a random game, the seat and table views refetched through the
selectors equal the views of a fresh replay of the log, with exactly one nudge."""

import random

import pytest

from games.engines.kernel.registry import slugs
from games.models import GameSession
from games.services.undo import session_undo

from .conftest import new_session

pytestmark = [pytest.mark.database, pytest.mark.django_db]

MOVES = 30  # bounded: every action replays the whole log (the long random games are in tests/unit)


@pytest.mark.parametrize("game", slugs())
class ReplayEqualsLiveTests:
    def test_every_action_of_a_random_game_matches_a_fresh_replay(self, game, play_verified):
        session = new_session(game=game, seed=5)
        played = play_verified(session, random.Random(game), MOVES)
        assert played == MOVES or session.status == GameSession.Status.FINISHED

    def test_the_host_s_undo_matches_a_fresh_replay(self, game, user, play_verified, verify_nudge):
        session = new_session(game=game, seed=9, host=user)
        rng = random.Random(f"{game}-undo")
        for _ in range(MOVES):
            play_verified(session, rng, 1)
            if session.actions.order_by("-seq").first().undoable:
                break
        with verify_nudge(session):
            session_undo(session=session, by=user)
