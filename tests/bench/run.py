"""make bench: the figures of docs/benchmarks.md, measured on this machine, against PostgreSQL.

Run through scripts/bench.sh (it starts the throwaway PostgreSQL and Redis and stops them after).
Each section prints and returns its figures; the report is written to docs/benchmarks.md.
"""

from __future__ import annotations

import collections
import inspect
import json
import os
import platform
import random
import re
import secrets
import statistics
import sys
import threading
import time
from functools import partial
from pathlib import Path

import django

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup()

from django.db import connection  # noqa: E402
from django.test.utils import CaptureQueriesContext, setup_test_environment  # noqa: E402

from games import versions  # noqa: E402
from games.engines.kernel.choices import random_action  # noqa: E402
from tests.bench.server import BenchError, request, request_json, served, server_env  # noqa: E402

SECTIONS = []


def section(fn):
    SECTIONS.append(fn)
    return fn


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def run_threads(targets) -> None:
    """Run the callables in parallel threads; re-raise the first failure in the caller."""
    failures = []

    def guarded(fn):
        try:
            fn()
        except BaseException as exc:
            failures.append(exc)

    threads = [threading.Thread(target=guarded, args=(fn,), daemon=True) for fn in targets]
    for t in threads:
        t.start()
    deadline = time.monotonic() + THREAD_DEADLINE
    for t in threads:
        t.join(max(0.0, deadline - time.monotonic()))
    if any(t.is_alive() for t in threads):
        raise BenchError(f"client threads still running after {THREAD_DEADLINE:.0f} s")
    if failures:
        raise failures[0]


def new_table(seats: int, seed: int):
    """A For the King session created through the service (cards dealt: version 1)."""
    from games.services.sessions import session_create

    names = ["Anna", "Ben", "Cleo", "Dario", "Emma"][:seats]
    return session_create(game="for_the_king", seat_names=names, seed=seed)


# ---- 1. Submit an action and read the seat view back, through the API ---------------------

API_SEATS = 3
API_PHASES = ((1, 150), (4, 75))  # (parallel clients, each on its own session; actions per client)
PING_REQUESTS = 1000  # per client
THREAD_DEADLINE = 150.0


def api_play(port: int, session, count: int, rng: random.Random, timings: list) -> None:
    """One phone after another at one table: the choices of the seat to act, submit one
    (expected_version, Idempotency-Key; tests/bench/push.py ``submit``), read that seat's view back."""
    from tests.bench.push import submit

    table = table_dict(session)
    for _ in range(count):
        seat = {"X-Seat-Token": table["tokens"][table["active"]]}
        path = f"/api/sessions/{session.pk}/seats/{table['active']}/"
        legal: dict = {}
        version, t1 = submit(port, table, rng, legal)
        t2 = time.perf_counter()
        view = request_json(port, "GET", path, headers=seat)
        t3 = time.perf_counter()
        if view["version"] != version:
            raise BenchError(f"session {session.pk}: version {view['version']} after {version}")
        timings.append((legal["legal"][0], t2 - t1, t3 - t2))
        if view["over"]:
            return


def ping_many(port: int, count: int, timings: list) -> None:
    for _ in range(count):
        t0 = time.perf_counter()
        status, _body = request(port, "GET", "/ping")
        if status != 200:
            raise BenchError(f"/ping answered {status}")
        timings.append(time.perf_counter() - t0)


@section
def api_submit_and_read():
    """Through the REST API, served by gunicorn on 127.0.0.1 (settings as in docker/compose.yaml:
    DEBUG=0, no TLS redirect, CONN_MAX_AGE=0 and DATABASE_POOL=1: a connection pool per worker)
    against PostgreSQL and Redis: For the King tables of 3 seats,
    each client plays real legal actions with its seats' X-Seat-Token: GET the seat's legal
    actions, POST one of them (`expected_version`, `Idempotency-Key`), GET the seat view back.
    "Submit + read" is the POST plus the GET of the view. Throughput counts all three requests and
    is compared with `/ping` (a bare Django JSON view: same middleware, no database) served by the
    same gunicorn with the same number of client threads. The client threads run on the same
    2 cores as the server, PostgreSQL and Redis."""
    rng = random.Random(2026)
    rows = []
    with served() as server:
        port = server.port
        for clients, per_client in API_PHASES:
            sessions = [new_table(API_SEATS, seed=rng.randrange(2**31)) for _ in range(clients)]
            timings: list = []
            seeds = [rng.randrange(2**31) for _ in sessions]
            t0 = time.perf_counter()
            run_threads(
                [
                    partial(api_play, port, s, per_client, random.Random(seed), timings)
                    for s, seed in zip(sessions, seeds, strict=True)
                ]
            )
            api_wall = time.perf_counter() - t0
            pings: list = []
            t0 = time.perf_counter()
            run_threads([partial(ping_many, port, PING_REQUESTS, pings) for _ in range(clients)])
            ping_wall = time.perf_counter() - t0
            actions = len(timings)
            api_rps = 3 * actions / api_wall
            ping_rps = len(pings) / ping_wall
            rows.append(
                {
                    "clients": clients,
                    "sessions": len(sessions),
                    "actions": actions,
                    "submit_read": [a[1] + a[2] for a in timings],
                    "legal": [a[0] for a in timings],
                    "submit": [a[1] for a in timings],
                    "read": [a[2] for a in timings],
                    "actions_per_s": actions / api_wall,
                    "api_rps": api_rps,
                    "pings": len(pings),
                    "ping": pings,
                    "ping_rps": ping_rps,
                }
            )
    lines = [
        f"Server: {server.note}. Client: Python threads, http.client, one connection per request.",
        "",
        "| clients | sessions | actions | submit + read median | p95 | submit (POST) median | "
        "seat view (GET) median | legal actions (GET) median | actions/s |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['clients']} | {r['sessions']} | {r['actions']} | {ms(statistics.median(r['submit_read']))} "
            f"| {ms(percentile(r['submit_read'], 95))} | {ms(statistics.median(r['submit']))} "
            f"| {ms(statistics.median(r['read']))} | {ms(statistics.median(r['legal']))} "
            f"| {r['actions_per_s']:.1f} |"
        )
    lines += [
        "",
        "| clients | API requests/s | `/ping` requests | `/ping` median | `/ping` p95 | `/ping` requests/s "
        "| API ÷ `/ping` throughput |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['clients']} | {r['api_rps']:.0f} | {r['pings']} | {ms(statistics.median(r['ping']))} "
            f"| {ms(percentile(r['ping'], 95))} | {r['ping_rps']:.0f} | {r['api_rps'] / r['ping_rps']:.2f} |"
        )
    return "Submit an action and read the seat view (REST API, gunicorn, PostgreSQL)", lines


