"""Token authentication for mobile clients, session authentication for the browser."""

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from api.accounts.services import token_obtain
from api.models import DeviceToken, token_digest
from config.api_errors import TOO_MANY_ATTEMPTS
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

OBTAIN = reverse("api:token-obtain")
REVOKE = reverse("api:token-revoke")
CAMPAIGNS = reverse("api:campaign-list")


class TokenObtainTests:
    def test_username_and_password_give_a_token_that_authenticates(self, anonymous):
        UserFactory(username="anna")
        response = anonymous.post(OBTAIN, {"username": "anna", "password": "secret-pass"}, format="json")
        assert response.status_code == 200
        assert response.json()["username"] == "anna"
        key = response.json()["token"]
        assert DeviceToken.objects.get(user__username="anna").digest == token_digest(key)
        anonymous.credentials(HTTP_AUTHORIZATION=f"Token {key}")
        assert anonymous.get(CAMPAIGNS).status_code == 200

    def test_asking_twice_gives_two_tokens_one_per_device(self, anonymous):
        """Issue 24: a token per device (each log-in a new one); test_devices.py has the rest."""
        UserFactory(username="anna")
        body = {"username": "anna", "password": "secret-pass"}
        first = anonymous.post(OBTAIN, body, format="json").json()["token"]
        assert anonymous.post(OBTAIN, body, format="json").json()["token"] != first
        assert DeviceToken.objects.filter(user__username="anna").count() == 2

    def test_a_wrong_password_is_400_with_a_message_and_no_token(self, anonymous):
        UserFactory(username="anna")
        response = anonymous.post(OBTAIN, {"username": "anna", "password": "nope"}, format="json")
        assert response.status_code == 400
        assert response.json()["message"] == "Unable to log in with provided credentials."
        assert not DeviceToken.objects.exists()

    def test_missing_fields_are_400_naming_the_field(self, anonymous):
        response = anonymous.post(OBTAIN, {"username": "anna"}, format="json")
        assert response.status_code == 400
        assert response.json() == {
            "message": "password: This field is required.",
            "code": "invalid",
            "extra": {"fields": {"password": ["This field is required."]}},
        }

    def test_a_stale_token_header_does_not_block_logging_in(self, anonymous):
        UserFactory(username="anna")
        anonymous.credentials(HTTP_AUTHORIZATION="Token revoked-long-ago")
        response = anonymous.post(OBTAIN, {"username": "anna", "password": "secret-pass"}, format="json")
        assert response.status_code == 200

    def test_guessing_passwords_is_rate_limited(self, anonymous):
        codes = [anonymous.post(OBTAIN, {"username": "x", "password": "y"}, format="json") for _ in range(22)]
        assert codes[0].status_code == 400
        assert codes[-1].status_code == 429
        assert codes[-1].json() == {"message": TOO_MANY_ATTEMPTS, "code": "throttled", "extra": {}}


class TokenRevokeTests:
    def test_revoked_token_no_longer_authenticates(self, anonymous):
        user = UserFactory()
        _, key = token_obtain(user=user)
        anonymous.credentials(HTTP_AUTHORIZATION=f"Token {key}")
        assert anonymous.post(REVOKE).status_code == 204
        assert not DeviceToken.objects.filter(user=user).exists()
        response = anonymous.get(CAMPAIGNS)
        assert response.status_code == 401
        assert response.json() == {"message": "Invalid token.", "code": "authentication_failed", "extra": {}}

    def test_revoking_needs_authentication(self, anonymous):
        response = anonymous.post(REVOKE)
        assert response.status_code == 401
        assert response["WWW-Authenticate"] == "Token"


class SessionAuthTests:
    def test_the_browser_session_authenticates(self, host):
        client = APIClient()
        client.force_login(host)
        assert client.get(CAMPAIGNS).status_code == 200

    def test_session_writes_need_the_csrf_token(self, host):
        client = APIClient(enforce_csrf_checks=True)
        client.force_login(host)
        response = client.post(reverse("api:campaign-create"), {"name": "X"}, format="json")
        assert response.status_code == 403
        assert "CSRF" in response.json()["message"]

    def test_anonymous_is_401_with_a_message(self, anonymous):
        response = anonymous.get(CAMPAIGNS)
        assert response.status_code == 401
        assert response.json() == {
            "message": "Authentication credentials were not provided.",
            "code": "not_authenticated",
            "extra": {},
        }


class BearerPrefixTests:
    """Issue 29: the schema declares the token as an http bearer scheme, so a generated client sends
    ``Bearer <token>`` by default; ``Token <token>`` keeps working."""

    def test_both_prefixes_authenticate_and_nothing_else_does(self, anonymous):
        _, key = token_obtain(user=UserFactory())
        for header, status in [
            (f"Bearer {key}", 200),
            (f"bearer {key}", 200),
            (f"Token {key}", 200),
            (f"Basic {key}", 401),
            ("Bearer", 401),
            (f"Bearer {key} extra", 401),
            ("Bearer not-a-token", 401),
        ]:
            anonymous.credentials(HTTP_AUTHORIZATION=header)
            assert anonymous.get(CAMPAIGNS).status_code == status, header

    def test_the_schema_declares_the_bearer_scheme_for_token_operations(self, anonymous):
        schema = anonymous.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
        scheme = schema["components"]["securitySchemes"]["deviceToken"]
        assert (scheme["type"], scheme["scheme"]) == ("http", "bearer")
        assert {"deviceToken": []} in schema["paths"]["/api/campaigns/"]["get"]["security"]
        # Beside it, only the seat's token (an API key in X-Seat-Token), on the seat operations alone.
        assert set(schema["components"]["securitySchemes"]) == {"deviceToken", "seatToken", "cookieAuth"}
        seat_token = schema["components"]["securitySchemes"]["seatToken"]
        assert (seat_token["type"], seat_token["in"], seat_token["name"]) == (
            "apiKey",
            "header",
            "X-Seat-Token",
        )
        seat_view = schema["paths"]["/api/sessions/{session_id}/seats/{seat_index}/"]["get"]["security"]
        assert seat_view[0] == {"seatToken": []} and {"deviceToken": []} in seat_view
        assert {"seatToken": []} not in schema["paths"]["/api/campaigns/"]["get"]["security"]
