"""The session's event stream at /api/sessions/<id>/events/ (described in the schema by
api.sessions.stream.SessionEventsApi): the stream of ``games.live.streams``, behind the API's rate per
caller and with its refusals in the API's error shape."""

from __future__ import annotations

import math

from asgiref.sync import sync_to_async
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.utils.translation import gettext_lazy
from rest_framework.request import Request

from api.throttles import CallerRateThrottle
from config.api_errors import api_error
from config.ratelimits import LOGIN_WINDOW
from games.access import Refusal
from games.live.streams import session_stream

METHOD_NOT_ALLOWED = gettext_lazy('Method "{method}" not allowed.')
TOO_MANY_REQUESTS = gettext_lazy("Too many requests: wait the Retry-After seconds.")


def _api_refusal(request: HttpRequest, refusal: Refusal) -> HttpResponse:
    response = api_error(refusal.message, refusal.status, code=refusal.code)
    if refusal.status == 429:
        response["Retry-After"] = str(LOGIN_WINDOW)
    return response


async def session_events(request: HttpRequest, session_id: int) -> HttpResponse | StreamingHttpResponse:
    """Async, outside DRF and the middleware (games/live/asgi.py): an open stream holds no thread."""
    if request.method != "GET":
        response = api_error(METHOD_NOT_ALLOWED.format(method=request.method), 405)
        response["Allow"] = "GET"
        return response
    wait = await sync_to_async(_caller_wait)(request)
    if wait is not None:
        response = api_error(TOO_MANY_REQUESTS, 429)
        response["Retry-After"] = str(wait)
        return response
    return await session_stream(request, session_id, _api_refusal)


def _caller_wait(request: HttpRequest) -> int | None:
    """The API's rate per caller (api/throttles.py), counted for the stream as for any request:
    the seconds to wait when over it, else None."""
    throttle = CallerRateThrottle()
    if throttle.allow_request(Request(request), None):
        return None
    return math.ceil(throttle.wait() or 1)
