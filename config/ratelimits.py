"""Who is asking, and how often: the client address behind a trusted proxy, and the sliding-window
limits of every login form (the site's, the admin's and the API's token endpoint) and of the sign-up.

The counters live in the ``limits`` cache (settings.CACHES): Redis where it is, else a table of the
database that culls nothing it still counts. Never in a local-memory cache, which a flood of other
entries (a fresh session cookie each) culls, forgetting the attempts with them.

Two limits guard a log-in: every POST per client address (LOGIN_ATTEMPTS a minute), and the wrong
passwords for one login (username or e-mail, as typed) from one address (LOGIN_FAILURES in
LOGIN_FAILURE_WINDOW). The second is counted per (login, address) pair, never per login alone: a
stranger's wrong passwords lock the stranger's address out of that account, not the member at home.

Behind the TLS proxy that docs/operations.md asks for, REMOTE_ADDR is the proxy's address for every
client: rate limits keyed on it would lock everyone out together. ``TRUSTED_PROXIES`` (addresses
or networks) lists the proxies whose ``X-Forwarded-For`` is believed; from anyone else the header is
ignored. The client is the rightmost forwarded address that is not itself a trusted proxy.
"""

from __future__ import annotations

import functools
import hashlib
import ipaddress
import math
import time
from collections.abc import Mapping

from django.conf import settings
from django.contrib.auth.signals import user_login_failed
from django.core.cache import caches
from django.core.cache.backends.db import DatabaseCache
from django.core.management import call_command
from django.dispatch import receiver
from django_ratelimit.exceptions import Ratelimited

LOGIN_ATTEMPTS = 20  # per client address ...
LOGIN_WINDOW = 60  # ... in any 60 seconds
LOGIN_FAILURES = 5  # wrong passwords for one login from one address ...
LOGIN_FAILURE_WINDOW = 300  # ... in any 5 minutes; then that address is refused for that login
BUCKET = 10  # the windows slide by 10-second buckets (atomic cache increments)
LIMITS_CACHE = "limits"
# The form fields that name the account: allauth's log-in form, the admin's, the API's JSON.
LOGIN_FIELDS = ("login", "username")


def now() -> float:
    return time.time()


@functools.lru_cache(maxsize=32)
def _networks(proxies: tuple[str, ...]) -> tuple:
    return tuple(ipaddress.ip_network(p.strip(), strict=False) for p in proxies if p.strip())


def _trusted(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in network for network in _networks(tuple(getattr(settings, "TRUSTED_PROXIES", ()))))


def client_address(request) -> str:
    """The client's address: REMOTE_ADDR, or behind a trusted proxy the address it forwarded."""
    remote = request.META.get("REMOTE_ADDR", "") or "0.0.0.0"
    if not _trusted(remote):
        return remote
    forwarded = [a.strip() for a in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if a.strip()]
    for address in reversed(forwarded):
        try:
            ipaddress.ip_address(address)
        except ValueError:
            return remote  # a header the proxy did not write: trust nothing of it
        if not _trusted(address):
            return address
    return remote


def limits_table_create(*, using: str = "default", **_signal) -> None:
    """Create the limits' database table (without Redis) if missing: run after every migrate, so
    that an install never serves a log-in form without it (createcachetable skips what exists)."""
    if isinstance(caches[LIMITS_CACHE], DatabaseCache):
        call_command("createcachetable", database=using, verbosity=0)


