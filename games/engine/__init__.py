"""Shared kernel of the game engines: no Django here."""

from games.engine.errors import RuleError
from games.engine.rng import seeded_rng
from games.engine.rules import TABLE, GameRules, Rules

__all__ = ["RuleError", "GameRules", "Rules", "TABLE", "seeded_rng"]
