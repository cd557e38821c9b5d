"""Hostile JSON on the API (issue 14): too deep, too large, unknown URLs: a 400/404 in the API's
error shape, never HTML and never 500, and nothing written."""

import pytest
from django.test import Client

from api.parsers import JSON_TOO_DEEP
from campaign.models import Campaign, House
from config.api_errors import BODY_TOO_LARGE, NO_SUCH_ENDPOINT

pytestmark = [pytest.mark.database, pytest.mark.django_db]

DEEP = b"[" * 100_000 + b"]" * 100_000
DEEP_OBJECT = b'{"name": ' + b'{"a": ' * 200 + b"1" + b"}" * 200 + b"}"
LARGE = b'{"name": "' + b"x" * 3_000_000 + b'"}'
# Issue 25: 1e400 overflows a float to infinity; it passed the NaN/Infinity guard and answered 500.
OVERFLOW = b'{"name": 1e400, "number": 1e400, "king_name": -1e400, "seat_names": [1e400], "houses": [1e400]}'


def assert_error_shape(response, status, message=None):
    assert response.status_code == status, response.content[:300]
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert set(body) == {"message", "code", "extra"} and body["message"]
    if message:
        assert body["message"] == message


class DeepJsonTests:
    @pytest.mark.parametrize("body", [DEEP, DEEP_OBJECT], ids=["recursion", "over the depth limit"])
    def test_the_anonymous_token_endpoint_answers_400(self, anonymous, body):
        response = anonymous.post("/api/auth/token/", data=body, content_type="application/json")
        assert_error_shape(response, 400)
        assert response.json()["message"] in (JSON_TOO_DEEP, "JSON parse error - " + JSON_TOO_DEEP)

    @pytest.mark.parametrize(
        "url",
        [
            "/api/campaigns/create/",
            "/api/campaigns/{c}/houses/create/",
            "/api/campaigns/{c}/stickers/attach/",
            "/api/campaigns/{c}/nights/start/",
            "/api/sessions/create/",
        ],
    )
    @pytest.mark.parametrize(
        "body", [DEEP, DEEP_OBJECT, OVERFLOW], ids=["recursion", "over the depth limit", "1e400"]
    )
    def test_every_json_endpoint_answers_400_and_writes_nothing(self, api, harald, url, body):
        campaign = harald[0]
        before = (Campaign.objects.count(), House.objects.count())
        response = api.post(url.format(c=campaign.pk), data=body, content_type="application/json")
        assert_error_shape(response, 400)
        assert (Campaign.objects.count(), House.objects.count()) == before

    @pytest.mark.parametrize("number", [b"NaN", b"Infinity", b"-Infinity", b"1e400", b"-1.5e999"])
    def test_numbers_json_cannot_carry_are_refused(self, api, number):
        response = api.post(
            "/api/campaigns/create/",
            data=b'{"name": "Ok", "settings": {"x": ' + number + b"}}",
            content_type="application/json",
        )
        assert_error_shape(response, 400)
        assert number.decode().lstrip("-")[:3] in response.json()["message"]
        assert not Campaign.objects.filter(name="Ok").exists()


class LargeBodyTests:
    def test_a_body_over_the_limit_answers_the_error_shape(self, anonymous):
        response = anonymous.post("/api/auth/token/", data=LARGE, content_type="application/json")
        assert_error_shape(response, 400, BODY_TOO_LARGE)

    def test_an_authenticated_write_too(self, api):
        response = api.post("/api/campaigns/create/", data=LARGE, content_type="application/json")
        assert_error_shape(response, 400, BODY_TOO_LARGE)
        assert not Campaign.objects.exists() or not Campaign.objects.filter(name__startswith="xxx").exists()


class UnknownUrlTests:
    @pytest.mark.parametrize("url", ["/api/nothing/", "/api/campaigns/abc/", "/api/sessions/1/seats/x/"])
    def test_unknown_api_urls_answer_404_in_the_error_shape(self, api, url):
        assert_error_shape(api.get(url), 404, NO_SUCH_ENDPOINT)

    def test_anonymous_too(self):
        assert_error_shape(Client().post("/api/whatever"), 404, NO_SUCH_ENDPOINT)

    def test_pages_outside_the_api_keep_their_html_404(self, client):
        response = client.get("/no-such-page/")
        assert response.status_code == 404 and not response["Content-Type"].startswith("application/json")
