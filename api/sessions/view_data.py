"""The answers of every tap, built without DRF's field machinery.

A seat view is read on every tap and carried by every submit's answer. The serializers
(api/sessions/serializers.py) declare these answers (the OpenAPI schema, through extend_schema); the
functions here build the same data as ``ViewSerializer(view).data`` and
``SubmitOutputSerializer(...).data``, keys in the declared order, without instantiating and
deep-copying a tree of fields for each request (tests/integration/api/test_view_data.py compares the
two on every game)."""

from collections.abc import Callable
from typing import Any, get_args, get_origin

from api.sessions.serializers import SESSION_VIEW_FIELDS, ParamSerializer, unwrapped
from games.engines.kernel.choices import Choice
from games.engines.kernel.messages import Message
from games.models import SessionAction
from games.selectors import SessionView
from games.translation import say_stored, say_to_reader

PARAM_KEYS = tuple(ParamSerializer._declared_fields)  # kind, min, max, options, max_length, schema, nonzero
PARAM_INTEGERS = frozenset({"min", "max", "max_length"})


def _int(value: Any) -> int | None:
    return None if value is None else int(value)


def _param_data(param: dict) -> dict:
    data = {}
    for key in PARAM_KEYS:
        if key in param:
            value = param[key]
            if value is not None:
                if key in PARAM_INTEGERS:
                    value = int(value)
                elif key == "options":
                    value = _said(list(value))  # a payment's words, in the reader's language
                elif key == "nonzero":
                    value = bool(value)
                else:
                    value = str(value)
            data[key] = value
    return data


def _choice_data(choice: dict) -> dict:
    data = {
        "type": _str(choice["type"]),
        "seat": _int(choice["seat"]),
        "params": {
            str(name): None if param is None else _param_data(param)
            for name, param in choice["params"].items()
        },
    }
    if "title" in choice:  # as the serializer: fields not required, left out when absent
        data["title"] = _str(choice["title"])
    if "open" in choice:
        data["open"] = _bool(choice["open"])
    return data


def _str(value: Any) -> str | None:
    """Text as the serializer writes it; an engine's message in the reader's language."""
    return None if value is None else say_to_reader(value)


# Values a view holds that are never an engine's message (a Message is a str subclass, never a str).
PLAIN = frozenset({str, int, float, bool, type(None)})


def _said(value: Any) -> Any:
    """An engine's view or result with each message in it said in the reader's language (a news
    line, a title). Nothing is copied where nothing is said: the same object comes back."""
    kind = type(value)
    if kind is dict:
        changed = {k: said for k, v in value.items() if type(v) not in PLAIN and (said := _said(v)) is not v}
        return {**value, **changed} if changed else value
    if kind is list:
        items = [item if type(item) in PLAIN else _said(item) for item in value]
        return items if any(a is not b for a, b in zip(items, value, strict=True)) else value
    if isinstance(value, Message):
        return say_to_reader(value)
    return value


def _reader(hint: Any) -> Callable[[Any], Any]:
    """How ``view_data`` reads a declared field, as its serializer field would."""
    kind, _, _ = unwrapped(hint)
    origin = get_origin(kind) or kind
    if origin is list:
        (item,) = get_args(kind)
        read = _choice_data if item is Choice else _reader(item)
        return lambda values: [read(value) for value in values]
    if origin is dict:
        return _said
    scalars: dict[Any, Callable[[Any], Any]] = {int: _int, str: _str, bool: _bool}
    return scalars[kind]


def _bool(value: Any) -> bool | None:
    return None if value is None else bool(value)


VIEW_READERS = {name: _reader(hint) for name, hint in SESSION_VIEW_FIELDS.items()}


def view_data(view: SessionView) -> dict:
    """``ViewSerializer(view).data``, cheaply."""
    return {name: read(view[name]) for name, read in VIEW_READERS.items()}  # type: ignore[literal-required]  # the declared names


def submit_data(logged: SessionAction, view: SessionView) -> dict:
    """``SubmitOutputSerializer({"action": logged, "view": view}).data``, cheaply."""
    action = {
        "seq": _int(logged.seq),
        "version": _int(logged.version),
        "seat": _int(logged.seat),
        "label": say_stored(logged.label_data, english=logged.label),
    }
    return {"action": action, "view": view_data(view)}
