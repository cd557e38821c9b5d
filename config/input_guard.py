"""One guard for what arrives in a URL before any view reads it: a NUL character in the path or in a
query parameter (PostgreSQL cannot store or compare one) is a 400 that names the parameter, the
same on SQLite and PostgreSQL."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext_lazy

from config.api_errors import API_PREFIX, api_error

NUL_IN_PATH = gettext_lazy("The address holds a NUL character.")
NUL_IN_PARAMETER = gettext_lazy("The query parameter {name!r} holds a NUL character.")


def refusal(request: HttpRequest) -> str | None:
    """Why this request's URL cannot be read, or None."""
    if "\x00" in request.path:
        return str(NUL_IN_PATH)
    for name, values in request.GET.lists():
        if "\x00" in name or any("\x00" in value for value in values):
            return NUL_IN_PARAMETER.format(name=name.replace("\x00", "\\x00")[:40])
    return None


class InputGuardMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        reason = refusal(request)
        if reason is None:
            return self.get_response(request)
        if request.path.startswith(API_PREFIX):
            return api_error(reason, 400, code="bad_request")
        return render(request, "400.html", {"reason": reason}, status=400)
