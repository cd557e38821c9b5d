"""The account page's language and time zone, and the account's choices carried into its session
at log-in and sign-up (config/locale.py reads them there: no query per request)."""

import zoneinfo
from typing import cast

from allauth.account.signals import user_signed_up
from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.contrib.auth.signals import user_logged_in
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_POST
from django.views.i18n import set_language

from campaign.services.preferences import account_preference_get, account_preference_set
from config.http import HttpRequest as PageRequest
from config.locale import (
    ACCOUNT_LANGUAGE_SESSION_KEY,
    ACCOUNT_TIME_ZONE_SESSION_KEY,
    TIME_ZONE_COOKIE,
    language_names,
    reader_time_zone,
    supported_language,
    valid_time_zone,
)

PREFERENCES_SAVED = gettext_lazy("Your language and time zone are saved.")


def _zone_choices() -> list[tuple[str, str]]:
    zones = sorted(z for z in zoneinfo.available_timezones() if "/" in z or z == "UTC")
    return [("", gettext("The browser's time zone")), *((z, z.replace("_", " ")) for z in zones)]


class PreferenceForm(forms.Form):
    # Choices read when each form is made: the zone list's first line is in the reader's language.
    language = forms.ChoiceField(label=gettext_lazy("Language"), choices=language_names)
    time_zone = forms.ChoiceField(label=gettext_lazy("Time zone"), required=False, choices=_zone_choices)


def remember_in_session(request: HttpRequest, *, language: str, time_zone: str) -> None:
    request.session[ACCOUNT_LANGUAGE_SESSION_KEY] = language
    if time_zone:
        request.session[ACCOUNT_TIME_ZONE_SESSION_KEY] = time_zone
    else:
        request.session.pop(ACCOUNT_TIME_ZONE_SESSION_KEY, None)
    translation.activate(language)


@login_required
def account_preferences(request: PageRequest) -> HttpResponse:
    user = cast(User, request.user)  # login_required: an account
    preference = account_preference_get(user=user)
    initial = {
        "language": preference.language if preference else translation.get_language(),
        "time_zone": preference.time_zone if preference else "",
    }
    form = PreferenceForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            saved = account_preference_set(user=user, **form.cleaned_data)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            remember_in_session(request, language=saved.language, time_zone=saved.time_zone)
            messages.success(request, PREFERENCES_SAVED)
            return redirect("account-preferences")
    context = {"form": form, "browser_zone": valid_time_zone(request.COOKIES.get(TIME_ZONE_COOKIE))}
    context["reader_zone"] = reader_time_zone(request) or "UTC"
    return render(request, "campaign/account_preferences.html", context)


@require_POST
def language_choose(request: PageRequest) -> HttpResponse:
    """The top bar's chooser: Django's set_language (the cookie, back to the page), and for a
    signed-in reader the account's language too, which would otherwise win over the cookie."""
    response = set_language(request)
    language = supported_language(request.POST.get("language"))
    user = request.user
    if language and isinstance(user, User) and user.is_authenticated:
        preference = account_preference_get(user=user)
        zone = preference.time_zone if preference else ""
        saved = account_preference_set(user=user, language=language, time_zone=zone)
        remember_in_session(request, language=saved.language, time_zone=saved.time_zone)
    return response


def on_logged_in(sender, request: HttpRequest, user, **kwargs) -> None:
    """Log-in: the account's language and zone become this session's."""
    preference = account_preference_get(user=user)
    if preference is not None:
        remember_in_session(request, language=preference.language, time_zone=preference.time_zone)


def on_signed_up(sender, request: HttpRequest, user, **kwargs) -> None:
    """Sign-up: the account starts in the language the browser asked for (the page it signed up on)
    and keeps the browser's time zone (blank if the browser sent none: then the browser's each time)."""
    language = translation.get_language_from_request(request)
    zone = valid_time_zone(request.COOKIES.get(TIME_ZONE_COOKIE)) or ""
    saved = account_preference_set(user=user, language=language, time_zone=zone)
    remember_in_session(request, language=saved.language, time_zone=saved.time_zone)


def connect_signals() -> None:
    user_logged_in.connect(on_logged_in, dispatch_uid="chronicle-preferences-login")
    user_signed_up.connect(on_signed_up, dispatch_uid="chronicle-preferences-signup")
