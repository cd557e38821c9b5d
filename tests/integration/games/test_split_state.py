"""Issue 27, item 4: a session's cached state in two columns (games.models.state_parts). ``state``
holds the small top-level keys, ``state_kept`` the large ones (a King's Dilemma night's cards met),
written only when they change; ``session.state`` is the whole state however the row was written or
read. The nights are the bench's King's Dilemma nights (tests/bench/long_night.py)."""

import json
import random
from importlib import import_module

import pytest
from django.apps import apps
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import models as game_models
from games.engines.kernel.registry import get_game, slugs
from games.models import KEPT_MARK, GameSession, state_parts
from games.services.taps import session_submit_action
from games.services.undo import session_replay, session_undo
from tests.bench.long_night import long_night
from tests.factories import campaign_with_houses
from tests.integration.games.test_replay_equals_live import ReplayEqualsLiveTests as _ReplayEqualsLive
from tests.kings_dilemma_play import play
from tests.story_play import HOUSES

from .conftest import new_session
from .conftest import play as play_random

pytestmark = [pytest.mark.database, pytest.mark.django_db]
MIGRATION = import_module("games.migrations.0011_cached_state_keeps_its_large_keys_apart")


@pytest.fixture
def night(user) -> GameSession:
    """A King's Dilemma night long enough for its cards met to be kept apart."""
    campaign, houses = campaign_with_houses(*HOUSES, user=user, name="A night of 60")
    session = long_night(campaign, houses, user, 60)
    session.refresh_from_db()
    assert state_parts(session.state).kept, "the night has large keys"
    return session


def _columns(session) -> tuple[dict, dict, str]:
    return GameSession.objects.values_list("state", "state_kept", "state_kept_digest").get(pk=session.pk)


def _updates(queries) -> list[str]:
    return [q["sql"] for q in queries if q["sql"].startswith('UPDATE "games_gamesession"')]


def _writes_kept(update: str) -> bool:
    return '"state_kept" =' in update  # not the digest a submit's WHERE compares


def _with_a_card_met(state: dict) -> dict:
    return {**state, "cards_met": {**state["cards_met"], "999": {"number": 999, "title": "Met here"}}}


class SplitStateRoundTripTests:
    def test_a_saved_night_reads_back_whole_with_its_large_keys_in_their_own_column(self, night):
        state = _with_a_card_met(night.state)
        night.state = state
        night.save()
        small, kept, digest = _columns(night)
        assert "cards_met" in kept and "cards_met" not in small and small[KEPT_MARK] == digest
        assert GameSession.objects.get(pk=night.pk).state == state == night.state

    def test_a_save_naming_state_reads_back_whole(self, night):
        state = _with_a_card_met(night.state)
        night.state = state
        night.save(update_fields=["state", "version"])
        assert GameSession.objects.get(pk=night.pk).state == state
        assert _columns(night)[1]["cards_met"] == state["cards_met"]

    def test_sessions_made_by_bulk_create_read_back_whole(self, night):
        made = GameSession.objects.bulk_create(
            [GameSession(game=night.game, config=night.config, seed=s, state=night.state) for s in (1, 2)]
        )
        for session in made:
            assert GameSession.objects.get(pk=session.pk).state == night.state

    def test_a_whole_state_written_by_update_wins_over_the_kept_part(self, night):
        """Tests, the bench and migrations write a whole state with ``QuerySet.update``: read back
        as written, a large key it no longer holds included."""
        night.save()  # the kept part in its column
        whole = {k: v for k, v in night.state.items() if k != "cards_met"}
        GameSession.objects.filter(pk=night.pk).update(state=whole)
        assert GameSession.objects.get(pk=night.pk).state == whole

    def test_a_row_written_before_the_split_reads_back_whole(self, night):
        GameSession.objects.filter(pk=night.pk).update(state=night.state, state_kept={}, state_kept_digest="")
        assert GameSession.objects.get(pk=night.pk).state == night.state

    def test_a_state_read_later_or_alone_reads_back_whole(self, night):
        night.save()
        deferred = GameSession.objects.defer("state").get(pk=night.pk)
        assert "state_kept" in deferred.get_deferred_fields()  # the lock of an undo reads neither
        assert deferred.state == night.state
        assert GameSession.objects.only("state").get(pk=night.pk).state == night.state
        assert GameSession.objects.only("version").get(pk=night.pk).state == night.state
        assert GameSession._base_manager.only("state").get(pk=night.pk).state == night.state
        seat = night.seats.select_related("session").first()
        assert seat.session.state == night.state
        reread = GameSession.objects.get(pk=night.pk)
        reread.refresh_from_db(fields=["state"])
        assert reread.state == night.state


