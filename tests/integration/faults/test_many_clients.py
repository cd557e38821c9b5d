"""Six clients submitting 200 actions each to one session: none lost, none applied twice.

PostgreSQL (row locks), the fake Counting engine of the session tests
(tests/integration/games/fake_engine.py): its table "bump" adds one to the total and never ends
the game, so 1200 actions fit in one session and the total counts them. Each client is a thread
with its own database connection; it gives every intended action its own idempotency key, retries
on StaleVersion with the version the refusal carries, and now and then sends an action again with
the same key (a phone that lost the answer), which must give back the action already logged.
"""

import threading
import time

import pytest
from django.db import connection

from games.models import GameSession
from games.services.sessions import session_create
from games.services.taps import StaleVersion, session_submit_action
from games.services.undo import session_replay
from tests.guards import HANG_GUARD_SECONDS

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

CLIENTS = 6
ACTIONS = 200
RESEND_EVERY = 7


def test_six_clients_lose_no_action_and_apply_none_twice(counting_engine):
    session = session_create(game="counting", seat_names=["Anna", "Bruno"], seed=1)
    pk = session.pk
    stop = threading.Event()
    start = threading.Barrier(CLIENTS)
    hang_guard = time.monotonic() + HANG_GUARD_SECONDS  # only stops a hung race, never a slow one
    applied: dict[str, int] = {}  # idempotency key -> logged action id, as each client saw it
    resent: list[tuple[str, int, int]] = []  # key, first action id, id given back the second time
    stale_retries = [0] * CLIENTS
    errors: list[BaseException] = []
    lock = threading.Lock()

    def submit(mine: GameSession, key: str, version: int):
        return session_submit_action(
            session=mine,
            seat=None,
            action={"type": "bump"},
            expected_version=version,
            idempotency_key=key,
        )

    def client(n: int) -> None:
        try:
            start.wait(timeout=HANG_GUARD_SECONDS)
            mine = GameSession.objects.get(pk=pk)  # this client's copy (the service locks the row)
            version = mine.version
            for i in range(ACTIONS):
                key = f"client{n}-action{i}"
                while True:
                    if stop.is_set() or time.monotonic() > hang_guard:
                        raise TimeoutError(f"client {n} hung at action {i}")
                    try:
                        logged = submit(mine, key, version)
                        break
                    except StaleVersion as exc:  # someone else got in first: try again, fresh
                        stale_retries[n] += 1
                        version = exc.current_version
                version = logged.version
                with lock:
                    applied[key] = logged.pk
                if i % RESEND_EVERY == 0:  # the answer "got lost": the same key, an old version
                    again = submit(mine, key, max(logged.version - 1, 0))
                    with lock:
                        resent.append((key, logged.pk, again.pk))
        except BaseException as exc:
            errors.append(exc)
            stop.set()
        finally:
            connection.close()

    threads = [threading.Thread(target=client, args=(n,), daemon=True) for n in range(CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=max(hang_guard - time.monotonic(), 0) + 60)
    stop.set()
    assert not any(t.is_alive() for t in threads), "a client is still running"
    assert errors == [], errors[:3]

    fresh = GameSession.objects.get(pk=pk)
    log = list(fresh.actions.order_by("seq").values_list("pk", "seq", "version", "idempotency_key"))
    intended = {f"client{n}-action{i}" for n in range(CLIENTS) for i in range(ACTIONS)}
    # Nothing lost, nothing twice: one logged action per intended key, and no other.
    assert len(log) == len(intended) == CLIENTS * ACTIONS
    assert {key for *_, key in log} == intended
    assert {key: pk_ for pk_, *_, key in log} == applied
    # Resent keys gave back the action already logged.
    assert resent and all(first == again for _, first, again in resent)
    # Versions and sequence numbers contiguous; the cached state is the fold of the log.
    assert [seq for _, seq, _, _ in log] == list(range(1, len(log) + 1))
    assert [v for _, _, v, _ in log] == list(range(1, len(log) + 1)) and fresh.version == len(log)
    assert fresh.state["total"] == CLIENTS * ACTIONS
    assert fresh.state == session_replay(session=fresh)
    assert sum(stale_retries) > 0  # the clients really raced