@section
def campaign_page_queries():
    """SQL queries of the campaign page and the Realm Chronicles page with 1 and with 15 games."""
    import datetime

    from django.test import Client

    from campaign.services.chronicles import game_begin, game_result_record
    from campaign.services.houses import campaign_create, house_create
    from campaign.services.stickers import sticker_attach
    from tests.factories import UserFactory

    rows = []
    for games in (1, 15):
        user = UserFactory(username=f"bench-queries-{games}-{time.time_ns()}")
        campaign = campaign_create(name=f"bench {games}", created_by=user)
        houses = [house_create(campaign=campaign, name=f"H{i}", number=i + 1) for i in range(5)]
        for g in range(games):
            game = game_begin(campaign=campaign, king_name=f"K{g}", played_on=datetime.date(2026, 1, 1))
            sticker_attach(
                campaign=campaign,
                number=g + 1,
                row="wealth",
                positive=bool(g % 2),
                signer=houses[g % 5],
                game=game,
            )
            game_result_record(
                game=game,
                end="king_died",
                rows=[
                    {
                        "house": h,
                        "secret_agenda": "greedy",
                        "agenda_points": i,
                        "open_agenda_points": 0,
                        "coins_points": 0,
                        "power_points": 0,
                    }
                    for i, h in enumerate(houses)
                ],
            )
        client = Client()
        client.force_login(user)
        counts = {}
        for name, url in (
            ("campaign page", f"/campaigns/{campaign.pk}/"),
            ("Realm Chronicles", f"/campaigns/{campaign.pk}/chronicles/"),
        ):
            with CaptureQueriesContext(connection) as ctx:
                assert client.get(url).status_code == 200
            counts[name] = len(ctx)
        rows.append((games, counts))
    lines = ["| games | campaign page queries | Realm Chronicles queries |", "|---|---|---|"]
    lines += [f"| {g} | {c['campaign page']} | {c['Realm Chronicles']} |" for g, c in rows]
    return "SQL queries per page", lines


# ---- 3. Replay a session log ----------------------------------------------------------------

REPLAY_SEATS = 5
REPLAY_MAX_ACTIONS = 1500
REPLAY_REPEAT = 7


@section
def session_replay_time():
    """A 5-seat For the King session played to its end through `session_submit_action` (random
    legal actions, in this process, PostgreSQL), then rebuilt from its log by `session_replay`
    (load the log, fold it over the setup, JSON round-trip), and by the engine alone (setup and
    `apply` over payloads already in memory). Median of 7 runs each."""
    from games.models import GameSession
    from games.services.taps import session_rules, session_submit_action
    from games.services.undo import session_replay

    session = new_table(REPLAY_SEATS, seed=4242)
    rules = session_rules(session)
    seats = {s.index: s for s in session.seats.all()}
    rng = random.Random(4242)
    t0 = time.perf_counter()
    submitted = 0
    while session.status == GameSession.Status.ACTIVE and submitted < REPLAY_MAX_ACTIONS:
        active = rules.active_seats(session.state)[0]
        action = random_action(rules, session.state, active, rng)
        session_submit_action(
            session=session, seat=seats[active], action=action, expected_version=session.version
        )
        submitted += 1
    submit_wall = time.perf_counter() - t0
    logged = session.actions.filter(undone=False).count()
    if logged < 300:
        raise BenchError(f"the replay session logged only {logged} actions (need at least 300)")

    replays = []
    for _ in range(REPLAY_REPEAT):
        t0 = time.perf_counter()
        state = session_replay(session=session)
        replays.append(time.perf_counter() - t0)
    session.refresh_from_db()
    if state != session.state:
        raise BenchError("session_replay did not rebuild the cached state")

    payloads = list(session.actions.filter(undone=False).order_by("seq").values_list("payload", flat=True))
    folds = []
    for _ in range(REPLAY_REPEAT):
        t0 = time.perf_counter()
        state = rules.setup(session.config, session.seed)
        for payload in payloads:
            state = rules.apply(state, payload)
        folds.append(time.perf_counter() - t0)

    replay, fold = statistics.median(replays), statistics.median(folds)
    lines = [
        f"Session: {REPLAY_SEATS} seats, {logged} logged actions (the deal and {submitted} submitted), "
        f"status {session.status}.",
        "",
        "| what | total (median) | per action |",
        "|---|---|---|",
        f"| `session_replay` (log from PostgreSQL + fold + JSON) | {ms(replay)} | {replay / logged * 1e6:.0f} µs |",
        f"| engine only (setup + `apply` fold) | {ms(fold)} | {fold / logged * 1e6:.0f} µs |",
        f"| `session_submit_action`, in process (for comparison) | {ms(submit_wall)} | "
        f"{submit_wall / submitted * 1e6:.0f} µs |",
    ]
    return "Replaying a session log", lines


