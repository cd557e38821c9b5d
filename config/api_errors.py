"""The API's one error shape ``{"message", "code", "extra"}`` also for what Django answers before or
around a view: an unknown /api/ URL, a body over DATA_UPLOAD_MAX_MEMORY_SIZE, a CSRF refusal.

``code`` is what a client branches on: stable words, listed (with what each means) in ``ERROR_CODES``
and in the schema's ``Error`` component; ``message`` is a sentence for a person and may be reworded,
written in the reader's language (Accept-Language, config/locale.py) when translated."""

from http import HTTPStatus

from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy

API_PREFIX = "/api/"
NO_SUCH_ENDPOINT = gettext_lazy("There is no such API endpoint: see /api/schema/.")
BODY_TOO_LARGE = gettext_lazy("The request body is too large (at most 2.5 MB).")
# A rate limit of attempts (logging in, guessing seat tokens): the API's answer and the streams'.
TOO_MANY_ATTEMPTS = gettext_lazy("Too many attempts: wait a minute and try again.")
# What Django itself answers under /api/ (a CSRF refusal, a 404 of a view's own): the status in words.
STATUS_MESSAGES = {
    400: gettext_lazy("Bad request."),
    403: gettext_lazy("Forbidden."),
    404: gettext_lazy("Not found."),
    405: gettext_lazy("Method not allowed."),
    500: gettext_lazy("Internal server error."),
}


# Every code an error body can carry. The code of a status where nothing more specific is known
# comes from STATUS_CODES.
ERROR_CODES = {
    "rule_broken": "A game's rule or a campaign's rule refused it: the message says which.",
    "invalid": "A field's value is refused: extra.fields maps each field to its messages.",
    "parse_error": "The body is not valid JSON.",
    "bad_request": "The address or a query parameter holds what no request may (a NUL character).",
    "too_large": "The body is too large.",
    "not_authenticated": "No credentials: send a token or log in.",
    "authentication_failed": "The token sent is unknown or expired, or the account inactive.",
    "permission_denied": "Your role does not allow it, or not your seat, or a browser write without CSRF.",
    "not_found": "No such object or endpoint (or not in a campaign of yours).",
    "method_not_allowed": "This path does not take this method (see the Allow header).",
    "not_acceptable": "The Accept header asks for a format the API does not answer.",
    "stale_version": "The session moved on: extra.current_version is its version now.",
    "gone": "The link was revoked, used or expired.",
    "unsupported_media_type": "The body must be sent as application/json.",
    "idempotency_key_reused": "The Idempotency-Key was used for another action or body.",
    "idempotency_key_required": "A submit needs an Idempotency-Key header: a new key for each new action.",
    "seat_token_unknown": "No seat opens with this token: it is mistyped, or the host gave the seat a new one.",
    "throttled": "Too many requests: wait the Retry-After seconds.",
    "service_unavailable": "The database was unreachable for a moment: try again after Retry-After.",
    "server_error": "Something broke on our side.",
    # A campaign's archive (api/archive/views.py).
    "archive_damaged": (
        "The archive file is damaged (not JSON, or a part the import refuses): the message says where."
    ),
    "archive_foreign": "The file is not a Chronicle campaign archive.",
    "archive_version": "The archive was written in a version of the format this server does not read.",
    "export_not_ready": (
        "The export has no file yet (extra.status: pending) or failed (extra.status: failed, extra.reason)."
    ),
    "export_gone": "The export's file is no longer on the server: request a new export.",
}
ERROR_CODE_CHOICES = sorted(ERROR_CODES.items())  # the schema's ErrorCodeEnum, each with its meaning
STATUS_CODES = {
    400: "invalid",
    401: "not_authenticated",
    403: "permission_denied",
    404: "not_found",
    405: "method_not_allowed",
    406: "not_acceptable",
    409: "stale_version",
    410: "gone",
    413: "too_large",
    415: "unsupported_media_type",
    422: "idempotency_key_reused",
    429: "throttled",
    503: "service_unavailable",
}


def error_code(status: int) -> str:
    return STATUS_CODES.get(status, "server_error" if status >= 500 else "invalid")


def error_body(
    message: str | Promise, status: int, code: str | None = None, extra: dict | None = None
) -> dict:
    # str(): a lazy message is written now, in the language of the request being answered.
    return {"message": str(message), "code": code or error_code(status), "extra": extra or {}}


def api_error(message: str | Promise, status: int, *, code: str | None = None, **extra) -> JsonResponse:
    return JsonResponse(error_body(message, status, code, extra), status=status)


def api_not_found(request: HttpRequest, *args, **kwargs) -> JsonResponse:
    """The last URL pattern under /api/: any path no endpoint matched."""
    return api_error(NO_SUCH_ENDPOINT, 404)


class ApiErrorShapeMiddleware:
    """Under /api/, an error answered by Django itself (HTML) is turned into the API's shape."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if not request.path.startswith(API_PREFIX) or response.status_code < 400:
            return response
        if response.get("Content-Type", "").startswith("application/json"):
            return response
        status = response.status_code
        return api_error(STATUS_MESSAGES.get(status) or HTTPStatus(status).phrase + ".", status)

    def process_exception(self, request: HttpRequest, exception: Exception):
        if request.path.startswith(API_PREFIX) and isinstance(exception, RequestDataTooBig):
            return api_error(BODY_TOO_LARGE, 400, code="too_large")
        return None
