"""make bench, sections "the server's CPU per tap, before and after" and "tables per server core":
the server pinned to one core (``taskset -c 0``), its clients on the other (core 1), so that what the
server spends is its own. Registered in tests/bench/run.py.

The figure before comes from another commit (``CHRONICLE_BENCH_BASE``, by default the commit before
the web half got its rooms), checked out into a temporary ``git worktree`` and served the same way
as the working tree, from its own database and Redis database, migrated by its own code; the two
servers run side by side and the taps alternate between them in rounds, so that both see the same
machine. ``CHRONICLE_BENCH_QUICK=1``: a few taps and a short curve (to check that the bench works).
"""

from __future__ import annotations

import contextlib
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from tests.bench.server import ROOT, BenchError, request, request_json, served, server_env

BASE = os.environ.get("CHRONICLE_BENCH_BASE", "8bd2735")
QUICK = os.environ.get("CHRONICLE_BENCH_QUICK", "") not in ("", "0")
SERVER_CORE, CLIENT_CORE = "0", 1
TAP_ROUNDS = 2 if QUICK else 6  # rounds of taps, alternating between the two servers
TAPS_PER_ROUND = 10 if QUICK else 50
WARM_TAPS = 3 if QUICK else 20
SEATS = 5
TABLES = 4 if QUICK else 12  # played one after the other: a finished game gives way to the next


# ---- the checkout before, its database --------------------------------------------------------


@contextlib.contextmanager
def checkout(commit: str) -> Iterator[Path]:
    """``commit`` checked out into a temporary git worktree, removed afterwards."""
    place = Path(tempfile.mkdtemp(prefix="chronicle-before-"))
    added = subprocess.run(
        ["git", "worktree", "add", "--detach", "--force", str(place), commit],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )  # fmt: skip
    if added.returncode:
        raise BenchError(f"git worktree add {commit} failed: {added.stderr[-1000:]}")
    try:
        yield place
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(place)], cwd=ROOT, check=False)
        subprocess.run(["git", "worktree", "prune"], cwd=ROOT, check=False)


def _with_path(url: str, path: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, path, parts.query, parts.fragment))


def before_env(root: Path) -> dict[str, str]:
    """The server environment for the checkout before: a database of its own (created afresh and
    migrated by its own code) and a Redis database of its own (its cache never lends the other
    server a panel or a version's facts)."""
    import psycopg

    env = server_env()
    name = "chronicle_bench_before"
    admin = psycopg.connect(_with_path(env["DATABASE_URL"], "/postgres"), autocommit=True)
    with admin:
        admin.execute(f"DROP DATABASE IF EXISTS {name}")
        admin.execute(f"CREATE DATABASE {name}")
    env["DATABASE_URL"] = _with_path(env["DATABASE_URL"], f"/{name}")
    env["REDIS_URL"] = _with_path(env["REDIS_URL"], "/1")
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=root, env=env, check=True
    )
    return env


# ---- tables and taps ------------------------------------------------------------------------

# Written against what every commit has: a session created by the service named session_create,
# wherever in games.services it is; the seat to act read back through the API.
CREATE_TABLES = """
import importlib, json, pkgutil, random, sys
import games.services as found
if not hasattr(found, "session_create"):
    for info in pkgutil.iter_modules(found.__path__):
        module = importlib.import_module(f"games.services.{info.name}")
        if hasattr(module, "session_create"):
            found = module
            break
n, seats, seed = (int(a) for a in sys.argv[1:4])
rng = random.Random(seed)
out = []
for _ in range(n):
    s = found.session_create(game="for_the_king", seat_names=["Anna", "Ben", "Cleo", "Dario", "Emma"][:seats],
                             seed=rng.randrange(2**31))
    out.append({"id": s.pk, "version": s.version, "tokens": dict(s.seats.values_list("index", "token"))})
print(json.dumps(out))
"""