class SplitStateWritesTests:
    def test_a_save_that_keeps_the_large_part_does_not_write_it(self, night):
        night.save()
        night.state = {**night.state, "news": ["a small change"]}
        with CaptureQueriesContext(connection) as queries:
            night.save()
        [update] = _updates(queries)
        assert not _writes_kept(update)
        assert GameSession.objects.get(pk=night.pk).state == night.state

    def test_a_save_that_changes_the_large_part_writes_it(self, night):
        night.save()
        night.state = _with_a_card_met(night.state)
        with CaptureQueriesContext(connection) as queries:
            night.save(update_fields=["state"])
        [update] = _updates(queries)
        assert _writes_kept(update) and '"state_kept_digest" =' in update

    def test_a_submit_and_its_undo_leave_the_cards_met_unwritten(self, night, user):
        night.save()
        night.refresh_from_db()
        before = session_replay(session=night)
        with CaptureQueriesContext(connection) as queries:
            session_submit_action(
                session=night,
                seat=None,
                action={"type": "move_resource", "row": "wealth", "amount": 1, "label": "By hand"},
                expected_version=night.version,
            )
            night.refresh_from_db()
            session_undo(session=night, by=user)
        updates = _updates(queries)
        assert len(updates) == 2 and not any(map(_writes_kept, updates))
        assert GameSession.objects.get(pk=night.pk).state == before == night.state

    def test_a_submit_from_a_row_read_before_its_large_part_changed_never_mixes_two_states(self, night):
        """A submit's UPDATE compares the digest read with the row, not only its version: a state
        written meanwhile without a version (a test's, a repair's) is the one the action applies to,
        never its large part under the small part read before."""
        night.save()
        night.refresh_from_db()
        other = GameSession.objects.get(pk=night.pk)
        other.state = {**_with_a_card_met(other.state), "written_meanwhile": True}
        other.save(update_fields=["state"])
        session_submit_action(
            session=night,
            seat=None,
            action={"type": "move_resource", "row": "wealth", "amount": 1, "label": "By hand"},
            expected_version=night.version,
        )
        state = GameSession.objects.get(pk=night.pk).state
        assert "999" in state["cards_met"] and state.get("written_meanwhile") is True

    def test_an_undo_that_changes_the_large_part_writes_it(self, night, user):
        """The row locked without its state still compares the digest: a card met by the action
        undone (written here as if it had been) leaves the kept part."""
        before = session_replay(session=night)
        play(night, None, "move_resource", row="wealth", amount=1, label="By hand")
        GameSession.objects.filter(pk=night.pk).update(**night.state_columns(_with_a_card_met(night.state)))
        assert "999" in GameSession.objects.get(pk=night.pk).state["cards_met"]
        with CaptureQueriesContext(connection) as queries:
            session_undo(session=night, by=user)
        [update] = _updates(queries)
        assert _writes_kept(update)
        assert GameSession.objects.get(pk=night.pk).state == before


class SplitStateMigrationTests:
    def test_reversing_the_migration_puts_each_state_back_whole_in_its_column(self, night):
        night.save()
        assert KEPT_MARK in _columns(night)[0]
        MIGRATION.states_made_whole(apps, None)
        small, _, _ = _columns(night)
        assert small == night.state and KEPT_MARK not in small
        assert GameSession.objects.get(pk=night.pk).state == night.state


class ActionIndexTests:
    def test_the_actions_of_a_session_are_found_by_the_unique_session_and_seq_index_alone(self):
        """With an index on the session alone beside it, PostgreSQL read all 3,000 actions of a
        night just written (its statistics not yet knowing it) and sorted them to find the last."""
        with connection.cursor() as cursor:
            constraints = connection.introspection.get_constraints(cursor, "games_sessionaction")
        indexes = [c for c in constraints.values() if (c["index"] or c["unique"]) and not c["foreign_key"]]
        by_session = [c["columns"] for c in indexes if c["columns"][:1] == ["session_id"]]
        assert ["session_id"] not in by_session and ["session_id", "seq"] in by_session


class EnginesFoldPlainJsonTests:
    """The undo writes the replayed state as it is, with no JSON round trip
    (games.services.undo._replay_from_snapshot): every engine folds plain JSON into plain JSON."""

    @pytest.mark.parametrize("game", slugs())
    def test_a_replayed_state_is_what_the_database_gives_back(self, game):
        names = ["House Solad", "House Crann", "House Vaclav"] if game == "kings_dilemma" else ["A", "B", "C"]
        session = new_session(game=game, names=names, seed=11)
        play_random(session, random.Random(game), 40)
        rules = get_game(game)
        state = rules.setup(session.config, session.seed)
        for payload in session.actions.filter(undone=False).order_by("seq").values_list("payload", flat=True):
            rules.apply_in_place(state, payload)
        assert state == json.loads(json.dumps(state))  # a tuple or an int key would differ
        assert state == GameSession.objects.get(pk=session.pk).state


@pytest.fixture
def everything_kept(monkeypatch):
    """Every top-level key of more than a few bytes kept apart, in every game."""
    monkeypatch.setattr(game_models, "STATE_KEPT_FROM", 16)


@pytest.mark.usefixtures("everything_kept")
class ReplayEqualsLiveWithStatesKeptApartTests(_ReplayEqualsLive):
    """tests/integration/games/test_replay_equals_live.py with most of every state kept apart."""
