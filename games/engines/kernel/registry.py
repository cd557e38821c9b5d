"""The one registry of games: sessions, bots, the API and the tests reach engines only here.

A game is found, not listed: every package of ``games/engines/`` with a ``rules.py`` that defines ``RULES``
is a game (its slug is ``RULES.slug``, its place in lists ``RULES.order``). Adding a game adds no line
here."""

from functools import cache
from importlib import import_module
from pathlib import Path

from games.engines.kernel.rules import GameRules

GAMES_FOLDER = Path(__file__).resolve().parent.parent
UNKNOWN_GAME = "There is no game called {slug!r}."
# Engines that live outside games/engines/ (the tests' fake engine): slug -> module defining RULES.
EXTRA_MODULES: dict[str, str] = {}


@cache
def _found() -> dict[str, GameRules]:
    rules = []
    for folder in sorted(GAMES_FOLDER.iterdir()):
        if (folder / "rules.py").is_file() and (folder / "__init__.py").is_file():
            module = import_module(f"games.engines.{folder.name}.rules")
            if hasattr(module, "RULES"):
                rules.append(module.RULES)
    return {r.slug: r for r in sorted(rules, key=lambda r: (r.order, r.slug))}


def get_game(slug: str) -> GameRules:
    if slug in EXTRA_MODULES:
        rules: GameRules = import_module(EXTRA_MODULES[slug]).RULES
        return rules
    try:
        return _found()[slug]
    except KeyError:
        raise KeyError(UNKNOWN_GAME.format(slug=slug)) from None


def slugs() -> list[str]:
    return [*_found(), *(slug for slug in EXTRA_MODULES if slug not in _found())]


def games() -> list[GameRules]:
    return [get_game(slug) for slug in slugs()]