def tables(root: Path, env: dict[str, str], port: int, count: int, seed: int) -> list[dict]:
    import json

    script = f"import sys; sys.argv = ['x', '{count}', '{SEATS}', '{seed}']\n" + CREATE_TABLES
    done = subprocess.run(
        [sys.executable, "manage.py", "shell", "-v0", "-c", script],
        cwd=root, env=env, capture_output=True, text=True, check=False,
    )  # fmt: skip
    if done.returncode:
        raise BenchError(f"creating tables failed: {done.stderr[-2000:]}")
    made = json.loads(done.stdout.strip().splitlines()[-1])
    for t in made:
        t["tokens"] = {int(k): v for k, v in t["tokens"].items()}
        view = request_json(
            port, "GET", f"/api/sessions/{t['id']}/seats/0/", headers={"X-Seat-Token": t["tokens"][0]}
        )
        t["active"] = view["active_seats"][0]
    return made


def tap(port: int, table: dict, rng: random.Random) -> None:
    """A tap and what it costs the server: the acting seat's choices and its submit (the API, as
    tests/bench/push.py ``submit``), then every screen's panel (each seat's, as its page fetches it
    on the nudge: HX-Request)."""
    from tests.bench.push import submit

    submit(port, table, rng)
    for seat in sorted(table["tokens"]):
        status, _ = request(
            port, "GET", f"/play/seat/{table['tokens'][seat]}/", headers={"HX-Request": "true"}
        )
        if status != 200:
            raise BenchError(f"a panel GET answered {status}")


