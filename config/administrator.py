"""How the install's administrator is made: never by being the first to sign up (anyone on the
Wi-Fi could be first), but by ``manage.py createsuperuser`` or by the one-time link that ``make run``
prints in the console of the machine while the install has no administrator
(``manage.py administrator_link``). The link lives under /admin/, so under make run it opens from
this machine only (config/admin_guard.py).

The link is signed with the install's SECRET_KEY and expires after a day; it makes one
administrator and is refused as soon as one exists, so it works once. Two uses at the same moment
are taken one after the other (a lock, then a second look), so they never make two."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.contrib.auth.forms import UserCreationForm
from django.core import signing
from django.db import connection, transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

LINK_SALT = "chronicle.administrator-link"
LINK_MAX_AGE = 24 * 60 * 60  # seconds: a link printed at start-up is for that evening
LINK_PATH = "/admin/setup/{token}/"
LOCK_KEY = 7_390_211  # PostgreSQL advisory lock: one administrator made at a time

LINK_REFUSED = gettext_lazy(
    "This link to make the administrator has expired or was used already (the install has its "
    "administrator). On the machine that runs Chronicle, `make run` prints a new link while there "
    "is none; `python manage.py createsuperuser` makes one too."
)
ADMINISTRATOR_MADE = gettext_lazy("{username} administers this install: the admin is at /admin/.")


def administrator_exists() -> bool:
    return get_user_model().objects.filter(is_superuser=True).exists()


def administrator_link_token() -> str:
    """A new signed token for the link (nothing is stored: the signature and the absence of any
    administrator make it valid)."""
    return signing.dumps({"administrator": True}, salt=LINK_SALT)


def administrator_link_valid(*, token: str) -> bool:
    try:
        signing.loads(token, salt=LINK_SALT, max_age=LINK_MAX_AGE)
    except signing.BadSignature:  # a forged, altered or expired link
        return False
    return not administrator_exists()


def _lock_administrators() -> None:
    """Inside the transaction: the next one waits here until this one ends. SQLite's transactions
    take the write lock when they begin (settings: IMMEDIATE); PostgreSQL takes an advisory lock
    (no account row to lock on a fresh install)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [LOCK_KEY])


def administrator_create(*, token: str, username: str, password: str):
    """Make the install's administrator (staff and superuser) from the one-time link. None when
    the link is not valid (anymore): one exists already, or it expired."""
    with transaction.atomic():
        _lock_administrators()
        if not administrator_link_valid(token=token):
            return None
        return get_user_model().objects.create_superuser(username=username, email="", password=password)


class AdministratorForm(UserCreationForm):
    """A username (kept in lower case, as the sign-up keeps it) and the password twice, checked by
    the site's password validators."""

    def clean_username(self) -> str:
        return super().clean_username().lower()


@require_http_methods(["GET", "POST"])
def administrator_setup(request: HttpRequest, token: str) -> HttpResponse:
    """The page of the one-time link: a form that makes the administrator and logs them in."""
    if not administrator_link_valid(token=token):
        return render(request, "administrator_setup.html", {"refused": LINK_REFUSED}, status=410)
    form = AdministratorForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = administrator_create(
            token=token, username=form.cleaned_data["username"], password=form.cleaned_data["password1"]
        )
        if user is None:  # another use of the link got there first
            return render(request, "administrator_setup.html", {"refused": LINK_REFUSED}, status=410)
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, ADMINISTRATOR_MADE.format(username=user.get_username()))
        return redirect("admin:index")
    return render(request, "administrator_setup.html", {"form": form})
