"""What the API's JSON parser, the pages' JSON fields and the campaign archive reader share: one strict
decoder (numbers JSON can carry, each key once in an object, nothing Python alone would accept) and how deep a decoded value nests
(hostile input must not set the cost of a request)."""

import json
import math

from django.utils.translation import gettext_lazy

JSON_NOT_A_NUMBER = gettext_lazy("{name} is not a JSON number")
# What a stored JSON value (an action's payload, a card's typed data) may hold so that the campaign
# archive carries it and its import takes it again: both read these (campaign/services/archive/value_checks.py).
STORED_JSON_MAX_DEPTH = 12
STORED_JSON_MAX_INT = 2**63 - 1  # 64 bits: what both databases' JSON and the engines' seeds hold
JSON_NUMBER_TOO_LARGE = gettext_lazy("the number {text} is too large")
JSON_DUPLICATE_KEY = gettext_lazy("the key {key} appears twice in one object")


def _refuse_constant(name: str):
    raise ValueError(JSON_NOT_A_NUMBER.format(name=name))  # NaN, Infinity, -Infinity


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):  # 1e400 overflows to infinity: as bad as writing Infinity
        raise ValueError(JSON_NUMBER_TOO_LARGE.format(text=text[:40]))
    return value


def _unique_keys(pairs: list[tuple[str, object]]) -> dict:
    # Python keeps the last of two equal keys, another reader may keep the first: what one part
    # checked would not be what another applies.
    value: dict = {}
    for key, item in pairs:
        if key in value:
            raise ValueError(JSON_DUPLICATE_KEY.format(key=json.dumps(key)[:40]))
        value[key] = item
    return value


def json_loads_strict(text: str | bytes):
    """``json.loads`` refusing NaN, Infinity, numbers that overflow a float and a key given twice in
    one object (ValueError)."""
    return json.loads(
        text, parse_constant=_refuse_constant, parse_float=_finite_float, object_pairs_hook=_unique_keys
    )


def json_depth_exceeds(value, limit: int) -> bool:
    """True if ``value`` nests lists and objects deeper than ``limit`` (iterative: no recursion)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children = list(item.values())
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False


JSON_LONE_SURROGATE = gettext_lazy(
    "a \\u escape gives half a character (a lone surrogate), which no text can hold"
)


def json_lone_surrogate(value) -> bool:
    """True if a text or key of the decoded ``value`` holds a lone surrogate (JSON's "\\ud800"
    escape): no database stores one (SQLite and PostgreSQL both fail on it), so a request bringing
    one is refused as it is read, never with a 500 when it is written."""
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def json_number_out_of_range(value) -> bool:
    """True if a number of ``value`` is not finite or lies past STORED_JSON_MAX_INT either way."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif (
            isinstance(item, int | float)
            and not isinstance(item, bool)
            and (not math.isfinite(item) or abs(item) > STORED_JSON_MAX_INT)
        ):
            return True
    return False
