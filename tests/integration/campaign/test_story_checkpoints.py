"""Issue 27, item 4: a long night's story resumes from a checkpoint (the story so far, kept beside
the newest snapshot of the state) instead of being told again from the setup, and says exactly
what the story told from scratch says. The nights are the bench's long nights (tests/bench/
long_night.py): Dilemmas drawn, voted and read, written as the services write them."""

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaign import story_selectors
from campaign.story_selectors import STORY_FOLD, night_stories
from games.engines.kings_dilemma.story import night_story
from games.models import SessionSnapshot
from games.services.taps import SNAPSHOT_EVERY
from tests.bench.long_night import long_night
from tests.factories import campaign_with_houses
from tests.kings_dilemma_play import play
from tests.story_play import HOUSES

pytestmark = [pytest.mark.database, pytest.mark.django_db]

ACTIONS = 2 * SNAPSHOT_EVERY + 50  # two snapshots, and fifty actions after the newest


def _night(user, actions=ACTIONS):
    cache.clear()
    campaign, houses = campaign_with_houses(*HOUSES, user=user, name="A long night")
    return campaign, long_night(campaign, houses, user, actions)


def _from_scratch(session) -> dict:
    payloads = session.actions.filter(undone=False).order_by("seq").values_list("payload", flat=True)
    return night_story(session.config, session.seed, list(payloads))


def _told(campaign, session) -> dict:
    cache.clear()  # a reader after the last action: the story told from the log
    return night_stories(campaign=campaign)[session.chronicle_game_id]


def _never_from_the_setup(*args):
    raise AssertionError("told from the setup")


class StoryCheckpointTests:
    def test_the_first_reader_keeps_the_story_beside_the_newest_snapshot(self, user):
        campaign, session = _night(user)
        assert _told(campaign, session) == _from_scratch(session)
        kept = session.snapshots.filter(told__isnull=False)
        assert [(s.seq, s.told["v"]) for s in kept] == [(2 * SNAPSHOT_EVERY, STORY_FOLD)]

    def test_a_story_resumed_from_its_checkpoint_equals_the_story_told_from_scratch(self, user, monkeypatch):
        campaign, session = _night(user)
        _told(campaign, session)
        play(session, None, "move_resource", row="wealth", amount=1, label="By hand")
        session.refresh_from_db()
        monkeypatch.setattr(story_selectors, "story_begin", _never_from_the_setup)
        with CaptureQueriesContext(connection) as queries:
            resumed = _told(campaign, session)
        assert resumed == _from_scratch(session)
        log_reads = [q["sql"] for q in queries if 'FROM "games_sessionaction"' in q["sql"]]
        assert len(log_reads) == 1 and f'"seq" > {2 * SNAPSHOT_EVERY}' in log_reads[0]

    def test_a_night_without_checkpoints_or_with_another_folds_is_told_from_its_log(self, user):
        campaign, session = _night(user)
        SessionSnapshot.objects.filter(session=session, seq=SNAPSHOT_EVERY).update(
            told={"v": STORY_FOLD + 1, "story": {"dilemmas": []}}
        )
        assert _told(campaign, session) == _from_scratch(session)  # none of this fold: from the setup
        assert _told(campaign, session) == _from_scratch(session)  # then from the one it kept

    def test_a_checkpoint_of_older_rules_is_told_again_from_the_setup(self, user):
        campaign, session = _night(user)
        _told(campaign, session)
        SessionSnapshot.objects.filter(session=session, seq=2 * SNAPSHOT_EVERY).update(state={"old": True})
        assert _told(campaign, session) == _from_scratch(session)

    def test_a_short_night_keeps_nothing_and_tells_the_same_story(self, user):
        campaign, session = _night(user, actions=SNAPSHOT_EVERY // 2)
        assert _told(campaign, session) == _from_scratch(session)
        assert not session.snapshots.exists()
