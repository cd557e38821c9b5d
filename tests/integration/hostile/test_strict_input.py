"""Strict input at every entry: every API operation that takes a JSON body, read from the API's own
schema, is sent a lone surrogate ("\\ud800", half a character no database stores) and a NUL
(PostgreSQL's text cannot hold one) in each of its texts, object keys included; a text where a
number belongs; a key given twice. Each answer is a 400 in the API's error shape, never a 500, and
nothing is written, on SQLite and on PostgreSQL. The pages' forms get the same texts (a form
posts no lone surrogate: its bytes decode to U+FFFD) and answer with their message."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest
from django.apps import apps
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from drf_spectacular.generators import SchemaGenerator

from api.fields import NUMBER_NOT_A_NUMBER
from campaign.forms import KEEP_UNREADABLE
from campaign.services.archive.export import campaign_archive
from campaign.services.archive.upload import ARCHIVE_NOT_JSON
from config.json_limits import JSON_DUPLICATE_KEY
from games.forms import ACTION_NOT_JSON
from games.models import GameSession
from games.views import REFUSED
from tests.factories import UserFactory, campaign_with_houses
from tests.integration.test_every_url import Fixture, build, fillings, valid_posts

pytestmark = [pytest.mark.database, pytest.mark.django_db]

SCHEMA = SchemaGenerator().get_schema(request=None, public=True)
LONE_SURROGATE = "Bread\ud800"
NUL = "Bread\x00taxes"
Path = tuple  # the keys and indexes from the body to one of its values


def _resolved(node: dict) -> dict:
    while "$ref" in node:
        node = SCHEMA["components"]["schemas"][node["$ref"].rsplit("/", 1)[1]]
    for combined in ("allOf", "oneOf", "anyOf"):
        if combined in node:
            return _resolved(node[combined][0])
    return node


def example(node: dict) -> Any:
    """A plain value of the schema ``node``: each property given, each list one item long."""
    node = _resolved(node)
    if "enum" in node:
        return next(v for v in node["enum"] if v is not None)
    kind = node.get("type")
    if kind == "object" or "properties" in node:
        return {name: example(child) for name, child in node.get("properties", {}).items()}
    if kind == "array":
        return [example(node.get("items", {}))] * max(node.get("minItems", 1), 1)
    if kind == "integer":
        return max(node.get("minimum", 1), 1) if node.get("maximum", 1) >= 1 else node["maximum"]
    if kind == "boolean":
        return False
    if kind == "string":
        return "2026-03-01" if node.get("format") == "date" else "Plain"
    return {}  # any JSON value (an action, a game's settings): an object


def leaves(node: dict, path: Path = ()) -> Iterator[tuple[Path, dict]]:
    """(path, schema) of every value of a body of schema ``node``, nested ones included."""
    node = _resolved(node)
    yield path, node
    for name, child in node.get("properties", {}).items():
        yield from leaves(child, (*path, name))
    if node.get("type") == "array":
        yield from leaves(node.get("items", {}), (*path, 0))


def replaced(body: Any, path: Path, value: Any) -> Any:
    if not path:
        return value
    copy = json.loads(json.dumps(body))
    target = copy
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return copy


def texts_of(node: dict) -> list[tuple[Path, Any]]:
    """Where a hostile text goes: each text, each free object's key and value."""
    places: list[tuple[Path, Any]] = []
    for path, leaf in leaves(node):
        if leaf.get("type") == "string" and "format" not in leaf:
            places.append((path, "text"))
        elif leaf.get("type") == "object" and (
            not leaf.get("properties") or leaf.get("additionalProperties") is True
        ):
            places.extend([(path, "key"), (path, "value")])
    return places


def hostile(kind: str, text: str) -> Any:
    return {"text": text, "key": {text: 1}, "value": {"type": text}}[kind]


def operations() -> list[tuple[str, dict]]:
    found = []
    for path, methods in SCHEMA["paths"].items():
        for method, operation in methods.items():
            content = operation.get("requestBody", {}).get("content", {})
            if method == "post" and "application/json" in content:
                found.append((path, content["application/json"]["schema"]))
    return found


OPERATIONS = operations()
PATHS = [path for path, _ in OPERATIONS]


def text_cases(path: str) -> list[tuple[Path, str]]:
    return texts_of(dict(OPERATIONS)[path])


