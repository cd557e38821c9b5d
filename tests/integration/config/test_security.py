"""Production settings and protections (issue: production shape)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.urls import reverse

ROOT = Path(__file__).resolve().parents[3]


class DeployCheckTests:
    def test_production_settings_pass_check_deploy(self, tmp_path):
        env = {
            **{
                k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"
            },  # set by the browser tests
            "DEBUG": "0",
            "SECRET_KEY": "x" * 20 + "a-long-and-random-production-secret-key-0123456789",
            "ALLOWED_HOSTS": "chronicle.example.org",
            "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
            "REDIS_URL": "redis://127.0.0.1:1/0",
        }
        result = subprocess.run(
            [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
        )
        assert result.returncode == 0, result.stdout + result.stderr

    def test_debug_off_without_secret_key_refuses_to_start(self):
        env = {**os.environ, "DEBUG": "0", "SECRET_KEY": ""}
        result = subprocess.run(
            [sys.executable, "manage.py", "check"], cwd=ROOT, env=env, capture_output=True, text=True
        )
        assert result.returncode != 0 and "SECRET_KEY must be set" in result.stderr


@pytest.mark.django_db
class RateLimitTests:
    def test_login_is_rate_limited(self, client):
        url = reverse("login")
        codes = [client.post(url, {"username": "x", "password": "y"}).status_code for _ in range(25)]
        assert codes[0] == 200 and codes[-1] == 429


@pytest.mark.django_db
class CsrfTests:
    def test_forms_require_the_csrf_token(self, user):
        from django.test import Client

        client = Client(enforce_csrf_checks=True)
        client.force_login(user)
        assert client.post(reverse("campaign-create"), {"name": "x"}).status_code == 403


@pytest.mark.django_db
class SeatTokenGuessingTests:
    def test_unknown_join_tokens_are_rate_limited_but_a_real_one_is_not(self, client):
        from games.services.sessions import session_create

        session = session_create(game="for_the_king", seat_names=["A", "B", "C"])
        seat = session.seats.get(index=0)
        codes = [client.get(f"/play/seat/guess-{i}/").status_code for i in range(35)]
        assert codes[0] == 404 and codes[-1] == 429
        for _ in range(40):  # a phone reloading its own page is never limited
            assert client.get(f"/play/seat/{seat.token}/").status_code == 200

    def test_the_api_answers_429_to_token_guessing(self):
        from rest_framework.test import APIClient

        from games.services.sessions import session_create

        session = session_create(game="for_the_king", seat_names=["A", "B", "C"])
        api = APIClient()
        codes = [
            api.get(
                f"/api/sessions/{session.pk}/seats/0/", headers={"X-Seat-Token": f"guess-{i}"}
            ).status_code
            for i in range(35)
        ]
        assert codes[-1] == 429 and set(codes[:5]) <= {401, 403}
