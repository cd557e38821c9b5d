"""Choices with parameters: what a seat may do now, described once for the engine, the bots, the
API and the phone controls (docs/architecture.md section 3, revised 2026-11-23).

``legal_actions(state, seat)`` returns a list of :class:`Choice`: an action ``type`` for a ``seat``
and the parameters the player chooses, each with its bounds. A concrete action is the choice's
``type`` and ``seat`` plus one value per parameter::

    {"type": "vote", "seat": 2, "params": {"side": pick(["aye", "nay"]), "power": amount(1, 7)}}
    -> {"type": "vote", "seat": 2, "side": "aye", "power": 3}

Kinds of parameter (a view's size never grows with a player's Power, Coins or the ways to pay):

- ``amount``: a whole number from ``min`` to ``max``.
- ``pick``: one of ``options`` (JSON values: a side, a House's seat index, a card id, an area).
- ``cards``: a set of ``min`` to ``max`` distinct ids taken from ``options`` (a hand or part of it).
- ``text``: a short text (a label the host types), at most ``max_length`` characters.
- ``flag``: true or false.
- ``typed``: something typed from a physical card (``schema`` names it); the engine validates it and
  its rules object samples one for bots and property tests.
- ``payment``: one of ``options``, each a :class:`Payment` (the cards to give, the Coins it costs in
  all, words for a button); the action's value is the chosen option's ``cards`` list, so a logged
  action keeps the shape of a set of cards. One option per distinct way to pay as the rules see it
  (by colours or values, never per combination of card ids), so the list stays short.

``apply`` still validates every value: a description says what is offered, the rules decide.
"""

from __future__ import annotations

import random
from typing import Any, Literal, NotRequired, TypedDict

Action = dict[str, Any]

ParamKind = Literal["amount", "pick", "cards", "text", "flag", "typed", "payment"]


class Payment(TypedDict):
    """One way to pay: the cards to give (ids), the Coins it costs in all, and words for a button."""

    cards: list[str | int]
    coins: int
    label: str


class Param(TypedDict):
    kind: ParamKind
    min: NotRequired[int]
    max: NotRequired[int]
    options: NotRequired[list[Any]]
    max_length: NotRequired[int]
    schema: NotRequired[str]
    # An amount that cannot be 0 (moving a track 0 spaces, giving nothing): min..max without 0.
    nonzero: NotRequired[bool]


class Choice(TypedDict):
    type: str
    seat: int | None
    params: dict[str, Param]
    # Words for its button ("Vote", "Buy a Permit"): the engine's ``CHOICE_TITLES``, filled by the
    # kernel's ``Rules.legal_actions``.
    title: NotRequired[str]
    # True: open to this seat whoever must act now (bargaining), so it never answers ``to_act``.
    open: NotRequired[bool]


# ---- Building descriptions ---------------------------------------------------------------------


def amount(low: int, high: int, *, nonzero: bool = False) -> Param:
    described: Param = {"kind": "amount", "min": low, "max": high}
    if nonzero:
        described["nonzero"] = True
    return described


def _amounts(param: Param) -> list[int]:
    return [n for n in range(param["min"], param["max"] + 1) if n or not param.get("nonzero")]


def pick(options: list[Any]) -> Param:
    return {"kind": "pick", "options": list(options)}


def cards(options: list[Any], low: int = 1, high: int | None = None) -> Param:
    top = len(options) if high is None else min(high, len(options))
    return {"kind": "cards", "options": list(options), "min": low, "max": top}


def text(max_length: int) -> Param:
    return {"kind": "text", "max_length": max_length}


def flag() -> Param:
    return {"kind": "flag"}


def typed(schema: str) -> Param:
    return {"kind": "typed", "schema": schema}


def payment(options: list[Payment]) -> Param:
    return {"kind": "payment", "options": list(options)}


def choice(type_: str, seat: int | None, **params: Param) -> Choice:
    return {"type": type_, "seat": seat, "params": params}


def open_to_all(described: Choice) -> Choice:
    """A choice a seat may take whoever must act now (a gift of Coins during another's vote)."""
    return {**described, "open": True}


# ---- Reading descriptions ----------------------------------------------------------------------


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _same_cards(value: Any, offered: list[Any]) -> bool:
    return isinstance(value, list) and sorted(map(repr, value)) == sorted(map(repr, offered))


