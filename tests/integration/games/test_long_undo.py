"""Issue 27, item 4: undo on a long night. The undo replays from the nearest snapshot, locks the
session row without the cached state it rebuilds, and issues as many queries at 3,000 actions as
at 50; the state it leaves equals a full replay of the log. The nights are the bench's long King's
Dilemma nights (tests/bench/long_night.py)."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import GameSession
from games.services.undo import session_replay, session_undo
from tests.bench.long_night import long_night
from tests.factories import campaign_with_houses
from tests.kings_dilemma_play import play
from tests.story_play import HOUSES

pytestmark = [pytest.mark.database, pytest.mark.django_db]


def _undone(user, actions: int) -> tuple[GameSession, list[dict]]:
    """A night of ``actions`` logged actions, a Resource moved by hand, then undone: the session
    and the queries of the undo."""
    campaign, houses = campaign_with_houses(*HOUSES, user=user, name=f"A night of {actions}")
    session = long_night(campaign, houses, user, actions)
    before = session_replay(session=session)
    play(session, None, "move_resource", row="wealth", amount=1, label="By hand")
    session.refresh_from_db()
    with CaptureQueriesContext(connection) as queries:
        session_undo(session=session, by=user)
    assert session.state == before
    return session, list(queries)


class LongUndoTests:
    def test_an_undo_at_3000_actions_issues_no_more_queries_than_at_50(self, user):
        _, short = _undone(user, 50)
        session, long = _undone(user, 3000)
        assert session.last_seq > 3000
        assert len(long) <= len(short)

    def test_the_state_after_an_undo_on_a_long_night_equals_a_full_replay(self, user):
        session, _ = _undone(user, 3 * 100 + 7)
        session.refresh_from_db()
        assert session.state == session_replay(session=session)
        assert session.actions.filter(undone=True).count() == 1

    def test_an_undo_never_reads_the_cached_state_it_rebuilds(self, user):
        _, queries = _undone(user, 120)
        reads = [
            q["sql"] for q in queries if q["sql"].startswith("SELECT") and "games_gamesession" in q["sql"]
        ]
        assert reads and all('"games_gamesession"."state"' not in sql for sql in reads)
