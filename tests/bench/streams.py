"""make bench, sections "streams at scale" and "the capacity of one machine" (issue 27, items 3 and 5):
lightweight clients on one asyncio loop (no browser): event streams, panel fetches and taps.
Registered in tests/bench/run.py."""

from __future__ import annotations

import asyncio
import json
import os
import random
import resource
import socket
import statistics
import threading
import time
import uuid

from tests.bench.server import HOST, BenchError, request

STREAMS = 4000
STREAM_TABLES = 200  # 5 seats each: 4 streams a seat, 20 a table (under the caps of games/live/caps.py)
SLOW_CLIENTS = 1000
NORMAL_REQUESTS = 300
THREADS_TARGET, MEMORY_TARGET_MB = 50, 150
OPEN_BATCH = 200


def more_files() -> None:
    """Thousands of sockets: the soft open-file limit raised to the hard one (the server inherits it)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def threads_and_memory(pid: int) -> tuple[int, float]:
    """The process's threads and resident memory (MB)."""
    threads = len(os.listdir(f"/proc/{pid}/task"))
    for line in open(f"/proc/{pid}/status").read().splitlines():  # noqa: SIM115
        if line.startswith("VmRSS:"):
            return threads, int(line.split()[1]) / 1024
    return threads, 0.0


async def http(port: int, method: str, path: str, headers: dict | None = None, body: dict | None = None):
    """One request on its own connection: (status, body)."""
    reader, writer = await asyncio.open_connection(HOST, port)
    try:
        data = b"" if body is None else json.dumps(body).encode()
        head = {"Host": HOST, "Connection": "close", "Accept": "application/json", **(headers or {})}
        if body is not None:
            head.update({"Content-Type": "application/json", "Content-Length": str(len(data))})
        lines = "".join(f"{k}: {v}\r\n" for k, v in head.items())
        writer.write(f"{method} {path} HTTP/1.1\r\n{lines}\r\n".encode() + data)
        answer = await reader.read()
    finally:
        writer.close()
    if not answer.startswith(b"HTTP/"):  # closed with no answer (a server past its limit): counted
        raise ConnectionError(f"{method} {path.split('?')[0]}: no answer")
    status = int(answer.split(b" ", 2)[1])
    return status, answer.partition(b"\r\n\r\n")[2]


async def stream(port: int, path: str, on_version, opened: asyncio.Event | None = None) -> None:
    """Hold a seat's event stream; ``on_version(v)`` for each nudge."""
    reader, writer = await asyncio.open_connection(HOST, port)
    try:
        writer.write(f"GET {path} HTTP/1.1\r\nHost: {HOST}\r\nAccept: text/event-stream\r\n\r\n".encode())
        status = await reader.readline()
        if b" 200 " not in status:
            raise BenchError(f"a stream answered {status!r}")
        event = None
        while line := await reader.readline():
            text = line.decode().strip()
            if text.startswith("event:"):
                event = text[6:].strip()
                if event == "stream-open" and opened is not None:
                    opened.set()
            elif text.startswith("data:") and event == "session_version":
                on_version(json.loads(text[5:])["version"])
    finally:
        writer.close()


def seat_path(table: dict, seat: int) -> str:
    return f"/play/seat/{table['tokens'][seat]}/events/?lastEventId=session-{table['id']}:{table['version']}"


class Loop:
    """An asyncio loop in a background thread, for the clients."""

    def __enter__(self) -> Loop:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        return self

    def run(self, coro, timeout: float | None = None):
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def spawn(self, coro):
        return asyncio.run_coroutine_threadsafe(coro, self.loop)

    def __exit__(self, *exc) -> None:
        async def cancel_all():
            tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

        self.run(cancel_all(), 60)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
        self.loop.close()


async def open_streams(port: int, paths: list[str]) -> list[asyncio.Task]:
    """Open the streams OPEN_BATCH at a time, each up to ``stream-open``; the tasks hold them."""
    tasks = []
    for start in range(0, len(paths), OPEN_BATCH):
        events = []
        for path in paths[start : start + OPEN_BATCH]:
            opened = asyncio.Event()
            events.append(opened)
            tasks.append(asyncio.create_task(stream(port, path, lambda v: None, opened)))
        async with asyncio.timeout(120):
            await asyncio.gather(*(e.wait() for e in events))
    return tasks


def slow_clients(port: int, paths: list[str]) -> list[socket.socket]:
    """Clients that open a stream and never read a byte (their receive buffer the smallest)."""
    clients = []
    for path in paths:
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
        sock.connect((HOST, port))
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: {HOST}\r\nAccept: text/event-stream\r\n\r\n".encode())
        clients.append(sock)
    return clients


def normal_requests(port: int, tables: list[dict], count: int) -> list[float]:
    """A seat's panel, as its page fetches it (HX-Request), one after another."""
    times = []
    for k in range(count):
        table = tables[k % len(tables)]
        t0 = time.perf_counter()
        status, _ = request(
            port, "GET", f"/play/seat/{table['tokens'][k % 5]}/", headers={"HX-Request": "true"}
        )
        times.append(time.perf_counter() - t0)
        if status != 200:
            raise BenchError(f"the panel GET answered {status}")
    return times


