"""Redis unreachable: logins, rate limits and pages keep answering (issue 25: "While Redis is down
nobody can log in"). The cache is the production backend pointed at a port where nothing listens;
its reads are misses and its writes are dropped, with a warning in the log."""

import logging
import socket

import pytest
from django.core.cache import caches
from django.urls import reverse
from rest_framework.test import APIClient

from config.cache import CACHE_UNREACHABLE
from games.live import nudges
from tests.factories import UserFactory

pytestmark = [pytest.mark.django_db]

PASSWORD = "a long enough password"


def _closed_port() -> int:
    """A local port where nothing listens (bound, then released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def cache_down(settings):
    down = {"BACKEND": nudges.REDIS_CACHE, "LOCATION": f"redis://127.0.0.1:{_closed_port()}/0"}
    # Both of production's caches are Redis: the pages' and the limits' (config/ratelimits.py).
    settings.CACHES = {"default": down, "limits": {**down, "KEY_PREFIX": "limits"}}
    # Django's setting_changed signal gives the cache handler the new backend.
    assert type(caches["default"]).__name__ == nudges.REDIS_CACHE.rsplit(".", 1)[1]


@pytest.fixture
def member():
    user = UserFactory()
    user.set_password(PASSWORD)
    user.save()
    return user


class CacheDownTests:
    def test_the_login_page_logs_in(self, client, member, cache_down, caplog):
        with caplog.at_level(logging.WARNING, logger="config.cache"):
            response = client.post(reverse("login"), {"login": member.username, "password": PASSWORD})
        assert response.status_code == 302
        assert client.get(reverse("home")).status_code == 200
        assert CACHE_UNREACHABLE.split(":")[0] in caplog.text

    def test_the_api_gives_a_token(self, member, cache_down):
        response = APIClient().post(
            "/api/auth/token/", {"username": member.username, "password": PASSWORD}, format="json"
        )
        assert response.status_code == 200, response.content[:300]
        assert response.json()["token"]

    def test_a_wrong_password_is_still_refused(self, client, member, cache_down):
        response = client.post(reverse("login"), {"login": member.username, "password": "wrong"})
        assert response.status_code == 200 and b"correct" in response.content.lower()

    def test_the_status_page_says_redis_is_unreachable(self, client, settings, cache_down):
        settings.REDIS_URL = settings.CACHES["default"]["LOCATION"]
        response = client.get(reverse("healthz"))
        assert response.status_code == 200 and response.json()["redis"] == "unreachable"
