"""A Celery worker started by the test takes bot moves and an export through a real Redis.

The worker runs in this process (``celery.contrib.testing.worker.start_worker``, solo pool) on a
queue of its own, so it shares the test database. The tests that poll the database while the
worker writes run on PostgreSQL only (SQLite's shared in-memory test database refuses a read
during a write: "database table is locked").
"""

import uuid

import pytest
from celery.contrib.testing.worker import start_worker

from campaign.demo import demo_campaign_load
from campaign.models import CampaignExport
from campaign.services.archive.export_queue import campaign_export_request
from config.celery import app
from games.engines.kernel.registry import get_game
from games.models import GameSession, Seat
from games.services.sessions import session_create
from games.services.taps import session_submit_action
from games.services.undo import session_replay
from games.tasks import bot_move_task
from tests.guards import HANG_GUARD_SECONDS
from tests.integration.faults.conftest import forget_celery_connections, wait_for

pytestmark = [pytest.mark.database, pytest.mark.redis, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def redis_worker(redis_url, worker_id):
    """The project's app sending through Redis to a worker of this test (restored after)."""
    keys = ("broker_url", "result_backend", "task_always_eager", "task_default_queue")
    previous = {k: app.conf[k] for k in keys}
    app.conf.update(
        broker_url=redis_url,
        result_backend=redis_url,
        task_always_eager=False,
        broker_connection_retry_on_startup=True,
        task_default_queue=f"chronicle-fault-{worker_id}-{uuid.uuid4().hex[:8]}",
    )
    forget_celery_connections(app)
    try:
        with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=10):
            yield app
    finally:
        app.conf.update(previous)
        forget_celery_connections(app)


class WorkerThroughRedisTests:
    def test_a_bot_move_sent_through_redis_is_logged_once(self, redis_worker, counting_engine):
        session = session_create(game="counting", seat_names=["Anna", "Bot"], seed=5)
        session_submit_action(
            session=session, seat=session.seats.get(index=0), action={"type": "add", "amount": 2},
            expected_version=0, idempotency_key="anna-1",
        )  # fmt: skip
        Seat.objects.filter(session=session, index=1).update(is_bot=True)  # the bot's turn, no task yet
        GameSession.objects.filter(pk=session.pk).update(has_bots=True)

        # The same move sent twice (a duplicate message), and once more without a version.
        first = bot_move_task.delay(session.pk, 1)
        again = bot_move_task.delay(session.pk, 1)
        unversioned = bot_move_task.delay(session.pk)
        played = [r.get(timeout=HANG_GUARD_SECONDS) for r in (first, again, unversioned)]

        assert played == [1, 0, 0]
        fresh = GameSession.objects.get(pk=session.pk)
        log = list(fresh.actions.order_by("seq").values_list("seat", "idempotency_key", "version"))
        assert log == [(0, "anna-1", 1), (1, "bot:1", 2)]
        assert fresh.state["turn"] == 0 and fresh.state == session_replay(session=fresh)

    @pytest.mark.postgres  # polled while the worker writes: SQLite's shared in-memory test DB locks
    def test_a_bot_turn_of_for_the_king_is_played_by_the_worker(self, redis_worker):
        """session_create wakes the bot after its commit: each move goes through Redis and wakes
        the next one, until a human's turn."""
        rules = get_game("for_the_king")
        session = session_create(
            game="for_the_king", seat_names=["Anna", "Bot", "Chiara"], seed=7, bot_seats=[1]
        )
        assert rules.active_seats(session.state) == [1]

        def humans_turn():
            fresh = GameSession.objects.get(pk=session.pk)
            return fresh if 1 not in rules.active_seats(fresh.state) else None

        fresh = wait_for(humans_turn, what="the bot to finish its turn")
        actions = list(fresh.actions.order_by("seq").values_list("seq", "seat", "idempotency_key", "version"))
        assert [a[0] for a in actions] == list(range(1, len(actions) + 1))
        assert [a[3] for a in actions] == list(range(1, len(actions) + 1)) and fresh.version == len(actions)
        bot_moves = actions[1:]  # action 1 is the deal
        assert bot_moves and all(seat == 1 for _, seat, _, _ in bot_moves)
        assert [key for _, _, key, _ in bot_moves] == [f"bot:{v - 1}" for _, _, _, v in bot_moves]
        assert fresh.state == session_replay(session=fresh)

    @pytest.mark.postgres  # polled while the worker writes (see above)
    def test_an_export_requested_is_written_by_the_worker(self, redis_worker, settings, tmp_path):
        settings.MEDIA_ROOT = tmp_path
        export = campaign_export_request(campaign=demo_campaign_load())

        def ready():
            export.refresh_from_db()
            return export.status == CampaignExport.Status.READY

        wait_for(ready, what="the export")
        assert [p.name for p in (tmp_path / "exports").iterdir()] == [export.path]