def param_fits(param: Param, value: Any) -> bool:
    """Whether ``value`` lies inside the bounds the description offers (the engine still decides):
    for a payment, the cards of one of its options, in any order."""
    kind = param["kind"]
    if kind == "payment":
        return any(_same_cards(value, option["cards"]) for option in param["options"])
    if kind == "amount":
        return (
            _is_int(value) and param["min"] <= value <= param["max"] and (value or not param.get("nonzero"))
        )
    if kind == "pick":
        return any(value == option and type(value) is type(option) for option in param["options"])
    if kind == "cards":
        if not isinstance(value, list) or len(set(map(repr, value))) != len(value):
            return False
        options = param["options"]
        return param["min"] <= len(value) <= param["max"] and all(v in options for v in value)
    if kind == "text":
        return isinstance(value, str) and 0 < len(value.strip()) <= param["max_length"]
    if kind == "flag":
        return isinstance(value, bool)
    return kind == "typed"


def action_fits(choice_: Choice, action: Action) -> bool:
    """The action is this choice with a value inside each parameter's bounds, and nothing else."""
    if action.get("type") != choice_["type"] or action.get("seat") != choice_["seat"]:
        return False
    params = choice_["params"]
    if set(action) - {"type", "seat"} != set(params):
        return False
    return all(param_fits(param, action[name]) for name, param in params.items())


ACTION_KEYS = frozenset({"type", "seat"})  # what every action holds besides its parameters


def unknown_keys(choices: list[Choice], action: Action) -> list[str] | None:
    """The keys of ``action`` that none of the offered choices of its type names (its ``type``,
    ``seat`` and parameters), sorted; None when no choice of its type is offered (the rules then
    refuse the action, or take it as their own move says)."""
    offered = [c for c in choices if c["type"] == action.get("type")]
    if not offered:
        return None
    known = ACTION_KEYS.union(*(c["params"] for c in offered))
    return sorted(str(key) for key in action if key not in known)


def matching_choice(choices: list[Choice], action: Action) -> Choice | None:
    return next((c for c in choices if action_fits(c, action)), None)


def has_params(choice_: Choice) -> bool:
    return bool(choice_["params"])


# ---- Drawing concrete actions (bots and property tests) -------------------------------------------


def draw_value(param: Param, rng: random.Random) -> Any:
    kind = param["kind"]
    if kind == "amount":
        value = rng.randint(param["min"], param["max"])
        return value if value or not param.get("nonzero") else rng.choice(_amounts(param) or [0])
    if kind == "pick":
        return rng.choice(param["options"])
    if kind == "payment":
        return list(rng.choice(param["options"])["cards"])
    if kind == "cards":
        size = rng.randint(param["min"], param["max"])
        return rng.sample(list(param["options"]), size)
    if kind == "text":
        return "card effect"[: param["max_length"]]
    if kind == "flag":
        return rng.random() < 0.5
    raise ValueError(f"a {kind!r} parameter is drawn by its engine's sampler")


def draw_action(rules: Any, state: dict[str, Any], choice_: Choice, rng: random.Random) -> Action:
    """One concrete action of ``choice_``, drawn with ``rng``. An engine whose choices hold what only
    it can generate (a card typed by the host: a ``typed`` parameter) gives its
    rules object ``sample(state, choice, rng) -> action | None``; ``None`` means "draw each value
    independently". Every action drawn applies without ``RuleError``."""
    sampler = rules.sample
    if sampler is not None:
        drawn: Action | None = sampler(state, choice_, rng)
        if drawn is not None:
            return drawn
    action: Action = {"type": choice_["type"], "seat": choice_["seat"]}
    for name, param in choice_["params"].items():
        action[name] = draw_value(param, rng)
    return action


def random_action(rules: Any, state: dict[str, Any], seat: int | None, rng: random.Random) -> Action | None:
    """A random legal action of ``seat`` (None when it has no choice)."""
    choices = rules.legal_actions(state, seat)
    if not choices:
        return None
    return draw_action(rules, state, rng.choice(choices), rng)


def enumerate_choice(choice_: Choice, limit: int = 64) -> list[Action]:
    """Every concrete action of a small choice (amounts, picks, payments and flags only), at most
    ``limit``: for tests and for bots that weigh a few options. Larger or set-valued choices are not
    listed."""
    actions: list[Action] = [{"type": choice_["type"], "seat": choice_["seat"]}]
    for name, param in choice_["params"].items():
        kind = param["kind"]
        if kind == "amount":
            values: list[Any] = list(_amounts(param))
        elif kind == "pick":
            values = list(param["options"])
        elif kind == "payment":
            values = [list(option["cards"]) for option in param["options"]]
        elif kind == "flag":
            values = [False, True]
        else:
            return []
        actions = [{**a, name: v} for a in actions for v in values]
        if len(actions) > limit:
            return []
    return actions
