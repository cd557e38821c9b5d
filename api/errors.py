"""The one error body of the API, declared for the schema: every 4xx is ``{"message", "extra"}``."""

from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers


class ErrorSerializer(serializers.Serializer):
    message = serializers.CharField(help_text="A sentence a player understands.")
    extra = serializers.DictField(
        help_text=(
            "Details: {'fields': {...}} for invalid fields, {'current_version': n} for a stale version."
        )
    )


DESCRIPTIONS = {
    400: "Bad input: the message says what is wrong (a rule, a field).",
    401: "Not authenticated: send 'Authorization: Token <key>' or log in (session).",
    403: "Authenticated but not allowed (not a member of this campaign; not this seat).",
    404: "No such object (or not in this campaign).",
    409: "Stale expected_version: extra.current_version is the session's version now.",
    429: "Too many attempts: wait a minute.",
}


def errors(*codes: int) -> dict:
    """``extend_schema(responses={200: Out, **errors(400, 401, 403, 404)})``."""
    return {code: OpenApiResponse(ErrorSerializer, description=DESCRIPTIONS[code]) for code in codes}


# The errors of every endpoint under /api/campaigns/<campaign_id>/.
MEMBER_READ = errors(401, 403, 404)
MEMBER_WRITE = errors(400, 401, 403, 404)
