"""API tokens, one per device: each log-in through the API makes a new one, revoked on its own."""

import hashlib
import secrets

from django.conf import settings
from django.db import models
from django.utils import timezone

EARLIER_LOGIN = "Earlier login"  # the name of a token moved over from the one-per-user tokens


def token_digest(key: str) -> str:
    """What is stored of a key: its SHA-256 (a copy of the table opens no account)."""
    return hashlib.sha256(key.encode()).hexdigest()


def token_key_new() -> str:
    return secrets.token_hex(20)


class DeviceToken(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="device_tokens")
    digest = models.CharField(max_length=64, unique=True, editable=False)
    name = models.CharField(max_length=100)
    created = models.DateTimeField(default=timezone.now)
    last_used = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created", "-pk"]
        indexes = [models.Index(fields=["user", "created"])]

    def __str__(self) -> str:
        return f"{self.name} ({self.user})"
