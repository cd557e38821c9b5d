"""The settings the environment gives: the embedded SQLite that waits instead of locking,
persistent connections with health checks, a JSON-only API in production."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
PRODUCTION = {"DEBUG": "0", "SECRET_KEY": "x" * 60, "ALLOWED_HOSTS": "chronicle.example.org"}

READ_SETTINGS = """
import json, django
django.setup()
from django.conf import settings
from django.db import connection
from rest_framework.settings import api_settings
db = settings.DATABASES["default"]
out = {
    "renderers": [c.__name__ for c in api_settings.DEFAULT_RENDERER_CLASSES],
    "conn_max_age": db["CONN_MAX_AGE"],
    "health_checks": db["CONN_HEALTH_CHECKS"],
    "options": db.get("OPTIONS", {}),
    "engine": db["ENGINE"],
}
if connection.vendor == "sqlite":
    with connection.cursor() as c:
        out["pragmas"] = [c.execute(f"PRAGMA {p}").fetchone()[0] for p in ("journal_mode", "synchronous", "busy_timeout")]
print(json.dumps(out))
"""


def settings_with(tmp_path, **env) -> dict:
    """The settings module read in a fresh process with this environment."""
    base = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "DJANGO_ALLOW_ASYNC_UNSAFE"}}
    full = {
        **base,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        **env,
    }
    result = subprocess.run(
        [sys.executable, "-c", READ_SETTINGS], cwd=ROOT, env=full, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


class SqliteSettingsTests:
    def test_the_embedded_database_uses_wal_normal_sync_a_busy_timeout_and_immediate_transactions(
        self, tmp_path
    ):
        got = settings_with(tmp_path)
        assert got["options"]["transaction_mode"] == "IMMEDIATE"
        assert got["pragmas"] == ["wal", 1, 20000]  # synchronous 1 = NORMAL; the timeout in ms

    def test_the_busy_timeout_comes_from_the_environment(self, tmp_path):
        assert settings_with(tmp_path, SQLITE_BUSY_TIMEOUT="3")["pragmas"][2] == 3000


class ConnectionSettingsTests:
    def test_connections_persist_with_health_checks_by_default(self, tmp_path):
        got = settings_with(tmp_path)
        assert (got["conn_max_age"], got["health_checks"]) == (60, True)

    def test_both_come_from_the_environment(self, tmp_path):
        got = settings_with(tmp_path, CONN_MAX_AGE="0", CONN_HEALTH_CHECKS="0")
        assert (got["conn_max_age"], got["health_checks"]) == (0, False)


class ConnectionPoolSettingsTests:
    POSTGRES = {"DATABASE_URL": "postgres://chronicle@127.0.0.1:1/chronicle"}  # never connected to

    def test_no_pool_unless_asked(self, tmp_path):
        assert "pool" not in settings_with(tmp_path, **self.POSTGRES)["options"]

    def test_the_pool_comes_from_the_environment_and_persistent_connections_go(self, tmp_path):
        got = settings_with(
            tmp_path, **self.POSTGRES, DATABASE_POOL="1", CONN_MAX_AGE="60", DATABASE_POOL_MAX_SIZE="7"
        )
        assert got["options"]["pool"] == {"min_size": 2, "max_size": 7, "timeout": 10.0}
        assert (got["conn_max_age"], got["health_checks"]) == (0, True)  # Django's pool requires 0

    def test_sqlite_keeps_its_connections_in_the_process_pool(self, tmp_path):
        """Django's pool is PostgreSQL's; SQLite gets config/sqlite_pool, with the same pragmas."""
        got = settings_with(tmp_path, DATABASE_POOL="1", DATABASE_POOL_MAX_SIZE="3")
        assert (got["engine"], got["options"]["pool"], got["conn_max_age"]) == (
            "config.sqlite_pool",
            {"max_size": 3},
            0,
        )
        assert got["pragmas"] == ["wal", 1, 20000]

    def test_sqlite_has_no_pool_unless_asked(self, tmp_path):
        got = settings_with(tmp_path)
        assert got["engine"] == "django.db.backends.sqlite3" and "pool" not in got["options"]


class RendererSettingsTests:
    def test_production_answers_json_only(self, tmp_path):
        assert settings_with(tmp_path, **PRODUCTION)["renderers"] == ["JSONRenderer"]

    def test_development_keeps_the_browsable_api(self, tmp_path):
        assert settings_with(tmp_path, DEBUG="1")["renderers"] == ["JSONRenderer", "BrowsableAPIRenderer"]


class SecondsSettingsTests:
    """A duration from the environment is checked against its bounds at start-up, with a message
    naming the variable (never a silent default, never a huge or negative wait)."""

    def test_a_duration_in_bounds_is_used(self, monkeypatch):
        from config.settings import env_seconds

        monkeypatch.setenv("CHRONICLE_POLL_SECONDS", "0.5")
        assert env_seconds("CHRONICLE_POLL_SECONDS", 2.0, low=0.2, high=60.0) == 0.5
        monkeypatch.delenv("CHRONICLE_POLL_SECONDS")
        assert env_seconds("CHRONICLE_POLL_SECONDS", 2.0, low=0.2, high=60.0) == 2.0

    @pytest.mark.parametrize("raw", ["0", "0.1", "61", "-2", "nan", "inf", "1e308", "soon", ""])
    def test_a_duration_out_of_bounds_or_not_a_number_is_refused(self, monkeypatch, raw):
        from django.core.exceptions import ImproperlyConfigured

        from config.settings import env_seconds

        monkeypatch.setenv("CHRONICLE_POLL_SECONDS", raw)
        with pytest.raises(ImproperlyConfigured, match="CHRONICLE_POLL_SECONDS"):
            env_seconds("CHRONICLE_POLL_SECONDS", 2.0, low=0.2, high=60.0)

    @pytest.mark.parametrize("raw", ["0", "101", "-1", "ten", "2.5"])
    def test_a_pool_size_out_of_bounds_is_refused(self, monkeypatch, raw):
        from django.core.exceptions import ImproperlyConfigured

        from config.settings import env_count

        monkeypatch.setenv("DATABASE_POOL_MAX_SIZE", raw)
        with pytest.raises(ImproperlyConfigured, match="DATABASE_POOL_MAX_SIZE"):
            env_count("DATABASE_POOL_MAX_SIZE", 10, low=1, high=100)

    def test_the_server_refuses_to_start_with_a_poll_of_no_time(self, tmp_path):
        env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
        env.update(DJANGO_SETTINGS_MODULE="config.settings", CHRONICLE_POLL_SECONDS="0")
        env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'db.sqlite3'}"
        result = subprocess.run(
            [sys.executable, "-c", "import django; django.setup()"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
        )
        assert result.returncode != 0
        assert "CHRONICLE_POLL_SECONDS must lie between 0.2 and 60 seconds, not 0." in result.stderr
