"""What an engine says in a game, walked for the tests of its messages: every log label, choice
title, payment label and refusal of bot games, each checked to be a message (the kernel's
``messages``) whose values are messages or what is no word to translate (a name, a number, a
value the player typed), with a message id written as a literal that makemessages finds."""

from __future__ import annotations

import ast
import random
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from games.engines.kernel.bots import bot_choose_action
from games.engines.kernel.choices import draw_action
from games.engines.kernel.errors import RuleError
from games.engines.kernel.messages import Message
from games.engines.kernel.rules import TABLE

NAMES = ["Anna", "Ben", "Cora", "Dan", "Eve"]
# Values no parameter accepts: each offered choice is tried with them, for its refusals.
JUNK = ("nowhere", None, ["nowhere"])
# What a value typed by a player reads as in a refusal: never a word to translate.
TYPED = ("nowhere", "None", "True", "False")
STEP_CAP = 600
ENGLISH_WORD = re.compile(r"[A-Za-z]{2,}")
MARKERS = {"gettext_noop": 1, "ngettext": 2}  # the markers an engine writes, and their literal arguments


def play(
    rules: Any, seats: int, seed: int, *, probe_every: int = 3, view_words: Any = None
) -> Iterator[tuple[str, Any]]:
    """Every sentence of one bot game of ``rules``, as (where it was said, the sentence): each
    action's label, each choice's title and payment labels, every few steps the refusals of the
    choices offered with junk values, of another seat and of another move, and the words
    ``view_words(view)`` finds in the table's view after each action."""
    state = rules.setup({"seats": [{"name": name} for name in NAMES[:seats]]}, seed)
    for step in range(STEP_CAP):
        if view_words is not None:
            yield from (("view", words) for words in view_words(rules.view(state, None)))
        if rules.is_over(state):
            return
        rng = random.Random(f"{seed}:{step}")
        seat = TABLE if rules.legal_actions(state, TABLE) else rules.view(state, None)["to_act"][0]
        choices = rules.legal_actions(state, seat)
        yield from _choice_words(choices)
        if step % probe_every == 0:
            yield from _refusals(rules, state, seat, choices, rng)
        if seat is TABLE:
            action = draw_action(rules, state, rng.choice(choices), rng)
        else:
            action = bot_choose_action(rules, state, seat, rng)
        after = rules.apply(state, action)
        yield f"label of {action['type']}", rules.describe(state, action, after)
        state = after
    raise AssertionError(f"the game did not end within {STEP_CAP} steps")


def _choice_words(choices: list[dict]) -> Iterator[tuple[str, Any]]:
    for offered in choices:
        yield f"title of {offered['type']}", offered.get("title")
        for param in offered["params"].values():
            for option in param.get("options") or []:
                if isinstance(option, dict) and "label" in option:
                    yield f"payment of {offered['type']}", option["label"]


def _refusals(
    rules: Any, state: dict, seat: Any, choices: list[dict], rng: random.Random
) -> Iterator[tuple[str, Any]]:
    tried = []
    for offered in choices:
        action = draw_action(rules, state, offered, rng)
        tried += [{**action, name: junk} for name in offered["params"] for junk in JUNK]
        others = [s for s in [TABLE, *range(len(state["seats"]))] if s != seat]
        tried += [{**action, "seat": other} for other in others]
    offered_types = {c["type"] for c in choices}
    tried += [{"type": kind, "seat": seat} for kind in rules.moves if kind not in offered_types]
    for action in tried:
        try:
            rules.apply(state, action)
        except RuleError as refusal:
            yield f"refusal of {action}", refusal.message


def plain_words(text: Any, names: Iterable[str]) -> list[str]:
    """The English words ``text`` says outside a message: the sentence itself when it is no message,
    else each value (or part) that is text with a word that is no name and no typed value."""
    if not isinstance(text, Message):
        return [repr(text)]
    found = []
    values = text.parts if text.id is None else tuple(text.params.values())
    for value in values:
        if isinstance(value, Message):
            found += plain_words(value, names)
        elif isinstance(value, str) and _has_words(value, names):
            found.append(value)
    return found


def _has_words(text: str, names: Iterable[str]) -> bool:
    for name in sorted([*names, *TYPED], key=len, reverse=True):
        text = text.replace(name, "")
    return bool(ENGLISH_WORD.search(text))


def message_ids(text: Any) -> set[str]:
    """The message ids (and plural ids) ``text`` says, its values' included."""
    if not isinstance(text, Message):
        return set()
    found = {i for i in (text.id, text.plural) if i is not None}
    for value in text.parts if text.id is None else text.params.values():
        found |= message_ids(value)
    return found


def literal_ids(*packages: Path) -> set[str]:
    """The message ids written as literals in the markers' calls of these packages' modules: what
    makemessages extracts."""
    found = set()
    for package in packages:
        for path in package.glob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in MARKERS:
                    literals = node.args[: MARKERS[node.func.id]]
                    found |= {
                        a.value for a in literals if isinstance(a, ast.Constant) and isinstance(a.value, str)
                    }
    return found
