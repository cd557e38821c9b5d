"""Fault tests: real worker processes, a Redis server of our own, many clients at once.

Everything started here is ours and is stopped in a finalizer (pass or fail); nothing here
touches the PostgreSQL or Redis that ``make test`` started, except through the test database and
the ``redis_url`` fixture's Redis, on queues named for this test only.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from django.db import connection

from tests.guards import HANG_GUARD_SECONDS

ROOT = Path(__file__).resolve().parents[3]
REDIS_SERVER = shutil.which("redis-server") or "/usr/bin/redis-server"


def forget_celery_connections(app) -> None:
    """The app caches its default queue, router, producer and connection pools and result
    backend on first use; drop them so a changed broker or default queue takes effect (before
    and after a test that changes them, so the next test gets its own)."""
    for name in ("default_queue", "queues", "router"):
        app.amqp.__dict__.pop(name, None)
    app.amqp._producer_pool = None
    app._pool = None
    app._local.__dict__.pop("backend", None)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(predicate, *, what: str, timeout: float = HANG_GUARD_SECONDS, interval: float = 0.05):
    """Wait until ``predicate`` is true; ``timeout`` is a hang guard, not a speed requirement."""
    guard = time.monotonic() + max(timeout, HANG_GUARD_SECONDS)
    while time.monotonic() < guard:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(f"hung: still waiting for {what}")


def kill(proc: subprocess.Popen | None, sig: int = signal.SIGKILL) -> None:
    """Stop a process we started (its own process group: a worker's children go too)."""
    if proc is None or proc.poll() is not None:
        return
    try:
        os.killpg(proc.pid, sig)
    except ProcessLookupError:
        return
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)


