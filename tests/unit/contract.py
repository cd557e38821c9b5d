"""The engine contract of docs/architecture.md section 3, checked on random legal games.

Every engine's property tests call ``play_random_game``: a concrete action drawn from any listed
choice (``games.engines.kernel.choices.draw_action``) applies without RuleError, some seat can act until the
game is over, the state stays JSON-serialisable, ``apply`` never mutates its input, every view
honours the game's declared shape (``games.engines.kernel.contract``), and replaying the same actions
reproduces the state.
"""

import json
import random

from games.engines.kernel.choices import draw_action
from games.engines.kernel.contract import check_result, check_view, view_type_for
from games.engines.kernel.errors import RuleError
from games.engines.kernel.rules import TABLE


def _options(rules, state, seats):
    return [(s, c) for s in seats for c in rules.legal_actions(state, s)]


def _draw(rules, state, options, rng, pick):
    if pick:
        return pick(state, options, rng)
    seat, choice = rng.choice(options)
    return seat, draw_action(rules, state, choice, rng)


def play_random_game(rules, config, seed, *, max_steps=2000, check=None, pick=None):
    """``pick(state, options, rng) -> (seat, action)`` may steer the game; ``options`` are
    ``(seat, choice)`` pairs."""
    state = rules.setup(config, seed)
    rng = random.Random(seed)
    log = []
    seats = [TABLE, *range(len(state["seats"]))]
    for _ in range(max_steps):
        text = json.dumps(state)  # serialisable, and what apply must leave as it found it
        if check:
            check(state)
        for viewer in seats:
            assert check_view(view_type_for(rules, viewer), rules.view(state, viewer)) == []
        if rules.is_over(state):
            assert check_result(rules, rules.result(state)) == []
            break
        options = _options(rules, state, seats)
        assert options, f"nobody can act but the game is not over (step {state['step']})"
        seat, action = _draw(rules, state, options, rng, pick)
        assert action["seat"] == seat
        new = rules.apply(state, action)
        assert json.dumps(state) == text, f"apply changed its input ({action['type']})"
        assert new is not state
        state = new
        log.append(action)
    replayed = rules.setup(config, seed)
    for action in log:
        replayed = rules.apply(replayed, action)
    assert replayed == state, "replaying the log did not reproduce the state"
    return state, log


def property_examples(default: int) -> int:
    """Random games per property test: bounded in make test; ``make soak`` plays thousands
    (CHRONICLE_PROPERTY_EXAMPLES=2000)."""
    import os

    return int(os.environ.get("CHRONICLE_PROPERTY_EXAMPLES", default))


def play_many_games(rules, configs_and_seeds, *, step_check=None, end_check=None, pick=None, max_steps=3000):
    """Many random legal games, lighter than ``play_random_game`` (no replay per game): every drawn
    action applies, someone can act until the end, ``step_check`` after each action and
    ``end_check`` on the final state. Returns how many games ended."""
    ended = 0
    for config, seed in configs_and_seeds:
        state = rules.setup(config, seed)
        rng = random.Random(seed)
        seats = [TABLE, *range(len(state["seats"]))]
        for _ in range(max_steps):
            if rules.is_over(state):
                break
            options = _options(rules, state, seats)
            assert options, f"nobody can act (seed {seed}, step {state['step']})"
            _, action = _draw(rules, state, options, rng, pick)
            state = rules.apply(state, action)
            if step_check:
                step_check(state)
        if end_check:
            end_check(state)
        ended += rules.is_over(state)
    return ended


def described(rules, state, action):
    """The log's words for ``action`` from ``state``, as the session says them: applied first, then
    described from the states before and after it. The words of an action a crafted state cannot
    take are said as if it changed nothing (the state after is the state before)."""
    try:
        after = rules.apply(state, action)
    except RuleError:
        after = state
    return rules.describe(state, action, after)
