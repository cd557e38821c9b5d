"""The API's own readers: a user's device tokens."""

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import QuerySet

from api.models import DeviceToken


def device_list(*, user: User | AnonymousUser) -> QuerySet[DeviceToken]:
    """The user's tokens, newest first (expired ones too, until revoked)."""
    return DeviceToken.objects.filter(user=user).order_by("-created", "-pk")  # type: ignore[misc]  # logged-in views only: a User