def number_cases(path: str) -> list[Path]:
    return [where for where, leaf in leaves(dict(OPERATIONS)[path]) if leaf.get("type") == "integer"]


def written() -> tuple:
    """Every table's row count and every session's version: a refused call changes none."""
    counts = tuple(model._default_manager.count() for model in apps.get_models())
    return (*counts, sum(GameSession.objects.values_list("version", flat=True)))


@pytest.fixture
def fx(settings, tmp_path, django_capture_on_commit_callbacks):
    settings.MEDIA_ROOT = tmp_path
    settings.API_RATE = ""
    return Fixture(tmp_path, django_capture_on_commit_callbacks)


def url_of(fx: Fixture, path: str) -> str:
    route = re.sub(r"\{(\w+)\}", r"<x:\1>", path.lstrip("/"))
    kwargs = fillings(route, fx)
    assert kwargs is not None, f"the walk cannot fill {path}"
    return "/" + re.sub(r"\{(\w+)\}", lambda m: str(kwargs[0][m[1]]), path.lstrip("/"))


def post(fx: Fixture, path: str, raw: str, failures: list[str]) -> dict:
    """The raw JSON body to the operation as the campaign's owner (the night's host) holding seat
    0's token, so that every operation reaches its view; what is wrong with the answer goes to
    ``failures``. Answers the body of the answer."""
    client = Client()
    client.force_login(fx.owner)
    headers = {"X-Seat-Token": fx.seat(fx.night).token}
    before = written()
    response = client.post(url_of(fx, path), raw, content_type="application/json", headers=headers)
    if response.status_code != 400 or written() != before:
        failures.append(f"{path} {raw[:120]}: {response.status_code} {response.content[:200]!r}")
        return {}
    answer = response.json()
    if set(answer) != {"message", "code", "extra"}:
        failures.append(f"{path} {raw[:120]}: not the error shape: {answer}")
    return answer


HOUSE_IDS = ("house", "signer", "opened_by")


def example_of(path: str, fx: Fixture) -> Any:
    """The operation's plain body, its ids those of the walk's campaign (a House, the latest game)."""

    def filled(value: Any) -> Any:
        if isinstance(value, list):
            return [filled(item) for item in value]
        if not isinstance(value, dict):
            return value
        ids = dict.fromkeys(HOUSE_IDS, fx.houses[0].pk) | {"game": fx.game.pk}
        return {
            key: ids[key] if key in ids and isinstance(item, int) else filled(item)
            for key, item in value.items()
        } | ({"houses": [h.pk for h in fx.houses[:3]]} if "houses" in value else {})

    return filled(example(dict(OPERATIONS)[path]))


class HostileTextTests:
    @pytest.mark.parametrize("text", [LONE_SURROGATE, NUL], ids=["lone surrogate", "NUL"])
    @pytest.mark.parametrize("path", PATHS)
    def test_each_text_holding_it_is_a_400_before_any_write(self, fx, path, text):
        failures: list[str] = []
        for where, kind in text_cases(path):
            body = replaced(example_of(path, fx), where, hostile(kind, text))
            post(fx, path, json.dumps(body), failures)  # ensure_ascii: a surrogate travels as \ud800
        assert not failures, "\n".join(failures)

    def test_every_operation_with_a_body_is_walked(self):
        assert len(OPERATIONS) >= 20
        assert sum(len(text_cases(path)) for path in PATHS) > 2 * len(PATHS)


class NumbersAreNumbersTests:
    @pytest.mark.parametrize("path", [path for path in PATHS if number_cases(path)])
    def test_a_number_sent_as_text_is_a_400_naming_the_field(self, fx, path):
        failures: list[str] = []
        for where in number_cases(path):
            body = example_of(path, fx)
            number = body
            for key in where:
                number = number[key]
            answer = post(fx, path, json.dumps(replaced(body, where, str(number))), failures)
            name = [key for key in where if isinstance(key, str)][-1]
            if answer and name not in answer["message"]:  # its own refusal, not another field's
                failures.append(f"{path} {name}: {answer['message']}")
        assert not failures, "\n".join(failures)

    def test_expected_version_as_text_is_refused_with_the_reason(self, fx):
        seat = fx.seat(fx.night)
        body = {"action": {"type": "pass"}, "expected_version": str(fx.night.version)}
        before = written()
        response = Client().post(
            f"/api/sessions/{fx.night.pk}/seats/{seat.index}/actions/submit/",
            body,
            content_type="application/json",
            headers={"X-Seat-Token": seat.token},
        )
        assert response.status_code == 400
        assert response.json()["message"] == f"expected_version: {NUMBER_NOT_A_NUMBER}"
        assert written() == before


