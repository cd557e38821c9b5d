import os

import pytest


@pytest.fixture
def user(db):
    from tests.factories import UserFactory

    return UserFactory()


@pytest.fixture
def redis_url():
    """A real Redis for tests that need one (make test starts it). Missing in CI is a failure."""
    url = os.environ.get("CHRONICLE_TEST_REDIS_URL")
    if not url:
        if os.environ.get("CI"):
            pytest.fail("CI needs a real Redis: CHRONICLE_TEST_REDIS_URL is not set (run make test).")
        pytest.skip("no Redis: run through make test")
    return url


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def pytest_collection_modifyitems(config, items):
    """PostgreSQL-only tests (row locks, concurrency) run in make test's PostgreSQL pass (the
    SQLite pass deselects them with -m). Run by hand on SQLite they are skipped, never in CI."""
    from django.db import connection

    if connection.vendor == "postgresql" or os.environ.get("CI"):
        return
    for item in items:
        if item.get_closest_marker("postgres"):
            item.add_marker(pytest.mark.skip(reason="needs PostgreSQL: run through make test"))


@pytest.fixture(autouse=True)
def _fresh_cache():
    """Rate-limit counters and cached charts never leak from one test to the next."""
    from django.core.cache import cache

    cache.clear()
    yield