def driven(port: int, tables: list[dict], stop: threading.Event, gap: float = 0.1) -> threading.Thread:
    """A driver submitting a real action every ``gap`` s, the tables in turn (their streams get nudges)."""
    from tests.bench.push import submit

    def drive():
        rng, k = random.Random(5), 0
        while not stop.wait(gap):
            submit(port, tables[k % len(tables)], rng)
            k += 1

    thread = threading.Thread(target=drive, daemon=True)
    thread.start()
    return thread


def _held(port: int, pid: int, tables: list[dict]) -> dict:
    """Threads and memory with one stream open, then with STREAMS open (and how long they took)."""
    paths = [seat_path(tables[i % len(tables)], (i // len(tables)) % 5) for i in range(STREAMS)]
    with Loop() as loop:
        first = loop.run(open_streams(port, paths[:1]), 60)  # the tasks kept: the loop holds them weakly
        time.sleep(1)
        before = threads_and_memory(pid)
        t0 = time.perf_counter()
        rest = loop.run(open_streams(port, paths[1:]), 600)
        opened = time.perf_counter() - t0
        time.sleep(2)
        after = threads_and_memory(pid)
        if any(t.done() for t in [*first, *rest]):
            raise BenchError("streams closed while they were counted")
    return {"before": before, "after": after, "opened": opened}


def _slow(port: int, tables: list[dict]) -> dict:
    """The panel GET's times without and then with SLOW_CLIENTS clients that read nothing, while
    actions are submitted (their streams are nudged)."""
    stop = threading.Event()
    driver = driven(port, tables, stop)
    try:
        usual = normal_requests(port, tables, NORMAL_REQUESTS)
        paths = [seat_path(tables[i % len(tables)], i // len(tables) % 5) for i in range(SLOW_CLIENTS)]
        clients = slow_clients(port, paths)
        time.sleep(2)
        crowded = normal_requests(port, tables, NORMAL_REQUESTS)
    finally:
        stop.set()
        driver.join(30)
    for sock in clients:
        sock.close()
    return {"usual": usual, "crowded": crowded}


def streams_at_scale_run(server, tables: list[dict]) -> list[str]:
    held = _held(server.port, server.pid, tables)
    slow = _slow(server.port, tables)
    (t0, m0), (t1, m1) = held["before"], held["after"]
    usual95 = sorted(slow["usual"])[int(0.95 * (len(slow["usual"]) - 1))]
    later = sum(t > usual95 for t in slow["crowded"]) / len(slow["crowded"])
    crowded95 = sorted(slow["crowded"])[int(0.95 * (len(slow["crowded"]) - 1))]
    threads_ok, memory_ok = t1 - t0 <= THREADS_TARGET, m1 - m0 <= MEMORY_TARGET_MB
    return [
        "| measure | with 1 stream | with 4,000 streams | more | target |",
        "|---|---|---|---|---|",
        f"| threads of the process | {t0} | {t1} | {t1 - t0} | ≤ {THREADS_TARGET} ({verdict(threads_ok)}) |",
        f"| resident memory | {m0:.0f} MB | {m1:.0f} MB | {m1 - m0:.0f} MB "
        f"| ≤ {MEMORY_TARGET_MB} MB ({verdict(memory_ok)}) |",
        "",
        f"{STREAMS} streams opened in {held['opened']:.1f} s ({OPEN_BATCH} at a time).",
        "",
        "| the panel GET (n = 300 each) | median | p95 |",
        "|---|---|---|",
        f"| usual (actions submitted, no slow client) | {statistics.median(slow['usual']) * 1000:.1f} ms "
        f"| {usual95 * 1000:.1f} ms |",
        f"| with {SLOW_CLIENTS} clients that read nothing | {statistics.median(slow['crowded']) * 1000:.1f} ms "
        f"| {crowded95 * 1000:.1f} ms |",
        "",
        f"With the slow clients, {later:.0%} of the panel GETs took longer than the usual p95 (5% would "
        f"be no change; target: at most 10%: {'met' if later <= 0.10 else '**not met**'}).",
    ]


def verdict(ok: bool) -> str:
    return "met" if ok else "**not met**"


# ---- the capacity of one machine -------------------------------------------------------------------

TAP_EVERY = 5.0
STEP_SECONDS = 12.0
SETTLE = 3.0
CAPACITY_TARGET_P95 = 0.250
CAPACITY_STEPS = (1, 3, 10, 25, 50, 100, 150, 200, 250, 300, 400)
CAPACITY_BUDGET = 300.0  # seconds: the curve stops there even if the target still holds
FETCH_RETRY = 1.0  # live.js's RETRY_MS
FETCH_TRIES = 3


class Table:
    """Six lightweight screens of one table (its 5 seats and a second phone on seat 0): each holds
    its seat's event stream and, on a nudge of a newer version, fetches its seat's panel (HX-Request)
    and notes when it had it. A tap every TAP_EVERY s (random phase): the acting seat's choices, one
    of them submitted (as tests/bench/push.py ``submit``), timed from just before the POST."""

    def __init__(self, port: int, table: dict, rng: random.Random):
        self.port, self.t, self.rng = port, table, rng
        self.shown: list[dict[int, float]] = [{} for _ in range(6)]
        self.wanted = [table["version"]] * 6
        self.taps: list[tuple[int, float]] = []
        self.errors: list[str] = []
        self.fetches: set[asyncio.Task] = set()  # on their way: cancelled when the step ends

    async def screen(self, i: int, opened: asyncio.Event) -> None:
        token = self.t["tokens"][i % 5]

        def nudged(version: int) -> None:
            if version > self.wanted[i]:
                self.wanted[i] = version
                task = asyncio.get_running_loop().create_task(self.fetch(i, token, version))
                self.fetches.add(task)
                task.add_done_callback(self.fetches.discard)

        try:
            await stream(self.port, seat_path(self.t, i % 5), nudged, opened)
        except (OSError, BenchError) as exc:
            self.errors.append(repr(exc))
            opened.set()

    async def fetch(self, i: int, token: str, version: int) -> None:
        """As live.js does: a panel GET that fails (no answer, or refused) is counted as an error and
        asked again a second later, while no newer version was asked for."""
        for _ in range(FETCH_TRIES):
            try:
                status, _ = await http(self.port, "GET", f"/play/seat/{token}/", {"HX-Request": "true"})
            except OSError as exc:
                self.errors.append(repr(exc))
            else:
                if status == 200:
                    self.shown[i].setdefault(version, time.perf_counter())
                    return
                self.errors.append(f"a panel GET answered {status}")
            await asyncio.sleep(FETCH_RETRY)
            if self.wanted[i] != version:
                return

    async def tapping(self, until: float) -> None:
        await asyncio.sleep(self.rng.random() * TAP_EVERY)
        while time.perf_counter() < until:
            started = time.perf_counter()
            try:
                await self.tap()
            except (OSError, BenchError, ValueError) as exc:
                self.errors.append(repr(exc))
            await asyncio.sleep(max(0.0, TAP_EVERY - (time.perf_counter() - started)))

    async def tap(self) -> None:
        from tests.bench.push import draw

        seat = {"X-Seat-Token": self.t["tokens"][self.t["active"]]}
        base = f"/api/sessions/{self.t['id']}/seats/{self.t['active']}/actions"
        status, body = await http(self.port, "GET", f"{base}/", seat)
        legal = json.loads(body)
        choices = [c["choice"] for c in legal["choices"]]
        for _ in range(50):
            action = draw(self.rng.choice(choices), self.rng)
            if action is None:
                continue
            t0 = time.perf_counter()
            status, body = await http(self.port, "POST", f"{base}/submit/",
                                      {**seat, "Idempotency-Key": uuid.uuid4().hex},
                                      {"action": action, "expected_version": legal["version"]})  # fmt: skip
            if status == 400:
                continue
            if status != 200:
                raise BenchError(f"submit answered {status}")
            answer = json.loads(body)
            self.t["active"] = answer["view"]["active_seats"][0]
            self.t["version"] = answer["action"]["version"]
            self.taps.append((self.t["version"], t0))
            return

    def latencies(self) -> tuple[list[float], int]:
        everyone, missed = [], 0
        for version, t0 in self.taps:
            times = [min((t for v, t in s.items() if v >= version), default=None) for s in self.shown]
            if any(t is None for t in times):
                missed += 1
            else:
                everyone.append(max(times) - t0)  # type: ignore[type-var]
        return everyone, missed


async def capacity_step(port: int, tables: list[dict], rng: random.Random) -> dict:
    screens = [Table(port, t, random.Random(rng.random())) for t in tables]
    holders, events = [], []
    for start in range(0, len(screens), OPEN_BATCH // 6):
        batch = []
        for s in screens[start : start + OPEN_BATCH // 6]:
            for i in range(6):
                opened = asyncio.Event()
                batch.append(opened)
                holders.append(asyncio.create_task(s.screen(i, opened)))
        events += batch
        async with asyncio.timeout(120):
            await asyncio.gather(*(e.wait() for e in batch))
    until = time.perf_counter() + STEP_SECONDS
    await asyncio.gather(*(s.tapping(until) for s in screens))
    await asyncio.sleep(SETTLE)
    unfinished = [task for s in screens for task in s.fetches]
    for task in holders + unfinished:
        task.cancel()
    await asyncio.gather(*holders, *unfinished, return_exceptions=True)
    everyone, missed, errors = [], 0, []
    for s in screens:
        e, m = s.latencies()
        everyone += e
        missed += m
        errors += s.errors
    return {
        "everyone": everyone,
        "missed": missed,
        "errors": errors,
        "taps": sum(len(s.taps) for s in screens),
    }
