"""A bot takes one of its legal choices (seeded, so a bot game replays).

An engine may give its rules object a ``bot_policy``: ``policy(state, seat, choices, rng)`` returning
a concrete action of one of ``choices`` (those ``bot_excluded`` already removed). Without a policy,
or when the policy answers ``None`` or something no choice offers, the bot draws a random concrete
action of a random choice (``choices.draw_action``). The choice depends only on the state and ``rng``.
"""

import random

from games.engines.kernel.choices import Choice, draw_action, matching_choice
from games.engines.kernel.rules import Action, GameRules, State


def bot_choose_action(rules: GameRules, state: State, seat: int | None, rng: random.Random) -> Action | None:
    excluded = rules.bot_excluded
    choices = [c for c in rules.legal_actions(state, seat) if c["type"] not in excluded]
    if not choices:
        return None
    policy = rules.bot_policy
    if policy is not None:
        chosen = policy(state, seat, choices, rng)
        if chosen is not None and _offered(choices, chosen):
            return chosen
    return draw_action(rules, state, rng.choice(choices), rng)


def _offered(choices: list[Choice], action: Action) -> bool:
    fitting = matching_choice(choices, action)
    if fitting is not None:
        return True
    # A typed parameter (a card read from the box) is the engine's to validate.
    return any(
        c["type"] == action.get("type") and any(p["kind"] == "typed" for p in c["params"].values())
        for c in choices
    )
