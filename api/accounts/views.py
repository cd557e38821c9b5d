"""Token authentication for mobile clients, one token per device: sign up or log in for a token
(each log-in a new one, named after its device), list one's devices, revoke one, or the current one.
The browser uses its session (log in at /accounts/login/)."""

from typing import Any

from django.contrib.auth.models import User
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.validators import EmailValidator
from django.shortcuts import get_object_or_404
from django.utils.decorators import method_decorator
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import exceptions, serializers, status
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from api.accounts import selectors, services
from api.authentication import token_expires_at
from api.base import ChronicleApi
from api.errors import errors
from api.fields import NameField, StrictCharField
from api.models import DeviceToken
from config.accounts import DEMO_ONLY_ON_THIS_MACHINE, demo_refused_here
from config.ratelimits import login_rate_limited, signup_rate_limited

TAGS = ["auth"]


@extend_schema_field({"type": "string", "pattern": r"^[\w.@+-]+$", "maxLength": 150})
class UsernameField(serializers.RegexField):
    """Django's username rule (UnicodeUsernameValidator), stated in the schema; text only, as typed."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(
            r"^[\w.@+-]+\Z",
            max_length=150,
            trim_whitespace=False,
            error_messages={"invalid": UnicodeUsernameValidator.message},
            **kwargs,
        )

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


NO_TOKEN_TO_REVOKE = gettext_lazy(
    "This request carries no API token to revoke: send 'Authorization: Bearer <token>' "
    "(a browser session logs out at /accounts/logout/)."
)


def current_token(request: Request) -> DeviceToken | None:
    """The token the request authenticated with (None: a browser session)."""
    return request.auth if isinstance(request.auth, DeviceToken) else None


def _device_field() -> NameField:
    return NameField(
        max_length=100,
        required=False,
        allow_blank=True,
        help_text=f"A name for this device, shown in the device list ('{services.DEVICE_UNNAMED}' if none).",
    )


def _token_answer(user: User, token: DeviceToken, key: str) -> dict:
    return {
        "token": key,
        "id": token.pk,
        "device": token.name,
        "username": user.get_username(),
        "expires_at": token_expires_at(token),
    }


class TokenObtainApi(ChronicleApi):
    authentication_classes: list = []
    permission_classes = [AllowAny]

    class InputSerializer(AuthTokenSerializer):
        username = StrictCharField(max_length=150)
        password = StrictCharField(max_length=128, style={"input_type": "password"}, trim_whitespace=False)
        device = _device_field()
        token = None  # type: ignore[assignment]  # AuthTokenSerializer's read-only field: the output has the key

        def validate(self, attrs: dict) -> dict:
            attrs = super().validate(attrs)
            if demo_refused_here(user=attrs["user"], request=self.context.get("request")):
                raise serializers.ValidationError(DEMO_ONLY_ON_THIS_MACHINE, code="authorization")
            return attrs

    class OutputSerializer(serializers.Serializer):
        token = serializers.CharField(
            help_text="Send it as 'Authorization: Bearer <token>' ('Token <token>' works too)."
        )
        id = serializers.IntegerField(help_text="This device's id in the device list.")
        device = serializers.CharField()
        username = serializers.CharField()
        expires_at = serializers.DateTimeField(help_text="After this, log in again for a new token.")

    @extend_schema(
        tags=TAGS,
        summary="Log in: a new token for this device",
        description="Logs in with the site's username and password and answers a new token for this device "
        "(each log-in makes one; the others stay). Send it as 'Authorization: Bearer <token>' on every request. "
        "It expires at expires_at (30 days): then log in again. Wrong credentials, or the demo account from "
        "another device than the one that runs Chronicle: 400; too many attempts from one address (20 a "
        "minute), or 5 wrong passwords for this username from this address in 5 minutes: 429.",
        request=InputSerializer,
        responses={200: OutputSerializer, **errors(400, 429)},
        auth=[],
    )
    @method_decorator(login_rate_limited)
    def post(self, request: Request) -> Response:
        serializer = self.InputSerializer(data=request.data, context={"request": request})
        serializer.is_valid(raise_exception=True)
        user = serializer.validated_data["user"]
        token, key = services.token_obtain(user=user, device=serializer.validated_data.get("device", ""))
        return Response(self.OutputSerializer(_token_answer(user, token, key)).data)


class SignupApi(ChronicleApi):
    # The site's sign-up (/accounts/signup/) for an app: the same rules, the same limit per client
    # address (the two count together), and a token for this device.

    authentication_classes: list = []
    permission_classes = [AllowAny]

    class InputSerializer(serializers.Serializer):
        username = UsernameField(
            help_text="Letters, digits and @ . + - _ (the site's rule); a name taken already is refused.",
        )
        email = StrictCharField(
            max_length=254,
            validators=[EmailValidator()],
            required=services.SIGNUP_EMAIL_REQUIRED,
            allow_blank=not services.SIGNUP_EMAIL_REQUIRED,
            help_text="Where the site sends the confirmation link and password resets.",
        )
        password = StrictCharField(
            min_length=services.signup_password_min_length(),
            max_length=128,
            style={"input_type": "password"},
            trim_whitespace=False,
            help_text="Checked by the site's password validators (not too common, not all digits, "
            "not like the username).",
        )
        device = _device_field()

    class OutputSerializer(TokenObtainApi.OutputSerializer):
        pass

    class ConfirmSerializer(serializers.Serializer):
        message = StrictCharField()

    @extend_schema(
        tags=TAGS,
        summary="Sign up: a new account and a token for this device",
        description="Creates an account with the site's rules (username characters, a name or email taken "
        "already, the password validators: 400 naming the field) and answers a token for this device, as log-in "
        "does (201). When the site asks to confirm the email address first: 202 with a message and no token; "
        "confirm, then log in. No login needed; 20 attempts a minute per address.",
        request=InputSerializer,
        responses={201: OutputSerializer, 202: ConfirmSerializer, **errors(400, 429)},
        auth=[],
    )
    @method_decorator(signup_rate_limited)
    def post(self, request: Request) -> Response:
        data = self.input(request)
        user = services.account_sign_up(
            request=request._request,
            username=data["username"],
            email=data.get("email", ""),
            password=data["password"],
        )
        if user is None or services.signup_needs_confirmation():
            message = {"message": services.SIGNUP_CONFIRM_EMAIL_FIRST}
            return Response(self.ConfirmSerializer(message).data, status=status.HTTP_202_ACCEPTED)
        token, key = services.token_obtain(user=user, device=data.get("device", ""))
        return Response(
            self.OutputSerializer(_token_answer(user, token, key)).data, status=status.HTTP_201_CREATED
        )


class TokenRevokeApi(ChronicleApi):
    @extend_schema(
        tags=TAGS,
        summary="Log out this device: revoke the token this request carries (your other devices stay)",
        description="Deletes the token this request carries: this device is logged out, your other devices "
        "stay. 204. A request without a token (a browser session) is 400.",
        request=None,
        responses={204: None, **errors(400, 401)},
    )
    def post(self, request: Request) -> Response:
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
        description="Your tokens, one per log-in, newest first: each device's name, when it was created and "
        "last used, when it expires, and which one this request carries (current). Use an id to revoke one.",
        responses={200: OutputSerializer(many=True), **errors(401)},
    )
    def get(self, request: Request) -> Response:
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
        description="Deletes one of your tokens (a lost phone): that device is logged out at once, the others "
        "stay. 204; an id that is not one of your devices: 404.",
        request=None,
        responses={204: None, **errors(401, 404)},
    )
    def post(self, request: Request, device_id: int) -> Response:
        token = get_object_or_404(selectors.device_list(user=request.user), pk=device_id)
        services.token_revoke(token=token)
        return Response(status=status.HTTP_204_NO_CONTENT)
