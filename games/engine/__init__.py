"""Shared kernel of the game engines: no Django here."""

from games.engine.errors import RuleError
from games.engine.rules import GameRules, Rules, TABLE
from games.engine.rng import seeded_rng

__all__ = ["RuleError", "GameRules", "Rules", "TABLE", "seeded_rng"]
