"""What the API does when an account changes elsewhere: a password reset, changed or set (on the
site's pages, through django-allauth) revokes every API token of the account."""

from typing import Any

from allauth.account.signals import password_changed, password_reset, password_set
from django.contrib.auth.models import User
from django.dispatch import receiver

from api.accounts.services import tokens_revoke_all


@receiver(password_reset, dispatch_uid="api-tokens-revoked-on-password-reset")
@receiver(password_changed, dispatch_uid="api-tokens-revoked-on-password-change")
@receiver(password_set, dispatch_uid="api-tokens-revoked-on-password-set")
def tokens_revoked_with_the_password(sender: object, user: User, **kwargs: Any) -> None:
    tokens_revoke_all(user=user)
