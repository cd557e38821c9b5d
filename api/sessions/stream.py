"""The session's event stream, described for the schema: served by api.sessions.stream_events.session_events."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import exceptions
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from api.base import ChronicleApi
from api.errors import errors
from api.sessions.callers import SEAT_TOKEN
from api.sessions.views import TAGS

LAST_EVENT_ID = OpenApiParameter(
    "Last-Event-ID",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    required=False,
    description="Reconnecting: the id of the last event received (session-<id>:<version>). If the session "
    "moved on meanwhile, one session_version event with its version now comes at once.",
)
LAST_EVENT_ID_QUERY = OpenApiParameter(
    "lastEventId",
    OpenApiTypes.STR,
    OpenApiParameter.QUERY,
    required=False,
    description="The same as Last-Event-ID, for clients that cannot set headers: session-<id>:<version> of "
    "the view you have, so a change made before the stream opened is not missed.",
)
STREAM_EXAMPLE = (
    "event: stream-open\ndata: \n\n"
    "event: session_version\nid: session-12:3\n"
    'data: {"type": "session_version", "session": 12, "version": 3}\n\n'
)
STREAM_DESCRIPTION = """Server-sent events (text/event-stream) telling that the session changed: never
data, only a nudge. Each event is `session_version` with the JSON data
`{"type": "session_version", "session": <id>, "version": <n>}` and the id `session-<id>:<n>`: then fetch
your own view (GET the seat view or the table view), unless you already have version n (the answer of
your own submit carries it). `stream-reset` means: fetch your view again (the server lost track). A
comment line comes every 20 seconds to keep the connection open; the server ends a stream after an hour:
reconnect with `Last-Event-ID`.

Who may: the host (`Authorization: Bearer <token>`, or the browser's login), a seat's phone
(`X-Seat-Token`), a player whose account holds a seat. Anyone else, or an unknown session: 404.

Too many streams (per seat, per table, or on the server): 429 or 503 with `Retry-After`. Then poll
instead: `GET /api/sessions/{id}/seats/{index}/` (or `/table/`) with `If-None-Match` and the ETag of the
view you have answers 304 while nothing changed, cheaply."""


STREAM_CAPPED = OpenApiResponse(
    OpenApiTypes.STR,
    description="Too many open streams (for this seat, this table or this server): poll instead, and try "
    "the stream again after Retry-After seconds.",
)


class SessionEventsApi(ChronicleApi):
    # Described only: api/urls.py serves this address with the async api.sessions.stream_events.session_events
    # (games/live/asgi.py: outside DRF and the middleware, no thread per open stream).

    permission_classes = [AllowAny]  # a phone's X-Seat-Token needs no login

    @extend_schema(
        tags=TAGS,
        summary="Follow a session live: an event each time it changes (server-sent events)",
        description=STREAM_DESCRIPTION,
        parameters=[SEAT_TOKEN, LAST_EVENT_ID, LAST_EVENT_ID_QUERY],
        responses={
            (200, "text/event-stream"): OpenApiResponse(
                OpenApiTypes.STR,
                description="The stream: one event per change (see above), open until the client leaves.",
                examples=[OpenApiExample("A change to version 3", value=STREAM_EXAMPLE)],
            ),
            204: OpenApiResponse(
                description="This server cannot hold a stream open (not served under ASGI): poll instead."
            ),
            **errors(401, 404),
            **{(code, "application/json"): answer for code, answer in errors(429, 503).items()},
            **{(code, "text/plain"): STREAM_CAPPED for code in (429, 503)},
        },
    )
    def get(self, request: Request, session_id: int) -> Response:
        raise exceptions.NotFound()  # never routed here: see the comment above
