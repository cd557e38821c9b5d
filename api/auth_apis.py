"""Token authentication for mobile clients: obtain a token with username and password, revoke it.
The browser uses its session (log in at /accounts/login/)."""

from django.utils.decorators import method_decorator
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.permissions import AllowAny
from rest_framework.response import Response

from api import services
from api.authentication import token_expires_at
from api.base import ChronicleApi
from api.errors import errors
from api.serializers import StrictCharField
from config.ratelimits import login_rate_limited

TAGS = ["auth"]


class TokenObtainApi(ChronicleApi):
    authentication_classes: list = []
    permission_classes = [AllowAny]

    class InputSerializer(AuthTokenSerializer):
        username = StrictCharField(max_length=150)
        password = StrictCharField(max_length=128, style={"input_type": "password"}, trim_whitespace=False)
        token = None  # type: ignore[assignment]  # AuthTokenSerializer's read-only field: the output has the key

    class OutputSerializer(serializers.Serializer):
        token = serializers.CharField(help_text="Send it as 'Authorization: Token <token>'.")
        username = serializers.CharField()
        expires_at = serializers.DateTimeField(help_text="After this, log in again for a new token.")

    @extend_schema(
        tags=TAGS,
        summary="Log in: a token for 'Authorization: Token <token>'",
        request=InputSerializer,
        responses={200: OutputSerializer, **errors(400, 429)},
        auth=[],
    )
    @method_decorator(login_rate_limited)
    def post(self, request):
        serializer = self.InputSerializer(data=request.data, context={"request": request})
        serializer.is_valid(raise_exception=True)
        user = serializer.validated_data["user"]
        token = services.token_obtain(user=user)
        out = {"token": token.key, "username": user.get_username(), "expires_at": token_expires_at(token)}
        return Response(self.OutputSerializer(out).data)


class TokenRevokeApi(ChronicleApi):
    @extend_schema(
        tags=TAGS,
        summary="Log out: revoke your token",
        request=None,
        responses={204: None, **errors(401)},
    )
    def post(self, request):
        services.token_revoke(user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
