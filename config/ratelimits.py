"""Who is asking, and how often: the client address behind a trusted proxy, and the sliding-window
limit of every login form (the site's, the admin's and the API's token endpoint) and of the sign-up.

Behind the TLS proxy that docs/operations.md asks for, REMOTE_ADDR is the proxy's address for every
client: rate limits keyed on it would lock everyone out together. ``TRUSTED_PROXIES`` (addresses
or networks) lists the proxies whose ``X-Forwarded-For`` is believed; from anyone else the header is
ignored. The client is the rightmost forwarded address that is not itself a trusted proxy.
"""

from __future__ import annotations

import functools
import ipaddress
import time

from django.conf import settings
from django.core.cache import cache
from django_ratelimit.exceptions import Ratelimited

LOGIN_ATTEMPTS = 20  # per client address ...
LOGIN_WINDOW = 60  # ... in any 60 seconds
BUCKET = 10  # the window slides by 10-second buckets (atomic cache increments)


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


def sliding_window_exceeded(scope: str, key: str, *, limit: int, window: int = LOGIN_WINDOW) -> bool:
    """Count one attempt of ``key`` and say whether it is over ``limit`` in the last ``window``
    seconds (to the bucket: attempts fall out of the window 10 seconds at a time, never all at once
    as with a fixed window)."""
    bucket = int(now() // BUCKET)
    keys = [f"rl:{scope}:{key}:{b}" for b in range(bucket - window // BUCKET + 1, bucket + 1)]
    cache.add(keys[-1], 0, timeout=window + BUCKET)
    try:
        cache.incr(keys[-1])
    except ValueError:  # expired between add and incr
        cache.set(keys[-1], 1, timeout=window + BUCKET)
    return sum(cache.get_many(keys).values()) > limit


def posts_rate_limited(scope: str):
    """Limit the POSTs of a view per client address, LOGIN_ATTEMPTS in LOGIN_WINDOW counted under
    ``scope``; over the limit raises Ratelimited (the site's 429 page, the API's 429 error shape)."""

    def decorate(view):
        @functools.wraps(view)
        def limited(request, *args, **kwargs):
            http_request = getattr(request, "_request", request)
            if http_request.method == "POST" and sliding_window_exceeded(
                scope, client_address(http_request), limit=LOGIN_ATTEMPTS
            ):
                raise Ratelimited()
            return view(request, *args, **kwargs)

        return limited

    return decorate


# Every login form (log-in attempts), and the sign-up form (accounts made), each counted apart.
login_rate_limited = posts_rate_limited("login")
signup_rate_limited = posts_rate_limited("signup")
