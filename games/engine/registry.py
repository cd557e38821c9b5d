"""The one registry of games: sessions, bots, the API and the tests reach engines only here."""

from importlib import import_module

from games.engine.rules import GameRules

_MODULES = {
    "kings_dilemma": "games.kings_dilemma.rules",
    "for_the_king": "games.for_the_king.rules",
    "council_of_four": "games.council_of_four.rules",
}

UNKNOWN_GAME = "There is no game called {slug!r}."


def get_game(slug: str) -> GameRules:
    try:
        module = _MODULES[slug]
    except KeyError:
        raise KeyError(UNKNOWN_GAME.format(slug=slug)) from None
    return import_module(module).RULES


def games() -> list[GameRules]:
    return [get_game(slug) for slug in _MODULES]


def slugs() -> list[str]:
    return list(_MODULES)
