"""Accounts (django-allauth): the adapter that makes the first account of a fresh install its
administrator and keys allauth's own rate limits on the client address behind a trusted proxy
(config/ratelimits.py), as the site's login limits are."""

from __future__ import annotations

from allauth.account.adapter import DefaultAccountAdapter
from django.contrib.auth import get_user_model
from django.db import transaction

from config.ratelimits import client_address


def user_promote_if_first(*, user) -> bool:
    """Make ``user`` staff and superuser when no superuser exists yet (a fresh install: its first
    account may administer it). Says whether it did."""
    users = get_user_model().objects
    if users.filter(is_superuser=True).exclude(pk=user.pk).exists():
        return False  # the usual case, without a lock
    with transaction.atomic():
        # Two first sign-ups at once: lock every account (a fresh install has a few), then look
        # again, so the second waits for the first and sees its promotion (SQLite: settings'
        # IMMEDIATE transactions already take the write lock).
        list(users.select_for_update().order_by("pk").values_list("pk", flat=True))
        if users.filter(is_superuser=True).exclude(pk=user.pk).exists():
            return False
        user.is_staff = user.is_superuser = True
        user.full_clean(exclude=["password"])
        user.save(update_fields=["is_staff", "is_superuser"])
        return True


class ChronicleAccountAdapter(DefaultAccountAdapter):
    def save_user(self, request, user, form, commit=True):
        user = super().save_user(request, user, form, commit=commit)
        if commit:
            user_promote_if_first(user=user)
        return user

    def get_client_ip(self, request) -> str:
        return client_address(request)
