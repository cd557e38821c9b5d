"""Every status an operation can answer is in the schema (issue 25: 405, 415, 422 and the seat-token
limiter's 429 were not), and a 429 says when to come back (Retry-After, declared). Each test
provokes the status on every operation it applies to and looks it up in that operation's
declared responses (api/schema.py adds the statuses common to every operation)."""

import re

import pytest
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

from campaign.models import Campaign
from campaign.services.game_nights import game_night_start
from config.api_errors import TOO_MANY_ATTEMPTS
from config.input_guard import NUL_IN_PARAMETER
from games.access import MISSES_PER_MINUTE
from tests.integration.api.conftest import host_tokens_back

pytestmark = [pytest.mark.database, pytest.mark.django_db]  # a NUL reached PostgreSQL as a 500

PATHS = SchemaGenerator().get_schema(request=None, public=True)["paths"]
OPERATIONS = [(path, method) for path, operations in PATHS.items() for method in operations]
WITH_BODY = [(path, method) for path, method in OPERATIONS if "requestBody" in PATHS[path][method]]
SEAT_TOKEN_OPERATIONS = [
    (path, method)
    for path, method in OPERATIONS
    if any(p["name"] == "X-Seat-Token" for p in PATHS[path][method].get("parameters", []))
]
HOST_TOKEN = "fedcba9876543210fedcba9876543210fedcba98"
UNUSED_METHOD = "put"  # no operation of the API takes PUT


def url(path: str, ids: dict) -> str:
    return re.sub(r"\{(\w+)\}", lambda m: str(ids[m.group(1)]), path)


def declared(path: str, method: str, response) -> dict:
    responses = PATHS[path][method]["responses"]
    assert str(response.status_code) in responses, (method, path, response.status_code, response.content)
    return responses[str(response.status_code)]


@pytest.fixture
def host_api(seeded) -> APIClient:
    """The host's token, and seat 1's token for the seat's own operations."""
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {HOST_TOKEN}", HTTP_X_SEAT_TOKEN=seeded["seat_token"])
    host_tokens_back(seeded, HOST_TOKEN)
    return client


def label(operation) -> str:
    return f"{operation[1].upper()} {operation[0]}"


class DeclaredStatusesTests:
    def test_every_operation_declares_400_405_and_a_429_with_retry_after(self):
        for path, method in OPERATIONS:
            responses = PATHS[path][method]["responses"]
            assert {"400", "405", "429"} <= set(responses), (method, path)
            retry_after = responses["429"]["headers"]["Retry-After"]
            assert retry_after["required"] and retry_after["schema"]["type"] == "integer"

    def test_every_write_declares_503_with_retry_after(self):
        """config/db_faults.py: a write whose database connection is lost mid-request."""
        writes = [(p, m) for p, m in OPERATIONS if m in ("post", "put", "patch", "delete")]
        assert writes
        for path, method in writes:
            retry_after = PATHS[path][method]["responses"]["503"]["headers"]["Retry-After"]
            assert retry_after["required"], (method, path)

    def test_only_logging_in_signing_up_and_finding_a_seat_cannot_answer_401(self):
        """Finding a seat reads no credentials: the seat's token is in its body."""
        without = [(p, m) for p, m in OPERATIONS if "401" not in PATHS[p][m]["responses"]]
        assert sorted(without) == [
            ("/api/auth/signup/", "post"),
            ("/api/auth/token/", "post"),
            ("/api/seats/find/", "post"),
        ]

    def test_every_operation_with_a_body_declares_415_and_every_idempotent_one_422(self):
        assert WITH_BODY
        for path, method in WITH_BODY:
            assert "415" in PATHS[path][method]["responses"], (method, path)
        keyed = [(p, m) for p, m in OPERATIONS if "Idempotency-Key" in str(PATHS[p][m].get("parameters", []))]
        assert len(keyed) == 2
        for path, method in keyed:
            assert "422" in PATHS[path][method]["responses"], (method, path)


@pytest.mark.parametrize("operation", OPERATIONS, ids=label)
def test_a_nul_in_a_query_parameter_is_a_declared_400(operation, seeded, host_api):
    path, method = operation
    response = getattr(host_api, method)(url(path, seeded["ids"]) + "?since=%00")
    assert response.status_code == 400
    assert response.json()["message"] == NUL_IN_PARAMETER.format(name="since")
    declared(path, method, response)


@pytest.mark.parametrize("operation", OPERATIONS, ids=label)
def test_another_method_is_a_declared_405_with_allow(operation, seeded, host_api):
    path, method = operation
    response = getattr(host_api, UNUSED_METHOD)(url(path, seeded["ids"]), {}, format="json")
    assert response.status_code == 405
    assert method.upper() in response["Allow"]
    declared(path, method, response)


@pytest.mark.parametrize("operation", WITH_BODY, ids=label)
def test_a_body_that_is_not_json_is_a_declared_415(operation, seeded, host_api):
    path, method = operation
    ids = dict(seeded["ids"])
    if "/nights/{session_id}/" in path:  # a King's Dilemma night of the campaign
        campaign = Campaign.objects.get(pk=ids["campaign_id"])
        night = game_night_start(
            campaign=campaign, houses=list(campaign.houses.all()), king_name="Harald VI", host=seeded["host"]
        )
        ids["session_id"] = night.pk
    response = getattr(host_api, method)(url(path, ids), "name=x", content_type="text/plain")
    assert response.status_code == 415
    assert response.json()["message"] == 'Unsupported media type "text/plain" in request.'
    declared(path, method, response)


@pytest.mark.parametrize("operation", OPERATIONS, ids=label)
def test_over_the_rate_every_operation_answers_a_declared_429_with_retry_after(
    operation, seeded, host_api, settings
):
    settings.API_RATE = "1/min"
    path, method = operation
    getattr(host_api, method)(url(path, seeded["ids"]), {}, format="json")
    host_tokens_back(seeded, HOST_TOKEN)
    response = getattr(host_api, method)(url(path, seeded["ids"]), {}, format="json")
    assert response.status_code == 429
    assert 0 < int(response["Retry-After"]) <= 60
    assert "Retry-After" in declared(path, method, response)["headers"]


@pytest.mark.parametrize("operation", SEAT_TOKEN_OPERATIONS, ids=label)
def test_unknown_seat_tokens_over_the_limit_answer_a_declared_429_with_retry_after(operation, seeded):
    path, method = operation
    anonymous = APIClient()
    misses = int(MISSES_PER_MINUTE.split("/")[0])
    # django-ratelimit counts in fixed windows: the window may turn once during the run, so the refusal
    # comes after at least ``misses`` misses and at most two windows' worth.
    for attempt in range(2 * misses + 1):
        anonymous.credentials(HTTP_X_SEAT_TOKEN=f"not-a-token-{attempt}")
        response = getattr(anonymous, method)(url(path, seeded["ids"]))
        if response.status_code == 429:
            break
    assert response.status_code == 429 and attempt >= misses
    assert response.json()["message"] == TOO_MANY_ATTEMPTS
    assert int(response["Retry-After"]) == 60
    assert "Retry-After" in declared(path, method, response)["headers"]
