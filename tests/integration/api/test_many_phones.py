"""Many phones at once through the API, on whichever database the suite runs: in make test's first
pass that is SQLite, the embedded default of ``make run`` (a file database, WAL, IMMEDIATE
transactions), where overlapping writes used to answer 500 "database is locked".

Every answer is 200, 201, 400 or 409, never a 500 (the test client raises the server's exception,
which the test records as a failure), and the log holds each accepted action once: nothing lost,
nothing applied twice. Each phone is a thread with its own database connection. The Counting
engine (tests/integration/games/fake_engine.py) keeps the games short and the totals checkable.
No deadlines: only the hang guard of tests/guards.py.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from functools import partial

import pytest
from django.db import connection
from django.urls import reverse
from rest_framework.test import APIClient

from games.models import GameSession
from games.services.undo import session_replay
from tests.factories import UserFactory
from tests.guards import HANG_GUARD_SECONDS

pytestmark = [pytest.mark.database, pytest.mark.django_db(transaction=True)]

ANSWERS = {200, 201, 400, 409}
NAMES = ["Anna", "Bruno", "Chiara"]
POLL_SECONDS = 0.01


@pytest.fixture
def counting_engine(monkeypatch):
    from games.engines.kernel import registry

    monkeypatch.setitem(registry.EXTRA_MODULES, "counting", "tests.integration.games.fake_engine")


@pytest.fixture
def host_user():
    return UserFactory(username="host")


def host_client(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def phone(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_X_SEAT_TOKEN=token)
    return client


def together(calls: list[Callable[[], object]]) -> list:
    """Run the calls in threads released at once; each thread closes its own connection. Returns
    each call's result, or the exception it raised."""
    barrier = threading.Barrier(len(calls))
    results: list = [None] * len(calls)

    def run(i: int) -> None:
        try:
            barrier.wait(timeout=HANG_GUARD_SECONDS)
            results[i] = calls[i]()
        except BaseException as exc:
            results[i] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,), daemon=True) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=HANG_GUARD_SECONDS)
    assert not any(t.is_alive() for t in threads), "hung: a phone is still waiting"
    return results


