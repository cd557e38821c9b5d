"""Presenters turn an engine's view (the declared shape of games.engines.kernel.contract) into what the
templates draw, in the game's own words, and give the words of its choices. They are registered
beside the engines and found the same way, by the slug: ``presenter_for(slug)`` imports
``games/presenters/<slug>.py``. A game without a presenter of its own gets the generic
one, explicitly; an error inside a presenter is an error (never a silent fallback to a raw dump)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from importlib import import_module
from importlib.util import find_spec
from typing import Any

from games.engines.kernel.choices import Choice
from games.presenters.base import Presenter
from games.presenters.controls import Words


class GenericPresenter(Presenter[dict[str, Any]]):
    """For games with no presenter of their own (the test engines): the view dict, tidily."""


# A game's words for a concrete action: ``labeller(action, view, names) -> (label, group)``.
Labeller = Callable[[dict, Any, Any], tuple[str, str]]


class LabellerWords(Words):
    """Words from a game's labeller of concrete actions: ``labeller(action, view, names) -> (label, group)``.
    A choice without parameters is its one action: its button says the labeller's words (with what
    it costs); any other choice is titled by the engine (``Choice.title``)."""

    def __init__(self, labeller: Labeller, view: Any, names: dict[int, dict]) -> None:
        super().__init__(names)
        self.labeller, self.view = labeller, view

    def title(self, choice: Choice) -> str:
        if not choice["params"]:
            return self.labeller({"type": choice["type"], "seat": choice["seat"]}, self.view, self.names)[0]
        return super().title(choice)

    def option(self, choice: Choice, name: str, value: Any) -> str:
        if len(choice["params"]) == 1:
            action = {"type": choice["type"], "seat": choice["seat"], name: value}
            return self.labeller(action, self.view, self.names)[0]
        return super().option(choice, name, value)


GENERIC = GenericPresenter()
PRESENTERS_PACKAGE = "games.presenters"


def presenter_for(slug: str) -> Presenter[Any]:
    """The presenter of a game, found by its slug: ``games/presenters/<slug>.py`` defines
    ``PRESENTER``. A game with no such module gets the generic presenter; an error inside a
    presenter's module is raised, never hidden."""
    name = f"{PRESENTERS_PACKAGE}.{slug}"
    if not slug.isidentifier() or find_spec(name) is None:
        return GENERIC
    presenter: Presenter[Any] = import_module(name).PRESENTER
    return presenter


def controls_for(
    slug: str, choices: list[dict], view: dict, names: dict[int, dict], step: Mapping[str, str] | None = None
) -> list[dict]:
    """The control groups of a screen, as the game's presenter builds them."""
    return presenter_for(slug).controls(choices, view, names, step)