def server_cpu(pid: int) -> float:
    """CPU seconds (user + system) of the server's processes: the master and its workers (its
    process group, started in a session of its own)."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            fields = Path(f"/proc/{entry}/stat").read_text().rpartition(")")[2].split()
        except OSError:
            continue
        if int(fields[2]) == pid:  # the process group
            total += int(fields[11]) + int(fields[12])
    return total / ticks


def _taps(server, played: list[dict], rng: random.Random, count: int) -> tuple[float, float]:
    """(server CPU seconds, wall seconds) for ``count`` taps, on the first table of ``played`` whose
    game is not over (a finished table is dropped from the list)."""
    cpu, t0 = server_cpu(server.pid), time.perf_counter()
    done = 0
    while done < count:
        if not played:
            raise BenchError("every table's game ended: make more tables")
        try:
            tap(server.port, played[0], rng)
        except IndexError:  # no choice left: the game is over
            played.pop(0)
            continue
        done += 1
    return server_cpu(server.pid) - cpu, time.perf_counter() - t0


@contextlib.contextmanager
def clients_on_their_core() -> Iterator[None]:
    """The bench process (the clients) on CLIENT_CORE while the server has SERVER_CORE."""
    cores = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {CLIENT_CORE})
    try:
        yield
    finally:
        os.sched_setaffinity(0, cores)


def tap_cpu_before_after() -> tuple[str, list[str]]:
    """The server's CPU per tap, before the change and after it, side by side in one run: gunicorn with
    one uvicorn worker (the production server's shape, one worker) pinned to core 0, PostgreSQL and
    Redis, the clients on core 1. A tap: the acting seat's choices and its submit through the API,
    then the panel of each of the table's 5 seats as its page fetches it on the nudge. The server's
    CPU is read from /proc (user + system of its processes) around each round of taps; the rounds
    alternate between the two servers. "Before" is the commit named by CHRONICLE_BENCH_BASE
    (8bd2735: before the web half got its rooms), served from a temporary git worktree with its own
    database; "after" is the working tree."""
    runs: dict[str, list[tuple[float, float]]] = {"before": [], "after": []}
    with checkout(BASE) as before_root, clients_on_their_core():
        env_before = before_env(before_root)
        with (
            served(1, env=env_before, root=before_root, cpus=SERVER_CORE) as before,
            served(1, cpus=SERVER_CORE) as after,
        ):
            sides = {"before": (before, before_root, env_before), "after": (after, ROOT, server_env())}
            # The same tables on both sides (the same seeds), played with the same draws.
            tabled = {
                name: tables(root, env, server.port, TABLES, seed=7)
                for name, (server, root, env) in sides.items()
            }
            for name, (server, _root, _env) in sides.items():
                _taps(server, tabled[name], random.Random(1), WARM_TAPS)
            for k in range(TAP_ROUNDS):
                for name, (server, _root, _env) in sides.items():
                    runs[name].append(_taps(server, tabled[name], random.Random(100 + k), TAPS_PER_ROUND))
            note = f"Servers: {after.note}; the same for the commit before."
    per_tap = {name: [cpu / TAPS_PER_ROUND for cpu, _wall in rounds] for name, rounds in runs.items()}
    wall = {name: [w / TAPS_PER_ROUND for _cpu, w in rounds] for name, rounds in runs.items()}
    b, a = statistics.median(per_tap["before"]), statistics.median(per_tap["after"])
    lines = [
        note,
        "",
        f"| server | CPU per tap: median of {TAP_ROUNDS} rounds | min | max | wall time per tap (median) |",
        "|---|---|---|---|---|",
        *(
            f"| {name} ({BASE if name == 'before' else 'working tree'}) | {statistics.median(v) * 1000:.1f} ms "
            f"| {min(v) * 1000:.1f} ms | {max(v) * 1000:.1f} ms | {statistics.median(wall[name]) * 1000:.1f} ms |"
            for name, v in per_tap.items()
        ),
        "",
        f"After / before: {a / b:.2f} ({TAP_ROUNDS} rounds of {TAPS_PER_ROUND} taps each, after "
        f"{WARM_TAPS} warm-up taps; {'lower' if a < b else '**not lower**'} after the change).",
    ]
    return "The server's CPU per tap, before and after the change (one core)", lines


# ---- tables per server core -----------------------------------------------------------------


def capacity_per_core() -> tuple[str, list[str]]:
    """The capacity curve of tests/bench/streams.py (each table: 6 lightweight screens holding their
    seat's event stream and fetching their panel on each nudge; a tap every 5 s per table; the figure:
    from just before the submit POST to the moment the last of the table's 6 screens has the new
    panel), with the server (gunicorn, one uvicorn worker) pinned to core 0 and the clients on core
    1, so that the curve is what one server core serves: the tables per server core are the most
    tables with a p95 within 250 ms. PostgreSQL and Redis are not pinned."""
    from tests.bench import streams
    from tests.bench.run import ms, new_table_dict, percentile

    steps = (1, 3) if QUICK else streams.CAPACITY_STEPS
    if QUICK:
        streams.STEP_SECONDS, streams.SETTLE = 4.0, 1.0
    streams.more_files()
    rng = random.Random(2027)
    lines = [
        "| tables | clients | taps | tap → every screen: p50 | p95 | max | missed | errors |",
        "|---|---|---|---|---|---|---|---|",
    ]
    made: list[dict] = []
    within, started = 0, time.perf_counter()
    with clients_on_their_core(), served(1, cpus=SERVER_CORE) as server, streams.Loop() as loop:
        made.append(new_table_dict(SEATS, seed=rng.randrange(2**31)))
        loop.run(streams.capacity_step(server.port, made[:1], rng), 600)  # warm-up, not reported
        for count in steps:
            while len(made) < count:
                made.append(new_table_dict(SEATS, seed=rng.randrange(2**31)))
            r = loop.run(streams.capacity_step(server.port, made[:count], rng), 600)
            e = r["everyone"] or [float("nan")]
            p95 = percentile(e, 95)
            lines.append(
                f"| {count} | {6 * count} | {r['taps']} | {ms(statistics.median(e))} | {ms(p95)} | {ms(max(e))} "
                f"| {r['missed']} | {len(r['errors'])} |"
            )
            print(f"   {count} tables on one server core: p95 {ms(p95)}", flush=True)
            if not p95 <= streams.CAPACITY_TARGET_P95 or r["missed"]:
                break
            within = count
            if time.perf_counter() - started > streams.CAPACITY_BUDGET:
                break
        note = f"Server: {server.note}; the clients on core {CLIENT_CORE}."
    verdict = f"**{within} tables per server core** (the most tables with a p95 within 250 ms and no missed change)."
    return "Tables per server core: the capacity curve with the server on one core", [
        note,
        "",
        *lines,
        "",
        verdict,
    ]
