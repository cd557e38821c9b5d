"""Faults are seen and healed (issue 25): beat's heartbeat, the worker's reconnection settings, the
bots' wake interval and compose's restart policies. /status/ with a real Redis and a real worker:
tests/integration/faults/test_export_faults.py."""

import time
from pathlib import Path

import pytest
import yaml
from django.core.cache import cache

from config import health
from config.celery import BEAT_HEARTBEAT_KEY, app, beat_heartbeat_task

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
def heartbeat(settings):
    settings.CHRONICLE_BEAT_HEARTBEAT_SECONDS = 10.0
    cache.delete(BEAT_HEARTBEAT_KEY)
    yield
    cache.delete(BEAT_HEARTBEAT_KEY)


class BeatHeartbeatTests:
    def test_beat_never_seen_says_so(self, heartbeat):
        assert health.beat_state() == health.BEAT_NEVER

    def test_the_heartbeat_task_makes_beat_alive(self, heartbeat):
        beat_heartbeat_task.delay()
        assert health.beat_state() == health.BEAT_ALIVE

    def test_a_heartbeat_older_than_two_intervals_is_stale(self, heartbeat):
        cache.set(BEAT_HEARTBEAT_KEY, time.time() - 25)
        assert health.beat_state() == health.BEAT_STALE.format(seconds=25)
        cache.set(BEAT_HEARTBEAT_KEY, time.time() - 15)  # within two intervals
        assert health.beat_state() == health.BEAT_ALIVE

    def test_beat_sends_the_heartbeat_the_sweep_and_the_wake_up(self, settings):
        schedule = {entry["task"]: entry for entry in settings.CELERY_BEAT_SCHEDULE.values()}
        beat = schedule["config.celery.beat_heartbeat_task"]
        assert beat["schedule"] == settings.CHRONICLE_BEAT_HEARTBEAT_SECONDS
        assert "campaign.tasks.campaign_export_sweep_task" in schedule
        # Bots play again within seconds of Redis coming back, not a minute.
        assert schedule["games.tasks.session_bots_wake_task"]["schedule"] <= 10


class WorkerReconnectTests:
    def test_the_worker_reconnects_to_the_broker_for_ever(self):
        assert app.conf.broker_connection_retry and app.conf.broker_connection_retry_on_startup
        assert app.conf.broker_connection_max_retries is None

    def test_tasks_are_acknowledged_late_and_redelivered_when_the_worker_dies(self):
        from campaign.tasks import campaign_export_task
        from games.tasks import bot_move_task

        assert app.conf.task_acks_late and app.conf.task_reject_on_worker_lost
        for task in (campaign_export_task, bot_move_task):
            assert task.acks_late and task.reject_on_worker_lost, task.name


class ComposeRestartTests:
    def test_every_service_restarts_on_its_own(self):
        compose = yaml.safe_load((ROOT / "docker" / "compose.yaml").read_text())
        policies = {name: service.get("restart") for name, service in compose["services"].items()}
        # migrate runs once: it restarts only until it has succeeded.
        assert policies.pop("migrate") == "on-failure"
        assert policies and set(policies.values()) == {"unless-stopped"}, policies
