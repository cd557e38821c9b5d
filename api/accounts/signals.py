"""What the API does when an account changes elsewhere: a new password (reset, changed or set on
the site's pages through django-allauth, or by an administrator in the admin or with
``manage.py changepassword``) revokes every API token of the account."""

from typing import Any

from allauth.account.signals import password_changed, password_reset, password_set
from django.contrib.auth.models import User
from django.db.models.signals import post_save
from django.dispatch import receiver

from api.accounts.services import tokens_revoke_all


@receiver(password_reset, dispatch_uid="api-tokens-revoked-on-password-reset")
@receiver(password_changed, dispatch_uid="api-tokens-revoked-on-password-change")
@receiver(password_set, dispatch_uid="api-tokens-revoked-on-password-set")
def tokens_revoked_with_the_password(sender: object, user: User, **kwargs: Any) -> None:
    tokens_revoke_all(user=user)


@receiver(post_save, sender=User, dispatch_uid="api-tokens-revoked-on-any-new-password")
def tokens_revoked_with_a_password_saved(
    sender: object, instance: User, created: bool, **kwargs: Any
) -> None:
    """Any other way a password is set (the admin's form, ``changepassword``): Django keeps the new
    raw password on the user from ``set_password`` until the save has run, and not when a log-in
    only upgrades the stored hash, so a log-in never revokes the account's other devices."""
    if not created and getattr(instance, "_password", None) is not None:
        tokens_revoke_all(user=instance)
