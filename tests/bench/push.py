"""make bench helpers for push: phones holding server-sent event streams, and tables to play.

Phones are asyncio connections in one background thread (600 of them cost 600 sockets, not 600
threads): each opens its seat's stream (``/play/seat/<token>/events/``, as the page does), reads
``session_version`` events and notes when it first had each version (``time.perf_counter()``,
the clock the driver's submits are timed with).
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field

from tests.bench.server import HOST, ROOT, BenchError, request_json

OPEN_TIMEOUT = 60.0


@dataclass
class Phone:
    table: int
    path: str
    seen: dict[int, float] = field(default_factory=dict)  # version -> first time it was had
    opened: bool = False
    errors: list[str] = field(default_factory=list)


class Fleet:
    """Phones with open event streams, run on an event loop in a background thread."""

    def __init__(self, port: int, phones: list[Phone]):
        self.port = port
        self.phones = phones
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.tasks: list[asyncio.Future] = []

    def __enter__(self) -> Fleet:
        self.thread.start()
        self.tasks = [asyncio.run_coroutine_threadsafe(self._phone(p), self.loop) for p in self.phones]
        deadline = time.monotonic() + OPEN_TIMEOUT
        while not all(p.opened or p.errors for p in self.phones):
            if time.monotonic() > deadline:
                opened = sum(p.opened for p in self.phones)
                raise BenchError(f"only {opened} of {len(self.phones)} event streams opened")
            time.sleep(0.05)
        return self

    def __exit__(self, *exc) -> None:
        async def close_all():
            tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

        asyncio.run_coroutine_threadsafe(close_all(), self.loop).result(30)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
        self.loop.close()

    def errors(self) -> list[str]:
        return [e for p in self.phones for e in p.errors]

    async def _phone(self, phone: Phone) -> None:
        try:
            reader, writer = await asyncio.open_connection(HOST, self.port)
        except OSError as exc:
            phone.errors.append(f"connect: {exc!r}")
            return
        try:
            writer.write(
                f"GET {phone.path} HTTP/1.1\r\nHost: {HOST}\r\nAccept: text/event-stream\r\n\r\n".encode()
            )
            await writer.drain()
            status = (await reader.readline()).decode()
            if " 200 " not in status:
                phone.errors.append(f"stream answered {status.strip()!r}")
                return
            while (await reader.readline()) not in (b"\r\n", b""):
                pass  # headers
            event = None
            while True:
                line = await reader.readline()
                if not line:
                    phone.errors.append("stream closed by the server")
                    return
                text = line.decode().strip()
                if text.startswith("event:"):
                    event = text[6:].strip()
                    if event == "stream-open":
                        phone.opened = True
                elif text.startswith("data:") and event == "session_version":
                    version = json.loads(text[5:])["version"]
                    phone.seen.setdefault(version, time.perf_counter())
                elif text.startswith("data:") and event == "stream-error":
                    phone.errors.append(text)
        except asyncio.CancelledError:
            pass
        except (OSError, ValueError) as exc:
            phone.errors.append(repr(exc))
        finally:
            writer.close()


def had(phone: Phone, version: int) -> float | None:
    """When the phone first had ``version`` or a newer one (None: never)."""
    times = [t for v, t in phone.seen.items() if v >= version]
    return min(times) if times else None


CREATE_TABLES = """
import json, random, sys
from games.services.taps import session_rules
from games.services.sessions import session_create
n, seats, seed = (int(a) for a in sys.argv[1:4])
rng = random.Random(seed)
out = []
for _ in range(n):
    s = session_create(game="for_the_king", seat_names=["Anna", "Ben", "Cleo", "Dario", "Emma"][:seats],
                       seed=rng.randrange(2**31))
    out.append({"id": s.pk, "version": s.version, "tokens": dict(s.seats.values_list("index", "token")),
                "active": session_rules(s).active_seats(s.state)[0]})
print(json.dumps(out))
"""


def tables_in(env: dict[str, str], count: int, seats: int, seed: int) -> list[dict]:
    """Tables created in the database ``env`` names (a separate process: the embedded SQLite)."""
    script = f"import sys; sys.argv = ['x', '{count}', '{seats}', '{seed}']\n" + CREATE_TABLES
    done = subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), "shell", "-v0", "-c", script],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode:
        raise BenchError(f"creating tables failed: {done.stderr[-2000:]}")
    tables = json.loads(done.stdout.strip().splitlines()[-1])
    for t in tables:
        t["tokens"] = {int(k): v for k, v in t["tokens"].items()}
    return tables


def draw(choice: dict, rng) -> dict | None:
    """A concrete action of a choice description, each value drawn within its bounds (the
    kernel's ``draw_value``); None for a choice whose values its engine must draw."""
    from games.engines.kernel.choices import draw_value

    action = {"type": choice["type"], "seat": choice["seat"]}
    try:
        for name, param in choice["params"].items():
            action[name] = draw_value(param, rng)
    except ValueError:
        return None
    return action


MAX_TRIES = 50


def submit(port: int, table: dict, rng, timings: dict | None = None) -> tuple[int, float]:
    """One real legal action of the seat to act, through the API, as a phone does: GET its
    choices, POST one with values drawn in their bounds (values that break a rule between them,
    e.g. a payment short of the bid, answer 400 and are drawn again; only the applied POST
    counts). Returns (new version, time just before that POST); ``table["active"]`` follows the
    answer's view. ``timings["legal"]`` gets the choices GET time."""
    import uuid

    from tests.bench.server import request

    seat = {"X-Seat-Token": table["tokens"][table["active"]]}
    base = f"/api/sessions/{table['id']}/seats/{table['active']}"
    t = time.perf_counter()
    legal = request_json(port, "GET", f"{base}/actions/", headers=seat)
    if timings is not None:
        timings.setdefault("legal", []).append(time.perf_counter() - t)
    choices = [c["choice"] for c in legal["choices"]]
    for _ in range(MAX_TRIES):
        action = draw(rng.choice(choices), rng)
        if action is None:
            continue
        body = {"action": action, "expected_version": legal["version"]}
        t0 = time.perf_counter()
        status, answer = request(
            port,
            "POST",
            f"{base}/actions/submit/",
            body=body,
            headers={**seat, "Idempotency-Key": uuid.uuid4().hex},
        )
        if status == 400:
            continue
        if status != 200:
            raise BenchError(f"submit answered {status}: {answer[:300]!r}")
        answer = json.loads(answer)
        if answer["view"]["over"]:
            raise BenchError(f"table {table['id']} finished during the bench")
        table["active"] = answer["view"]["active_seats"][0]
        table["version"] = answer["action"]["version"]
        return table["version"], t0
    raise BenchError(f"no applicable action drawn in {MAX_TRIES} tries at table {table['id']}")
