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
