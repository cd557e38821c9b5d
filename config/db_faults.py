"""A database connection lost in the middle of a request (PostgreSQL restarted, a pooled connection
dropped) costs no request: a read is run once more on a fresh connection; a write, which
may or may not have committed, is answered 503 with Retry-After (an action sent again with its
Idempotency-Key is applied once). Nothing else is caught: other errors stay errors."""

from __future__ import annotations

import contextlib
import logging

from django.db import DatabaseError, InterfaceError, OperationalError, connections
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext_lazy

from config.api_errors import API_PREFIX, api_error

logger = logging.getLogger(__name__)

SAFE_METHODS = ("GET", "HEAD", "OPTIONS")
RETRY_AFTER_SECONDS = 2
DATABASE_UNAVAILABLE = gettext_lazy("The database was unreachable for a moment: try again in a few seconds.")
_RETRIED = "_chronicle_db_retried"


def connection_lost(error: BaseException) -> bool:
    """True if ``error`` says the connection itself is gone (not a bad query or a constraint)."""
    if isinstance(error, InterfaceError):
        return True
    return isinstance(error, OperationalError) and _is_disconnect(error)


def _is_disconnect(error: BaseException) -> bool:
    text = str(error).lower()
    return any(
        sign in text
        for sign in (
            "terminating connection",
            "server closed the connection",
            "connection already closed",
            "connection is closed",
            "could not connect",
            "connection refused",
            "the database system is shutting down",
            "the database system is starting up",
            "consuming input failed",
            "ssl syscall error",
            "connection to server",
        )
    )


def _forget_connections() -> None:
    for connection in connections.all(initialized_only=True):
        with contextlib.suppress(DatabaseError):  # already gone: closing it is all we can do
            connection.close()
        connection.connection = None


def unavailable(request: HttpRequest) -> HttpResponse:
    if request.path.startswith(API_PREFIX):
        response: HttpResponse = api_error(DATABASE_UNAVAILABLE, 503)
    else:
        response = render(request, "503.html", {"reason": DATABASE_UNAVAILABLE}, status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


class DatabaseFaultMiddleware:
    """See the module's docstring. Placed first, its ``process_exception`` sees what a view raised."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception):
        if not connection_lost(exception):
            return None
        _forget_connections()
        match = request.resolver_match
        if request.method in SAFE_METHODS and match is not None and not getattr(request, _RETRIED, False):
            setattr(request, _RETRIED, True)
            logger.warning("Database connection lost during %s %s: read again", request.method, request.path)
            try:
                response = match.func(request, *match.args, **match.kwargs)
                if hasattr(response, "render") and callable(response.render):
                    response = response.render()
                return response
            except (OperationalError, InterfaceError) as again:
                if not connection_lost(again):
                    raise
                _forget_connections()
        logger.warning("Database connection lost during %s %s: answered 503", request.method, request.path)
        return unavailable(request)
