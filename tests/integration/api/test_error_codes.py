"""Issue 29: errors a client can branch on. Every error body is ``{"message", "code", "extra"}``: a
stable ``code`` from the documented list, ``extra`` always an object (refused fields under
``extra.fields``, an object keyed by field), whatever part of the stack answered."""

import pytest
from django.urls import reverse

from config.api_errors import ERROR_CODES
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def body(response) -> dict:
    answer = response.json()
    assert set(answer) == {"message", "code", "extra"}, answer
    assert answer["code"] in ERROR_CODES and isinstance(answer["extra"], dict)
    return answer


class ErrorCodeTests:
    def test_each_layer_answers_its_own_code(self, client):
        user = UserFactory()
        client.force_login(user)
        create = reverse("api:campaign-create")
        cases = [
            (client.get("/api/no-such-thing/"), 404, "not_found"),
            (client.get("/api/campaigns/999999/"), 404, "not_found"),
            (client.delete("/api/campaigns/"), 405, "method_not_allowed"),
            (client.post(create, "name=x", content_type="text/plain"), 415, "unsupported_media_type"),
            (client.post(create, "{not json", content_type="application/json"), 400, "parse_error"),
            (client.post(create, {"name": ""}, content_type="application/json"), 400, "invalid"),
            (client.get("/api/campaigns/?q=a%00b"), 400, "bad_request"),
        ]
        for response, status, code in cases:
            assert (response.status_code, body(response)["code"]) == (status, code), response.content

    def test_refused_fields_are_an_object_keyed_by_field(self, client):
        client.force_login(UserFactory())
        response = client.post(reverse("api:campaign-create"), {"name": 5}, content_type="application/json")
        assert body(response)["extra"]["fields"].keys() == {"name"}

    def test_without_credentials_the_code_says_so(self, client):
        answer = body(client.get("/api/campaigns/"))
        assert answer["code"] == "not_authenticated"

    def test_the_schema_lists_every_code(self, client):
        schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
        error = schema["components"]["schemas"]["Error"]
        assert set(error["required"]) == {"message", "code", "extra"}
        assert error["properties"]["code"]["allOf"] == [{"$ref": "#/components/schemas/ErrorCodeEnum"}]
        assert set(schema["components"]["schemas"]["ErrorCodeEnum"]["enum"]) == set(ERROR_CODES)
