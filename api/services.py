"""The API's own writers: authentication tokens for mobile clients."""

from django.db import transaction
from rest_framework.authtoken.models import Token

from api.authentication import token_expired


@transaction.atomic
def token_obtain(*, user) -> Token:
    """The user's token (one per user; the same key until revoked or expired, then a new one)."""
    token, _ = Token.objects.select_for_update().get_or_create(user=user)
    if token_expired(token):
        token.delete()
        token = Token.objects.create(user=user)
    return token


@transaction.atomic
def token_revoke(*, user) -> int:
    """Revoke the user's token: every client using it must log in again."""
    deleted, _ = Token.objects.filter(user=user).delete()
    return deleted
