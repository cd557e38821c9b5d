"""The session services: create, submit, undo, replay, abandon, bots."""

import copy
import logging
import random
import re

import pytest
from django.core.exceptions import ValidationError

from games import versions
from games.engines.kernel.choices import random_action
from games.engines.kernel.errors import RuleError
from games.models import GameSession, Seat, SessionAction
from games.selectors import session_log, session_view_for_seat
from games.services.bots import session_bot_move
from games.services.seats import session_seat_claim
from games.services.sessions import (
    SEAT_COUNT,
    SEAT_NAME_REQUIRED,
    SEAT_NAME_TWICE,
    session_abandon,
    session_create,
)
from games.services.taps import (
    ACTION_FAILED,
    ACTION_NOT_JSON,
    IDEMPOTENCY_KEY_OTHER_SEAT,
    SEAT_NOT_IN_SESSION,
    SESSION_NOT_RUNNING,
    UNKNOWN_GAME,
    StaleVersion,
    session_submit_action,
)
from games.services.undo import NOT_UNDOABLE, NOTHING_TO_UNDO, ONLY_HOST_UNDOES, session_replay, session_undo
from tests.factories import UserFactory
from tests.integration.games.conftest import NAMES, acting_seat, new_session, play, random_move, rules_of

pytestmark = [pytest.mark.database, pytest.mark.django_db]


def snapshot(session):
    """Everything a refused service must leave untouched."""
    fresh = GameSession.objects.get(pk=session.pk)
    return (
        fresh.version,
        fresh.status,
        copy.deepcopy(fresh.state),
        list(fresh.actions.values_list("seq", "payload", "undone")),
    )


class SessionCreateTests:
    def test_a_session_starts_dealt_with_the_deal_logged_as_action_one(self, nudge_log):
        session = new_session()
        assert session.status == GameSession.Status.ACTIVE
        assert session.version == 1
        assert [s.name for s in session.seats.order_by("index")] == NAMES
        assert session.config["seats"] == [{"name": n} for n in NAMES]
        (deal,) = session.actions.all()
        assert (deal.seq, deal.seat, deal.payload, deal.version) == (
            1,
            None,
            {"type": "deal", "seat": None},
            1,
        )
        assert deal.label
        assert rules_of(session).legal_actions(session.state, None) == []
        assert session.state == session_replay(session=session)

    def test_seat_tokens_are_secret_and_distinct(self):
        session = new_session()
        tokens = [s.token for s in session.seats.all()]
        assert len(set(tokens)) == 3
        assert all(len(t) >= 24 for t in tokens)

    def test_the_nudge_goes_out_after_the_commit(self, django_capture_on_commit_callbacks, nudge_log):
        with django_capture_on_commit_callbacks(execute=True):
            session = new_session()
        assert len(nudge_log) == 1
        assert versions.cached_version(session.pk) == session.version

    def test_an_unknown_game_is_refused(self):
        with pytest.raises(ValidationError, match=re.escape(UNKNOWN_GAME.format(slug="chess"))):
            session_create(game="chess", seat_names=NAMES)
        assert GameSession.objects.count() == 0

    @pytest.mark.parametrize("names", [["Solo"], ["A", "B", "C", "D", "E", "F"]])
    def test_the_seat_count_must_fit_the_game(self, names):
        rules = rules_of(GameSession(game="for_the_king"))
        message = SEAT_COUNT.format(
            game=rules.name, min=rules.min_seats, max=rules.max_seats, count=len(names)
        )
        with pytest.raises(ValidationError) as exc:
            session_create(game="for_the_king", seat_names=names)
        assert exc.value.messages == [message]
        assert GameSession.objects.count() == 0

    def test_every_seat_needs_a_distinct_name(self):
        with pytest.raises(ValidationError, match=str(SEAT_NAME_REQUIRED)):
            session_create(game="for_the_king", seat_names=["Anna", "  "])
        with pytest.raises(ValidationError, match=SEAT_NAME_TWICE.format(name="anna")):
            session_create(game="for_the_king", seat_names=["Anna", "anna"])
        assert GameSession.objects.count() == 0 and Seat.objects.count() == 0

    def test_the_same_seed_gives_the_same_game(self):
        one, two = new_session(seed=11), new_session(seed=11)
        assert one.state == two.state
        assert new_session(seed=12).state != one.state


