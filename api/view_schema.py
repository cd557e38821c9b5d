"""The engines' declared types as OpenAPI components, written once: the API's typed contract.

Each engine declares its views, result, settings and typed entries as TypedDicts
(games.engines.kernel.contract); :class:`Components` turns each into one component named after it
(prefixed by the game's name where the TypedDict's own name does not start with it:
``Outcome`` of The King's Dilemma is ``KingsDilemmaOutcome``). :func:`typed_contract_hook`, a
drf-spectacular postprocessing hook, publishes them:

- ``View`` (a seat's or the table's answer) becomes a ``oneOf`` discriminated by ``game``: one
  ``<Game>SessionView`` per game, whose ``view`` is its seat view or its table view (a closed seat
  is answered the table's) and whose ``result`` is its result or null;
- ``Param`` becomes a ``oneOf`` discriminated by ``kind`` (``ParamAmount``, ``ParamPick``...), the
  options' items typed (``PickOption``: a number, a word, or an object an engine offers; ``Payment``);
- every typed entry (``typed`` parameters name them) and every game's settings are components, the
  typed entries with an example.

:func:`json_schema` turns a component into a self-contained JSON Schema (the games list answers one
per game's settings; the tests validate the engines' answers with it).
"""

from __future__ import annotations

import copy
import re
import types
import typing
from typing import Any, Union, get_args, get_origin, get_type_hints, is_typeddict

from games.engines.kernel import choices, contract
from games.engines.kernel.registry import games

REF = "#/components/schemas/"
KERNEL = "games.engines.kernel"
SCALARS = {int: "integer", str: "string", bool: "boolean", float: "number"}
NAME_TWICE = "Two declared types would both be the component {name!r}."

# The kernel's payment option (a way to pay: its cards, their cost), written here until the
# kernel declares it as a TypedDict: then it is read from games.engines.kernel.choices.Payment.
PAYMENT_FALLBACK: dict[str, Any] = {
    "type": "object",
    "description": "One way to pay: the cards to give, the Coins this costs in total, words for a button.",
    "properties": {
        "cards": {"type": "array", "items": {"oneOf": [{"type": "string"}, {"type": "integer"}]}},
        "coins": {"type": "integer"},
        "label": {"type": "string"},
    },
    "required": ["cards", "coins", "label"],
    "additionalProperties": False,
}


def game_prefix(slug: str) -> str:
    return "".join(part.capitalize() for part in slug.split("_"))


def _doc(declared: type) -> str:
    doc = declared.__dict__.get("__doc__") or ""
    return re.sub(r"\s+", " ", doc).strip()


class Components:
    """OpenAPI schemas of declared types, each TypedDict once, as a component named after it."""

    def __init__(self) -> None:
        self.schemas: dict[str, dict[str, Any]] = {}
        self.names: dict[type, str] = {}

    def name_for(self, declared: type, prefix: str) -> str:
        name = declared.__name__
        if declared.__module__.startswith(KERNEL) or name.startswith(prefix):
            return name
        return prefix + name

    def ref(self, declared: type, prefix: str) -> dict[str, Any]:
        if declared not in self.names:
            name = self.name_for(declared, prefix)
            if name in self.schemas:
                raise ValueError(NAME_TWICE.format(name=name))
            self.names[declared] = name
            self.schemas[name] = {}  # taken before its fields, which may name it again
            self.schemas[name] = self._object(declared, prefix)
        return {"$ref": REF + self.names[declared]}

    def _object(self, declared: type, prefix: str) -> dict[str, Any]:
        hints = get_type_hints(declared, include_extras=True)
        required = contract.required_keys(declared)
        schema: dict[str, Any] = {"type": "object"}
        if _doc(declared):
            schema["description"] = _doc(declared)
        schema["properties"] = {key: self.schema_of(hint, prefix) for key, hint in hints.items()}
        needed = [key for key in hints if key in required]
        if needed:
            schema["required"] = needed
        schema["additionalProperties"] = False
        return schema

    def schema_of(self, hint: Any, prefix: str) -> dict[str, Any]:
        origin = get_origin(hint)
        if origin in (typing.NotRequired, typing.Required):
            return self.schema_of(get_args(hint)[0], prefix)
        if origin is typing.Annotated:
            inner, words = get_args(hint)[0], get_args(hint)[1]
            return {**self.schema_of(inner, prefix), "description": str(words)}
        if origin in (Union, types.UnionType):
            return self._union(get_args(hint), prefix)
        if origin is typing.Literal:
            allowed = list(get_args(hint))
            return {"type": SCALARS[type(allowed[0])], "enum": allowed}
        if is_typeddict(hint):
            return self.ref(hint, prefix)
        if origin is list or hint is list:
            items = get_args(hint)
            return {"type": "array", "items": self.schema_of(items[0], prefix) if items else {}}
        if origin is dict or hint is dict:
            values = get_args(hint)
            return {
                "type": "object",
                "additionalProperties": self.schema_of(values[1], prefix) if values else {},
            }
        if hint in SCALARS:
            return {"type": SCALARS[hint]}
        return {}  # Any

    def _union(self, args: tuple[Any, ...], prefix: str) -> dict[str, Any]:
        kept = [a for a in args if a is not type(None)]
        schemas = [self.schema_of(a, prefix) for a in kept]
        schema = schemas[0] if len(schemas) == 1 else {"oneOf": schemas}
        if len(kept) == len(args):
            return schema
        if "$ref" in schema:
            return {"allOf": [schema], "nullable": True}
        return {**schema, "nullable": True}


