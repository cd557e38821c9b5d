"""The view contract between the engines and the pages (docs/architecture.md section 3).

Every engine's ``view(state, seat)`` returns one of two declared shapes, TypedDicts of its
``player_view.py`` named by its rules: ``table_view_type`` for the table (``seat`` None) and
``seat_view_type`` for a seat, which adds ``private`` (what only that seat sees: declared by the
game's seat view alone, so a table view holding it breaks the contract). Both subclass
:class:`BaseView`: ``phase``, ``to_act`` (who must act now: seat indexes, ``None`` for the table; empty
when the game is over), ``seats`` and ``you`` (the viewing seat's index, ``None`` for the table), with
the same meaning in every game. ``check_view`` compares a view with its declaration key by key, nested
TypedDicts included: a key missing or a key never declared is a broken contract.
"""

import functools
import importlib
import types
import typing
from typing import Any, TypedDict, Union, get_args, get_origin, get_type_hints, is_typeddict


class BaseView(TypedDict):
    phase: str
    to_act: list[int | None]
    seats: list[Any]
    you: int | None


def _is_optional(view_type: type, key: str, hint: Any) -> bool:
    """``NotRequired[...]`` read from the resolved hint, so a module written with ``from __future__
    import annotations`` (whose TypedDicts get their required keys wrong) is read right too."""
    origin = get_origin(hint)
    if origin is typing.NotRequired:
        return True
    if origin is typing.Required:
        return False
    owner = next((t for t in view_type.__mro__ if key in getattr(t, "__annotations__", {})), view_type)
    return not getattr(owner, "__total__", True)


# A declared type never changes once its module is imported: its hints are read once per type (a test
# run checks hundreds of thousands of views), and callers never change what these return.


@functools.cache
def hints_of(view_type: type) -> dict[str, Any]:
    """``get_type_hints`` of a declared type, read once."""
    return get_type_hints(view_type)


@functools.cache
def declared_keys(view_type: type) -> frozenset[str]:
    return frozenset(hints_of(view_type)) if is_typeddict(view_type) else frozenset()


@functools.cache
def required_keys(view_type: type) -> frozenset[str]:
    if not is_typeddict(view_type):
        return frozenset()
    hints = get_type_hints(view_type, include_extras=True)
    return frozenset(key for key, hint in hints.items() if not _is_optional(view_type, key, hint))


def _typeddicts_in(annotation: Any) -> list[type]:
    """The TypedDicts an annotation allows for a value (``X``, ``X | None``, ``NotRequired[X]``)."""
    if is_typeddict(annotation):
        return [annotation]
    origin = get_origin(annotation)
    if origin in (Union, types.UnionType, typing.NotRequired, typing.Required):
        return [t for arg in get_args(annotation) for t in _typeddicts_in(arg)]
    return []


def _item_typeddicts(annotation: Any) -> list[type]:
    """The TypedDicts of the items of a ``list[X]`` (or ``list[X] | None``) annotation."""
    origin = get_origin(annotation)
    if origin is list:
        return [t for arg in get_args(annotation) for t in _typeddicts_in(arg)]
    if origin in (Union, types.UnionType, typing.NotRequired, typing.Required):
        return [t for arg in get_args(annotation) for t in _item_typeddicts(arg)]
    return []


@functools.cache
def _inner_types(view_type: type) -> tuple[tuple[str, type | None, type | None], ...]:
    """The keys of a declared type whose values are declared too, in key order: each with the
    TypedDict its value may be and the TypedDict of its items when it is a list."""
    inner = []
    for key, hint in sorted(hints_of(view_type).items()):
        nested, items = _typeddicts_in(hint), _item_typeddicts(hint)
        if nested or items:
            inner.append((key, nested[0] if nested else None, items[0] if items else None))
    return tuple(inner)


def _check(view_type: type, value: Any, where: str) -> list[str]:
    if not isinstance(value, dict):
        return [f"{where or 'the view'} is not an object"]
    keys = value.keys()
    required, declared = required_keys(view_type), declared_keys(view_type)
    wrong = [f"{where}{key}: missing" for key in sorted(required - keys)] if not required <= keys else []
    if not keys <= declared:
        wrong += [f"{where}{key}: not declared" for key in sorted(keys - declared)]
    for key, nested, items in _inner_types(view_type):
        inner = value.get(key)
        if nested is not None and isinstance(inner, dict):
            wrong += _check(nested, inner, f"{where}{key}.")
        if items is not None and isinstance(inner, list):
            for index, item in enumerate(inner):
                wrong += _check(items, item, f"{where}{key}[{index}].")
    return wrong


def check_view(view_type: type, view: dict[str, Any]) -> list[str]:
    """What breaks the declared shape in ``view``, nested TypedDicts (and lists of them) included:
    ``"key: missing"`` or ``"seats[0].hand: not declared"``. Empty: the view honours the contract."""
    return _check(view_type, view, "")


def view_type_for(rules: Any, seat: int | None) -> type:
    """The declared shape of a view: the table's or a seat's."""
    return typing.cast(type, rules.table_view_type if seat is None else rules.seat_view_type)