class SessionSubmitActionTests:
    def test_an_action_is_applied_logged_and_versioned(self, verify_nudge):
        session = new_session()
        index, seat = acting_seat(session)
        with verify_nudge(session):
            logged = session_submit_action(
                session=session, seat=seat, action={"type": "place", "area": "favor"}, expected_version=1
            )
        assert (logged.seq, logged.seat, logged.version) == (2, index, 2)
        assert logged.payload == {"type": "place", "area": "favor", "seat": index}
        name = NAMES[index]
        assert logged.label == f"{name} placed a card on the Favor deck; {name} drew the next card"
        assert session.version == 2

    def test_a_stale_version_is_refused_and_nothing_is_written(self):
        session = new_session()
        play(session, random.Random(1), 3)
        before = snapshot(session)
        index, seat = acting_seat(session)
        action = random_action(rules_of(session), session.state, index, random.Random(2))
        with pytest.raises(StaleVersion) as exc:
            session_submit_action(
                session=session, seat=seat, action=action, expected_version=session.version - 1
            )
        assert exc.value.current_version == session.version
        assert exc.value.extra == {"version": session.version}
        assert snapshot(session) == before

    def test_the_same_idempotency_key_twice_applies_once(self):
        session = new_session()
        index, seat = acting_seat(session)
        first = session_submit_action(
            session=session,
            seat=seat,
            action={"type": "place", "area": "favor"},
            expected_version=1,
            idempotency_key="k-1",
        )
        before = snapshot(session)
        again = session_submit_action(
            session=session,
            seat=seat,
            action={"type": "place", "area": "favor"},
            expected_version=1,
            idempotency_key="k-1",
        )
        assert again.pk == first.pk
        assert snapshot(session) == before
        assert SessionAction.objects.filter(session=session).count() == 2

    def test_a_repeated_key_returns_the_stored_action_even_after_the_table_moved_on(self):
        session = new_session()
        _, seat = acting_seat(session)
        first = session_submit_action(
            session=session,
            seat=seat,
            action={"type": "place", "area": "favor"},
            expected_version=1,
            idempotency_key="k-1",
        )
        play(session, random.Random(2), 2)
        before = snapshot(session)
        again = session_submit_action(
            session=session,
            seat=seat,
            action={"type": "place", "area": "favor"},
            expected_version=1,
            idempotency_key="k-1",
        )
        assert again.pk == first.pk
        assert snapshot(session) == before

    def test_a_key_used_by_another_seat_is_refused(self):
        session = new_session()
        index, seat = acting_seat(session)
        session_submit_action(
            session=session,
            seat=seat,
            action={"type": "place", "area": "favor"},
            expected_version=1,
            idempotency_key="k-1",
        )
        other = session.seats.exclude(index=index).first()
        with pytest.raises(ValidationError, match=IDEMPOTENCY_KEY_OTHER_SEAT):
            session_submit_action(
                session=session,
                seat=other,
                action={"type": "place", "area": "favor"},
                expected_version=2,
                idempotency_key="k-1",
            )

    def test_a_broken_rule_raises_and_nothing_is_written(self):
        session = new_session()
        _, seat = acting_seat(session)
        before = snapshot(session)
        with pytest.raises(RuleError):
            session_submit_action(
                session=session, seat=seat, action={"type": "bid", "amount": 3}, expected_version=1
            )
        with pytest.raises(RuleError):
            session_submit_action(session=session, seat=seat, action={"type": "fly"}, expected_version=1)
        assert snapshot(session) == before

    def test_a_seat_cannot_act_for_another_seat(self):
        session = new_session()
        index, seat = acting_seat(session)
        other = session.seats.exclude(index=index).first()
        before = snapshot(session)
        # Bruno claims to be the Adviser: the service writes his own seat into the action.
        with pytest.raises(RuleError):
            session_submit_action(
                session=session,
                seat=other,
                action={"type": "place", "area": "favor", "seat": index},
                expected_version=1,
            )
        # Nor may a seat pass itself off as the table.
        with pytest.raises(RuleError):
            session_submit_action(
                session=session, seat=other, action={"type": "deal", "seat": None}, expected_version=1
            )
        assert snapshot(session) == before

    def test_the_table_cannot_act_for_a_seat(self):
        session = new_session()
        index, _ = acting_seat(session)
        with pytest.raises(RuleError):
            session_submit_action(
                session=session,
                seat=None,
                action={"type": "place", "area": "favor", "seat": index},
                expected_version=1,
            )

    def test_a_seat_of_another_session_is_refused(self):
        session, other = new_session(), new_session()
        index, _ = acting_seat(session)
        stranger = other.seats.get(index=index)
        with pytest.raises(ValidationError, match=SEAT_NOT_IN_SESSION):
            session_submit_action(
                session=session, seat=stranger, action={"type": "place", "area": "favor"}, expected_version=1
            )

    @pytest.mark.parametrize("action", [None, "place", {"seat": 0}, {"type": 3}])
    def test_an_action_that_is_not_an_object_with_a_type_is_refused(self, action):
        session = new_session()
        _, seat = acting_seat(session)
        with pytest.raises(ValidationError):
            session_submit_action(session=session, seat=seat, action=action, expected_version=1)

    def test_a_nul_character_never_reaches_the_database(self):
        session = new_session()
        _, seat = acting_seat(session)
        before = snapshot(session)
        with pytest.raises(ValidationError, match=ACTION_NOT_JSON):
            session_submit_action(
                session=session,
                seat=seat,
                action={"type": "place", "area": "favor", "note": "a\x00b"},
                expected_version=1,
            )
        assert snapshot(session) == before

    def test_an_engine_tripped_by_a_malformed_action_answers_with_a_rule_error(self, monkeypatch):
        session = new_session()
        _, seat = acting_seat(session)
        rules = rules_of(session)

        def crash(state, action):
            raise KeyError("card")

        monkeypatch.setattr(rules, "apply", crash)
        before = snapshot(session)
        with pytest.raises(RuleError, match=ACTION_FAILED):
            session_submit_action(
                session=session, seat=seat, action={"type": "place", "area": "favor"}, expected_version=1
            )
        assert snapshot(session) == before

    def test_an_engine_tripped_by_a_malformed_action_is_logged_once(self, monkeypatch, caplog):
        """The tap's steps run twice (first without the lock, then on the locked row, which answers):
        the traceback is logged once, where the error leaves the service."""
        session = new_session()
        _, seat = acting_seat(session)
        rules = rules_of(session)

        def crash(state, action):
            raise KeyError("card")

        monkeypatch.setattr(rules, "apply", crash)
        with caplog.at_level(logging.ERROR, logger="games.services.taps"), pytest.raises(RuleError):
            session_submit_action(
                session=session, seat=seat, action={"type": "place", "area": "favor"}, expected_version=1
            )
        logged = [r for r in caplog.records if "failed on" in r.getMessage()]
        assert len(logged) == 1 and logged[0].exc_info is not None

    def test_an_abandoned_session_takes_no_action(self, verify_nudge):
        session = new_session()
        with verify_nudge(session):
            session_abandon(session=session)
        _, seat = acting_seat(session)
        with pytest.raises(ValidationError, match=re.escape(SESSION_NOT_RUNNING.format(status="abandoned"))):
            session_submit_action(
                session=session, seat=seat, action={"type": "place", "area": "favor"}, expected_version=None
            )

    def test_the_log_reads_like_a_story(self):
        session = new_session()
        play(session, random.Random(3), 5)
        log = session_log(session=session)
        assert [e["seq"] for e in log] == list(range(1, 7))
        assert log[0]["seat_name"] == "Table"
        assert all(isinstance(e["label"], str) and e["label"] for e in log)
        assert [e["seq"] for e in session_log(session=session, since_version=4)] == [5, 6]


