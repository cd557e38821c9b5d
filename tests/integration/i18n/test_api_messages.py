"""The API's error ``message`` in the reader's language (Accept-Language), its ``code`` unchanged:
the framework's own messages (authentication, not found, throttling: Django REST framework's
catalogues) and the project's (config/api_errors.py), English when nothing is asked."""

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from config.api_errors import NO_SUCH_ENDPOINT, TOO_MANY_ATTEMPTS, error_body

pytestmark = pytest.mark.django_db

CAMPAIGNS = "/api/campaigns/"


def answer(path, language=None):
    headers = {"accept-language": language} if language else {}
    response = APIClient().get(path, headers=headers)
    return response.status_code, response.json(), response.get("Content-Language")


class ApiMessageTests:
    def test_without_accept_language_the_messages_are_english(self):
        assert answer(CAMPAIGNS) == (
            401,
            {
                "message": "Authentication credentials were not provided.",
                "code": "not_authenticated",
                "extra": {},
            },
            "en",
        )
        assert (
            answer("/api/no-such-thing/")[1]["message"] == "There is no such API endpoint: see /api/schema/."
        )

    @pytest.mark.parametrize(
        ("language", "credentials", "no_endpoint"),
        [
            ("de", "Anmeldedaten fehlen.", "Diesen API-Endpunkt gibt es nicht: siehe /api/schema/."),
            (
                "it",
                "Non sono state immesse le credenziali di autenticazione.",
                "Questo endpoint dell'API non esiste: vedi /api/schema/.",
            ),
        ],
    )
    def test_the_message_follows_accept_language_and_the_code_stays(self, language, credentials, no_endpoint):
        status, body, content_language = answer(CAMPAIGNS, language)
        assert (status, body["message"], body["code"], content_language) == (
            401,
            credentials,
            "not_authenticated",
            language,
        )
        status, body, _ = answer("/api/no-such-thing/", language)
        assert (status, body["message"], body["code"]) == (404, no_endpoint, "not_found")

    def test_a_missing_object_is_said_in_french(self, client):
        from tests.factories import UserFactory

        client.force_login(UserFactory())
        response = client.get(
            reverse("api:campaign-detail", args=[999999]), headers={"accept-language": "fr"}
        )
        assert response.json()["code"] == "not_found"
        assert response.json()["message"] != "Not found."

    def test_a_lazy_message_is_written_in_the_language_of_the_answer(self):
        from django.utils import translation

        with translation.override("es"):
            assert (
                error_body(TOO_MANY_ATTEMPTS, 429)["message"]
                == "Demasiados intentos: espere un minuto y vuelva a intentarlo."
            )
        assert (
            error_body(NO_SUCH_ENDPOINT, 404)["message"] == "There is no such API endpoint: see /api/schema/."
        )