# ---- 4. Live updates: 20 tables, 6 polling phones each ---------------------------------------

LIVE_TABLES = 20
LIVE_PHONES = 6
LIVE_SEATS = 5  # 5 seat phones and the table screen (the host's) poll each table
POLL_INTERVAL = 1.0
LIVE_ACTIONS_PER_TABLE = 5
SUBMIT_GAP = 0.35  # one action every 0.35 s, tables in turn: each table every 7 s
LIVE_WARMUP = 2.0
LIVE_SETTLE = 5.0  # after the last action: how long phones get to see it
POLL_TIMEOUT = 5.0


def phone(
    port: int, session_id: int, version: int, first_poll: float, stop, seen: list, polls: list, errors: list
):
    """A phone polling its table's version endpoint every POLL_INTERVAL (fixed cadence)."""
    next_poll = first_poll
    while not stop.is_set():
        delay = next_poll - time.perf_counter()
        if delay > 0 and stop.wait(delay):
            return
        now = time.perf_counter()
        while next_poll <= now:
            next_poll += POLL_INTERVAL
        try:
            status, body = request(
                port,
                "GET",
                f"/play/s/{session_id}/version?v={version}&k={versions.poll_key(session_id)}",
                timeout=POLL_TIMEOUT,
            )
        except OSError as exc:
            if not stop.is_set():
                errors.append(repr(exc))
            continue
        answered = time.perf_counter()
        polls.append(answered - now)
        if status == 200:
            new = json.loads(body)["version"]
            if new > version:
                version = new
                seen.append((version, answered))
        elif status not in (204, 286):
            errors.append(f"status {status}")


@section
def live_updates():
    """20 For the King tables (5 seats) with 6 phones each (the 5 seats and the table screen):
    120 client threads poll their table's version endpoint (`/play/s/{id}/version?v=N`: 204 while
    unchanged, answered from the Redis cache) once a second, each with its own phase, against a
    gunicorn served as in the first section. One driver submits a real legal action through the
    API every 0.35 s, the tables in turn (5 actions per table); the service publishes the new
    version to the cache (and Redis pub/sub) after the commit. Latency: from just before the submit
    POST to the moment the last of the table's 6 phones has the new version (1 s polling puts
    the expected median near 0.86 s: the slowest of 6 uniformly phased polls)."""
    from tests.bench.push import submit

    rng = random.Random(77)
    tables = [new_table(LIVE_SEATS, seed=rng.randrange(2**31)) for _ in range(LIVE_TABLES)]
    driven = [table_dict(t) for t in tables]
    seen = [[[] for _ in range(LIVE_PHONES)] for _ in tables]
    polls: list = []
    errors: list = []
    submissions = []  # (table, version, submitted at)
    submit_times: list = []
    stop = threading.Event()
    threads = []
    with served() as server:
        port = server.port
        try:
            start = time.perf_counter() + 0.2
            for ti, table in enumerate(tables):
                for pi in range(LIVE_PHONES):
                    args = (port, table.pk, table.version, start + rng.random() * POLL_INTERVAL, stop)
                    thread = threading.Thread(
                        target=phone, args=(*args, seen[ti][pi], polls, errors), daemon=True
                    )
                    thread.start()
                    threads.append(thread)
            time.sleep(LIVE_WARMUP)
            polls_before = len(polls)
            drive_start = time.perf_counter()
            order = [ti for _ in range(LIVE_ACTIONS_PER_TABLE) for ti in range(LIVE_TABLES)]
            for k, ti in enumerate(order):
                delay = drive_start + k * SUBMIT_GAP - time.perf_counter()
                if delay > 0:
                    time.sleep(delay)
                version, t0 = submit(port, driven[ti], rng)
                submit_times.append(time.perf_counter() - t0)
                submissions.append((ti, version, t0))
            drive_wall = time.perf_counter() - drive_start

            def all_seen() -> bool:
                last = {ti: v for ti, v, _ in submissions}
                return all(
                    any(v >= last[ti] for v, _ in seen[ti][pi]) for ti in last for pi in range(LIVE_PHONES)
                )

            deadline = time.perf_counter() + LIVE_SETTLE
            while not all_seen() and time.perf_counter() < deadline:
                time.sleep(0.1)
            poll_wall = time.perf_counter() - drive_start
            polls_during = len(polls) - polls_before
        finally:
            stop.set()
            deadline = time.monotonic() + POLL_TIMEOUT + 5
            for thread in threads:
                thread.join(max(0.0, deadline - time.monotonic()))
    if any(t.is_alive() for t in threads):
        raise BenchError("phone threads still running after the server stopped")

    everyone, each_phone, missed = [], [], 0
    for ti, version, t0 in submissions:
        firsts = []
        for pi in range(LIVE_PHONES):
            times = [t for v, t in seen[ti][pi] if v >= version]
            if times:
                firsts.append(min(times) - t0)
        each_phone += firsts
        if len(firsts) == LIVE_PHONES:
            everyone.append(max(firsts))
        else:
            missed += 1
    if not everyone:
        raise BenchError(
            f"no action was seen by all phones of its table ({len(errors)} poll errors, e.g. {errors[:3]})"
        )
    lines = [
        f"Server: {server.note}.",
        "",
        f"{LIVE_TABLES} tables × {LIVE_PHONES} phones = {LIVE_TABLES * LIVE_PHONES} polling threads, "
        f"poll interval {POLL_INTERVAL:.0f} s; {len(submissions)} actions submitted in {drive_wall:.1f} s "
        f"({LIVE_ACTIONS_PER_TABLE} per table).",
        "",
        "| measure | median | p95 | max |",
        "|---|---|---|---|",
        f"| action submitted → all 6 phones of the table have the new version | {ms(statistics.median(everyone))} "
        f"| {ms(percentile(everyone, 95))} | {ms(max(everyone))} |",
        f"| action submitted → one phone has it | {ms(statistics.median(each_phone))} "
        f"| {ms(percentile(each_phone, 95))} | {ms(max(each_phone))} |",
        f"| the submit POST itself (answered after the commit and the nudge) | "
        f"{ms(statistics.median(submit_times))} | {ms(percentile(submit_times, 95))} | {ms(max(submit_times))} |",
        f"| one poll (request → answer) | {ms(statistics.median(polls))} | {ms(percentile(polls, 95))} "
        f"| {ms(max(polls))} |",
        "",
        f"Polls answered while driving: {polls_during / poll_wall:.0f} per second "
        f"(ideal {LIVE_TABLES * LIVE_PHONES / POLL_INTERVAL:.0f}); actions not seen by every phone within "
        f"{LIVE_SETTLE:.0f} s: {missed}; poll errors: {len(errors)}.",
    ]
    return "Live updates: 20 tables, 6 polling phones each", lines


