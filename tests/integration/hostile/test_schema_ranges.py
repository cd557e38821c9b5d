"""The OpenAPI schema states the ranges the services enforce (issue 14), so a client (and
schemathesis) knows them before it is refused."""

import pytest
from drf_spectacular.generators import SchemaGenerator

pytestmark = [pytest.mark.database, pytest.mark.django_db]


@pytest.fixture(scope="module")
def schema():
    return SchemaGenerator().get_schema(request=None, public=True)


def body(schema, path):
    ref = schema["paths"][path]["post"]["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    return schema["components"]["schemas"][ref.rsplit("/", 1)[-1]]


def test_house_numbers_are_1_to_12(schema):
    number = body(schema, "/api/campaigns/{campaign_id}/houses/create/")["properties"]["number"]
    assert (number["minimum"], number["maximum"]) == (1, 12)


def test_stickers_are_1_to_177(schema):
    number = body(schema, "/api/campaigns/{campaign_id}/stickers/attach/")["properties"]["number"]
    assert (number["minimum"], number["maximum"]) == (1, 177)


def test_envelopes_are_0_to_74(schema):
    number = body(schema, "/api/campaigns/{campaign_id}/envelopes/open/")["properties"]["number"]
    assert (number["minimum"], number["maximum"]) == (0, 74)


def test_mystery_letters_are_a_to_l(schema):
    letter = body(schema, "/api/campaigns/{campaign_id}/mystery-stickers/attach/")["properties"]["letter"]
    if "$ref" in letter:
        letter = schema["components"]["schemas"][letter["$ref"].rsplit("/", 1)[-1]]
    elif "allOf" in letter:
        letter = schema["components"]["schemas"][letter["allOf"][0]["$ref"].rsplit("/", 1)[-1]]
    assert {v.upper() for v in letter["enum"]} == set("ABCDEFGHIJKL")


def test_a_result_has_3_to_5_houses(schema):
    rows = body(schema, "/api/campaigns/{campaign_id}/games/{game_id}/result/")["properties"]["rows"]
    assert (rows["minItems"], rows["maxItems"]) == (3, 5)
    night = body(schema, "/api/campaigns/{campaign_id}/nights/start/")["properties"]["houses"]
    assert (night["minItems"], night["maxItems"]) == (3, 5)
