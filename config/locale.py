"""Each request answers in its reader's language and time zone: one table can mix languages.

The language: a signed-in account's (kept in its session at log-in and when changed on the account
page, so no query per request), else the language cookie (the chooser, Django's ``set_language``),
else the browser's Accept-Language, else English. The time zone: the account's, else the cookie a
tiny script writes from the browser's ``Intl`` zone; a zone zoneinfo does not know is ignored."""

import zoneinfo
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.middleware.locale import LocaleMiddleware
from django.utils import timezone, translation
from django.utils.text import capfirst

# The session keys where log-in and the account page put the account's choices.
ACCOUNT_LANGUAGE_SESSION_KEY = "chronicle_language"
ACCOUNT_TIME_ZONE_SESSION_KEY = "chronicle_time_zone"
# The cookie static/js/locale.js writes with the browser's zone.
TIME_ZONE_COOKIE = "chronicle_tz"
_ZONE_MAX_LENGTH = 64  # the longest IANA names are about 30 characters


def supported_language(code: str | None) -> str | None:
    """``code`` when it is one of LANGUAGES (or its base language is), else None."""
    if not code:
        return None
    try:
        return translation.get_supported_language_variant(code)
    except LookupError:
        return None


def valid_time_zone(name: str | None) -> str | None:
    """``name`` when zoneinfo knows it, else None: a cookie is the browser's to write, never trusted."""
    if not name or len(name) > _ZONE_MAX_LENGTH or name != name.strip():
        return None
    try:
        zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return None
    return name


class ReaderLocaleMiddleware(LocaleMiddleware):
    """Django's LocaleMiddleware (the cookie, Accept-Language, Content-Language and Vary on the
    answer), with the account's language first."""

    def process_request(self, request: HttpRequest) -> None:
        session = getattr(request, "session", None)
        chosen = supported_language(session.get(ACCOUNT_LANGUAGE_SESSION_KEY) if session else None)
        if chosen is None:
            super().process_request(request)
            return
        translation.activate(chosen)
        request.LANGUAGE_CODE = translation.get_language()

    def process_response(self, request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
        """The answer is rendered by now: the thread goes back to English, so that a reader's
        language never leaks into the next request's work outside a request (a task, a test)."""
        response = super().process_response(request, response)
        translation.deactivate()
        return response


class ReaderTimeZoneMiddleware:
    """Times written in the reader's zone: the account's, else the browser's cookie, else UTC."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        zone = reader_time_zone(request)
        if zone is None:
            timezone.deactivate()
        else:
            timezone.activate(zoneinfo.ZoneInfo(zone))
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()


def reader_time_zone(request: HttpRequest) -> str | None:
    session = getattr(request, "session", None)
    account_zone = valid_time_zone(session.get(ACCOUNT_TIME_ZONE_SESSION_KEY) if session else None)
    return account_zone or valid_time_zone(request.COOKIES.get(TIME_ZONE_COOKIE))


def language_names() -> list[tuple[str, str]]:
    """The choosers' options: each language named in its own words (never translated: a reader lost
    in a language must find their own), as the top bar's chooser names them."""
    return [
        (code, capfirst(translation.get_language_info(code)["name_local"])) for code, _ in settings.LANGUAGES
    ]
