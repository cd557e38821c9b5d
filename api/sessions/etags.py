"""ETags of the session answers: a client polling with If-None-Match gets 304 while nothing changed."""

from collections.abc import Callable
from typing import Any

from django.utils.http import parse_etags
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

IF_NONE_MATCH = OpenApiParameter(
    "If-None-Match",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    required=False,
    description="The ETag of the answer you have: while nothing changed, the answer is 304 with no body "
    "(cheap: poll this way when the event stream is refused).",
)
ETAG = OpenApiParameter(
    "ETag",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    response=[200, 304],
    description="A weak validator of this answer: send it back as If-None-Match.",
)
NOT_MODIFIED = OpenApiResponse(description="Nothing changed since the ETag sent in If-None-Match: no body.")


def etag_matches(request: Request, etag: str) -> bool:
    """Whether If-None-Match names ``etag`` (the weak comparison: W/ prefixes aside) or is ``*``."""
    sent = parse_etags(request.headers.get("If-None-Match", ""))
    return "*" in sent or etag.removeprefix("W/") in {tag.removeprefix("W/") for tag in sent}


def with_etag(request: Request, etag: str, build: Callable[[], Any]) -> Response:
    """304 when the client has ``etag`` already (``build`` is not called), else ``build()``'s data."""
    if etag_matches(request, etag):
        return Response(status=status.HTTP_304_NOT_MODIFIED, headers={"ETag": etag})
    return Response(build(), headers={"ETag": etag})