# ---- The hook ----------------------------------------------------------------------------------


def _session_view(base: dict[str, Any], slug: str, names: dict[str, dict], name: str) -> dict[str, Any]:
    properties = copy.deepcopy(base["properties"])
    properties["game"] = {"type": "string", "enum": [slug], "description": "The game's slug."}
    properties["view"] = {
        "oneOf": [names["seat"], names["table"]],
        "description": "The engine's view: a seat's (its private part under private) or the table's "
        "(GET .../table/, and a seat's once the session is over).",
    }
    result = names.get("result")
    properties["result"] = (
        {"allOf": [result], "nullable": True, "description": "The game's result once it is over."}
        if result
        else {"nullable": True, "description": "The game's result once it is over."}
    )
    return {
        "type": "object",
        "description": f"What one seat (or the table) may see of a session of {name}.",
        "properties": properties,
        "required": list(base.get("required", [])),
    }


def _game_components(components: Components, rules: Any) -> dict[str, dict]:
    prefix = game_prefix(rules.slug)
    names = {
        "seat": components.ref(rules.seat_view_type, prefix),
        "table": components.ref(rules.table_view_type, prefix),
    }
    result = contract.result_type_for(rules)
    if result is not None:
        names["result"] = components.ref(result, prefix)
    settings = contract.settings_type_for(rules)
    if settings is not None:
        names["settings"] = components.ref(settings, prefix)
    for entry, declared in contract.typed_params_for(rules).items():
        ref = components.ref(declared, prefix)
        example = contract.typed_examples_for(rules).get(entry)
        if example is not None:
            components.schemas[ref["$ref"].removeprefix(REF)]["example"] = example
    return names


def _settings(schemas: dict[str, dict], refs: list[dict]) -> None:
    """A session's ``config`` is one of the games' settings (the one of its ``game``: the API
    refuses another's, a rule across two fields)."""
    create = schemas.get("SessionCreateRequest")
    if create is not None and refs:
        words = create["properties"]["config"].get("description", "")
        create["properties"]["config"] = {"anyOf": refs, "description": words}


def _views(schemas: dict[str, dict], components: Components) -> None:
    base = schemas["View"]
    variants = {}
    settings = []
    for rules in games():
        names = _game_components(components, rules)
        if "settings" in names:
            settings.append(names["settings"])
        name = f"{game_prefix(rules.slug)}SessionView"
        components.schemas[name] = _session_view(base, rules.slug, names, rules.name)
        variants[rules.slug] = {"$ref": REF + name}
    _settings(schemas, settings)
    schemas["View"] = {
        "oneOf": list(variants.values()),
        "discriminator": {
            "propertyName": "game",
            "mapping": {slug: ref["$ref"] for slug, ref in variants.items()},
        },
        "description": base.get("description", ""),
    }


def _payment_schema(components: Components) -> dict[str, Any]:
    declared = getattr(choices, "Payment", None)
    if declared is not None and is_typeddict(declared):
        return components.ref(declared, "")
    components.schemas["Payment"] = copy.deepcopy(PAYMENT_FALLBACK)
    return {"$ref": REF + "Payment"}


def _pick_option(components: Components) -> dict[str, Any]:
    objects = [
        components.schema_of(hint, game_prefix(rules.slug))
        for rules in games()
        for hint in contract.param_options_for(rules)
    ]
    components.schemas["PickOption"] = {
        "description": "One option of a pick: a number (a seat's index, an amount), a word (a side, a "
        "card's id, an area, a city's letter) or an object a game declares (its PARAM_OPTIONS).",
        "oneOf": [{"type": "integer"}, {"type": "string"}, *objects],
    }
    return {"$ref": REF + "PickOption"}