class SessionUndoTests:
    def _to_an_undoable_action(self, session):
        """Play until the last action is one the engine lets the host undo."""
        rng = random.Random(5)
        while True:
            seat, action = random_move(session, rng)
            session_submit_action(session=session, seat=seat, action=action, expected_version=session.version)
            last = session.actions.order_by("-seq").first()
            if last.undoable:
                return last

    def test_the_host_undoes_the_last_action_and_the_state_is_rebuilt(self, verify_nudge):
        host = UserFactory()
        session = new_session(host=host)
        play(session, random.Random(4), 2)
        before_state = copy.deepcopy(session.state)
        before_version = session.version
        last = self._to_an_undoable_action(session)
        with verify_nudge(session):
            session_undo(session=session, by=host)
        last.refresh_from_db()
        assert last.undone
        assert session.version == last.version + 1
        assert session.actions.filter(pk=last.pk).exists()  # marked, never deleted
        if last.version == before_version + 1:
            assert session.state == before_state
        assert session.state == session_replay(session=session)
        assert last.seq not in [e["seq"] for e in session_log(session=session)]

    def test_after_an_undo_the_next_action_gets_a_new_sequence_number(self):
        host = UserFactory()
        session = new_session(host=host)
        last = self._to_an_undoable_action(session)
        session_undo(session=session, by=host)
        play(session, random.Random(9), 1)
        newest = session.actions.order_by("-seq").first()
        assert newest.seq == last.seq + 1
        assert session.state == session_replay(session=session)
        assert GameSession.objects.get(pk=session.pk).last_seq == newest.seq == session.last_seq

    def test_an_action_that_revealed_a_card_is_not_undone(self):
        host = UserFactory()
        session = new_session(host=host)
        _, seat = acting_seat(session)
        drawn = session_submit_action(
            session=session, seat=seat, action={"type": "place", "area": "favor"}, expected_version=1
        )
        before = snapshot(session)
        with pytest.raises(ValidationError) as exc:
            session_undo(session=session, by=host)
        assert exc.value.messages == [NOT_UNDOABLE.format(label=drawn.label)]
        assert snapshot(session) == before

    def test_the_automatic_deal_is_never_undone(self):
        host = UserFactory()
        session = new_session(host=host)
        with pytest.raises(ValidationError, match="cannot be undone"):
            session_undo(session=session, by=host)

    def test_only_the_host_undoes(self):
        host = UserFactory()
        session = new_session(host=host)
        self._to_an_undoable_action(session)
        before = snapshot(session)
        for someone in (UserFactory(), None):
            with pytest.raises(ValidationError, match=ONLY_HOST_UNDOES):
                session_undo(session=session, by=someone)
        assert snapshot(session) == before

    def test_nothing_to_undo_without_actions(self):
        host = UserFactory()
        session = new_session(host=host)
        session.actions.update(undone=True)
        with pytest.raises(ValidationError, match=NOTHING_TO_UNDO):
            session_undo(session=session, by=host)


