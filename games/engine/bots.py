"""A bot picks one of the legal actions at random (seeded, so a bot game replays)."""

import random

from games.engine.rules import Action, GameRules, State


def bot_choose_action(rules: GameRules, state: State, seat: int | None, rng: random.Random) -> Action | None:
    actions = rules.legal_actions(state, seat)
    return rng.choice(actions) if actions else None
