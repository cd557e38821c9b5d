"""Concurrent submissions against PostgreSQL: the row lock and the version make exactly one win."""

import threading

import pytest
from django.db import connection

from games.models import GameSession, SessionAction
from games.services.sessions import session_create
from games.services.taps import StaleVersion, session_submit_action
from tests.integration.games.conftest import acting_seat, new_session

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def race(submit, count: int = 2) -> list:
    """Run ``submit()`` in ``count`` threads released together; returns results or exceptions."""
    barrier = threading.Barrier(count)
    outcomes: list = [None] * count

    def run(i: int) -> None:
        try:
            barrier.wait()
            outcomes[i] = submit()
        except Exception as exc:  # collected and checked by the test
            outcomes[i] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return outcomes


class ConcurrentSubmitTests:
    def test_two_submissions_at_the_same_version_apply_once_and_the_other_is_stale(self):
        session = new_session()
        _, seat = acting_seat(session)

        def submit():
            return session_submit_action(
                session=GameSession.objects.get(pk=session.pk),
                seat=seat,
                action={"type": "place", "area": "favor"},
                expected_version=1,
            )

        outcomes = race(submit)
        applied = [o for o in outcomes if isinstance(o, SessionAction)]
        stale = [o for o in outcomes if isinstance(o, StaleVersion)]
        assert len(applied) == 1 and len(stale) == 1, outcomes
        assert stale[0].current_version == 2
        assert GameSession.objects.get(pk=session.pk).version == 2
        assert SessionAction.objects.filter(session_id=session.pk).count() == 2

    def test_two_submissions_with_the_same_idempotency_key_apply_once_with_the_same_result(self):
        session = new_session()
        _, seat = acting_seat(session)

        def submit():
            return session_submit_action(
                session=GameSession.objects.get(pk=session.pk),
                seat=seat,
                action={"type": "place", "area": "favor"},
                expected_version=1,
                idempotency_key="tap-1",
            )

        outcomes = race(submit)
        assert all(isinstance(o, SessionAction) for o in outcomes), outcomes
        assert outcomes[0].pk == outcomes[1].pk
        assert GameSession.objects.get(pk=session.pk).version == 2
        assert SessionAction.objects.filter(session_id=session.pk).count() == 2

    def test_many_seats_racing_leave_a_consistent_log(self):
        session = new_session()
        _, seat = acting_seat(session)

        def submit():
            fresh = GameSession.objects.get(pk=session.pk)
            return session_submit_action(
                session=fresh,
                seat=seat,
                action={"type": "place", "area": "favor"},
                expected_version=fresh.version,
            )

        outcomes = race(submit, count=4)
        applied = [o for o in outcomes if isinstance(o, SessionAction)]
        assert len(applied) == 1
        fresh = GameSession.objects.get(pk=session.pk)
        seqs = list(fresh.actions.values_list("seq", flat=True))
        assert seqs == list(range(1, len(seqs) + 1))
        assert fresh.version == len(seqs)


@pytest.fixture
def counting_engine(monkeypatch):
    from games.engines.kernel import registry

    monkeypatch.setitem(registry.EXTRA_MODULES, "counting", "tests.integration.games.fake_engine")


def blocked_behind(first_writer, second: threading.Thread) -> None:
    """Start ``second`` while this thread's open transaction (``first_writer`` ran in it) holds the
    session row, wait until PostgreSQL shows it waiting for that lock, then commit."""
    from django.db import transaction

    with transaction.atomic():
        first_writer()
        second.start()
        with connection.cursor() as cursor:
            for _ in range(500):
                cursor.execute("SELECT count(*) FROM pg_locks WHERE NOT granted")
                if cursor.fetchone()[0]:
                    break
                threading.Event().wait(0.01)
            else:
                raise AssertionError("the second submit never waited for the lock")
    second.join(timeout=30)


def submit_in_thread(outcome: list, **submit) -> threading.Thread:
    """A thread that submits (its own connection, closed after) and appends the result or error."""

    def run():
        try:
            outcome.append(session_submit_action(**submit))
        except Exception as exc:  # checked by the test
            outcome.append(exc)
        finally:
            connection.close()

    return threading.Thread(target=run)


class WaitedLockTests:
    """A submit that waited for the row lock reads what the first writer committed meanwhile."""

    def test_a_key_logged_while_we_waited_returns_the_stored_action(self, counting_engine):
        session = session_create(game="counting", seat_names=["Anna", "Bruno"], seed=1)
        anna = session.seats.get(index=0)
        before = GameSession.objects.get(pk=session.pk)  # read before the first writer's change
        outcome: list = []
        first: list = []
        blocked_behind(
            lambda: first.append(
                session_submit_action(
                    session=GameSession.objects.get(pk=session.pk),
                    seat=anna,
                    action={"type": "add", "amount": 1},
                    expected_version=0,
                    idempotency_key="tap-1",
                )  # fmt: skip
            ),
            submit_in_thread(
                outcome,
                session=before,
                seat=anna,
                action={"type": "add", "amount": 1},
                expected_version=0,
                idempotency_key="tap-1",
            ),
        )
        assert isinstance(outcome[0], SessionAction), outcome
        assert outcome[0].pk == first[0].pk
        assert SessionAction.objects.filter(session_id=session.pk).count() == 1

    def test_an_action_logged_while_we_waited_moves_the_next_sequence_number(self, counting_engine):
        session = session_create(game="counting", seat_names=["Anna", "Bruno"], seed=1)
        anna, bruno = session.seats.get(index=0), session.seats.get(index=1)
        before = GameSession.objects.get(pk=session.pk)
        outcome: list = []
        blocked_behind(
            lambda: session_submit_action(
                session=GameSession.objects.get(pk=session.pk),
                seat=anna,
                action={"type": "add", "amount": 1},
                expected_version=0,
            ),  # fmt: skip
            submit_in_thread(
                outcome,
                session=before,
                seat=bruno,
                action={"type": "add", "amount": 2},
                expected_version=None,
                idempotency_key="bruno-1",
            ),
        )
        assert isinstance(outcome[0], SessionAction), outcome
        assert (outcome[0].seq, outcome[0].version) == (2, 2)
        fresh = GameSession.objects.get(pk=session.pk)
        assert (fresh.version, fresh.last_seq, fresh.state["total"]) == (2, 2, 3)
