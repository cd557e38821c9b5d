"""The API's one error shape ``{"message", "extra"}`` also for what Django answers before or
around a view: an unknown /api/ URL, a body over DATA_UPLOAD_MAX_MEMORY_SIZE, a CSRF refusal."""

from http import HTTPStatus

from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse, JsonResponse

API_PREFIX = "/api/"
NO_SUCH_ENDPOINT = "There is no such API endpoint: see /api/schema/."
BODY_TOO_LARGE = "The request body is too large (at most 2.5 MB)."


def api_error(message: str, status: int, **extra) -> JsonResponse:
    return JsonResponse({"message": message, "extra": extra}, status=status)


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
        return api_error(HTTPStatus(response.status_code).phrase + ".", response.status_code)

    def process_exception(self, request: HttpRequest, exception: Exception):
        if request.path.startswith(API_PREFIX) and isinstance(exception, RequestDataTooBig):
            return api_error(BODY_TOO_LARGE, 400)
        return None