class ReplayTests:
    def test_a_random_game_is_its_log_and_every_view_matches_a_fresh_replay(self, verify_nudge):
        session = new_session(names=["Anna", "Bruno"], seed=21)
        rng = random.Random(21)
        moves = 0
        while session.status == GameSession.Status.ACTIVE:
            seat, action = random_move(session, rng)
            with verify_nudge(session):
                session_submit_action(
                    session=session, seat=seat, action=action, expected_version=session.version
                )
            moves += 1
        assert moves > 50
        assert session.status == GameSession.Status.FINISHED
        assert session.state == session_replay(session=session)
        assert rules_of(session).result(session.state) is not None
        view = session_view_for_seat(session=session, seat=session.seats.first())
        assert view["over"] and view["result"] is not None and view["legal_actions"] == []

    @pytest.mark.parametrize("seed", [1, 2, 3])
    def test_the_cached_state_always_equals_the_replay(self, seed):
        session = new_session(names=NAMES[: 2 + seed % 2], seed=seed)
        rng = random.Random(seed)
        while session.status == GameSession.Status.ACTIVE:
            play(session, rng, 40)
            assert GameSession.objects.get(pk=session.pk).state == session_replay(session=session)


class SessionBotMoveTests:
    def test_bots_play_their_turns_until_a_human_must_act(self, django_capture_on_commit_callbacks):
        with django_capture_on_commit_callbacks(execute=True):
            session = new_session(bot_seats=[0, 1, 2])
        session.refresh_from_db()
        assert session.status == GameSession.Status.FINISHED
        assert session.state == session_replay(session=session)
        assert session.actions.exclude(seat=None).count() > 50

    def test_a_bot_waits_while_a_human_must_act(self, django_capture_on_commit_callbacks):
        session = new_session(bot_seats=[])
        assert session_bot_move(session_id=session.pk) is None
        assert session.actions.count() == 1

    def test_a_bot_game_replays_the_same(self, django_capture_on_commit_callbacks):
        with django_capture_on_commit_callbacks(execute=True):
            one = new_session(bot_seats=[0, 1], names=["A", "B"], seed=5)
            two = new_session(bot_seats=[0, 1], names=["A", "B"], seed=5)
        one.refresh_from_db()
        two.refresh_from_db()
        assert one.state == two.state
        assert list(one.actions.values_list("payload", flat=True)) == list(
            two.actions.values_list("payload", flat=True)
        )


