"""Expiring API tokens: DRF's token, refused once older than API_TOKEN_LIFETIME seconds (30 days
by default; log in again for a new one). The browser keeps using its session."""

import datetime

from django.conf import settings
from django.utils import timezone
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication

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
