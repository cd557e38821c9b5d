"""The project's Celery app, for a real ``celery worker`` subprocess started by the fault tests.

    celery -A tests.integration.faults.worker_app worker -P solo -Q <queue>

It is ``config.celery.app`` with, from the environment:
- ``CHRONICLE_FAULT_QUEUE``: the one queue the test uses (the tasks the worker sends go there too);
- a short Redis visibility timeout, so a message left unacknowledged by a killed worker is handed
  to the next worker within seconds (production keeps kombu's hour);
- ``CHRONICLE_FAULT_DIR``: where the worker says it is ready and which tasks it finished, and
  where the block hook leaves its marker;
- ``CHRONICLE_FAULT_BLOCK`` = ``<service>:<phase>``: the first call of that service (``bot`` =
  ``games.services.bots.session_bot_move``, ``export`` = ``campaign.services.archive.export_queue.campaign_export_write``)
  stops mid-task, ``in_transaction`` (its writes not yet committed) or ``after_commit`` (committed,
  not yet acknowledged), and sleeps (at most ``CHRONICLE_FAULT_BLOCK_SECONDS``) until the test
  kills the worker. A marker file makes it block once only, so the next worker runs through.
"""

import os
import time
from functools import wraps
from pathlib import Path

from celery.signals import task_postrun, worker_ready

from config.celery import app

FAULT_DIR = Path(os.environ["CHRONICLE_FAULT_DIR"])
QUEUE = os.environ["CHRONICLE_FAULT_QUEUE"]

app.conf.update(
    task_default_queue=QUEUE,
    broker_connection_retry_on_startup=True,
    broker_transport_options={
        "visibility_timeout": float(os.environ.get("CHRONICLE_FAULT_VISIBILITY", "2")),
        "unacked_restore_interval": 1,
        "unacked_restore_throttle": 1,
    },
)


def _append(name: str, line: str) -> None:
    with open(FAULT_DIR / name, "a") as f:
        f.write(line + "\n")


@worker_ready.connect
def _ready(**kwargs) -> None:
    _append("ready.log", str(os.getpid()))


@task_postrun.connect
def _finished(task_id=None, task=None, state=None, retval=None, **kwargs) -> None:
    _append("done.log", f"{os.getpid()} {task.name} {task_id} {state} {retval!r}")


def _block_once(where: str) -> None:
    marker = FAULT_DIR / "blocked"
    try:
        fd = os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except FileExistsError:
        return  # the killed worker blocked already: this one runs through
    os.write(fd, f"{os.getpid()} {where}".encode())
    os.close(fd)
    deadline = time.monotonic() + float(os.environ.get("CHRONICLE_FAULT_BLOCK_SECONDS", "30"))
    while time.monotonic() < deadline:  # the test kills us long before
        time.sleep(0.05)
    raise RuntimeError("the fault test never killed this worker")


def _install_block(spec: str) -> None:
    import django

    django.setup()
    from django.db import transaction

    from campaign.services.archive import export_queue
    from games.engines.kernel import registry
    from games.services import bots as game_bots

    # The fake engine of the session tests (it never needs a deal; seats take turns).
    registry.EXTRA_MODULES.setdefault("counting", "tests.integration.games.fake_engine")
    if not spec:
        return
    what, phase = spec.split(":")
    module, name = {
        "bot": (game_bots, "session_bot_move"),
        "export": (export_queue, "campaign_export_write"),
    }[what]
    original = getattr(module, name)

    @wraps(original)
    def blocking(**kwargs):
        if phase == "in_transaction":
            with transaction.atomic():
                result = original(**kwargs)
                _block_once(spec)
            return result
        result = original(**kwargs)
        _block_once(spec)
        return result

    setattr(module, name, blocking)


_install_block(os.environ.get("CHRONICLE_FAULT_BLOCK", ""))
