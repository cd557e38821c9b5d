"""The OpenAPI schema at /api/schema/ describes every endpoint, and the API keeps to it."""

import io
import re

import pytest
from django.core.management import call_command
from django.urls import reverse
from rest_framework import serializers

from api.fields import LetterField, NameField
from api.schema import text_pattern


class SchemaTests:
    def test_the_schema_generates_without_warnings_or_errors(self, tmp_path):
        out = io.StringIO()
        call_command(
            "spectacular", "--validate", "--fail-on-warn", "--file", str(tmp_path / "schema.yaml"), stdout=out
        )
        text = (tmp_path / "schema.yaml").read_text()
        assert "/api/campaigns/{campaign_id}/stickers/attach/" in text

    @pytest.mark.django_db
    def test_schema_and_docs_are_served(self, client):
        schema = client.get(reverse("schema"), HTTP_ACCEPT="application/vnd.oai.openapi+json")
        assert schema.status_code == 200
        paths = schema.json()["paths"]
        attach = paths["/api/campaigns/{campaign_id}/stickers/attach/"]["post"]
        assert {"201", "400", "401", "403", "404"} <= set(attach["responses"])
        error = attach["responses"]["400"]["content"]["application/json"]["schema"]
        assert error == {"$ref": "#/components/schemas/Error"}
        submit = paths["/api/sessions/{session_id}/seats/{seat_index}/actions/submit/"]["post"]
        assert {"200", "400", "401", "403", "404", "409"} <= set(submit["responses"])
        headers = {p["name"] for p in submit["parameters"] if p["in"] == "header"}
        assert headers == {"X-Seat-Token", "Idempotency-Key"}
        assert client.get(reverse("api-docs")).status_code == 200

    def test_every_operation_declares_its_error_bodies(self):
        from drf_spectacular.generators import SchemaGenerator

        schema = SchemaGenerator().get_schema(request=None, public=True)
        for path, operations in schema["paths"].items():
            for method, operation in operations.items():
                errors = {code for code in operation["responses"] if code.startswith("4")}
                assert errors, f"{method} {path}"
                for code in errors:
                    body = operation["responses"][code]["content"]["application/json"]["schema"]
                    assert body == {"$ref": "#/components/schemas/Error"}, f"{method} {path} {code}"


class TextPatternTests:
    """The patterns the schema gives a body's text accept exactly what the fields accept (issue 25:
    schema-valid names and texts were refused)."""

    SAMPLES = [
        "Anna",
        "Ann a",
        " Ben ",
        "",
        " ",
        "\u3000",
        "\v",
        "A\x00",
        "A\x1b",
        "A\u202e",
        "Zoë",
        "A\x85",
        "\tAnna\n",
        "A\tB",
        "\x1fA \xa0B\u2028",
    ]

    def assert_pattern_is_the_field(self, field) -> None:
        pattern = re.compile(text_pattern(field))
        for text in self.SAMPLES:
            try:
                field.run_validation(text)
                accepted = True
            except serializers.ValidationError:
                accepted = False
            # The empty text is the schema's other branch where it is taken (oneOf, maxLength 0).
            matched = bool(pattern.search(text)) or (field.allow_blank and text == "")
            assert matched == accepted, (type(field).__name__, field.allow_blank, repr(text))

    def test_a_name_pattern_matches_what_a_name_field_takes(self):
        self.assert_pattern_is_the_field(NameField(max_length=80))
        self.assert_pattern_is_the_field(NameField(max_length=60, allow_blank=True))

    def test_a_text_pattern_refuses_only_a_nul_and_blank(self):
        self.assert_pattern_is_the_field(serializers.CharField(max_length=40))
        self.assert_pattern_is_the_field(serializers.CharField(max_length=40, allow_blank=True))


@pytest.mark.django_db
class StrictBodyTypesTests:
    """A boolean of a body is true or false and an id an integer, as the schema says (issue 25:
    schemathesis found `"claim": 1` and `"signer": ""` accepted, schema-violating requests)."""

    @staticmethod
    def attach(api, campaign, **fields):
        url = reverse("api:sticker-attach", kwargs={"campaign_id": campaign.pk})
        return api.post(url, {"number": 43, "row": "welfare", "positive": False, **fields}, format="json")

    @pytest.mark.parametrize(
        ("field", "value"),
        [
            *[("positive", v) for v in (1, 0, "true", "yes", "on", None)],
            *[("signer", v) for v in ("2", "", 2.0, True)],
        ],
    )
    def test_a_side_or_signer_of_another_type_is_refused_and_nothing_written(self, api, harald, field, value):
        campaign, houses, _ = harald
        response = self.attach(api, campaign, **{field: value})
        assert response.status_code == 400
        assert field in response.json()["extra"]["fields"]
        assert not campaign.stickers.exists()

    def test_a_boolean_and_an_id_or_null_are_taken(self, api, harald):
        campaign, houses, _ = harald
        assert self.attach(api, campaign, positive=True, signer=houses[1].pk).status_code == 201
        assert self.attach(api, campaign, number=44, signer=None).status_code == 201


class EnumTests:
    def test_no_enum_lists_a_value_twice_in_any_case(self):
        """Issue 29: openapi-python-client refused "Duplicate key A in enum LetterEnum" (A-L and a-l)."""
        from drf_spectacular.generators import SchemaGenerator

        schema = SchemaGenerator().get_schema(request=None, public=True)
        for name, component in schema["components"]["schemas"].items():
            values = [str(v).upper() for v in component.get("enum", []) if v]
            assert len(values) == len(set(values)), name
        letter = schema["components"]["schemas"]["LetterEnum"]["enum"]
        assert letter == list("ABCDEFGHIJKL")

    def test_a_lower_case_mystery_letter_is_still_read_as_its_capital(self):
        field = LetterField(choices=list("ABCDEFGHIJKL"))
        assert field.run_validation("c") == "C"
        with pytest.raises(serializers.ValidationError):
            field.run_validation("m")