PARAM_WORDS = {
    "amount": "A whole number from min to max (without 0 when nonzero is true).",
    "pick": "One of options.",
    "cards": "min to max distinct options (card ids, city letters).",
    "text": "At most max_length characters (not blank).",
    "flag": "true or false.",
    "typed": "What the table types from a physical card, validated by the engine: schema names its "
    "component ({entries}).",
    "payment": "One of options, each a way to pay: submit its cards list.",
}


# Bounds a kind may leave out (the kernel's Param: NotRequired beyond what each kind always has).
OPTIONAL_BOUNDS = {"amount": {"nonzero": {"type": "boolean", "description": "true: 0 is not offered."}}}


def _param_variant(kind: str, fields: dict[str, dict], entries: str) -> dict[str, Any]:
    return {
        "type": "object",
        "description": PARAM_WORDS[kind].format(entries=entries),
        "properties": {"kind": {"type": "string", "enum": [kind]}, **fields, **OPTIONAL_BOUNDS.get(kind, {})},
        "required": ["kind", *fields],
        "additionalProperties": False,
    }


def _params(schemas: dict[str, dict], components: Components) -> None:
    integer = {"type": "integer"}
    pick = _pick_option(components)
    typed = {
        entry: components.ref(declared, game_prefix(rules.slug))["$ref"].removeprefix(REF)
        for rules in games()
        for entry, declared in contract.typed_params_for(rules).items()
    }
    entries = sorted(typed)
    fields: dict[str, dict[str, dict]] = {
        "amount": {"min": integer, "max": integer},
        "pick": {"options": {"type": "array", "items": pick}},
        "cards": {
            "options": {"type": "array", "items": {"oneOf": [integer, {"type": "string"}]}},
            "min": integer,
            "max": integer,
        },
        "text": {"max_length": integer},
        "flag": {},
        "typed": {"schema": {"type": "string", "enum": entries} if entries else {"type": "string"}},
        "payment": {"options": {"type": "array", "items": _payment_schema(components)}},
    }
    variants = {}
    for kind, declared in fields.items():
        name = f"Param{kind.capitalize()}"
        words = ", ".join(f"{entry}: {typed[entry]}" for entry in entries)
        components.schemas[name] = _param_variant(kind, declared, words)
        variants[kind] = REF + name
    schemas["Param"] = {
        "oneOf": [{"$ref": ref} for ref in variants.values()],
        "discriminator": {"propertyName": "kind", "mapping": variants},
        "description": "One parameter of a choice and its bounds, by kind.",
    }


def _drop_unused(result: dict[str, Any], names: list[str]) -> None:
    text = repr(result)
    for name in names:
        if f"'{REF}{name}'" not in text:
            result["components"]["schemas"].pop(name, None)


def typed_contract_hook(result: dict, generator: Any, request: Any, public: bool) -> dict:
    """drf-spectacular postprocessing: the typed views, parameters, entries and settings."""
    schemas = result["components"]["schemas"]
    components = Components()
    if "View" in schemas:
        _views(schemas, components)
    if "Param" in schemas:
        _params(schemas, components)
    for name, schema in components.schemas.items():
        if name in schemas:
            raise ValueError(NAME_TWICE.format(name=name))
        schemas[name] = schema
    _drop_unused(result, ["KindEnum"])
    result["components"]["schemas"] = dict(sorted(schemas.items()))
    return result


# ---- Self-contained JSON Schemas -------------------------------------------------------------


def _converted(node: Any, used: set[str]) -> Any:
    if isinstance(node, list):
        return [_converted(item, used) for item in node]
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key == "$ref":
            used.add(value.removeprefix(REF))
            out[key] = "#/$defs/" + value.removeprefix(REF)
        elif key in ("properties", "mapping"):
            out[key] = {k: _converted(v, used) for k, v in value.items()} if key == "properties" else value
        elif key == "example":
            out["examples"] = [value]
        elif key not in ("nullable", "discriminator"):
            out[key] = _converted(value, used)
    if node.get("nullable"):
        return {"anyOf": [out, {"type": "null"}]}
    return out


def json_schema(schemas: dict[str, dict], name: str) -> dict[str, Any]:
    """Component ``name`` and every component it reaches, as one JSON Schema (2020-12)."""
    used: set[str] = set()
    root = _converted(schemas[name], used)
    defs: dict[str, Any] = {}
    while used - set(defs):
        for ref in sorted(used - set(defs)):
            defs[ref] = _converted(schemas[ref], used)
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", **root, "$defs": defs}


def settings_schema(rules: Any) -> dict[str, Any]:
    """The JSON Schema of a game's settings (its session's ``config``): any object when it declares none."""
    declared = contract.settings_type_for(rules)
    if declared is None:
        return {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object"}
    components = Components()
    name = components.ref(declared, game_prefix(rules.slug))["$ref"].removeprefix(REF)
    return json_schema(components.schemas, name)
