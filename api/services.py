"""The API's own writers: authentication tokens for mobile clients, one per device."""

import datetime

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from api.models import DeviceToken, token_digest, token_key_new
from campaign.services import NAME_CONTROL_CHARACTERS
from games.engine.text import has_control_characters

DEVICE_UNNAMED = "Unnamed device"


@transaction.atomic
def token_obtain(*, user, device: str = "") -> tuple[DeviceToken, str]:
    """A new token for this device (every log-in makes one; the others stay) and its key, which
    only this answer carries (the table keeps its digest). The user's expired tokens go."""
    if has_control_characters(device):
        raise ValidationError(NAME_CONTROL_CHARACTERS)
    now = timezone.now()
    lifetime = datetime.timedelta(seconds=settings.API_TOKEN_LIFETIME)
    DeviceToken.objects.filter(user=user, created__lte=now - lifetime).delete()
    key = token_key_new()
    token = DeviceToken(
        user=user,
        digest=token_digest(key),
        name=device.strip() or DEVICE_UNNAMED,
        created=now,
    )
    token.full_clean()
    token.save()
    return token, key


@transaction.atomic
def token_revoke(*, token: DeviceToken) -> int:
    """Revoke one token: the device using it must log in again; the user's other devices stay."""
    deleted, _ = DeviceToken.objects.filter(pk=token.pk).delete()
    return deleted
