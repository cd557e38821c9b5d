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
from django.utils.translation import gettext_lazy
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication, get_authorization_header
from rest_framework.request import Request

from api.models import DeviceToken, token_digest
from games.access import TokenRefused

TOKEN_EXPIRED = gettext_lazy("Your token has expired: log in again for a new one.")
TOKEN_INVALID = gettext_lazy("Invalid token.")
USER_INACTIVE = gettext_lazy("User inactive or deleted.")
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


# ---- The tokens as the access rule reads them (games/access.py, registered in api/apps.py) -----
# A logged-in player's token is checked in the query that reads what it acts on (a submit in at
# most 6 queries, the login included); the streams learn its account. The token's last use is
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


class DeviceTokens:
    """What ``games.access`` asks of the API's tokens (its ``ApiTokens``)."""

    def key(self, request: HttpRequest | Request) -> str | None:
        return request_token_key(request)

    def user(self, request: HttpRequest | Request) -> User | None:
        if request_token_key(request) is None:
            return None
        try:
            found = ExpiringTokenAuthentication().authenticate(request)
        except exceptions.AuthenticationFailed:
            raise TokenRefused from None
        return None if found is None else found[0]

    def held_by(self, account: str, key: str) -> Q:
        return Q(**{f"{account}__device_tokens__digest": token_digest(key)})

    def columns(self, account: str) -> dict[str, F]:
        return {
            "token_id": F(f"{account}__device_tokens__id"),
            "token_created": F(f"{account}__device_tokens__created"),
            "token_last_used": F(f"{account}__device_tokens__last_used"),
        }

    def signed_in(self, request: HttpRequest | Request, user: User, row: Any) -> bool:
        token = DeviceToken(
            pk=row.token_id, user=user, name="", created=row.token_created, last_used=row.token_last_used
        )
        if token_expired(token):
            return False
        token_touch(token)
        request.user = user
        request.auth = token  # type: ignore[union-attr]  # DRF's Request here: the API's views ask
        return True
