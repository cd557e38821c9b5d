"""One error shape (docs/architecture.md, Conventions): {"message", "code", "extra"} (config/api_errors.py
lists the codes): 400 for rule and validation errors (``extra.fields`` maps each refused field to its
messages), 409 with ``extra.current_version`` for a stale session version, 429 when rate-limited."""

from typing import Any

from django.core.exceptions import PermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from django_ratelimit.exceptions import Ratelimited
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.serializers import as_serializer_error
from rest_framework.views import exception_handler

from config.api_errors import TOO_MANY_ATTEMPTS, error_body
from config.ratelimits import retry_after
from games.engines.kernel.errors import RuleError
from games.services.taps import IdempotencyKeyReused, StaleVersion
from games.translation import say_to_reader


def chronicle_exception_handler(exc: Exception, context: dict) -> Response | None:
    if isinstance(exc, RuleError):
        # An engine's refusal is a message: said in the language of the request being answered.
        return Response(error_body(say_to_reader(exc.message), 400, "rule_broken", exc.extra), status=400)
    if isinstance(exc, StaleVersion):  # the client acted on an old version of the table
        extra = {"current_version": exc.current_version}
        return Response(error_body(exc.message, 409, "stale_version", extra), status=409)
    if isinstance(exc, IdempotencyKeyReused):  # before DjangoValidationError, its base class
        return Response(error_body(str(exc.message), 422), status=422)
    if isinstance(exc, Ratelimited):  # before PermissionDenied, its base class
        return Response(
            error_body(TOO_MANY_ATTEMPTS, 429), status=429, headers={"Retry-After": str(retry_after(exc))}
        )
    if isinstance(exc, DjangoValidationError):
        exc = exceptions.ValidationError(as_serializer_error(exc))
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    if isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    response = exception_handler(exc, context)
    if response is None or not isinstance(exc, exceptions.APIException):
        return None  # unknown errors stay 500 (DRF answers only its own exceptions, those above included)
    code = getattr(exc, "default_code", None)
    if isinstance(exc.detail, dict | list):
        fields = exc.detail if isinstance(exc.detail, dict) else {"non_field_errors": exc.detail}
        message = _first_message(exc.detail)
        response.data = error_body(message, response.status_code, code, {"fields": fields})
    else:
        response.data = error_body(str(exc.detail), response.status_code, code, getattr(exc, "extra", {}))
    return response


def _first_message(detail: Any) -> str:
    if isinstance(detail, dict):
        for key, value in detail.items():
            inner = _first_message(value)
            return inner if key in ("non_field_errors", "__all__") else f"{key}: {inner}"
    if isinstance(detail, list) and detail:
        return _first_message(detail[0])
    return str(detail)
