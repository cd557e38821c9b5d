"""A worker killed mid-task (SIGKILL) and a new one started: the task completes exactly once.

Late acknowledgement (CELERY_TASK_ACKS_LATE, REJECT_ON_WORKER_LOST, prefetch 1) leaves the
message of a task whose worker died unacknowledged; Redis hands it to the next worker (after the
visibility timeout, a few seconds in these tests). Each case runs a real ``celery worker``
process on the test database, blocks it at one point of the task, kills it there, starts another
and checks the effect: applied once whether the first run died before its commit (rolled back, so
the task is run again for real) or after it (committed but not acknowledged, so the task runs a
second time and must be a no-op).
"""

import json
import signal

import pytest

from campaign.demo import demo_campaign_load
from campaign.models import CampaignExport
from games.models import GameSession, Seat, SessionAction
from games.services.sessions import session_create
from games.services.taps import session_submit_action
from games.services.undo import session_replay
from tests.integration.faults.conftest import kill, wait_for

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.django_db(transaction=True)]

PHASES = ["in_transaction", "after_commit"]


def _kill_when_blocked(worker, first):
    """Wait until the first worker blocks mid-task, and SIGKILL it."""
    try:
        wait_for(lambda: worker.blocked() or first.poll() is not None, what="the task to block")
    except AssertionError:
        raise AssertionError(worker.log_tail()) from None
    assert first.poll() is None, worker.log_tail()
    kill(first, signal.SIGKILL)
    assert first.returncode == -signal.SIGKILL


class WorkerKilledTests:
    @pytest.mark.parametrize("phase", PHASES)
    def test_a_bot_move_is_applied_once_when_its_worker_is_killed(
        self, phase, own_redis, worker_process, producer, counting_engine
    ):
        # Counting: seats take turns adding 1 or 2. Anna (seat 0) is human, seats 1 and 2 bots.
        session = session_create(game="counting", seat_names=["Anna", "Bot1", "Bot2"], seed=3)
        anna = session.seats.get(index=0)
        session_submit_action(
            session=session, seat=anna, action={"type": "add", "amount": 1}, expected_version=0,
            idempotency_key="anna-1",
        )  # fmt: skip
        # The bots are made bots only now: this eager test process must not play them itself.
        Seat.objects.filter(session=session, index__in=[1, 2]).update(is_bot=True)
        GameSession.objects.filter(pk=session.pk).update(has_bots=True)
        assert session.version == 1 and session.state["turn"] == 1

        worker = worker_process(broker_url=own_redis.url, block=f"bot:{phase}")
        first = worker.start()
        sent = producer(own_redis.url).send_task(
            "games.tasks.bot_move_task", args=[session.pk, 1], queue=worker.queue
        )
        _kill_when_blocked(worker, first)
        after_kill = list(
            SessionAction.objects.filter(session=session).values_list("idempotency_key", flat=True)
        )
        assert after_kill == (["anna-1"] if phase == "in_transaction" else ["anna-1", "bot:1"])
        second = worker.start()

        # The redelivered task ran on the second worker, and the bots played on to Anna's turn.
        wait_for(lambda: worker.finished(sent.id), what="the redelivered task")
        wait_for(lambda: GameSession.objects.get(pk=session.pk).state["turn"] == 0, what="Anna's turn")
        assert second.poll() is None, worker.log_tail()
        fresh = GameSession.objects.get(pk=session.pk)
        log = list(fresh.actions.order_by("seq").values_list("seq", "seat", "idempotency_key", "version"))
        assert log == [(1, 0, "anna-1", 1), (2, 1, "bot:1", 2), (3, 2, "bot:2", 3)], worker.log_tail()
        assert fresh.version == 3 and fresh.state == session_replay(session=fresh)
        ran = worker.finished(sent.id)
        assert len(ran) == 1 and ran[0].startswith(f"{second.pid} ") and " SUCCESS " in ran[0], ran
        # after_commit: the first run's move stood, the second run played nothing (returned 0).
        assert ran[0].endswith(" 1" if phase == "in_transaction" else " 0"), ran

    @pytest.mark.parametrize("phase", PHASES)
    def test_an_export_is_written_once_when_its_worker_is_killed(
        self, phase, own_redis, worker_process, producer, tmp_path
    ):
        media = tmp_path / "media"
        export = CampaignExport.objects.create(campaign=demo_campaign_load())
        worker = worker_process(broker_url=own_redis.url, block=f"export:{phase}", media_root=media)
        first = worker.start()
        sent = producer(own_redis.url).send_task(
            "campaign.tasks.campaign_export_task", args=[export.pk], queue=worker.queue
        )
        folder = media / "exports"
        _kill_when_blocked(worker, first)
        export.refresh_from_db()
        first_file = next(folder.glob("*.json"))
        if phase == "after_commit":
            assert export.status == CampaignExport.Status.READY
            written = first_file.stat()
        else:  # the file is there, the status update was rolled back with the worker
            assert export.status != CampaignExport.Status.READY
        worker.start()

        wait_for(lambda: worker.finished(sent.id), what="the redelivered task")
        export.refresh_from_db()
        assert export.status == CampaignExport.Status.READY
        files = sorted(p.name for p in folder.iterdir())
        assert files == [export.path], files  # one archive, no temporary file left
        archive = json.loads((folder / export.path).read_text())
        assert archive  # complete JSON
        if phase == "after_commit":  # the second run found it ready and did not write it again
            now = (folder / export.path).stat()
            assert (now.st_ino, now.st_mtime_ns) == (written.st_ino, written.st_mtime_ns)
        ran = worker.finished(sent.id)
        assert len(ran) == 1 and " SUCCESS " in ran[0], ran
