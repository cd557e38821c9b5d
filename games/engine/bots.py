"""A bot picks one of the legal actions (seeded, so a bot game replays).

An engine may give its rules object a ``bot_policy``: ``policy(state, seat, legal_actions, rng)``
returning one of ``legal_actions`` (those ``bot_excluded`` already removed). Without a policy, or
when the policy answers something that is not listed, the bot picks at random among the legal
actions. The choice depends only on the state and ``rng``.
"""

import random
from collections.abc import Callable

from games.engine.rules import Action, GameRules, State

BotPolicy = Callable[[State, int | None, list[Action], random.Random], Action | None]


def bot_choose_action(rules: GameRules, state: State, seat: int | None, rng: random.Random) -> Action | None:
    excluded = getattr(rules, "bot_excluded", frozenset())
    actions = [a for a in rules.legal_actions(state, seat) if a["type"] not in excluded]
    if not actions:
        return None
    policy: BotPolicy | None = getattr(rules, "bot_policy", None)
    if policy is not None:
        chosen = policy(state, seat, actions, rng)
        if chosen is not None and chosen in actions:
            return chosen
    return rng.choice(actions)
