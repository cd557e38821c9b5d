"""The engine contract of DESIGN.md section 3, checked on random legal games.

Every engine's property tests call ``play_random_game``: each listed action applies without
RuleError, some seat can act until the game is over, the state stays JSON-serialisable,
``apply`` never mutates its input, and replaying the same actions reproduces the state.
"""

import copy
import json
import random

from games.engine.rules import TABLE


def play_random_game(rules, config, seed, *, max_steps=2000, check=None, pick=None):
    state = rules.setup(config, seed)
    rng = random.Random(seed)
    log = []
    seats = [TABLE, *range(len(state["seats"]))]
    for _ in range(max_steps):
        json.dumps(state)
        if check:
            check(state)
        if rules.is_over(state):
            break
        options = [(s, a) for s in seats for a in rules.legal_actions(state, s)]
        assert options, f"nobody can act but the game is not over (step {state['step']})"
        seat, action = pick(state, options, rng) if pick else rng.choice(options)
        assert action["seat"] == seat
        before = copy.deepcopy(state)
        state = rules.apply(state, action)
        assert before == copy.deepcopy(before)  # apply returned a new state
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
    """Thousands of random legal games, lighter than ``play_random_game`` (no replay per game):
    every listed action applies, someone can act until the end, ``step_check`` after each action
    and ``end_check`` on the final state. Returns how many games ended."""
    ended = 0
    for config, seed in configs_and_seeds:
        state = rules.setup(config, seed)
        rng = random.Random(seed)
        seats = [TABLE, *range(len(state["seats"]))]
        for _ in range(max_steps):
            if rules.is_over(state):
                break
            options = [(s, a) for s in seats for a in rules.legal_actions(state, s)]
            assert options, f"nobody can act (seed {seed}, step {state['step']})"
            _, action = pick(state, options, rng) if pick else rng.choice(options)
            state = rules.apply(state, action)
            if step_check:
                step_check(state)
        if end_check:
            end_check(state)
        ended += rules.is_over(state)
    return ended