def _window_keys(scope: str, key: str, window: int) -> list[str]:
    bucket = int(now() // BUCKET)
    return [f"rl:{scope}:{key}:{b}" for b in range(bucket - window // BUCKET + 1, bucket + 1)]


def window_count(scope: str, key: str, *, window: int = LOGIN_WINDOW) -> int:
    """The attempts of ``key`` counted in the last ``window`` seconds (to the bucket)."""
    return sum(caches[LIMITS_CACHE].get_many(_window_keys(scope, key, window)).values())


def window_add(scope: str, key: str, *, window: int = LOGIN_WINDOW) -> list[str]:
    """Count one attempt of ``key`` in the current bucket; the window's keys."""
    cache = caches[LIMITS_CACHE]
    keys = _window_keys(scope, key, window)
    cache.add(keys[-1], 0, timeout=window + BUCKET)
    try:
        cache.incr(keys[-1])
    except ValueError:  # expired between add and incr
        cache.set(keys[-1], 1, timeout=window + BUCKET)
    return keys


def seconds_until_below(scope: str, key: str, *, limit: int, window: int) -> int:
    """How long until fewer than ``limit`` attempts of ``key`` remain in the last ``window`` seconds:
    the oldest buckets leave the window one by one, and the refusal's Retry-After says when the
    last one that must go has gone (at least 1 second)."""
    keys = _window_keys(scope, key, window)
    counts = caches[LIMITS_CACHE].get_many(keys)
    oldest = int(now() // BUCKET) - window // BUCKET + 1
    total, leaves = sum(counts.values()), now()
    for index, bucket_key in enumerate(keys):
        if total < limit:
            break
        total -= counts.get(bucket_key, 0)
        leaves = (oldest + index + window // BUCKET) * BUCKET
    return max(1, math.ceil(leaves - now()))


def refused_for(seconds: int) -> Ratelimited:
    """A 429 that says when to come back: the pages and the API send ``retry_after`` as Retry-After."""
    refusal = Ratelimited()
    refusal.retry_after = seconds
    return refusal


def retry_after(exception: BaseException | None) -> int:
    """A refusal's Retry-After in seconds: its own, or one minute (the fixed-window limits)."""
    return int(getattr(exception, "retry_after", LOGIN_WINDOW))


def sliding_window_exceeded(scope: str, key: str, *, limit: int, window: int = LOGIN_WINDOW) -> bool:
    """Count one attempt of ``key`` and say whether it is over ``limit`` in the last ``window``
    seconds (to the bucket: attempts fall out of the window 10 seconds at a time, never all at once
    as with a fixed window)."""
    keys = window_add(scope, key, window=window)
    return sum(caches[LIMITS_CACHE].get_many(keys).values()) > limit


def _failure_key(login: str, address: str) -> str:
    # Hashed: a login is free text (spaces, any length), a cache key is not.
    typed = login.strip().lower()
    return hashlib.sha256(f"{typed}\n{address}".encode()).hexdigest()[:32]


def login_locked(*, login: str, address: str) -> bool:
    """Whether ``address`` has had LOGIN_FAILURES wrong passwords for ``login`` in the window."""
    key = _failure_key(login, address)
    return window_count("login-failed", key, window=LOGIN_FAILURE_WINDOW) >= LOGIN_FAILURES


def login_failure_count(*, login: str, address: str) -> None:
    window_add("login-failed", _failure_key(login, address), window=LOGIN_FAILURE_WINDOW)


@receiver(user_login_failed, dispatch_uid="chronicle-login-failed")
def _count_login_failure(sender, credentials, request=None, **kwargs) -> None:
    """Every failed authenticate() of a request (allauth's form, the admin's, the API's token)."""
    login = credentials.get("username") or credentials.get("email") or credentials.get("login")
    if request is None or not isinstance(login, str):
        return
    login_failure_count(login=login, address=client_address(getattr(request, "_request", request)))


def _typed_login(request) -> str | None:
    """The login a POST names (the API's JSON through DRF's request), or None."""
    data = request.data if hasattr(request, "data") else request.POST
    if not isinstance(data, Mapping):
        return None
    for field in LOGIN_FIELDS:
        if isinstance(data.get(field), str) and data[field]:
            return data[field]
    return None


def posts_rate_limited(scope: str):
    """Limit the POSTs of a view per client address, LOGIN_ATTEMPTS in LOGIN_WINDOW counted under
    ``scope``; over the limit raises Ratelimited (the site's 429 page, the API's 429 error shape)."""

    def decorate(view):
        @functools.wraps(view)
        def limited(request, *args, **kwargs):
            http_request = getattr(request, "_request", request)
            address = client_address(http_request)
            if http_request.method == "POST" and sliding_window_exceeded(
                scope, address, limit=LOGIN_ATTEMPTS
            ):
                raise refused_for(
                    seconds_until_below(scope, address, limit=LOGIN_ATTEMPTS, window=LOGIN_WINDOW)
                )
            return view(request, *args, **kwargs)

        return limited

    return decorate


def login_failures_limited(view):
    """Refuse (429) a log-in POST whose login has had LOGIN_FAILURES wrong passwords from this
    address; the member's right password from an address with none still logs in."""

    @functools.wraps(view)
    def limited(request, *args, **kwargs):
        http_request = getattr(request, "_request", request)
        if http_request.method == "POST":
            login = _typed_login(request)
            address = client_address(http_request)
            if login is not None and login_locked(login=login, address=address):
                key = _failure_key(login, address)
                raise refused_for(
                    seconds_until_below(
                        "login-failed", key, limit=LOGIN_FAILURES, window=LOGIN_FAILURE_WINDOW
                    )
                )
        return view(request, *args, **kwargs)

    return limited


def login_rate_limited(view):
    """Every login form: the POSTs per address, then the wrong passwords per (login, address)."""
    return _login_posts_limited(login_failures_limited(view))


# Every login form (log-in attempts), and the sign-up form (accounts made), each counted apart.
_login_posts_limited = posts_rate_limited("login")
signup_rate_limited = posts_rate_limited("signup")