# ---- What else an engine declares: its result, its settings, its typed entries ------------------
# Beside its views, an engine declares (TypedDicts, in its own modules, found by convention so a new
# game edits nothing here): the result, as the ``result`` key of its table view; its settings (the
# session's ``config``), as ``SETTINGS`` in its ``setup.py``; what its ``typed`` parameters take, as
# ``TYPED_PARAMS`` (schema name -> TypedDict) and ``TYPED_EXAMPLES`` (schema name -> one value) in its
# ``player_view.py``, with ``PARAM_OPTIONS``: the types of the objects its ``pick`` options hold.


def result_type_for(rules: Any) -> type | None:
    """The declared shape of a game's result: the TypedDict of its table view's ``result`` key."""
    hint = hints_of(rules.table_view_type).get("result")
    found = _typeddicts_in(hint) if hint is not None else []
    return found[0] if found else None


def check_result(rules: Any, result: Any) -> list[str]:
    """What breaks the declared shape of a game's result (``None``: no result yet, nothing to say)."""
    declared = result_type_for(rules)
    if result is None or declared is None:
        return []
    return _check(declared, result, "result.")


def _engine_module(rules: Any, name: str) -> Any:
    package = type(rules).__module__.rpartition(".")[0]
    try:
        return importlib.import_module(f"{package}.{name}")
    except ImportError:
        return None


def settings_type_for(rules: Any) -> type | None:
    """The declared settings of a game (its ``setup.py`` ``SETTINGS``), None when it declares none."""
    declared = rules.settings_type or getattr(_engine_module(rules, "setup"), "SETTINGS", None)
    return typing.cast(type | None, declared)


def _view_module(rules: Any) -> Any:
    return importlib.import_module(rules.table_view_type.__module__)


def typed_params_for(rules: Any) -> dict[str, type]:
    return dict(getattr(_view_module(rules), "TYPED_PARAMS", {}))


def typed_examples_for(rules: Any) -> dict[str, Any]:
    return dict(getattr(_view_module(rules), "TYPED_EXAMPLES", {}))


def param_options_for(rules: Any) -> list[Any]:
    return list(getattr(_view_module(rules), "PARAM_OPTIONS", ()))


# ---- Values against a declared type (settings a client sends) ------------------------------------

SCALARS: dict[Any, tuple[type, ...]] = {int: (int,), str: (str,), bool: (bool,), float: (int, float)}


def _fits_scalar(hint: Any, value: Any) -> bool:
    if hint is Any:
        return True
    if hint is type(None) or hint is None:
        return value is None
    if hint in (int, float) and isinstance(value, bool):
        return False
    return isinstance(value, SCALARS.get(hint, (object,)))


def _union_wrong(args: tuple[Any, ...], value: Any, where: str) -> list[str]:
    for arg in args:
        wrong = check_value(arg, value, where)
        if not wrong:
            return []
    return [f"{where or 'the value'}: not of the declared type"]


def _container_wrong(origin: Any, hint: Any, value: Any, where: str) -> list[str] | None:
    if origin is list:
        if not isinstance(value, list):
            return [f"{where}: not a list"]
        (item,) = get_args(hint)
        return [w for i, v in enumerate(value) for w in check_value(item, v, f"{where}[{i}]")]
    if origin is dict:
        if not isinstance(value, dict):
            return [f"{where}: not an object"]
        _, item = get_args(hint)
        return [w for k, v in value.items() for w in check_value(item, v, f"{where}.{k}")]
    return None


def check_value(hint: Any, value: Any, where: str = "") -> list[str]:
    """What in ``value`` breaks the declared type ``hint`` (TypedDicts with their required and
    undeclared keys, lists, ``dict[str, X]``, unions, Literals, scalars): ``"seats[0].power: not of
    the declared type"``. Empty: it fits."""
    origin = get_origin(hint)
    if origin in (typing.NotRequired, typing.Required, typing.Annotated):
        return check_value(get_args(hint)[0], value, where)
    if origin in (Union, types.UnionType):
        return _union_wrong(get_args(hint), value, where)
    if origin is typing.Literal:
        return [] if value in get_args(hint) else [f"{where}: not one of {list(get_args(hint))}"]
    if is_typeddict(hint):
        return _typeddict_wrong(hint, value, where)
    contained = _container_wrong(origin, hint, value, where)
    if contained is not None:
        return contained
    return [] if _fits_scalar(hint, value) else [f"{where or 'the value'}: not of the declared type"]


def _typeddict_wrong(declared: type, value: Any, where: str) -> list[str]:
    if not isinstance(value, dict):
        return [f"{where or 'the value'}: not an object"]
    prefix = f"{where}." if where else ""
    wrong = [f"{prefix}{key}: missing" for key in sorted(required_keys(declared) - set(value))]
    wrong += [f"{prefix}{key}: not declared" for key in sorted(set(value) - declared_keys(declared), key=str)]
    hints = hints_of(declared)
    for key in sorted(set(value) & declared_keys(declared)):
        wrong += check_value(hints[key], value[key], f"{prefix}{key}")
    return wrong
