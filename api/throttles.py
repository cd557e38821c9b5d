"""The API's rate limit per caller: each API token, each logged-in browser, each seat
token and otherwise each client address has its own bucket, so one runaway client never slows the
others, and a 429 says when to come back (Retry-After, set by DRF from the throttle's wait)."""

import hashlib
from typing import TYPE_CHECKING

from django.conf import settings
from rest_framework.request import Request
from rest_framework.throttling import SimpleRateThrottle

from config.ratelimits import client_address

if TYPE_CHECKING:  # DRF's settings import this module while rest_framework.views loads
    from rest_framework.views import APIView

SEAT_TOKEN_META = "HTTP_X_SEAT_TOKEN"


class CallerRateThrottle(SimpleRateThrottle):
    scope = "caller"

    def get_rate(self) -> str | None:
        return settings.API_RATE or None  # "" or "0": no limit (benchmarks)

    def allow_request(self, request: Request, view: "APIView | None") -> bool:
        if not self.rate:
            return True
        return super().allow_request(request, view)  # type: ignore[arg-type]  # the stream's: no view

    def get_cache_key(self, request: Request, view: "APIView | None") -> str | None:
        # From the credentials as sent, never request.user: the views check a token in the query
        # that reads the seat, and the throttle must not add a query of its own.
        meta, cookies = request.META, request.COOKIES
        credential = (
            ("token", meta.get("HTTP_AUTHORIZATION", ""))
            if meta.get("HTTP_AUTHORIZATION", "").startswith(("Token ", "Bearer "))
            else ("seat", meta.get(SEAT_TOKEN_META, ""))
            if meta.get(SEAT_TOKEN_META)
            else ("login", cookies.get(settings.SESSION_COOKIE_NAME, ""))
        )
        kind, secret = credential
        if secret:
            ident = f"{kind}:" + hashlib.sha256(secret.encode()).hexdigest()[:32]
        else:
            ident = "ip:" + client_address(request._request)
        return self.cache_format % {"scope": self.scope, "ident": ident}
