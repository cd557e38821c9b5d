"""A bot picks one of the legal actions at random (seeded, so a bot game replays)."""

import random

from games.engine.rules import Action, GameRules, State


def bot_choose_action(rules: GameRules, state: State, seat: int | None, rng: random.Random) -> Action | None:
    excluded = getattr(rules, "bot_excluded", frozenset())
    actions = [a for a in rules.legal_actions(state, seat) if a["type"] not in excluded]
    return rng.choice(actions) if actions else None
