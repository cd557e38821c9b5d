"""Shared kernel of the game engines: no Django here."""

from games.engines.kernel.errors import RuleError
from games.engines.kernel.rng import seeded_rng
from games.engines.kernel.rules import TABLE, GameRules, Rules

__all__ = ["RuleError", "GameRules", "Rules", "TABLE", "seeded_rng"]