# ---- 5. One request per tap, side by side with /ping (production server and the embedded one) -

RATIO_ROUNDS = 300
RATIO_TARGETS = {"submit": (3.0, 4.0), "seat view": (2.0, 3.0)}  # (p50, p95) at most × /ping


def embedded_env(tmp: str) -> dict[str, str]:
    """make run's configuration: SQLite in a file, no Redis (tasks in-process), DEBUG=0 here."""
    from tests.bench.server import server_env

    env = {k: v for k, v in server_env().items() if k != "REDIS_URL"}
    env["DATABASE_URL"] = f"sqlite:///{tmp}/bench.sqlite3"
    import subprocess

    subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), "migrate", "--noinput", "-v0"],
        env=env,
        cwd=ROOT,
        check=True,
    )
    return env


def ratio_rounds(port: int, table: dict, rng: random.Random, rounds: int) -> dict[str, list[float]]:
    """Interleaved on one connection-per-request client: /ping, the seat view GET, a submit POST
    (whose answer carries the new view), round after round, so all three meet the same load."""
    from tests.bench.push import submit

    timings: dict[str, list[float]] = {"ping": [], "seat view": [], "submit": []}
    for _ in range(rounds):
        t0 = time.perf_counter()
        status, _ = request(port, "GET", "/ping")
        timings["ping"].append(time.perf_counter() - t0)
        if status != 200:
            raise BenchError(f"/ping answered {status}")
        seat = {"X-Seat-Token": table["tokens"][table["active"]]}
        t0 = time.perf_counter()
        request_json(port, "GET", f"/api/sessions/{table['id']}/seats/{table['active']}/", headers=seat)
        timings["seat view"].append(time.perf_counter() - t0)
        _, t0 = submit(port, table, rng)
        timings["submit"].append(time.perf_counter() - t0)
    return timings


def ratio_lines(label: str, timings: dict[str, list[float]]) -> list[str]:
    ping50, ping95 = statistics.median(timings["ping"]), percentile(timings["ping"], 95)
    lines = []
    for name in ("ping", "seat view", "submit"):
        p50, p95 = statistics.median(timings[name]), percentile(timings[name], 95)
        if name == "ping":
            verdict = ""
        else:
            t50, t95 = RATIO_TARGETS[name]
            r50, r95 = p50 / ping50, p95 / ping95
            ok = "met" if r50 <= t50 and r95 <= t95 else "**not met**"
            verdict = f"{r50:.1f}× / {r95:.1f}× (target ≤ {t50:.0f}× / ≤ {t95:.0f}×: {ok})"
        lines.append(f"| {label} | {name} | {len(timings[name])} | {ms(p50)} | {ms(p95)} | {verdict} |")
    return lines


