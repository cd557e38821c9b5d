"""Accounts (django-allauth): the adapter that keys allauth's own rate limits on the client address
behind a trusted proxy (config/ratelimits.py), as the site's login limits are, and keeps the demo
account on the machine that runs Chronicle. No sign-up administers the install: its administrator
is made by the one-time link of ``make run`` or by ``manage.py createsuperuser``
(config/administrator.py)."""

from __future__ import annotations

from collections.abc import Callable

from allauth.account.adapter import DefaultAccountAdapter
from django.core.exceptions import ValidationError
from django.utils import translation
from django.utils.translation import gettext_lazy

from config.network import request_from_this_machine
from config.ratelimits import client_address

DEMO_USER = "demo"  # the shared demo login that make run loads (campaign/demo.py)

DEMO_ONLY_ON_THIS_MACHINE = gettext_lazy(
    "The demo account opens only on the computer that runs Chronicle (its home page's demo "
    "button): log in with your own account, or sign up."
)


def demo_refused_here(*, user, request) -> bool:
    """Whether ``user`` is the demo account asking from another device than this machine: its
    one-click login lives on this machine, and no password of it opens it from the network."""
    return (
        user is not None
        and user.get_username() == DEMO_USER
        and (request is None or not request_from_this_machine(request))
    )


# The language an account reads its e-mails in, by address (None: not known), registered by the app
# that keeps the accounts' languages (campaign/apps.py): config/ imports nothing of it.
_recipient_languages: list[Callable[..., str | None]] = []


def register_recipient_language(language_of: Callable[..., str | None]) -> None:
    _recipient_languages[:] = [language_of]


def recipient_language(email: str) -> str:
    """The recipient's account language, else the language of the request that sends the e-mail."""
    known = _recipient_languages[0](email=email) if _recipient_languages else None
    return known or translation.get_language() or "en"


class ChronicleAccountAdapter(DefaultAccountAdapter):
    def send_mail(self, template_prefix: str, email: str, context: dict) -> None:
        """Each e-mail (an address to confirm, a password reset) in its recipient's language."""
        with translation.override(recipient_language(email)):
            super().send_mail(template_prefix, email, context)

    def authenticate(self, request, **credentials):
        user = super().authenticate(request, **credentials)
        if demo_refused_here(user=user, request=request):
            raise ValidationError(DEMO_ONLY_ON_THIS_MACHINE)  # the log-in form shows it
        return user

    def get_client_ip(self, request) -> str:
        return client_address(request)
