"""The declared types become OpenAPI components once (api/view_schema.py), and values are checked
against a declared type (games.engines.kernel.contract.check_value: a session's settings)."""

from __future__ import annotations

from typing import Annotated, Literal, NotRequired, TypedDict

import jsonschema
import pytest

from api.view_schema import NAME_TWICE, PAYMENT_FALLBACK, Components, _payment_schema, json_schema
from games.engines.kernel.contract import check_result, check_value, result_type_for
from games.engines.kernel.registry import games


class Token(TypedDict):
    """A token on the board."""

    row: Literal["wealth", "morale"]
    spaces: list[int]


class Board(TypedDict):
    tokens: dict[str, Token]
    top: Token | None
    moves: list[list[str | int]]
    note: NotRequired[Annotated[str, "What the host typed."]]


class Settings(TypedDict, total=False):
    king_name: str
    leader: int | None
    seats: list[Token]


def another_token() -> type:
    class Token(TypedDict):  # another type of the same name
        x: int

    return Token


def board_schema() -> dict:
    components = Components()
    components.ref(Board, "Tiny")
    return components.schemas


class ComponentsTests:
    def test_each_typed_dict_is_one_component_named_after_it_with_the_game_s_prefix(self):
        schemas = board_schema()
        assert set(schemas) == {"TinyBoard", "TinyToken"}
        token = schemas["TinyToken"]
        assert token["description"] == "A token on the board."
        assert token["properties"]["row"] == {"type": "string", "enum": ["wealth", "morale"]}
        assert token["required"] == ["row", "spaces"] and token["additionalProperties"] is False

    def test_nested_nullable_union_dict_and_not_required_fields(self):
        board = board_schema()["TinyBoard"]
        assert board["properties"]["tokens"] == {
            "type": "object",
            "additionalProperties": {"$ref": "#/components/schemas/TinyToken"},
        }
        assert board["properties"]["top"] == {
            "allOf": [{"$ref": "#/components/schemas/TinyToken"}],
            "nullable": True,
        }
        assert board["properties"]["moves"]["items"]["items"] == {
            "oneOf": [{"type": "string"}, {"type": "integer"}]
        }
        assert board["properties"]["note"] == {"type": "string", "description": "What the host typed."}
        assert board["required"] == ["tokens", "top", "moves"]

    def test_two_types_of_one_name_are_refused(self):
        components = Components()
        components.ref(Token, "Tiny")
        with pytest.raises(ValueError, match=NAME_TWICE.format(name="TinyToken")):
            components.ref(another_token(), "Tiny")

    def test_a_component_as_json_schema_validates_what_it_declares(self):
        validator = jsonschema.Draft202012Validator(json_schema(board_schema(), "TinyBoard"))
        good = {"tokens": {"a": {"row": "wealth", "spaces": [1]}}, "top": None, "moves": [["wealth", -2]]}
        assert validator.is_valid(good)
        assert not validator.is_valid({**good, "top": {"row": "welfare", "spaces": []}})
        assert not validator.is_valid({**good, "extra": 1})
        assert not validator.is_valid({"tokens": {}, "moves": []})


class CheckValueTests:
    def test_declared_settings_fit(self):
        assert check_value(Settings, {}) == []
        assert check_value(Settings, {"king_name": "Harald", "leader": None, "seats": []}) == []

    def test_what_does_not_fit_is_named_where_it_is(self):
        wrong = {"kings_name": "x", "leader": True, "seats": [{"row": "wealth", "spaces": ["1"]}]}
        assert check_value(Settings, wrong, "config") == [
            "config.kings_name: not declared",
            "config.leader: not of the declared type",
            "config.seats[0].spaces[0]: not of the declared type",
        ]
        assert check_value(Settings, [], "config") == ["config: not an object"]
        assert check_value(Token, {"row": "gold", "spaces": []}) == ["row: not one of ['wealth', 'morale']"]


class ResultTypeTests:
    def test_every_game_declares_its_result_and_a_wrong_result_is_reported(self):
        for rules in games():
            declared = result_type_for(rules)
            assert declared is not None, rules.slug
            assert check_result(rules, None) == []
            assert "result.surprise: not declared" in check_result(rules, {"surprise": 1})


class PaymentTests:
    def test_the_payment_component_is_the_shared_decision_s_from_the_kernel_once_it_declares_it(self):
        """Shared decision 1: ``{"cards": [...], "coins": n, "label": "..."}``, from the kernel's
        ``Payment`` TypedDict when it exists, else written from the decision."""
        components = Components()
        assert _payment_schema(components) == {"$ref": "#/components/schemas/Payment"}
        payment = components.schemas["Payment"]
        assert payment["properties"] == PAYMENT_FALLBACK["properties"]
        assert payment["required"] == ["cards", "coins", "label"] and payment["additionalProperties"] is False