@section
def request_path_ratios():
    """The request path against the bare JSON view `/ping` (same middleware, no database), measured
    side by side in one run on the same server: one client, rounds of `/ping`, the seat view GET
    (`/api/sessions/{id}/seats/{i}/`, X-Seat-Token) and a submit POST of a real legal action (its
    answer carries the new seat view; the legal actions GET that picks it is not timed), one
    connection per request. Production: gunicorn with uvicorn workers, PostgreSQL, Redis. Embedded:
    make run's uvicorn, SQLite, no Redis. The client shares the 2 cores with the server and the
    databases (and, on a shared machine, with whatever else runs)."""
    import tempfile

    from tests.bench.push import tables_in

    rng = random.Random(5)
    lines = ["| server | request | n | p50 | p95 | ÷ `/ping` p50 / p95 |", "|---|---|---|---|---|---|"]
    notes = []
    with served() as server:
        table = new_table_dict(5, seed=rng.randrange(2**31))
        ratio_rounds(server.port, table, rng, 20)  # warm up
        lines += ratio_lines("production", ratio_rounds(server.port, table, rng, RATIO_ROUNDS))
        notes.append(f"Production: {server.note}.")
    with tempfile.TemporaryDirectory(prefix="chronicle-bench-") as tmp:
        env = embedded_env(tmp)
        with served(kind="embedded", env=env) as server:
            table = tables_in(env, 1, 5, rng.randrange(2**31))[0]
            ratio_rounds(server.port, table, rng, 20)
            lines += ratio_lines("embedded", ratio_rounds(server.port, table, rng, RATIO_ROUNDS))
            notes.append(f"Embedded: {server.note}.")
    return "One request per tap: submit and seat view against /ping", [*notes, "", *lines]


def new_table_dict(seats: int, seed: int) -> dict:
    return table_dict(new_table(seats, seed))


def table_dict(t) -> dict:
    """What the bench clients know of a table: id, version, seat tokens, the seat to act."""
    from games.services.taps import session_rules

    return {
        "id": t.pk,
        "version": t.version,
        "tokens": dict(t.seats.values_list("index", "token")),
        "active": session_rules(t).active_seats(t.state)[0],
    }


# ---- 6. Push: every phone of the table has the change -----------------------------------------

PUSH_PHONES = 6  # the 5 seats, and a second phone on seat 0 (as the table screen would be)
PUSH_TARGET_P95 = 0.250
PUSH_SETTLE = 5.0


def push_phones(tables: list[dict]):
    from tests.bench.push import Phone

    phones = []
    for ti, t in enumerate(tables):
        for pi in range(PUSH_PHONES):
            token = t["tokens"][pi % len(t["tokens"])]
            phones.append(
                Phone(ti, f"/play/seat/{token}/events/?lastEventId=session-{t['id']}:{t['version']}")
            )
    return phones


def push_run(
    port: int, tables: list[dict], actions: int, gap: float, rng: random.Random, duration: float | None = None
) -> dict:
    """Open every phone's stream, submit ``actions`` real actions (tables in turn, one every
    ``gap`` s), then give the phones PUSH_SETTLE s: latency to all phones of the table, misses."""
    from tests.bench.push import Fleet, had, submit

    phones = push_phones(tables)
    submissions, errors = [], []
    with Fleet(port, phones) as fleet:
        start = time.perf_counter()
        for k in range(actions):
            if duration is not None and time.perf_counter() - start >= duration:
                break
            delay = start + k * gap - time.perf_counter()
            if delay > 0:
                time.sleep(delay)
            ti = k % len(tables)
            try:
                version, t0 = submit(port, tables[ti], rng)
            except BenchError as exc:
                errors.append(str(exc))
                continue
            submissions.append((ti, version, t0))
        held = time.perf_counter() - start
        deadline = time.perf_counter() + PUSH_SETTLE
        last = {ti: v for ti, v, _ in submissions}
        while time.perf_counter() < deadline and not all(
            had(p, last[p.table]) is not None for p in phones if p.table in last
        ):
            time.sleep(0.05)
        errors += fleet.errors()
    by_table: dict[int, list] = {}
    for p in phones:
        by_table.setdefault(p.table, []).append(p)
    everyone, missed = [], 0
    for ti, version, t0 in submissions:
        times = [had(p, version) for p in by_table[ti]]
        if any(t is None for t in times):
            missed += 1
        else:
            everyone.append(max(times) - t0)
    return {
        "connections": len(phones),
        "submissions": len(submissions),
        "held": held,
        "everyone": everyone,
        "missed": missed,
        "errors": errors,
    }  # errors: refused or dropped streams and failed submits, as text


def push_line(label: str, r: dict) -> str:
    e = r["everyone"] or [float("nan")]
    verdict = "met" if r["everyone"] and percentile(e, 95) <= PUSH_TARGET_P95 else "**not met**"
    return (
        f"| {label} | {r['connections']} | {r['submissions']} in {r['held']:.0f} s | {ms(statistics.median(e))} "
        f"| {ms(percentile(e, 95))} ({verdict}) | {ms(max(e))} | {r['missed']} | {len(r['errors'])} |"
    )


