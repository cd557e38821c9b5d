"""The API's own writers: authentication tokens for mobile clients, one per device."""

import datetime
import logging
import smtplib

from allauth.account import app_settings as allauth_settings
from allauth.account.adapter import get_adapter
from allauth.account.forms import SignupForm
from allauth.account.models import EmailAddress
from django.conf import settings
from django.contrib.auth import password_validation
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext_lazy

from api.models import DeviceToken, token_digest, token_key_new
from campaign.services.common import NAME_CONTROL_CHARACTERS
from games.engines.kernel.text import has_control_characters

logger = logging.getLogger(__name__)

DEVICE_UNNAMED = "Unnamed device"


@transaction.atomic
def token_obtain(*, user: User, device: str = "") -> tuple[DeviceToken, str]:
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


def tokens_revoke_all(*, user: User) -> int:
    """Revoke every token of the account (its password was reset or changed: a phone signed in by
    whoever knew the old one is signed out). Its browser sessions end with the old password anyway
    (Django checks each session against the password it was opened with)."""
    deleted, _ = DeviceToken.objects.filter(user=user).delete()
    return deleted


# ---- Sign up through the API: the site's sign-up form (django-allauth), the same rules ---------

SIGNUP_CONFIRM_EMAIL_FIRST = gettext_lazy(
    "Confirm your email address with the link just sent to it, then log in for a token "
    "(POST /api/auth/token/)."
)
# The API takes the password once: allauth's second field (password2) is filled from it.
SIGNUP_API_FIELDS = {"password1": "password", "password2": "password"}


# What the site's sign-up asks (settings.ACCOUNT_SIGNUP_FIELDS, AUTH_PASSWORD_VALIDATORS), for the
# API's schema.
SIGNUP_EMAIL_REQUIRED = bool((allauth_settings.SIGNUP_FIELDS.get("email") or {}).get("required"))


def signup_password_min_length() -> int:
    for validator in password_validation.get_default_password_validators():
        if isinstance(validator, password_validation.MinimumLengthValidator):
            return validator.min_length
    return 1


def _signup_errors(form: SignupForm) -> dict[str, list[str]]:
    """The form's refusals under the API's field names (password1 -> password)."""
    errors: dict[str, list[str]] = {}
    for field, messages in form.errors.items():
        errors.setdefault(SIGNUP_API_FIELDS.get(field, field), []).extend(messages)
    return errors


def _confirmation_send(request: HttpRequest, user: User) -> None:
    """The email confirmation the site's sign-up sends (verification optional or mandatory). A mail
    server down does not undo the account: its owner asks for another link from the site."""
    address = EmailAddress.objects.filter(user=user).order_by("-primary").first()
    if address is None or address.verified:
        return
    try:
        address.send_confirmation(request, signup=True)
    except (OSError, smtplib.SMTPException):
        logger.warning("The confirmation mail of account %s could not be sent.", user.pk, exc_info=True)


def account_sign_up(*, request: HttpRequest, username: str, email: str, password: str) -> User | None:
    """Make an account as the site's sign-up page does: allauth's form with the site's settings
    (the username rules, the email's, the password validators), its adapter (config/accounts.py:
    no account made here administers the install) and its confirmation mail. Returns the user, or
    None when the email belongs to an account already and the site hides that (verification
    mandatory: that account's owner gets a mail instead, as from the page). Refusals:
    ValidationError by field."""
    form = SignupForm(
        data={"username": username, "email": email, "password1": password, "password2": password}
    )
    if not form.is_valid():
        raise ValidationError(_signup_errors(form))
    if form.account_already_exists:
        get_adapter(request).send_account_already_exists_mail(form.cleaned_data["email"])
        return None
    with transaction.atomic():
        user = form.save(request)
    if allauth_settings.EMAIL_VERIFICATION != allauth_settings.EmailVerificationMethod.NONE:
        _confirmation_send(request, user)
    return user


def signup_needs_confirmation() -> bool:
    """Whether a new account must confirm its email before logging in (the site's setting)."""
    return allauth_settings.EMAIL_VERIFICATION == allauth_settings.EmailVerificationMethod.MANDATORY