class RedisServer:
    """A redis-server of this test's own, on a free port, that the test may stop and restart."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.proc: subprocess.Popen | None = None

    def start(self) -> None:
        assert self.proc is None or self.proc.poll() is not None, "already running"
        log = open(self.folder / f"redis-{self.port}.log", "ab")  # noqa: SIM115 - closed by the child exiting
        self.proc = subprocess.Popen(
            [REDIS_SERVER, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.folder)],
            stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
        log.close()
        wait_for(self.ping, what=f"redis-server on port {self.port}")

    def ping(self) -> bool:
        import redis

        try:
            return bool(redis.Redis(port=self.port, socket_timeout=0.5, socket_connect_timeout=0.5).ping())
        except redis.RedisError:
            return False

    def stop(self) -> None:
        kill(self.proc, signal.SIGTERM)
        assert not self.ping()


@pytest.fixture
def own_redis(tmp_path):
    server = RedisServer(tmp_path)
    server.start()
    try:
        yield server
    finally:
        kill(server.proc)


def test_database_url() -> str:
    """The database pytest-django made for this xdist worker, as a URL for a subprocess."""
    s = connection.settings_dict
    assert connection.vendor == "postgresql", "a worker process needs a database it can reach"
    auth = s["USER"] + (f":{s['PASSWORD']}" if s.get("PASSWORD") else "") + "@" if s.get("USER") else ""
    return f"postgres://{auth}{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"


test_database_url.__test__ = False  # a helper, not a test


class WorkerProcess:
    """``celery worker`` (solo pool) in its own process group, on a queue of its own."""

    def __init__(self, *, folder: Path, broker_url: str, block: str = "", media_root: Path | None = None):
        self.folder = folder
        self.fault_dir = folder / "fault"
        self.fault_dir.mkdir(exist_ok=True)
        self.queue = f"chronicle-fault-{uuid.uuid4().hex[:12]}"
        self.env = {
            **os.environ,
            "DATABASE_URL": test_database_url(),
            "REDIS_URL": broker_url,
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "CHRONICLE_FAULT_DIR": str(self.fault_dir),
            "CHRONICLE_FAULT_QUEUE": self.queue,
            "CHRONICLE_FAULT_BLOCK": block,
            "CHRONICLE_FAULT_BLOCK_SECONDS": "30",
            "MEDIA_ROOT": str(media_root or folder / "media"),
            "CONN_MAX_AGE": "0",
            "PYTHONPATH": str(ROOT),
        }
        self.procs: list[subprocess.Popen] = []

    def start(self) -> subprocess.Popen:
        n = len(self.procs)
        log = open(self.folder / f"worker-{n}.log", "ab")  # noqa: SIM115
        proc = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "tests.integration.faults.worker_app", "worker",
             "-P", "solo", "-Q", self.queue, "-n", f"fault{n}-{self.queue}@%h", "-l", "INFO",
             "--without-gossip", "--without-mingle", "--without-heartbeat"],
            cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
        log.close()
        self.procs.append(proc)
        try:
            wait_for(lambda: str(proc.pid) in self.lines("ready.log") or proc.poll() is not None,
                     what="the worker to be ready")  # fmt: skip
        except AssertionError:
            raise AssertionError(self.log_tail()) from None
        assert proc.poll() is None, self.log_tail()
        return proc

    def lines(self, name: str) -> list[str]:
        path = self.fault_dir / name
        return path.read_text().splitlines() if path.exists() else []

    def blocked(self) -> bool:
        return (self.fault_dir / "blocked").exists()

    def finished(self, task_id: str) -> list[str]:
        return [line for line in self.lines("done.log") if f" {task_id} " in line]

    def log_tail(self, chars: int = 4000) -> str:
        text = "".join(p.read_text(errors="replace") for p in sorted(self.folder.glob("worker-*.log")))
        return text[-chars:]

    def stop_all(self) -> None:
        for proc in self.procs:
            kill(proc)


@pytest.fixture
def worker_process(transactional_db, tmp_path):
    """Make ``WorkerProcess`` objects; every process they started is killed at the end (before
    the test database is flushed: this fixture depends on ``transactional_db``)."""
    made: list[WorkerProcess] = []

    def make(**kwargs) -> WorkerProcess:
        worker = WorkerProcess(folder=tmp_path, **kwargs)
        made.append(worker)
        return worker

    try:
        yield make
    finally:
        for worker in made:
            worker.stop_all()


@pytest.fixture
def producer():
    """A Celery app of its own that only sends messages (the project's app stays untouched)."""
    from celery import Celery

    apps: list[Celery] = []

    def make(broker_url: str) -> Celery:
        sender = Celery("fault-test-producer", broker=broker_url, set_as_current=False)
        sender.conf.broker_connection_retry_on_startup = True
        apps.append(sender)
        return sender

    try:
        yield make
    finally:
        for sender in apps:
            sender.close()


@pytest.fixture
def counting_engine(monkeypatch):
    """The fake engine of the session tests (tests/integration/games/fake_engine.py)."""
    from games.engines.kernel import registry

    monkeypatch.setitem(registry.EXTRA_MODULES, "counting", "tests.integration.games.fake_engine")


@pytest.fixture
def site(own_redis, settings, tmp_path):
    """The site (REDIS_URL, cache, the project's Celery app) on ``own_redis``, sending for real;
    ``site.send_to(queue)`` picks the queue of the test's workers. All restored after."""
    from config import health
    from config.celery import app
    from games.live import nudges

    settings.REDIS_URL = own_redis.url
    settings.CACHES = {"default": {"BACKEND": nudges.REDIS_CACHE, "LOCATION": own_redis.url}}
    settings.MEDIA_ROOT = tmp_path / "media"
    keys = ("broker_url", "task_always_eager", "task_default_queue", "broker_connection_retry_on_startup")
    previous = {k: app.conf[k] for k in keys}

    class Site:
        redis = own_redis
        media = tmp_path / "media"

        @staticmethod
        def send_to(queue: str) -> None:
            app.conf.task_default_queue = queue
            forget_celery_connections(app)

    app.conf.update(
        broker_url=own_redis.url, task_always_eager=False, broker_connection_retry_on_startup=True
    )
    Site.send_to("chronicle-fault-nobody")
    nudges._redis_clients.clear()
    health._worker_ping.clear()
    try:
        yield Site
    finally:
        app.conf.update(previous)
        forget_celery_connections(app)
        nudges._redis_clients.clear()
        health._worker_ping.clear()
