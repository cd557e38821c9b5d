import contextlib
import os

import pytest
from hypothesis import settings as hypothesis_settings

# CI plays the same examples on every run (a red CI must mean a regression, not a new draw); `make soak`
# and runs by hand draw new ones. A failure prints its example either way.
hypothesis_settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
if os.environ.get("CI"):
    hypothesis_settings.load_profile("ci")


def pytest_configure(config):
    """The translation catalogues compiled when a .po is newer than its .mo (make test compiles them
    first; this covers pytest run by hand), before any page is rendered."""
    from config.catalogues import compile_stale

    compile_stale()


def _django_on(config) -> bool:
    return config.pluginmanager.hasplugin("django")


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
def _django_test_defaults(request):
    """Fast password hashing, and rate-limit counters and cached charts never leaking from one
    test to the next. Engine tests may run without Django (-p no:django): then nothing to do."""
    if not _django_on(request.config):
        yield
        return
    from django.core.cache import cache, caches

    request.getfixturevalue("settings").PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    cache.clear()
    # A table of the database without Redis, which outlives a flush; a test without the database
    # counts nothing there.
    with contextlib.suppress(RuntimeError):
        caches["limits"].clear()
    yield


def pytest_collection_modifyitems(config, items):
    """PostgreSQL-only tests (row locks, concurrency) run in make test's PostgreSQL pass (the
    SQLite pass deselects them with -m). Run by hand on SQLite they are skipped, never in CI."""
    if not _django_on(config) or os.environ.get("CI"):
        return
    from django.db import connection

    if connection.vendor == "postgresql":
        return
    for item in items:
        if item.get_closest_marker("postgres"):
            item.add_marker(pytest.mark.skip(reason="needs PostgreSQL: run through make test"))