class SessionSeatClaimTests:
    def test_a_player_claims_a_free_seat_once(self):
        session = new_session()
        seat = session.seats.first()
        anna, bruno = UserFactory(), UserFactory()
        session_seat_claim(session=session, seat=seat, user=anna)
        session_seat_claim(session=session, seat=seat, user=anna)
        with pytest.raises(ValidationError, match="already taken"):
            session_seat_claim(session=session, seat=seat, user=bruno)
        seat.refresh_from_db()
        assert seat.user == anna


class SessionLogFactsTests:
    """``last_seq`` and ``has_bots`` live on the session row (the lock reads them with it)."""

    def test_the_last_sequence_number_follows_the_log(self):
        session = new_session()
        play(session, random.Random(3), 4)
        fresh = GameSession.objects.get(pk=session.pk)
        assert fresh.last_seq == session.last_seq == session.actions.order_by("-seq").first().seq

    def test_whether_a_bot_plays_is_set_at_creation(self):
        assert not new_session().has_bots
        with_bot = new_session(bot_seats=[2])
        assert GameSession.objects.get(pk=with_bot.pk).has_bots

    def test_the_migration_fills_both_for_existing_sessions(self):
        from importlib import import_module

        from django.apps import apps

        fill_log_facts = import_module("games.migrations.0003_session_log_facts").fill_log_facts
        plain, with_bot = new_session(), new_session(bot_seats=[1])
        play(plain, random.Random(2), 3)
        empty = GameSession.objects.create(game="for_the_king", seed=1)
        GameSession.objects.update(last_seq=7, has_bots=False)
        fill_log_facts(apps, None)
        facts = dict(GameSession.objects.values_list("pk", "last_seq"))
        assert facts == {plain.pk: plain.actions.count(), with_bot.pk: with_bot.actions.count(), empty.pk: 0}
        assert list(GameSession.objects.filter(has_bots=True).values_list("pk", flat=True)) == [with_bot.pk]


@pytest.fixture
def counting_engine(monkeypatch):
    from games.engines.kernel import registry

    monkeypatch.setitem(registry.EXTRA_MODULES, "counting", "tests.integration.games.fake_engine")


class SubmitWithoutLockTests:
    """A tap at the table as the caller read it is written without a lock read first; anything
    else goes the locked way and answers as before."""

    def test_a_session_read_before_another_change_is_applied_to_the_newest_state(self, counting_engine):
        session = session_create(game="counting", seat_names=["Anna", "Bruno"], seed=1)
        anna, bruno = session.seats.get(index=0), session.seats.get(index=1)
        read_before = GameSession.objects.get(pk=session.pk)
        session_submit_action(
            session=session, seat=anna, action={"type": "add", "amount": 1}, expected_version=0
        )
        logged = session_submit_action(
            session=read_before, seat=bruno, action={"type": "add", "amount": 2}, expected_version=None
        )
        assert (logged.seq, logged.version) == (2, 2)
        assert (read_before.version, read_before.last_seq, read_before.state["total"]) == (2, 2, 3)
        assert GameSession.objects.get(pk=session.pk).state == session_replay(session=session)

    def test_a_key_sent_again_at_the_current_version_returns_the_stored_action(self, counting_engine):
        session = session_create(game="counting", seat_names=["Anna", "Bruno"], seed=1)
        first = session_submit_action(
            session=session, seat=None, action={"type": "bump"}, expected_version=0, idempotency_key="k"
        )
        again = session_submit_action(
            session=session, seat=None, action={"type": "bump"}, expected_version=1, idempotency_key="k"
        )
        assert again.pk == first.pk
        assert (session.version, session.state["total"]) == (1, 1)
        with pytest.raises(ValidationError):  # another action with the same key: refused
            session_submit_action(
                session=session,
                seat=None,
                action={"type": "bump", "x": 1},
                expected_version=1,
                idempotency_key="k",
            )
        assert GameSession.objects.get(pk=session.pk).version == 1
        assert SessionAction.objects.filter(session=session).count() == 1