class DuplicatedKeyTests:
    @pytest.mark.parametrize("path", PATHS)
    def test_a_key_given_twice_is_a_400(self, fx, path):
        body = example_of(path, fx)
        key, value = next(iter(body.items()))
        raw = json.dumps(body)[:-1] + f", {json.dumps(key)}: {json.dumps(value)}}}"
        failures: list[str] = []
        answer = post(fx, path, raw, failures)
        assert not failures, failures
        assert JSON_DUPLICATE_KEY.format(key=json.dumps(key)) in answer["message"]


# The routes of the pages' forms the walk has a valid body for (their ids filled by the walk).
_IDS = SimpleNamespace(houses=[SimpleNamespace(pk=1)], stranger=SimpleNamespace(username="x"))
PAGE_FORMS = [route for route in valid_posts(_IDS) if not route.startswith("api/")]  # type: ignore[arg-type]


class PageTests:
    """What the pages take: each text of a form, the phone's action (JSON in a form field)."""

    @pytest.mark.parametrize("route", PAGE_FORMS)
    def test_a_nul_in_a_forms_text_is_refused_with_a_message(self, fx, route):
        client = Client()
        client.force_login(fx.owner)
        url = build(route, fillings(route, fx)[0])
        body = valid_posts(fx)[route]
        for name, value in body.items():
            if not isinstance(value, str) or value in ("on", "0", "1"):  # a checkbox holds no text
                continue
            before = written()
            response = client.post(url, {**body, name: NUL})
            assert response.status_code in (200, 400), (route, name, response.status_code)
            assert written() == before, f"{route} wrote a NUL in {name}"

    @pytest.mark.parametrize(
        "action",
        ['{"type": "pass", "type": "vote"}', '{"type": "Bread\\ud800"}', '{"Bread\\ud800": 1}'],
        ids=["key twice", "lone surrogate", "lone surrogate in a key"],
    )
    def test_the_phone_page_refuses_a_duplicated_key_and_a_lone_surrogate(self, fx, action):
        seat = fx.seat(fx.night)
        before = written()
        response = Client().post(
            f"/play/seat/{seat.token}/",
            {"action": action, "version": fx.night.version, "key": "k1"},
            headers={"HX-Request": "true"},
        )
        assert response.status_code == REFUSED
        assert str(ACTION_NOT_JSON) in response.content.decode()
        assert written() == before

    def test_an_archive_giving_a_key_twice_is_refused_on_the_page_and_the_api(self, fx):
        archive = json.dumps(campaign_archive(campaign=fx.campaign))
        twice = archive.replace('"name": ', '"name": "Twice", "name": ', 1)
        client = Client()
        client.force_login(fx.owner)
        before = written()
        page = client.post("/campaigns/import/", {"archive": SimpleUploadedFile("a.json", twice.encode())})
        assert page.status_code == 400 and str(ARCHIVE_NOT_JSON) in page.content.decode()
        api = client.post("/api/campaigns/import/", {"archive": SimpleUploadedFile("a.json", twice.encode())})
        assert api.status_code == 400 and str(ARCHIVE_NOT_JSON) in api.json()["message"]
        assert written() == before


class NightStartPageTests:
    """The night's start page posts each Open Agenda choice as keep-<House id>-<polarity>."""

    @pytest.mark.parametrize("key", ["keep-abc-positive", "keep-1", "keep-\uff11-positive"])
    def test_a_choice_the_page_never_posts_is_refused_with_a_message(self, key):
        owner = UserFactory()
        campaign, houses = campaign_with_houses("Valentine", "Martina", "Armin", user=owner)
        client = Client()
        client.force_login(owner)
        seats = {f"seat{i}": house.pk for i, house in enumerate(houses)}
        before = written()
        response = client.post(
            f"/campaigns/{campaign.pk}/night/new/", {"king_name": "Harald V", **seats, key: "wealth"}
        )
        assert response.status_code == 400
        assert str(KEEP_UNREADABLE) in html.unescape(response.content.decode())
        assert written() == before
