"""The one error body of the API, declared for the schema: every 4xx and 5xx is
``{"message", "code", "extra"}``."""

from drf_spectacular.utils import OpenApiExample, OpenApiResponse
from rest_framework import serializers

from config.api_errors import ERROR_CODE_CHOICES


class ErrorSerializer(serializers.Serializer):
    message = serializers.CharField(
        help_text="A sentence a player understands (may be reworded: branch on code)."
    )
    code = serializers.ChoiceField(
        choices=ERROR_CODE_CHOICES, help_text="What went wrong, in stable words a client branches on."
    )
    extra = serializers.DictField(
        help_text=(
            "Details, always an object: {'fields': {field: [messages]}} for refused fields (code invalid), "
            "{'current_version': n} for a stale version, {} when there is nothing more."
        )
    )


DESCRIPTIONS = {
    400: "Bad input: the message says what is wrong (a rule, a field, a NUL character in the address or a query parameter).",
    401: "Not authenticated: send 'Authorization: Bearer <key>' or log in (session); or the token sent is unknown or expired.",
    403: (
        "Authenticated but not allowed: your role in this campaign does not allow it (a viewer reads; only the "
        "owner corrects, exports and shares), the demo account creates no campaign, not this seat, or a "
        "logged-in browser's write without its CSRF token."
    ),
    404: "No such object (or not in this campaign, or a campaign you are not a member of).",
    405: "This path does not take this method: the Allow header lists those it takes.",
    409: "Stale expected_version: extra.current_version is the session's version now.",
    415: "The body is not JSON: send it with 'Content-Type: application/json'.",
    422: "This Idempotency-Key was already used for another action or body: use a new key.",
    429: (
        "Too many requests: wait the Retry-After seconds. The API takes CHRONICLE_API_RATE requests per caller "
        "(each token, logged-in browser, seat token or else address; 600 a minute by default); logging in, 20 "
        "attempts a minute per address; unknown seat tokens, 30 a minute per address."
    ),
    503: (
        "The database was unreachable for a moment (a write whose connection was lost): send it again after "
        "Retry-After seconds (an action with its Idempotency-Key is applied once)."
    ),
}

RETRY_AFTER = {
    "Retry-After": {
        "description": "Seconds to wait before trying again.",
        "required": True,
        "schema": {"type": "integer", "minimum": 0},
    }
}


# What a client branches on beyond the code, published as examples (a stale version's extra).
EXAMPLES = {
    409: OpenApiExample(
        "stale_version",
        value={
            "message": "The table moved on: here is the new state.",
            "code": "stale_version",
            "extra": {"current_version": 7},
        },
        response_only=True,
        status_codes=["409"],
    )
}


def errors(*codes: int) -> dict:
    """``extend_schema(responses={200: Out, **errors(400, 401, 403, 404)})``."""
    return {
        code: OpenApiResponse(
            ErrorSerializer,
            description=DESCRIPTIONS[code],
            examples=[EXAMPLES[code]] if code in EXAMPLES else None,
        )
        for code in codes
    }


# The errors of every endpoint under /api/campaigns/<campaign_id>/.
MEMBER_READ = errors(401, 403, 404)
MEMBER_WRITE = errors(400, 401, 403, 404)
