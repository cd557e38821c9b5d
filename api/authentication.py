"""Expiring API tokens: DRF's token, refused once older than API_TOKEN_LIFETIME seconds (30 days
by default; log in again for a new one). The browser keeps using its session."""

import datetime

from django.conf import settings
from django.db.models import F
from django.utils import timezone
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication, get_authorization_header
from rest_framework.authtoken.models import Token

TOKEN_EXPIRED = "Your token has expired: log in again for a new one."


def token_expires_at(token) -> datetime.datetime:
    return token.created + datetime.timedelta(seconds=settings.API_TOKEN_LIFETIME)


def token_expired(token) -> bool:
    return timezone.now() >= token_expires_at(token)


class ExpiringTokenAuthentication(TokenAuthentication):
    def authenticate_credentials(self, key):
        user, token = super().authenticate_credentials(key)
        if token_expired(token):
            raise exceptions.AuthenticationFailed(TOKEN_EXPIRED)
        return user, token


# ---- A logged-in player's token, checked in the query that reads what it acts on -------------
# (issue 18: a submit in at most 6 queries, the login included.) On a miss (no such token, not
# this seat's player, expired, inactive) the caller falls back to the usual authentication, which
# gives the usual answer (401 for a bad token, 403 for another's seat).


def request_token_key(request) -> str | None:
    """The key of an ``Authorization: Token <key>`` header, or None."""
    parts = get_authorization_header(request).split()
    if len(parts) != 2 or parts[0].lower() != b"token":
        return None
    try:
        return parts[1].decode()
    except UnicodeError:
        return None


def _authenticated_by(request, user, key: str, created) -> bool:
    token = Token(key=key, user=user, created=created)
    if token_expired(token):
        return False
    request.user, request.auth = user, token
    return True


def seat_of_token_player(request, *, session_id: int, index: int):
    """The seat (with its session) whose player holds the request's API token, the request then
    authenticated as that player: one query. None on a miss (nothing authenticated)."""
    from games.models import Seat

    key = request_token_key(request)
    if key is None or "_user" in request.__dict__:
        return None
    seat = (
        Seat.objects.select_related("session", "user")
        .filter(session_id=session_id, index=index, user__auth_token__key=key, user__is_active=True)
        .annotate(token_created=F("user__auth_token__created"))
        .first()
    )
    if seat is None or not _authenticated_by(request, seat.user, key, seat.token_created):
        return None
    return seat


def session_of_token_host(request, *, session_id: int):
    """The session whose host holds the request's API token, the request then authenticated as
    the host: one query. None on a miss (nothing authenticated)."""
    from games.models import GameSession

    key = request_token_key(request)
    if key is None or "_user" in request.__dict__:
        return None
    session = (
        GameSession.objects.select_related("host")
        .filter(pk=session_id, host__auth_token__key=key, host__is_active=True)
        .annotate(token_created=F("host__auth_token__created"))
        .first()
    )
    if session is None or not _authenticated_by(request, session.host, key, session.token_created):
        return None
    return session
