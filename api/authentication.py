"""Expiring API tokens, one per device (api.models.DeviceToken): refused once older than
API_TOKEN_LIFETIME seconds (30 days by default; log in again for a new one). The browser keeps
using its session. A token's last use is written at most once a minute (LAST_USED_EVERY), by a
conditional UPDATE, so most requests pay nothing for it."""

import datetime
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db.models import F, Q
from django.http import HttpRequest
from django.utils import timezone
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication, get_authorization_header
from rest_framework.request import Request

from api.models import DeviceToken, token_digest
from games.models import GameSession, Seat

TOKEN_EXPIRED = "Your token has expired: log in again for a new one."
TOKEN_INVALID = "Invalid token."
USER_INACTIVE = "User inactive or deleted."
LAST_USED_EVERY = datetime.timedelta(seconds=60)


def token_expires_at(token: DeviceToken) -> datetime.datetime:
    return token.created + datetime.timedelta(seconds=settings.API_TOKEN_LIFETIME)


def token_expired(token: DeviceToken) -> bool:
    return timezone.now() >= token_expires_at(token)


def token_touch(token: DeviceToken) -> None:
    """Write the token's last use when it is a minute old or more (one UPDATE, at most once a
    minute per token; concurrent requests do not both write)."""
    now = timezone.now()
    if token.last_used is not None and now - token.last_used < LAST_USED_EVERY:
        return
    DeviceToken.objects.filter(pk=token.pk).filter(
        Q(last_used__isnull=True) | Q(last_used__lte=now - LAST_USED_EVERY)
    ).update(last_used=now)
    token.last_used = now


# The prefixes of an API token in the Authorization header: "Token" (DRF's, the first documented) and
# "Bearer" (the schema's http bearer scheme: what generated clients send by default).
TOKEN_PREFIXES = (b"token", b"bearer")


class ExpiringTokenAuthentication(TokenAuthentication):
    model = DeviceToken

    def authenticate(self, request: HttpRequest | Request) -> tuple[User, DeviceToken] | None:
        parts = get_authorization_header(request).split()  # type: ignore[arg-type]  # as request_token_key
        if not parts or parts[0].lower() not in TOKEN_PREFIXES:
            return None
        if len(parts) != 2:
            raise exceptions.AuthenticationFailed(TOKEN_INVALID)
        try:
            key = parts[1].decode()
        except UnicodeError:
            raise exceptions.AuthenticationFailed(TOKEN_INVALID) from None
        return self.authenticate_credentials(key)

    def authenticate_credentials(self, key: str) -> tuple[User, DeviceToken]:
        token = DeviceToken.objects.select_related("user").filter(digest=token_digest(key)).first()
        if token is None:
            raise exceptions.AuthenticationFailed(TOKEN_INVALID)
        if not token.user.is_active:
            raise exceptions.AuthenticationFailed(USER_INACTIVE)
        if token_expired(token):
            raise exceptions.AuthenticationFailed(TOKEN_EXPIRED)
        token_touch(token)
        return token.user, token


# ---- A logged-in player's token, checked in the query that reads what it acts on -------------
# (A submit stays within 6 queries, the login included.) On a miss (no such token, not
# this seat's player, expired, inactive) the caller falls back to the usual authentication, which
# gives the usual answer (401 for a bad token, 403 for another's seat). The token's last use is
# written as above: a conditional UPDATE at most once a minute.


def request_token_key(request: HttpRequest | Request) -> str | None:
    """The key of an ``Authorization: Token <key>`` (or ``Bearer <key>``) header, or None."""
    parts = get_authorization_header(request).split()  # type: ignore[arg-type]  # reads META, a Django request's too
    if len(parts) != 2 or parts[0].lower() not in TOKEN_PREFIXES:
        return None
    try:
        return parts[1].decode()
    except UnicodeError:
        return None


def _token_columns(prefix: str) -> dict:
    return {
        "token_id": F(f"{prefix}__device_tokens__id"),
        "token_created": F(f"{prefix}__device_tokens__created"),
        "token_last_used": F(f"{prefix}__device_tokens__last_used"),
    }


def _authenticated_by(request: Request, user: User, row: Any) -> bool:
    token = DeviceToken(
        pk=row.token_id, user=user, name="", created=row.token_created, last_used=row.token_last_used
    )
    if token_expired(token):
        return False
    token_touch(token)
    request.user, request.auth = user, token
    return True


def seat_of_token_player(request: Request, *, session_id: int, index: int) -> Seat | None:
    """The seat (with its session) whose player holds the request's API token, the request then
    authenticated as that player: one query. None on a miss (nothing authenticated)."""
    key = request_token_key(request)
    if key is None or "_user" in request.__dict__:
        return None
    seat = (
        Seat.objects.select_related("session", "user")
        .filter(
            session_id=session_id,
            index=index,
            user__device_tokens__digest=token_digest(key),
            user__is_active=True,
        )
        .annotate(**_token_columns("user"))
        .first()
    )
    if seat is None or seat.user is None or not _authenticated_by(request, seat.user, seat):
        return None
    return seat


def session_of_token_host(request: Request, *, session_id: int) -> GameSession | None:
    """The session whose host holds the request's API token, the request then authenticated as
    the host: one query. None on a miss (nothing authenticated)."""
    key = request_token_key(request)
    if key is None or "_user" in request.__dict__:
        return None
    session = (
        GameSession.objects.select_related("host")
        .filter(pk=session_id, host__device_tokens__digest=token_digest(key), host__is_active=True)
        .annotate(**_token_columns("host"))
        .first()
    )
    if session is None or session.host is None or not _authenticated_by(request, session.host, session):
        return None
    return session
