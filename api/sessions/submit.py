"""An action submitted for a seat or the table: the Idempotency-Key it needs, the service, the answer."""

from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiParameter
from rest_framework import exceptions, status
from rest_framework.request import Request
from rest_framework.response import Response

from api.sessions.serializers import KEY_NUL, SubmitInputSerializer
from api.sessions.view_data import submit_data
from games import selectors
from games.models import GameSession, Seat
from games.services.taps import session_submit_action

IDEMPOTENCY_KEY_REQUIRED = gettext_lazy(
    "Send an Idempotency-Key header with each action: a new key for a new action, the same key to send it again."
)

IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key",
    {"type": "string", "minLength": 1, "maxLength": 100, "pattern": "^[^\\s\\x00]([^\\x00]*[^\\s\\x00])?$"},
    OpenApiParameter.HEADER,
    required=True,
    description="Required: a new key (up to 100 characters) for each new action. Sending the same key again "
    "(a retry after a lost answer) returns the action already applied, never applies it twice.",
)


class IdempotencyKeyRequired(exceptions.APIException):
    """A submit without its Idempotency-Key (a retry must never apply an action twice): 400, code idempotency_key_required."""

    status_code = status.HTTP_400_BAD_REQUEST
    default_detail = IDEMPOTENCY_KEY_REQUIRED
    default_code = "idempotency_key_required"


def submit_action(request: Request, session: GameSession, seat: Seat | None) -> Response:
    serializer = SubmitInputSerializer(data=request.data)
    serializer.is_valid(raise_exception=True)
    key = request.headers.get("Idempotency-Key", "")
    if not key.strip():
        raise IdempotencyKeyRequired()
    if "\x00" in key:
        raise exceptions.ValidationError(KEY_NUL)
    logged = session_submit_action(
        session=session,
        seat=seat,
        action=serializer.validated_data["action"],
        expected_version=serializer.validated_data["expected_version"],
        idempotency_key=key,
    )
    # The service brought ``session`` up to date (version, state, status): no second read.
    if seat is None:
        view = selectors.session_view_for_table(session=session)
    else:
        view = selectors.session_view_for_seat(session=session, seat=seat)
    return Response(submit_data(logged, view))