@section
def live_push():
    """Server-sent events (games/live/streams.py): each phone holds its seat's event stream
    (`/play/seat/<token>/events/`, as the page opens it; 6 per table: the 5 seats and a second
    phone on seat 0). A driver submits real legal actions through the API, the tables in turn.
    Latency: from just before the submit POST to the moment the last of the table's 6 phones has
    an event with the new version (target: 250 ms p95). A missed change: a phone of the table
    never had that version within 5 s. Errors: refused or dropped streams, failed submits.
    Production: gunicorn with uvicorn workers, PostgreSQL, Redis (each worker subscribes to the
    nudges on Redis once); embedded: make run's uvicorn, SQLite, no Redis (in-process). The phones
    are asyncio connections in the bench process, on the same 2 cores as everything else."""
    import tempfile

    from tests.bench.push import tables_in

    rng = random.Random(11)
    lines = [
        "| run | open streams | actions | all 6 phones have it: median | p95 | max | missed | errors |",
        "|---|---|---|---|---|---|---|---|",
    ]
    notes = []
    with served() as server:
        tables = [new_table_dict(5, seed=rng.randrange(2**31)) for _ in range(20)]
        lines.append(push_line("20 tables × 6 phones", push_run(server.port, tables, 100, 0.2, rng)))
        tables = [new_table_dict(5, seed=rng.randrange(2**31)) for _ in range(100)]
        lines.append(
            push_line(
                "100 tables × 6 phones, held 60 s",
                push_run(server.port, tables, 10**6, 0.12, rng, duration=60.0),
            )
        )
        notes.append(f"Production: {server.note}.")
    with tempfile.TemporaryDirectory(prefix="chronicle-bench-") as tmp:
        env = embedded_env(tmp)
        with served(kind="embedded", env=env) as server:
            tables = tables_in(env, 1, 5, rng.randrange(2**31))
            lines.append(
                push_line("embedded: 1 table × 6 phones", push_run(server.port, tables, 30, 0.3, rng))
            )
            notes.append(f"Embedded: {server.note}.")
    return "Live push: every phone of the table has the change", [*notes, "", *lines]


# ---- 7. Tap to glass: Chromium phones at a table (issue 27, item 1) ----------------------------

GLASS_TARGET_P95 = 0.100
GLASS_TARGET_RATIO = 3.0


def glass_lines(label: str, r: dict) -> list[str]:
    """The figure beside the panel GET alone two ways: as a page does it (its refresh: fetch and morph,
    in Chromium, as the figure is measured) and from a plain client (the server's part alone)."""
    e, own, panel, redraw = r["everyone"], r["own"], r["panel"], r["redraw"]
    p95 = percentile(e, 95)

    def ratio(alone: list[float]) -> str:
        r50, r95 = statistics.median(e) / statistics.median(alone), p95 / percentile(alone, 95)
        met = p95 <= GLASS_TARGET_P95 and r95 <= GLASS_TARGET_RATIO
        return f"{r50:.1f}× / {r95:.1f}× ({'met' if met else '**not met**'})"

    def row(words: str, xs: list[float], last: str = "") -> str:
        return (
            f"| {label} | {words} | {len(xs)} | {ms(statistics.median(xs))} | {ms(percentile(xs, 95))} "
            f"| {ms(max(xs))} | {last} |"
        )

    nudged = r.get("nudged") or []
    return [
        row("tap → every other phone (5)", e, f"{ratio(redraw)}; {ratio(panel)}"),
        row("tap → the tapping phone's own panel", own),
        *(
            [row("tap → every other phone has the nudge (the event, before its fetch)", nudged)]
            if nudged
            else []
        ),
        *(
            [
                row("the last phone: tap → its nudge", [p[0] for p in phases]),
                row(
                    "the last phone: its nudge → its panel GET answered (5 phones ask at once)",
                    [p[1] for p in phases],
                ),
                row("the last phone: answered → shown (the body read, the morph)", [p[2] for p in phases]),
            ]
            if (phases := r.get("phases"))
            else []
        ),
        row("the panel GET alone, as a page does it (its refresh: fetch and morph)", redraw, "1×"),
        row("the panel GET alone, from a plain client (the server's part)", panel, "1×"),
    ]


@section
def tap_to_glass():
    """Chromium phones at a table, as people see it (tests/bench/glass.py): Debian's Chromium driven
    by Playwright on this machine, 6 phones at a For the King table of 5 seats (the 5 seat phones and
    a second phone on seat 0: issue 27's "6 Chromium phones"). A tap is a click on the acting phone's
    first choice, timed in that page; each page notes when the panel of each version first enters its
    document (a MutationObserver on `data-version`, in the page; the pages and the tap read the same
    clock, `performance.timeOrigin + performance.now()`). "Tap → every other phone": until the last of
    the 5 other phones has the new panel (the nudge, then each page's own fetch, render and swap).
    Beside it in the same run, interleaved with the taps, the panel GET alone, two ways: as a page
    does it (a phone's own refresh, live.js: from asking for its panel until the panel is morphed in,
    timed in the page, measured as the figure is) and from a plain client (`HX-Request`: the server's
    part alone). Targets (issue 27): p95 at most 100 ms and at most 3× the panel GET's p95, on both
    servers; the last column gives the ratio to each way of measuring the panel GET (page; plain
    client). Chromium, the servers and the databases share the 2 cores."""
    import tempfile

    from tests.bench.glass import chromium, table_with_host, taps

    lines = [
        "| server | measure | n | median | p95 | max | ÷ panel GET p50 / p95: as a page does it; from a plain client (target p95 ≤ 100 ms, ≤ 3×) |",
        "|---|---|---|---|---|---|---|",
    ]
    notes, runs = [], {}
    with chromium() as browser:
        with served() as server:
            table = table_with_host(server_env(), 91)
            runs["production"] = taps(browser, server.port, table)
            notes.append(f"Production: {server.note}.")
        with tempfile.TemporaryDirectory(prefix="chronicle-bench-") as tmp:
            env = embedded_env(tmp)
            with served(kind="embedded", env=env) as server:
                runs["embedded"] = taps(browser, server.port, table_with_host(env, 92))
                notes.append(f"Embedded: {server.note}.")
    for label, r in runs.items():
        lines += glass_lines(label, r)
    return "Tap to glass: a tap on one phone, every other phone redrawn (Chromium)", [
        *notes,
        "",
        *lines,
        "",
        *glass_cpu_lines(runs),
    ]


