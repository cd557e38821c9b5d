"""The API's error ``message`` in the reader's language (Accept-Language), its ``code`` unchanged:
the framework's own messages (authentication, not found, throttling: Django REST framework's
catalogues) and the project's (config/api_errors.py), English when nothing is asked."""

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from api.sessions.callers import NOT_YOUR_SEAT
from api.sessions.seat_views import SEAT_TOKEN_UNKNOWN
from api.sessions.serializers import ACTION_NUL
from config.api_errors import NO_SUCH_ENDPOINT, TOO_MANY_ATTEMPTS, error_body
from games.services.taps import STALE_VERSION
from tests.factories import UserFactory
from tests.integration.api.conftest import api, fresh_key, host, token_client  # noqa: F401  (fixtures)

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


@pytest.fixture
def table(api):  # noqa: F811  (the fixture imported above)
    """A For the King session of three seats: the acting seat's phone, another seat's phone, the
    submit address of the acting seat and the table's version."""
    body = {"game": "for_the_king", "seat_names": ["Anna", "Ben", "Cleo"]}
    session = api.post(reverse("api:session-create"), body, format="json").json()
    kwargs = {"session_id": session["id"]}
    table = api.get(reverse("api:session-table", kwargs=kwargs)).json()
    (seat,) = [s for s in table["active_seats"] if s is not None]
    phone, other = APIClient(), APIClient()
    phone.credentials(HTTP_X_SEAT_TOKEN=session["seats"][seat]["token"])
    other.credentials(HTTP_X_SEAT_TOKEN=session["seats"][(seat + 1) % 3]["token"])
    submit = reverse("api:seat-action-submit", kwargs={**kwargs, "seat_index": seat})
    choice = phone.get(reverse("api:seat-legal-actions", kwargs={**kwargs, "seat_index": seat})).json()
    action = {"type": choice["choices"][0]["choice"]["type"], "seat": seat}
    return {"phone": phone, "other": other, "submit": submit, "version": table["version"], "action": action}


def refusal(client, method, path, language, body=None, **headers):
    if language:
        headers["HTTP_ACCEPT_LANGUAGE"] = language
    response = getattr(client, method)(path, body, format="json", **headers)
    return response.status_code, response.json()["code"], response.json()["message"]


class ApiRefusalKindTests:
    """Each kind of refusal the API answers: its message in German under Accept-Language: de, in
    English without, its code the same in both."""

    @pytest.mark.parametrize(
        ("language", "message"),
        [("de", "action: Eine Aktion darf keine NUL-Zeichen enthalten."), (None, f"action: {ACTION_NUL}")],
    )
    def test_a_refused_field_is_400(self, table, language, message):
        body = {"action": {"type": "a\x00"}, "expected_version": table["version"]}
        answer = refusal(table["phone"], "post", table["submit"], language, body, **fresh_key())
        assert answer == (400, "invalid", message)

    @pytest.mark.parametrize(
        ("language", "message"),
        [("de", "Am Tisch ging es schon weiter: hier ist der neue Stand."), (None, str(STALE_VERSION))],
    )
    def test_a_stale_version_is_409(self, table, language, message):
        body = {"action": table["action"], "expected_version": table["version"] - 1}
        answer = refusal(table["phone"], "post", table["submit"], language, body, **fresh_key())
        assert answer == (409, "stale_version", message)

    @pytest.mark.parametrize(
        ("language", "message"),
        [
            ("de", "Nur der Spieler dieses Platzes kann ihn sehen oder für ihn handeln."),
            (None, str(NOT_YOUR_SEAT)),
        ],
    )
    def test_another_seats_phone_is_403(self, table, language, message):
        body = {"action": table["action"], "expected_version": table["version"]}
        answer = refusal(table["other"], "post", table["submit"], language, body, **fresh_key())
        assert answer == (403, "permission_denied", message)

    @pytest.mark.parametrize(
        ("language", "message"),
        [
            (
                "de",
                "Mit diesem Code öffnet sich kein Platz: scanne ihn noch einmal oder bitte den Gastgeber, "
                "den Code des Platzes noch einmal zu zeigen.",
            ),
            (None, str(SEAT_TOKEN_UNKNOWN)),
        ],
    )
    def test_an_unknown_seat_code_is_404(self, language, message):
        answer = refusal(APIClient(), "post", reverse("api:seat-find"), language, {"token": "no-such-seat"})
        assert answer == (404, "seat_token_unknown", message)

    @pytest.mark.parametrize(
        ("language", "message"),
        [
            ("de", "Zu viele Anfragen: warte 60 Sekunden und versuche es noch einmal."),
            (None, "Too many requests: wait 60 seconds and try again."),
        ],
    )
    def test_a_caller_over_its_rate_is_429_and_told_when_to_come_back(self, settings, language, message):
        settings.API_RATE = "2/min"
        client = token_client(UserFactory())
        for _ in range(2):
            assert client.get(CAMPAIGNS).status_code == 200
        over = client.get(CAMPAIGNS, **({"HTTP_ACCEPT_LANGUAGE": language} if language else {}))
        assert (over.status_code, over.json()["code"], over.json()["message"]) == (429, "throttled", message)
        assert over["Retry-After"] == "60"

    def test_a_wait_of_one_second_is_said_in_the_singular(self):
        from django.utils import translation

        from api.base import Throttled

        with translation.override("de"):
            assert (
                str(Throttled(0.4).detail)
                == "Zu viele Anfragen: warte 1 Sekunde und versuche es noch einmal."
            )
        assert Throttled(0.4).wait == 1 and Throttled(None).wait is None

    def test_a_schema_read_in_german_stays_english(self, client):
        """The schema's descriptions are developer documentation: one text whatever the reader."""
        schema = "/api/schema/"
        english = client.get(schema, HTTP_ACCEPT="application/vnd.oai.openapi+json").content
        german = client.get(
            schema, HTTP_ACCEPT="application/vnd.oai.openapi+json", HTTP_ACCEPT_LANGUAGE="de"
        ).content
        assert english == german


class DjangosOwnAnswerTests:
    def test_an_html_error_under_the_api_is_said_in_the_readers_language(self, rf):
        from django.http import HttpResponseForbidden
        from django.utils import translation

        from config.api_errors import ApiErrorShapeMiddleware

        middleware = ApiErrorShapeMiddleware(lambda request: HttpResponseForbidden("<h1>Forbidden</h1>"))
        with translation.override("de"):
            answer = middleware(rf.post("/api/campaigns/"))
        assert (answer.status_code, answer["Content-Type"]) == (403, "application/json")
        assert answer.content.decode() == '{"message": "Verboten.", "code": "permission_denied", "extra": {}}'


class HealthTests:
    def test_the_health_check_stays_english_and_the_status_page_is_the_readers(self, client, settings):
        settings.REDIS_URL = ""
        health = client.get("/healthz", headers={"accept-language": "de"}).json()
        assert (health["redis"], health["tasks"]) == ("not configured", "run eagerly in the web process")
        page = client.get("/status/", headers={"accept-language": "de"}).content.decode()
        assert "nicht eingerichtet" in page and "Hintergrundaufgaben" in page
