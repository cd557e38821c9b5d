"""The event streams' caps per account and per client address (games/live/caps.py): one account,
or one address, cannot take the streams a server has for everyone; with Redis the count is the
server's, across its processes. Refused streams answer 429 with the cap's own words, and the page
polls instead (static/js/live.js)."""

import asyncio
import uuid

import pytest
from django.conf import settings
from django.test import Client as DjangoClient

from api.accounts.services import token_obtain
from games.live import caps
from tests.factories import UserFactory
from tests.guards import HANG_GUARD_SECONDS
from tests.integration.games.conftest import new_session
from tests.integration.games.test_stream_caps import Client as Stream
from tests.integration.games.test_stream_caps import _seat_path, served  # noqa: F401

pytestmark = [pytest.mark.database, pytest.mark.django_db]


def _cookie(user) -> str:
    client = DjangoClient()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


def _tables(user, count: int, **client) -> list[Stream]:
    """The table screen of ``count`` nights hosted by ``user``, each opened with their cookie."""
    cookie = _cookie(user)
    return [
        Stream(f"/play/s/{new_session(host=user).pk}/events/", cookie=cookie, **client) for _ in range(count)
    ]


class OwnerCapTests:
    def test_one_account_is_refused_past_its_cap_whatever_its_tables(self, served, monkeypatch):  # noqa: F811
        monkeypatch.setattr(caps, "MAX_STREAMS_PER_ACCOUNT", 2)
        clients = _tables(UserFactory(), 3)
        phone = Stream(_seat_path(new_session(), 0), address="10.1.2.4")  # another table: not counted
        served([*clients, phone])
        assert [c.status for c in clients] + [phone.status] == [200, 200, 429, 200]
        assert clients[2].body.decode() == caps.TOO_MANY_FOR_ACCOUNT
        assert (
            dict(clients[2].start["headers"])[b"Retry-After"]
            == str(caps.TOO_MANY_RETRY_AFTER_SECONDS).encode()
        )

    def test_one_address_is_refused_past_its_cap_and_another_still_opens(self, served, monkeypatch):  # noqa: F811
        monkeypatch.setattr(caps, "MAX_STREAMS_PER_ADDRESS", 2)
        clients = [Stream(_seat_path(new_session(), 0)) for _ in range(3)]
        other = Stream(_seat_path(new_session(), 0), address="192.0.2.8")
        served([*clients, other])
        assert [c.status for c in clients] + [other.status] == [200, 200, 429, 200]
        assert clients[2].body.decode() == caps.TOO_MANY_FOR_ADDRESS

    def test_the_accounts_api_token_and_cookie_count_together(self, served, monkeypatch):  # noqa: F811
        monkeypatch.setattr(caps, "MAX_STREAMS_PER_ACCOUNT", 1)
        user = UserFactory()
        _token, key = token_obtain(user=user, device="phone")
        api = Stream(f"/api/sessions/{new_session(host=user).pk}/events/", address="10.1.2.5")
        api.headers = lambda: [(b"host", b"testserver"), (b"authorization", f"Bearer {key}".encode())]
        clients = [*_tables(user, 1), api]
        served(clients)
        assert [c.status for c in clients] == [200, 429]
        assert api.body.decode() == caps.TOO_MANY_FOR_ACCOUNT

    def test_a_refused_stream_holds_no_place(self, served, monkeypatch):  # noqa: F811
        monkeypatch.setattr(caps, "MAX_STREAMS_PER_ACCOUNT", 1)
        user = UserFactory()
        seen: list[dict] = []
        served(_tables(user, 2), then=lambda: seen.append(dict(caps.counts.open)))
        assert seen[0][("account", user.pk)] == 1 and dict(caps.counts.open) == {}


async def _two_processes(first: list[Stream], second: list[Stream], monkeypatch) -> None:
    """``first`` served by one process, then ``second`` by another (its own counts) while the
    first's streams are still open; then everyone hangs up."""
    from config.asgi import application

    tasks: list[asyncio.Task] = []

    async def opened(client: Stream) -> None:
        tasks.append(asyncio.create_task(application(client.scope(), client.receive, client.send)))
        answered = asyncio.create_task(client.answered.wait())
        await asyncio.wait([answered, tasks[-1]], return_when=asyncio.FIRST_COMPLETED)
        answered.cancel()

    async with asyncio.timeout(HANG_GUARD_SECONDS):
        for client in first:
            await opened(client)
        own = caps.counts
        monkeypatch.setattr(caps, "counts", caps.StreamCounts())  # another process's
        for client in second:
            await opened(client)
        for client in second:  # each process gives its places back to its own counts
            client.hang_up()
        await asyncio.gather(*tasks[len(first) :])
        monkeypatch.setattr(caps, "counts", own)
        for client in first:
            client.hang_up()
        await asyncio.gather(*tasks)


@pytest.mark.redis
class SharedCapTests:
    @pytest.fixture
    def shared_redis(self, redis_url, settings, monkeypatch):
        limits = {"BACKEND": "config.cache.ResilientRedisCache", "LOCATION": redis_url}
        settings.CACHES = {**settings.CACHES, "limits": limits}
        monkeypatch.setattr(caps.SharedStreamCounts, "PREFIX", f"test:{uuid.uuid4().hex}:")
        return caps.shared._client()

    def test_the_account_cap_holds_across_two_processes_sharing_redis(
        self,
        served,  # noqa: F811
        shared_redis,
        monkeypatch,
    ):
        from asgiref.sync import async_to_sync

        monkeypatch.setattr(caps, "MAX_STREAMS_PER_ACCOUNT", 2)
        user = UserFactory()
        first, second = _tables(user, 2), _tables(user, 1, address="10.1.2.9")
        async_to_sync(_two_processes)(first, second, monkeypatch)
        assert [c.status for c in first + second] == [200, 200, 429]
        assert second[0].body.decode() == caps.TOO_MANY_FOR_ACCOUNT
        assert shared_redis.keys(caps.SharedStreamCounts.PREFIX + "*") == []  # every place given back

    def test_the_address_cap_holds_across_two_processes_sharing_redis(
        self,
        served,  # noqa: F811
        shared_redis,
        monkeypatch,
    ):
        from asgiref.sync import async_to_sync

        monkeypatch.setattr(caps, "MAX_STREAMS_PER_ADDRESS", 1)
        first = [Stream(_seat_path(new_session(), 0))]
        second = [
            Stream(_seat_path(new_session(), 0)),
            Stream(_seat_path(new_session(), 0), address="10.9.9.9"),
        ]
        async_to_sync(_two_processes)(first, second, monkeypatch)
        assert [c.status for c in first + second] == [200, 429, 200]
        assert second[0].body.decode() == caps.TOO_MANY_FOR_ADDRESS
