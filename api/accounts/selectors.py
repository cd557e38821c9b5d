"""The API's own readers: a user's device tokens."""

from django.db.models import QuerySet

from api.models import DeviceToken


def device_list(*, user) -> QuerySet[DeviceToken]:
    """The user's tokens, newest first (expired ones too, until revoked)."""
    return DeviceToken.objects.filter(user=user).order_by("-created", "-pk")
