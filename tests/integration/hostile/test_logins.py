"""Login rate limits (issue 14): every login form, the admin's included, and the sign-up (issue 24),
limited per client address (behind a trusted proxy, the address it forwards), in a sliding window."""

import itertools

import pytest
from django.test import Client

from config import ratelimits

pytestmark = pytest.mark.django_db

PROXY = "10.0.0.5"
LOGINS = ["/accounts/login/", "/accounts/signup/", "/admin/login/", "/api/auth/token/"]


_logins = itertools.count()


def attempt(url, remote="198.51.100.7", forwarded=None, login=None):
    """One POST; each names another login unless told (the wrong passwords per login and address
    have their own, lower, limit: tests/integration/hostile/test_login_lockout.py)."""
    login = login or f"x{next(_logins)}"
    headers = {"REMOTE_ADDR": remote}
    if forwarded:
        headers["HTTP_X_FORWARDED_FOR"] = forwarded
    if url.startswith("/api/"):
        return Client().post(
            url, {"username": login, "password": "y"}, content_type="application/json", **headers
        )
    return Client().post(url, {"username": login, "login": login, "password": "y"}, **headers)


@pytest.fixture
def clock(monkeypatch):
    now = [60 * 20_000 + 55.0]  # 5 seconds before a minute ends
    monkeypatch.setattr(ratelimits, "now", lambda: now[0])
    return now


class LoginLimitTests:
    @pytest.mark.parametrize("url", LOGINS)
    def test_every_login_is_limited(self, url, clock):
        responses = [attempt(url) for _ in range(ratelimits.LOGIN_ATTEMPTS + 1)]
        assert 429 not in [r.status_code for r in responses[:-1]] and responses[-1].status_code == 429
        # Every attempt fell in the bucket that began 5 seconds ago: it leaves the window in 55.
        assert responses[-1]["Retry-After"] == str(ratelimits.LOGIN_WINDOW - 5)

    def test_the_api_answers_its_error_shape(self, clock):
        for _ in range(ratelimits.LOGIN_ATTEMPTS):
            attempt("/api/auth/token/")
        response = attempt("/api/auth/token/")
        assert response.status_code == 429 and set(response.json()) == {"message", "code", "extra"}

    @pytest.mark.parametrize("url", LOGINS)
    def test_behind_a_trusted_proxy_one_client_does_not_lock_out_another(self, url, settings, clock):
        settings.TRUSTED_PROXIES = [PROXY]
        for _ in range(ratelimits.LOGIN_ATTEMPTS + 1):
            attempt(url, remote=PROXY, forwarded="203.0.113.1")
        assert attempt(url, remote=PROXY, forwarded="203.0.113.1").status_code == 429
        assert attempt(url, remote=PROXY, forwarded="203.0.113.2").status_code != 429

    def test_forwarded_addresses_from_anyone_else_are_ignored(self, settings, clock):
        settings.TRUSTED_PROXIES = [PROXY]
        codes = [
            attempt("/accounts/login/", remote="198.51.100.9", forwarded=f"203.0.113.{i}").status_code
            for i in range(ratelimits.LOGIN_ATTEMPTS + 1)
        ]
        assert codes[-1] == 429

    def test_a_client_cannot_spoof_past_the_proxy(self, settings, clock):
        """The proxy appends the address it saw: anything the client put before it is not trusted."""
        settings.TRUSTED_PROXIES = [PROXY]
        codes = [
            attempt("/accounts/login/", remote=PROXY, forwarded=f"192.0.2.{i}, 203.0.113.1").status_code
            for i in range(ratelimits.LOGIN_ATTEMPTS + 1)
        ]
        assert codes[-1] == 429

    def test_the_window_slides(self, clock):
        for _ in range(ratelimits.LOGIN_ATTEMPTS):
            attempt("/accounts/login/")
        clock[0] += 10  # a new minute: a fixed window would have forgotten everything
        assert attempt("/accounts/login/").status_code == 429
        clock[0] += ratelimits.LOGIN_WINDOW
        assert attempt("/accounts/login/").status_code == 200


class ClientAddressTests:
    def test_trusted_proxies_may_be_networks(self, rf, settings):
        settings.TRUSTED_PROXIES = ["10.0.0.0/8", "::1"]
        request = rf.get("/", REMOTE_ADDR="10.1.2.3", HTTP_X_FORWARDED_FOR="203.0.113.4, 10.9.9.9")
        assert ratelimits.client_address(request) == "203.0.113.4"

    def test_garbage_in_the_header_falls_back_to_the_proxy(self, rf, settings):
        settings.TRUSTED_PROXIES = [PROXY]
        request = rf.get("/", REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR="not-an-address")
        assert ratelimits.client_address(request) == PROXY