def create_session(user) -> dict:
    body = {"game": "counting", "seat_names": NAMES}
    response = host_client(user).post(reverse("api:session-create"), body, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def seat_url(session_id: int, seat: int, what: str = "view") -> str:
    name = "seat-view" if what == "view" else "seat-action-submit"
    return reverse(f"api:{name}", kwargs={"session_id": session_id, "seat_index": seat})


def submit(client: APIClient, url: str, action: dict, version: int, key: str):
    response = client.post(
        url, {"action": action, "expected_version": version}, format="json", HTTP_IDEMPOTENCY_KEY=key
    )
    return response.status_code, response.json()


def assert_log_is_the_fold(session_id: int, accepted: dict[str, int]) -> None:
    """The log holds exactly the accepted keys, each once, contiguous; the state is its fold."""
    fresh = GameSession.objects.get(pk=session_id)
    log = list(fresh.actions.order_by("seq").values_list("seq", "version", "idempotency_key"))
    assert [seq for seq, _, _ in log] == list(range(1, len(log) + 1))
    assert [v for _, v, _ in log] == list(range(1, len(log) + 1)) and fresh.version == len(log)
    assert {key: seq for seq, _, key in log} == accepted
    assert fresh.state == session_replay(session=fresh)


def eight_at_once(host_user, session: dict, table: dict, r: int) -> tuple[list, list[str]]:
    """Round ``r``: eight requests at the version the table shows, released together. Returns the
    results (or exceptions) and each request's Idempotency-Key."""
    sid, version, turn = session["id"], table["version"], table["view"]["turn"]
    tokens = [s["token"] for s in session["seats"]]
    other = (turn + 1) % len(NAMES)
    table_url = reverse("api:session-table-action", kwargs={"session_id": sid})
    one, two = {"type": "add", "amount": 1}, {"type": "add", "amount": 2}
    requests = [  # (who, address, action, key)
        (phone(tokens[turn]), seat_url(sid, turn, "submit"), one, f"r{r}-tap"),
        (phone(tokens[turn]), seat_url(sid, turn, "submit"), one, f"r{r}-tap"),  # the double tap
        (phone(tokens[turn]), seat_url(sid, turn, "submit"), two, f"r{r}-two"),
        (phone(tokens[other]), seat_url(sid, other, "submit"), one, f"r{r}-out"),  # not its turn
        *[(host_client(host_user), table_url, {"type": "bump"}, f"r{r}-bump{i}") for i in range(4)],
    ]
    calls = [(lambda c=c, u=u, a=a, k=k: submit(c, u, a, version, k)) for c, u, a, k in requests]
    return together(calls), [k for *_, k in requests]


def play_one_game(session: dict, seat: int, game: int, accepted: dict[str, int], bad: list) -> None:
    """One phone: read its view, play when it is its turn (a stale version: read again)."""
    client = phone(session["seats"][seat]["token"])
    sid, n = session["id"], 0
    while True:
        got = client.get(seat_url(sid, seat))
        if got.status_code != 200:
            bad.append(("view", got.status_code))
            return
        view = got.json()
        if view["over"]:
            return
        if view["view"]["turn"] != seat:
            time.sleep(POLL_SECONDS)  # a phone waiting for its turn polls
            continue
        key = f"g{game}-s{seat}-{n}"
        n += 1
        code, body = submit(
            client, seat_url(sid, seat, "submit"), {"type": "add", "amount": 1}, view["version"], key
        )
        if code not in ANSWERS:
            bad.append((key, code, body))
        elif code == 200:
            assert body["view"]["version"] == body["action"]["version"]  # the answer carries the view
            accepted[key] = body["action"]["seq"]


def bump_a_few_times(host_user, session: dict, game: int, accepted: dict[str, int], bad: list) -> None:
    """The host's screen bumps the total now and then, racing the phones."""
    client = host_client(host_user)
    sid = session["id"]
    url = reverse("api:session-table-action", kwargs={"session_id": sid})
    for n in range(3):
        view = client.get(reverse("api:session-table", kwargs={"session_id": sid})).json()
        if view["over"]:
            return
        key = f"g{game}-bump{n}"
        code, body = submit(client, url, {"type": "bump"}, view["version"], key)
        if code not in ANSWERS:
            bad.append((key, code, body))
        elif code == 200:
            accepted[key] = body["action"]["seq"]


class ManyPhonesTests:
    def test_six_sessions_created_at_once_are_all_created(self, counting_engine, host_user):
        created = together([lambda: create_session(host_user) for _ in range(6)])
        assert all(isinstance(c, dict) for c in created), created
        assert GameSession.objects.count() == 6
        assert len({c["id"] for c in created}) == 6

    def test_rounds_of_eight_simultaneous_submissions_apply_exactly_one_each(
        self, counting_engine, host_user
    ):
        """Each round, eight requests at the version every phone sees: a double tap (two requests
        with one Idempotency-Key), another tap of the seat to play, a seat out of turn, four table
        bumps of the host. Exactly one action applies; a double tap answers one action twice."""
        host = host_client(host_user)
        session = create_session(host_user)
        accepted: dict[int, dict[str, int]] = {session["id"]: {}}
        for r in range(30):
            table = host.get(reverse("api:session-table", kwargs={"session_id": session["id"]})).json()
            if table["over"]:  # a game of Counting is short: the next one
                session = create_session(host_user)
                accepted[session["id"]] = {}
                table = host.get(reverse("api:session-table", kwargs={"session_id": session["id"]})).json()
            results, keys = eight_at_once(host_user, session, table, r)
            errors = [x for x in results if isinstance(x, BaseException)]
            assert errors == [], errors[:3]
            codes = [code for code, _ in results]
            assert set(codes) <= ANSWERS, results
            applied = {
                key: body["action"]["seq"]
                for key, (code, body) in zip(keys, results, strict=True)
                if code == 200
            }
            assert len(applied) == 1, results  # one winner at this version; the double tap counts once
            (key, seq), *_ = applied.items()
            if key == f"r{r}-tap":
                assert codes[:2] == [200, 200] and results[0][1]["action"] == results[1][1]["action"]
            assert codes[3] in (400, 409)  # out of turn, or stale
            accepted[session["id"]][key] = seq
        assert len(accepted) > 1  # several games were played to the end
        for sid, keys in accepted.items():
            assert_log_is_the_fold(sid, keys)

    def test_six_tables_playing_at_once_lose_nothing_and_never_fail(self, counting_engine, host_user):
        """Six tables, each with three phones and the host bumping, all at once; two games in a
        row. Every answer is 200, 400 or 409; each table's log is exactly what was accepted."""
        for game in range(2):
            sessions = together([lambda: create_session(host_user) for _ in range(6)])
            assert all(isinstance(s, dict) for s in sessions), sessions
            accepted: dict[int, dict[str, int]] = {s["id"]: {} for s in sessions}
            bad: list = []
            calls = [
                *[
                    partial(play_one_game, s, i, game, accepted[s["id"]], bad)
                    for s in sessions
                    for i in range(len(NAMES))
                ],
                *[partial(bump_a_few_times, host_user, s, game, accepted[s["id"]], bad) for s in sessions],
            ]
            results = together(calls)
            errors = [x for x in results if isinstance(x, BaseException)]
            assert errors == [], errors[:3]
            assert bad == []
            for sid, keys in accepted.items():
                assert_log_is_the_fold(sid, keys)
                assert GameSession.objects.get(pk=sid).status == GameSession.Status.FINISHED
