"""The API's rate limit per caller (issue 25: 300 GETs in a row all answered 200, and a 429 said
nothing of when to come back)."""

import pytest
from rest_framework.test import APIClient

from tests.factories import UserFactory

pytestmark = [pytest.mark.django_db]

RATE = 5


@pytest.fixture(autouse=True)
def low_rate(settings):
    settings.API_RATE = f"{RATE}/min"


def token_client() -> APIClient:
    user = UserFactory()
    user.set_password("a long enough password")
    user.save()
    client = APIClient()
    token = client.post(
        "/api/auth/token/", {"username": user.username, "password": "a long enough password"}, format="json"
    ).json()["token"]
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


class CallerRateThrottleTests:
    def test_a_token_over_its_rate_gets_429_with_retry_after(self):
        client = token_client()
        codes = [client.get("/api/campaigns/").status_code for _ in range(RATE)]
        assert codes == [200] * RATE
        over = client.get("/api/campaigns/")
        assert over.status_code == 429
        assert set(over.json()) == {"message", "code", "extra"} and over.json()["message"]
        assert 0 < int(over["Retry-After"]) <= 60

    def test_another_token_keeps_its_own_bucket(self):
        first, second = token_client(), token_client()
        for _ in range(RATE + 1):
            first.get("/api/campaigns/")
        assert first.get("/api/campaigns/").status_code == 429
        assert second.get("/api/campaigns/").status_code == 200

    def test_rate_zero_means_no_limit(self, settings):
        settings.API_RATE = ""
        client = token_client()
        assert {client.get("/api/campaigns/").status_code for _ in range(RATE * 3)} == {200}
