"""Helpers of make bench: a throwaway server on 127.0.0.1 and a tiny stdlib HTTP client.

Only ever talks to 127.0.0.1. The server is always terminated (``served`` is a context manager);
a server that does not answer ``/ping`` in time stops the run with ``BenchError``.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HOST = "127.0.0.1"
WORKERS = 3  # the production shape: docker/compose.yaml and the Dockerfile run 3 uvicorn workers
START_TIMEOUT = 30.0
STOP_TIMEOUT = 10.0
REQUEST_TIMEOUT = 10.0


class BenchError(RuntimeError):
    """A benchmark cannot go on (server did not start, unexpected answer): stops the run."""


@dataclass
class Server:
    port: int
    workers: int
    note: str
    pid: int = 0  # the server's process (the gunicorn master, or make run's uvicorn)


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def server_env() -> dict[str, str]:
    """Production-like settings: DEBUG=0 (so a random SECRET_KEY and ALLOWED_HOSTS), no TLS redirect
    (plain HTTP on loopback), DATABASE_URL and REDIS_URL inherited from .services/env."""
    env = dict(os.environ)
    for name in ("DATABASE_URL", "REDIS_URL"):
        if not env.get(name):
            raise BenchError(
                f"{name} is not set: run make bench (scripts/bench.sh), which starts the services."
            )
    env.update(
        DEBUG="0",
        # The bench's own key (run.py sets it): the polling key it computes must match the server's.
        SECRET_KEY=os.environ.get("CHRONICLE_BENCH_SECRET_KEY") or secrets.token_urlsafe(50),
        ALLOWED_HOSTS=HOST,
        SECURE_SSL_REDIRECT="0",
        # ASGI runs each request's sync code in a thread of its own: a persistent connection would
        # be left behind with it (Django's docs: disable them under ASGI), so one per request.
        CONN_MAX_AGE=os.environ.get("CONN_MAX_AGE", "0"),
        # As docker/compose.yaml: PostgreSQL connections from a pool per worker (config/settings.py).
        DATABASE_POOL=os.environ.get("DATABASE_POOL", "1"),
        LOG_LEVEL="WARNING",
        PYTHONUNBUFFERED="1",
        # The bench's clients are one caller making thousands of requests: no API rate limit.
        CHRONICLE_API_RATE="0",
        # Its thousands of phones all come from this machine's address (games/live/caps.py's cap
        # per client address is for a household or a café).
        CHRONICLE_MAX_STREAMS_PER_ADDRESS="100000",
    )
    return env


def _tail(path: Path, lines: int = 30) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no log)"


def _stop(proc: subprocess.Popen) -> None:
    """SIGTERM the gunicorn master (it stops its workers); SIGKILL its own process group if it lingers."""
    if proc.poll() is None:
        proc.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(STOP_TIMEOUT)
    # The master was started in its own session: its group holds only it and its workers.
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)
    with contextlib.suppress(subprocess.TimeoutExpired):
        proc.wait(STOP_TIMEOUT)


@contextlib.contextmanager
def served(
    workers: int = WORKERS,
    *,
    kind: str = "asgi",
    env: dict[str, str] | None = None,
    root: Path = ROOT,
    cpus: str | None = None,
):
    """A server on 127.0.0.1:<free port> for the with-block. ``kind``: "asgi" (docker/'s: gunicorn
    with uvicorn workers serving config.asgi, live event streams included), "wsgi" (gunicorn sync
    workers, config.wsgi) or "embedded" (make run's: one uvicorn process; pass the SQLite
    DATABASE_URL in ``env``, REDIS_URL is removed). ``root``: the checkout it serves (another
    commit's, for a figure before a change); ``cpus``: the cores it is pinned to (``taskset -c``)."""
    bin_dir = Path(sys.executable).parent
    if kind == "embedded":
        server_env_ = {k: v for k, v in server_env().items() if k != "REDIS_URL"}
        server_env_.update(env or {})
    else:
        server_env_ = {**server_env(), **(env or {})}
    port = free_port()
    if kind == "embedded":
        command = [str(bin_dir / "uvicorn"), "config.asgi:application", "--host", HOST, "--port", str(port),
                   "--lifespan", "off", "--log-level", "warning", "--timeout-graceful-shutdown", "1"]  # fmt: skip
        workers = 1
        what = "uvicorn (make run's server), 1 process"
    else:
        command = [str(bin_dir / "gunicorn"), f"config.{kind}:application", "--bind", f"{HOST}:{port}",
                   "--workers", str(workers), "--log-level", "warning", "--timeout", "30",
                   "--graceful-timeout", "2"]  # fmt: skip
        if kind == "asgi":
            command += ["--worker-class", "uvicorn_worker.UvicornWorker"]
        what = f"gunicorn, {workers} {'uvicorn' if kind == 'asgi' else 'sync'} workers"
    if not Path(command[0]).exists():
        raise BenchError(f"{command[0]} is not installed in the virtualenv.")
    if cpus is not None:
        command = ["taskset", "-c", cpus, *command]
        what += f", pinned to core {cpus}"
    with tempfile.TemporaryDirectory(prefix="chronicle-bench-") as tmp:
        log = Path(tmp) / "server.log"
        with log.open("w") as out:
            proc = subprocess.Popen(
                command,
                cwd=root,
                env=server_env_,
                stdout=out,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
            )
        try:
            _wait_ready(proc, port, log, workers)
            database = "SQLite" if server_env_["DATABASE_URL"].startswith("sqlite") else "PostgreSQL"
            redis = "REDIS_URL set (Redis cache and pub/sub)" if server_env_.get("REDIS_URL") else "no Redis"
            # PostgreSQL: Django's pool; SQLite: config/sqlite_pool.
            pooled = server_env_.get("DATABASE_POOL") == "1"
            connections = (
                "a connection pool per worker" if pooled else f"CONN_MAX_AGE={server_env_['CONN_MAX_AGE']}"
            )
            note = f"{what}, on {HOST}, DEBUG=0, {connections}, {database}, {redis}"
            yield Server(port=port, workers=workers, note=note, pid=proc.pid)
        finally:
            _stop(proc)


def _wait_ready(proc: subprocess.Popen, port: int, log: Path, workers: int) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise BenchError(f"gunicorn exited with status {proc.returncode} before answering:\n{_tail(log)}")
        try:
            status, body = request(port, "GET", "/ping", timeout=2)
        except OSError:
            time.sleep(0.2)
            continue
        if status == 200 and json.loads(body) == {"ok": True}:
            # Every worker boots the app; give the others a moment and warm them all up.
            for _ in range(10 * workers):
                request(port, "GET", "/ping")
            return
        raise BenchError(f"gunicorn answered /ping with {status}: {body[:300]!r}\n{_tail(log)}")
    raise BenchError(
        f"gunicorn did not answer /ping on {HOST}:{port} within {START_TIMEOUT:.0f} s:\n{_tail(log)}"
    )


def request(
    port: int,
    method: str,
    path: str,
    *,
    body: dict | None = None,
    headers: dict | None = None,
    timeout: float = REQUEST_TIMEOUT,
) -> tuple[int, bytes]:
    """One request on a fresh connection (gunicorn's sync workers close it after each answer)."""
    conn = http.client.HTTPConnection(HOST, port, timeout=timeout)
    try:
        all_headers = {"Accept": "application/json", **(headers or {})}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            all_headers["Content-Type"] = "application/json"
        conn.request(method, path, body=data, headers=all_headers)
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


def request_json(port: int, method: str, path: str, *, expect: int = 200, **kwargs) -> dict:
    try:
        status, body = request(port, method, path, **kwargs)
    except OSError as exc:
        raise BenchError(f"{method} {path}: no answer from the server ({exc!r})") from exc
    if status != expect:
        raise BenchError(f"{method} {path} answered {status} (expected {expect}): {body[:300]!r}")
    return json.loads(body)
