"""The settings the environment gives: the embedded SQLite that waits instead of locking,
persistent connections with health checks, a JSON-only API in production."""

import json
import os
import subprocess
import sys
from pathlib import Path

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

    def test_sqlite_has_no_pool(self, tmp_path):
        assert "pool" not in settings_with(tmp_path, DATABASE_POOL="1")["options"]


class RendererSettingsTests:
    def test_production_answers_json_only(self, tmp_path):
        assert settings_with(tmp_path, **PRODUCTION)["renderers"] == ["JSONRenderer"]

    def test_development_keeps_the_browsable_api(self, tmp_path):
        assert settings_with(tmp_path, DEBUG="1")["renderers"] == ["JSONRenderer", "BrowsableAPIRenderer"]