def glass_cpu_lines(runs: dict) -> list[str]:
    """Where a change's CPU goes (the profile of issue 27, item 2), measured in the same runs."""
    from tests.bench.glass import CPU_KINDS

    head = " | ".join(runs)
    lines = [
        "Where the CPU of one change goes, measured in the same runs (`/proc`: user and system time of",
        "each process, its ended threads included, a page's main thread apart; per change shown, the",
        "taps timed above and the untimed ones, with the panel GETs alone measured between them). With",
        "2 cores, the time until the last screen has the change cannot be less than about half of",
        "what all of them spend on it.",
        "",
        f"| CPU per change | {head} |",
        "|---|" + "---|" * len(runs),
    ]
    for kind, words in CPU_KINDS:
        lines.append(f"| {words} | " + " | ".join(ms(r["cpu"].get(kind, 0.0)) for r in runs.values()) + " |")
    lines.append("| all of these | " + " | ".join(ms(sum(r["cpu"].values())) for r in runs.values()) + " |")
    return lines


# ---- 8. Streams at scale and the capacity of one machine (issue 27, items 3 and 5) -----------------


@section
def streams_at_scale():
    """One process shaped as `make run` serves (uvicorn, SQLite, no Redis, DEBUG=0; the process cap
    CHRONICLE_MAX_STREAMS raised to 4,500 for this run, the caps per seat and per table as by default)
    holds 4,000 seat event streams (200 tables of 5 seats: 4 streams a seat, 20 a table), opened by
    asyncio clients in the bench process, each read up to `stream-open` and held; its threads
    (`/proc/<pid>/task`) and resident memory (VmRSS) with one stream open and with 4,000. Then, the
    4,000 closed and a driver submitting a real action every 0.1 s to those tables: 300 panel GETs
    (a seat's panel as its page fetches it, one after another) without, then with 1,000 more clients
    that open a stream and never read a byte (the smallest receive buffer; games/live/caps.py cuts a
    client whose buffers stay full for 30 s)."""
    import tempfile

    from tests.bench.push import tables_in
    from tests.bench.streams import more_files, streams_at_scale_run

    more_files()
    with tempfile.TemporaryDirectory(prefix="chronicle-bench-") as tmp:
        env = {**embedded_env(tmp), "CHRONICLE_MAX_STREAMS": "4500"}
        tables = tables_in(env, 200, 5, 77)
        with served(kind="embedded", env=env) as server:
            lines = streams_at_scale_run(server, tables)
            note = f"Server: {server.note}."
    return "Streams at scale: 4,000 open streams in one process, 1,000 slow clients", [note, "", *lines]


@section
def capacity_curve():
    """The number of tables one machine serves (issue 27, item 5), on the production server
    (gunicorn, 3 uvicorn workers, PostgreSQL, Redis). Each table has 6 lightweight clients (its 5
    seats and a second phone on seat 0), asyncio connections in the bench process: each holds its
    seat's event stream and, on each nudge of a newer version, fetches its seat's panel (HX-Request),
    as the page does (a fetch that fails, with no answer or refused, is an error, and is asked again a
    second later, as live.js does). Each table taps once every 5 s (random phase): the acting seat's choices (the
    API), one submitted. The figure: from just before the submit POST to the moment the last of the
    table's 6 clients has the new panel. Steps of 12 s of taps (and 3 s to settle) with more and more
    tables (1, 3, 10, 25, 50, 100, 150, 200, 250, 300, 400), after a warm-up table, until the p95
    passes 250 ms or the curve's time budget (5 min) is spent. A missed change: a screen of the table never had it
    by the end of its step; the errors are listed by kind below the curve. The clients share
    the 2 cores with the server, PostgreSQL and Redis."""
    from tests.bench.streams import (
        CAPACITY_BUDGET,
        CAPACITY_STEPS,
        CAPACITY_TARGET_P95,
        Loop,
        capacity_step,
        more_files,
    )  # fmt: skip

    more_files()
    rng = random.Random(2027)
    lines = [
        "| tables | clients | taps | tap → every screen: p50 | p95 | max | missed | errors |",
        "|---|---|---|---|---|---|---|---|",
    ]
    tables: list[dict] = []
    kinds: list[str] = []
    started, passed = time.perf_counter(), None
    with served() as server, Loop() as loop:
        # A warm-up table first, not reported: a fresh server's first requests (connections, caches,
        # imports) would otherwise put the curve's first point above the rest.
        tables.append(new_table_dict(5, seed=rng.randrange(2**31)))
        loop.run(capacity_step(server.port, tables[:1], rng), 600)
        for count in CAPACITY_STEPS:
            while len(tables) < count:
                tables.append(new_table_dict(5, seed=rng.randrange(2**31)))
            r = loop.run(capacity_step(server.port, tables[:count], rng), 600)
            e = r["everyone"] or [float("nan")]
            p95 = percentile(e, 95)
            lines.append(
                f"| {count} | {6 * count} | {r['taps']} | {ms(statistics.median(e))} | {ms(p95)} | {ms(max(e))} "
                f"| {r['missed']} | {len(r['errors'])} |"
            )
            print(f"   {count} tables: p95 {ms(p95)}", flush=True)
            if r["errors"]:
                counted = collections.Counter(re.sub(r"/[\w-]{20,}/|\d+", "…", e) for e in r["errors"])
                kinds.append(
                    f"- {count} tables: " + "; ".join(f"{n} × {k}" for k, n in counted.most_common(4))
                )
            if passed is None and not p95 <= CAPACITY_TARGET_P95:
                passed = count
            if passed or time.perf_counter() - started > CAPACITY_BUDGET:
                break
        note = f"Server: {server.note}."
    ended = (
        f"The p95 passed 250 ms at {passed} tables."
        if passed
        else f"The p95 stayed within 250 ms up to {count} tables (the last step run)."
    )
    errors = ["Errors by kind (a failed fetch asked again counts once per try):", *kinds] if kinds else []
    return "The capacity of one machine: tables against tap-to-every-screen", [
        note, "", *lines, "", ended, *([""] + errors if errors else []),
    ]  # fmt: skip


