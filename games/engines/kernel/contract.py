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


def declared_keys(view_type: type) -> frozenset[str]:
    return frozenset(get_type_hints(view_type)) if is_typeddict(view_type) else frozenset()


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


def _check(view_type: type, value: Any, where: str) -> list[str]:
    if not isinstance(value, dict):
        return [f"{where or 'the view'} is not an object"]
    wrong = [f"{where}{key}: missing" for key in sorted(required_keys(view_type) - set(value))]
    wrong += [f"{where}{key}: not declared" for key in sorted(set(value) - declared_keys(view_type))]
    hints = get_type_hints(view_type)
    for key in sorted(set(value) & declared_keys(view_type)):
        inner = value[key]
        nested = _typeddicts_in(hints[key])
        if nested and isinstance(inner, dict):
            wrong += _check(nested[0], inner, f"{where}{key}.")
        items = _item_typeddicts(hints[key])
        if items and isinstance(inner, list):
            for index, item in enumerate(inner):
                wrong += _check(items[0], item, f"{where}{key}[{index}].")
    return wrong


def check_view(view_type: type, view: dict[str, Any]) -> list[str]:
    """What breaks the declared shape in ``view``, nested TypedDicts (and lists of them) included:
    ``"key: missing"`` or ``"seats[0].hand: not declared"``. Empty: the view honours the contract."""
    return _check(view_type, view, "")


def view_type_for(rules: Any, seat: int | None) -> type:
    """The declared shape of a view: the table's or a seat's."""
    return typing.cast(type, rules.table_view_type if seat is None else rules.seat_view_type)
