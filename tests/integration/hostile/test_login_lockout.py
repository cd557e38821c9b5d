"""Log-in limits that hold and hold no one out (config/ratelimits.py, docs/operations.md): counted
where a flood of other cache entries cannot empty them (make run's own settings: SQLite, no Redis),
and the wrong passwords counted per (login, address), so a stranger's cannot refuse the member at
home while the stranger's own address stays refused."""

import json
import os
import sqlite3
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from config import ratelimits
from config.api_errors import TOO_MANY_ATTEMPTS

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[3]
STRANGER = "203.0.113.66"
HOME = "192.168.1.20"
PASSWORD = "a long and right passphrase"

READ = """
import json, django
django.setup()
from django.conf import settings
print(json.dumps({"CACHES": settings.CACHES, "API_RATE": settings.API_RATE}))
"""


def make_run_settings(tmp_path) -> dict:
    """The CACHES and API rate make run serves with (CHRONICLE_EMBEDDED=1, SQLite, no Redis)."""
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL", "DEBUG"}}
    env |= {"DJANGO_SETTINGS_MODULE": "config.settings", "CHRONICLE_EMBEDDED": "1"}
    env["CHRONICLE_SECRET_KEY_FILE"] = str(tmp_path / "key")
    result = subprocess.run([sys.executable, "-c", READ], cwd=ROOT, env=env, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


@pytest.fixture
def clock(monkeypatch):
    now = [60 * 20_000 + 5.0]
    monkeypatch.setattr(ratelimits, "now", lambda: now[0])
    return now


@pytest.fixture
def member(db):
    return get_user_model().objects.create_user(username="member", password=PASSWORD)


def log_in(address: str, password: str, login: str = "member"):
    return Client().post("/accounts/login/", {"login": login, "password": password}, REMOTE_ADDR=address)


def token(address: str, password: str):
    body = {"username": "member", "password": password}
    return Client().post("/api/auth/token/", body, content_type="application/json", REMOTE_ADDR=address)


def fresh_cookie_flood(count: int) -> None:
    """What emptied the old counters: requests each with a new random session cookie (every one a
    new entry of the API's per-caller rate in the local-memory cache)."""
    for _ in range(count):
        client = Client()
        client.cookies["sessionid"] = uuid.uuid4().hex
        client.get("/api/auth/token/", REMOTE_ADDR="198.51.100.200")


class FloodTests:
    def test_make_run_counts_the_limits_in_its_database_not_in_local_memory(self, tmp_path):
        caches = make_run_settings(tmp_path)["CACHES"]
        assert caches["limits"]["BACKEND"] == "django.core.cache.backends.db.DatabaseCache"
        assert caches["default"]["BACKEND"].endswith("LocMemCache")  # the one a flood culls

    def test_make_runs_migrate_makes_the_limits_table(self, tmp_path):
        env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL", "DEBUG"}}
        database = tmp_path / "db.sqlite3"
        env |= {"DJANGO_SETTINGS_MODULE": "config.settings", "CHRONICLE_EMBEDDED": "1"}
        env |= {"CHRONICLE_SECRET_KEY_FILE": str(tmp_path / "key"), "DATABASE_URL": f"sqlite:///{database}"}
        manage = [sys.executable, str(ROOT / "manage.py"), "migrate", "--noinput", "-v0"]
        subprocess.run(manage, cwd=ROOT, env=env, check=True, capture_output=True)
        with sqlite3.connect(database) as db:
            tables = {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert "chronicle_limits" in tables

    def test_a_flood_of_fresh_cookies_cannot_empty_the_login_limits(self, tmp_path, settings, clock, member):
        shape = make_run_settings(tmp_path)
        settings.CACHES, settings.API_RATE = shape["CACHES"], shape["API_RATE"]
        for i in range(ratelimits.LOGIN_ATTEMPTS):
            log_in(STRANGER, "wrong", login=f"guess{i}")
        for _ in range(ratelimits.LOGIN_FAILURES):
            log_in("198.51.100.7", "wrong")
        fresh_cookie_flood(400)  # more than the local-memory cache's 300 entries
        assert log_in(STRANGER, "wrong", login="guess-again").status_code == 429
        assert log_in("198.51.100.7", PASSWORD).status_code == 429  # that address's lock held too


class LockoutTests:
    def test_a_strangers_wrong_passwords_do_not_refuse_the_member_from_home(self, clock, member):
        codes = [log_in(STRANGER, "wrong").status_code for _ in range(ratelimits.LOGIN_FAILURES + 1)]
        assert codes == [200] * ratelimits.LOGIN_FAILURES + [429]  # the form's error, then refused
        at_home = log_in(HOME, PASSWORD)
        assert at_home.status_code == 302 and "_auth_user_id" in at_home.client.session
        assert token(HOME, PASSWORD).status_code == 200  # the phone's API log-in too

    def test_the_strangers_address_stays_refused_even_with_the_right_password(self, clock, member):
        for _ in range(ratelimits.LOGIN_FAILURES):
            log_in(STRANGER, "wrong")
        assert log_in(STRANGER, PASSWORD).status_code == 429
        refused = token(STRANGER, PASSWORD)
        assert refused.status_code == 429 and refused.json()["message"] == TOO_MANY_ATTEMPTS

    def test_the_login_is_counted_as_typed_whatever_its_case(self, clock, member):
        for _ in range(ratelimits.LOGIN_FAILURES):
            log_in(STRANGER, "wrong", login="MEMBER")
        assert log_in(STRANGER, PASSWORD, login="Member").status_code == 429

    def test_every_login_form_counts_the_wrong_passwords_together(self, clock, member):
        for _ in range(ratelimits.LOGIN_FAILURES):
            token(STRANGER, "wrong")  # the API's log-in
        assert log_in(STRANGER, PASSWORD).status_code == 429

    def test_the_lock_ends_as_the_failures_leave_the_window(self, clock, member):
        for _ in range(ratelimits.LOGIN_FAILURES):
            log_in(STRANGER, "wrong")
        clock[0] += ratelimits.LOGIN_FAILURE_WINDOW
        assert log_in(STRANGER, PASSWORD).status_code == 302

    def test_the_refusal_says_when_the_lock_ends(self, clock, member):
        """Retry-After and the page say how long the lock lasts: until enough failures have left the
        window for fewer than LOGIN_FAILURES to remain (10-second buckets), never one minute."""
        for _ in range(3):
            log_in(STRANGER, "wrong")
        clock[0] += 100
        for _ in range(ratelimits.LOGIN_FAILURES - 3):
            log_in(STRANGER, "wrong")
        refused = log_in(STRANGER, PASSWORD)
        # The first three leave the window 300 s after their bucket began (5 s before them).
        assert refused.status_code == 429 and refused["Retry-After"] == "195"
        assert "Please wait 4 minutes and try again." in refused.content.decode()
        assert token(STRANGER, PASSWORD)["Retry-After"] == "195"  # the API says the same
        clock[0] += 194
        assert log_in(STRANGER, PASSWORD)["Retry-After"] == "1"
        clock[0] += 1
        assert log_in(STRANGER, PASSWORD).status_code == 302

    def test_the_members_own_mistakes_lock_only_their_address(self, clock, member):
        for _ in range(ratelimits.LOGIN_FAILURES):
            log_in(HOME, "wrong")
        assert log_in(HOME, PASSWORD).status_code == 429
        assert log_in("192.168.1.21", PASSWORD).status_code == 302  # the phone beside it
