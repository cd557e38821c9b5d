"""One Redis client per process (config/cache.py): Django makes a cache object per thread and per
async context, so under ASGI each request made its own client, pool and TCP connection to Redis
(issue 27, "cheap redraws": a connect and a health check in every panel GET)."""

import pytest
import redis
from django.core.cache import caches

pytestmark = [pytest.mark.redis]

BACKEND = "config.cache.ResilientRedisCache"


@pytest.fixture
def redis_cache(settings, redis_url):
    settings.CACHES = {"default": {"BACKEND": BACKEND, "LOCATION": redis_url}}
    return redis_url


class CacheClientTests:
    def test_cache_objects_of_one_configuration_share_a_client(self, redis_cache):
        first, second = caches.create_connection("default"), caches.create_connection("default")
        assert first is not second
        assert first._cache is second._cache  # type: ignore[attr-defined]

    def test_fresh_cache_objects_open_no_new_connection(self, redis_cache):
        server = redis.Redis.from_url(redis_cache)
        caches.create_connection("default").get("warm-up")
        before = server.info("stats")["total_connections_received"]
        for i in range(20):  # as 20 ASGI requests, each with a cache object of its own
            cache = caches.create_connection("default")
            cache.set(f"cache-client-{i}", i)
            assert cache.get(f"cache-client-{i}") == i
        assert server.info("stats")["total_connections_received"] == before

    def test_another_location_has_its_own_client(self, redis_cache, settings):
        settings.CACHES = {"default": {"BACKEND": BACKEND, "LOCATION": redis_cache.rsplit("/", 1)[0] + "/1"}}
        other = caches.create_connection("default")
        settings.CACHES = {"default": {"BACKEND": BACKEND, "LOCATION": redis_cache}}
        assert other._cache is not caches.create_connection("default")._cache  # type: ignore[attr-defined]

    def test_operations_share_one_redis_client(self, redis_cache):
        """Django's client made a ``redis.Redis`` (and its table of reply callbacks) per operation."""
        client = caches.create_connection("default")._cache  # type: ignore[attr-defined]
        assert client.get_client("a") is client.get_client("b")
        assert client.get_client("a", write=True) is client.get_client("b", write=True)
        cache = caches.create_connection("default")
        cache.set("kept-client", 7)
        assert cache.get("kept-client") == 7


@pytest.fixture
def kept_here_cache(settings, redis_url):
    settings.CACHES = {
        "default": {"BACKEND": BACKEND, "LOCATION": redis_url, "OPTIONS": {"KEPT_HERE": ["facts:"]}}
    }
    cache = caches.create_connection("default")
    cache.clear()
    return cache, redis.Redis.from_url(redis_url)


class KeptHereTests:
    """Values of the KEPT_HERE prefixes (a version's facts: never changed under their key) are kept
    in the process too: the screens of a version stop asking Redis for them."""

    def test_a_kept_here_value_is_answered_by_the_process_once_read(self, kept_here_cache):
        cache, server = kept_here_cache
        cache.set("facts:7:3:1.5", {"seats": 5})
        server.delete(cache.make_key("facts:7:3:1.5"))  # gone from Redis: the process still has it
        assert caches.create_connection("default").get("facts:7:3:1.5") == {"seats": 5}

    def test_other_keys_are_always_asked_of_redis(self, kept_here_cache):
        cache, server = kept_here_cache
        cache.set("panel:7:3", "<div>")
        server.delete(cache.make_key("panel:7:3"))
        assert cache.get("panel:7:3") is None

    def test_a_value_read_from_redis_is_kept_here_and_a_miss_is_not(self, kept_here_cache):
        cache, server = kept_here_cache
        assert cache.get("facts:8:1:2.5", "none") == "none"
        other = caches.create_connection("default")
        other.set("facts:8:1:2.5", "written elsewhere")
        from config import cache as module

        module._forget_here()  # as a process that never saw it
        assert cache.get("facts:8:1:2.5") == "written elsewhere"
        server.delete(cache.make_key("facts:8:1:2.5"))
        assert cache.get("facts:8:1:2.5") == "written elsewhere"

    def test_delete_and_clear_forget_what_the_process_kept(self, kept_here_cache):
        cache, _server = kept_here_cache
        cache.set("facts:9:1:3.5", 1)
        cache.set("facts:9:2:3.5", 2)
        cache.delete("facts:9:1:3.5")
        assert cache.get("facts:9:1:3.5") is None
        cache.clear()
        assert cache.get("facts:9:2:3.5") is None

    def test_the_process_keeps_a_bounded_number(self, kept_here_cache, monkeypatch):
        from config import cache as module

        cache, server = kept_here_cache
        monkeypatch.setattr(module, "KEPT_HERE_MOST", 3)
        for i in range(5):
            cache.set(f"facts:{i}", i)
        server.flushdb()
        assert [cache.get(f"facts:{i}") for i in range(5)] == [None, None, 2, 3, 4]


@pytest.mark.django_db
def test_screens_of_a_new_version_never_get_the_facts_of_the_one_before(settings, redis_url):
    """The facts a process keeps are under their version's key: after a tap every screen shows it."""
    import random

    from django.core.cache import cache
    from django.test import Client
    from django.urls import reverse

    from games import versions
    from games.models import SessionAction
    from games.services.taps import session_submit_action
    from tests.integration.games.conftest import new_session, random_move

    settings.CACHES = {
        "default": {"BACKEND": BACKEND, "LOCATION": redis_url, "OPTIONS": {"KEPT_HERE": ["facts:"]}}
    }
    cache.clear()
    session = new_session(seed=11)
    seats = list(session.seats.order_by("index"))
    before = versions.version_key(session)
    for seat in seats:  # this version's facts, kept in Redis and in this process
        Client().get(reverse("games:seat_page", args=[seat.token]), HTTP_HX_REQUEST="true")
    for _ in range(3):
        actor, action = random_move(session, random.Random(session.version))
        session_submit_action(session=session, seat=actor, action=action, expected_version=session.version)
        logged = SessionAction.objects.get(session=session, version=session.version)
        assert versions.version_key(session) != before
        for seat in seats:
            answer = Client().get(reverse("games:seat_page", args=[seat.token]), HTTP_HX_REQUEST="true")
            assert answer.status_code == 200
            assert (
                f'<span class="log-seq">#{logged.seq}</span>' in answer.content.decode()
            )  # the new one        before = versions.version_key(session)
    cache.clear()