# ---- The campaign over months (issue 16): its own module ------------------------------------------

from tests.bench.campaign_pages import campaign_over_months  # noqa: E402

section(campaign_over_months)

from tests.bench.long_night import long_night_section  # noqa: E402

section(long_night_section)

from tests.bench.panel_profile import panel_fetch_profile  # noqa: E402

section(panel_fetch_profile)

from tests.bench.before_after import capacity_per_core, tap_cpu_before_after  # noqa: E402

section(tap_cpu_before_after)
section(capacity_per_core)


def machine() -> str:
    memory = "?"
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                memory = f"{int(line.split()[1]) / 1024**2:.1f} GiB"
    except OSError:
        pass
    with connection.cursor() as cursor:
        cursor.execute(
            "SHOW server_version" if connection.vendor == "postgresql" else "SELECT sqlite_version()"
        )
        database = f"{connection.vendor} {cursor.fetchone()[0]}"
    redis_version = "not configured"
    if os.environ.get("REDIS_URL"):
        import redis

        redis_version = redis.Redis.from_url(os.environ["REDIS_URL"]).info()["redis_version"]
    import gunicorn
    import uvicorn

    return (
        f"{platform.machine()}, {os.cpu_count()} cores, {memory} memory, {platform.system()} "
        f"{platform.release()}; Python {platform.python_version()}, Django {django.get_version()}, "
        f"gunicorn {gunicorn.__version__}, uvicorn {uvicorn.__version__}; {database}, Redis {redis_version}"
    )


# The report's order: what people see first, then the request path, push, capacity, long nights,
# and the older sections.
ORDER = (
    "tap_cpu_before_after", "capacity_per_core", "tap_to_glass", "panel_fetch_profile", "request_path_ratios", "live_push", "capacity_curve",
    "streams_at_scale", "long_night_section", "api_submit_and_read", "live_updates", "session_replay_time",
    "campaign_page_queries", "campaign_over_months",
)  # fmt: skip


BUSY_LOAD = 1.5  # a 1-minute load average above this before the run: other work shares the machine


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"{one:.1f} (1 min) / {five:.1f} (5 min)"


def header(started: str, start_load: str, seconds: float) -> list[str]:
    return [
        "# Benchmarks",
        "",
        f"Written whole by one `make bench` run (`scripts/bench.sh`) on {started}, in {seconds / 60:.0f} min: "
        f"{machine()}. Every figure below, and every ratio, comes from this one run; nothing is written by "
        "hand. The clients (the bench process, and Chromium for the first section) run on the same 2 cores "
        "as the servers, PostgreSQL and Redis.",
        "",
        f"Load average at the start: {start_load}; at the end: {load()}. "
        + (
            "Other work shared the machine at the start (a load above 1.5 before the bench's own), so "
            "the times are noisier and slower than on a quiet machine; "
            if float(start_load.split()[0]) > BUSY_LOAD
            else "The machine was otherwise quiet at the start; "
        )
        + "the ratios are measured side by side in the same run.",
        "",
    ]


def main():
    setup_test_environment()
    from django.conf import settings

    settings.ALLOWED_HOSTS = ["*"]
    settings.API_RATE = ""  # the bench is one caller making thousands of requests (servers: server_env)
    # One key for the bench and its servers: the version endpoint's key is signed with it.
    settings.SECRET_KEY = os.environ["CHRONICLE_BENCH_SECRET_KEY"] = secrets.token_urlsafe(50)
    started, start_load, t0 = time.strftime("%Y-%m-%d %H:%M %Z"), load(), time.perf_counter()
    report: list[str] = []
    only = set(sys.argv[1:])
    for fn in sorted(SECTIONS, key=lambda f: ORDER.index(f.__name__)):
        if only and fn.__name__ not in only:
            continue
        t1 = time.perf_counter()
        try:
            title, lines = fn()
        except BenchError as exc:
            sys.exit(f"make bench stopped in {fn.__name__}: {exc}")
        took = f"Measured in {time.perf_counter() - t1:.0f} s (`scripts/bench.sh {fn.__name__}`)."
        print(f"== {title}")
        print("\n".join(lines), flush=True)
        report += [f"## {title}", "", inspect.cleandoc(fn.__doc__ or ""), "", took, "", *lines, ""]
    if not only:
        text = "\n".join([*header(started, start_load, time.perf_counter() - t0), *report])
        (ROOT / "docs" / "benchmarks.md").write_text(text)


if __name__ == "__main__":
    main()
