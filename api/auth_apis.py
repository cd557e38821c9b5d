"""Token authentication for mobile clients, one token per device: log in for a token (each log-in
a new one, named after its device), list one's devices, revoke one, or the current one.
The browser uses its session (log in at /accounts/login/)."""

from django.shortcuts import get_object_or_404
from django.utils.decorators import method_decorator
from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, serializers, status
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.permissions import AllowAny
from rest_framework.response import Response

from api import selectors, services
from api.authentication import token_expires_at
from api.base import ChronicleApi
from api.errors import errors
from api.models import DeviceToken
from api.serializers import NameField, StrictCharField
from config.ratelimits import login_rate_limited

TAGS = ["auth"]
NO_TOKEN_TO_REVOKE = (
    "This request carries no API token to revoke: send 'Authorization: Token <token>' "
    "(a browser session logs out at /accounts/logout/)."
)


def current_token(request) -> DeviceToken | None:
    """The token the request authenticated with (None: a browser session)."""
    return request.auth if isinstance(request.auth, DeviceToken) else None


class TokenObtainApi(ChronicleApi):
    authentication_classes: list = []
    permission_classes = [AllowAny]

    class InputSerializer(AuthTokenSerializer):
        username = StrictCharField(max_length=150)
        password = StrictCharField(max_length=128, style={"input_type": "password"}, trim_whitespace=False)
        device = NameField(
            max_length=100,
            required=False,
            allow_blank=True,
            help_text=f"A name for this device, shown in the device list ('{services.DEVICE_UNNAMED}' if none).",
        )
        token = None  # type: ignore[assignment]  # AuthTokenSerializer's read-only field: the output has the key

    class OutputSerializer(serializers.Serializer):
        token = serializers.CharField(help_text="Send it as 'Authorization: Token <token>'.")
        id = serializers.IntegerField(help_text="This device's id in the device list.")
        device = serializers.CharField()
        username = serializers.CharField()
        expires_at = serializers.DateTimeField(help_text="After this, log in again for a new token.")

    @extend_schema(
        tags=TAGS,
        summary="Log in: a new token for this device, for 'Authorization: Token <token>'",
        request=InputSerializer,
        responses={200: OutputSerializer, **errors(400, 429)},
        auth=[],
    )
    @method_decorator(login_rate_limited)
    def post(self, request):
        serializer = self.InputSerializer(data=request.data, context={"request": request})
        serializer.is_valid(raise_exception=True)
        user = serializer.validated_data["user"]
        token, key = services.token_obtain(user=user, device=serializer.validated_data.get("device", ""))
        out = {
            "token": key,
            "id": token.pk,
            "device": token.name,
            "username": user.get_username(),
            "expires_at": token_expires_at(token),
        }
        return Response(self.OutputSerializer(out).data)


class TokenRevokeApi(ChronicleApi):
    @extend_schema(
        tags=TAGS,
        summary="Log out this device: revoke the token this request carries (your other devices stay)",
        request=None,
        responses={204: None, **errors(400, 401)},
    )
    def post(self, request):
        token = current_token(request)
        if token is None:
            raise exceptions.ValidationError(NO_TOKEN_TO_REVOKE)
        services.token_revoke(token=token)
        return Response(status=status.HTTP_204_NO_CONTENT)


class DeviceListApi(ChronicleApi):
    class OutputSerializer(serializers.Serializer):
        id = serializers.IntegerField()
        name = StrictCharField()
        created = serializers.DateTimeField()
        last_used = serializers.DateTimeField(
            allow_null=True, help_text="Written at most once a minute (null: not used yet)."
        )
        expires_at = serializers.DateTimeField()
        current = serializers.BooleanField(help_text="The token this request carries.")

    @extend_schema(
        tags=TAGS,
        summary="Your devices: one token per log-in, newest first",
        responses={200: OutputSerializer(many=True), **errors(401)},
    )
    def get(self, request):
        current = current_token(request)
        rows = [
            {
                "id": token.pk,
                "name": token.name,
                "created": token.created,
                "last_used": token.last_used,
                "expires_at": token_expires_at(token),
                "current": current is not None and token.pk == current.pk,
            }
            for token in selectors.device_list(user=request.user)
        ]
        return Response(self.OutputSerializer(rows, many=True).data)


class DeviceRevokeApi(ChronicleApi):
    @extend_schema(
        tags=TAGS,
        summary="Revoke one of your devices' tokens (the others stay)",
        request=None,
        responses={204: None, **errors(401, 404)},
    )
    def post(self, request, device_id: int):
        token = get_object_or_404(selectors.device_list(user=request.user), pk=device_id)
        services.token_revoke(token=token)
        return Response(status=status.HTTP_204_NO_CONTENT)
