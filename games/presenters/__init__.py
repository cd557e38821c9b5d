"""Presenters turn an engine's view (the declared shape of games.engine.contract) into what the
templates draw, in the game's own words, and give the words of its choices. They are registered
beside the engines: ``presenter_for(slug)``. A game without a presenter of its own gets the generic
one, explicitly; an error inside a presenter is an error (never a silent fallback to a raw dump)."""

from __future__ import annotations

from collections.abc import Mapping
from importlib import import_module
from typing import Any, Protocol, cast

from games.engine.choices import Choice
from games.presenters.controls import Words, build_controls


class Presenter(Protocol):
    def present(self, view: dict, names: dict[int, dict], result: dict | None) -> dict | None: ...
    def private(self, view: dict) -> dict | None: ...
    def words(self, view: dict, names: dict[int, dict]) -> Words: ...


class GenericPresenter:
    """For games with no presenter of their own (the test engines): the view dict, tidily."""

    def present(self, view: dict, names: dict[int, dict], result: dict | None) -> dict | None:
        return None

    def private(self, view: dict) -> dict | None:
        return None

    def words(self, view: dict, names: dict[int, dict]) -> Words:
        return Words(names)


class LabellerWords(Words):
    """Words from a game's labeller of concrete actions: ``labeller(action, view, names) -> (label, group)``."""

    def __init__(self, labeller, view: dict, names: dict[int, dict], titles: dict[str, str]):
        super().__init__(names)
        self.labeller, self.view, self.titles = labeller, view, titles

    def title(self, choice) -> str:
        if choice["type"] in self.titles:
            return self.titles[choice["type"]]
        if not choice["params"]:
            return self.labeller({"type": choice["type"], "seat": choice["seat"]}, self.view, self.names)[0]
        return super().title(choice)

    def option(self, choice, name: str, value: Any) -> str:
        if len(choice["params"]) == 1:
            action = {"type": choice["type"], "seat": choice["seat"], name: value}
            return self.labeller(action, self.view, self.names)[0]
        return super().option(choice, name, value)


_MODULES = {
    "kings_dilemma": "games.presenters.kings_dilemma",
    "for_the_king": "games.presenters.for_the_king",
    "council_of_four": "games.presenters.council_of_four",
}
GENERIC = GenericPresenter()


def presenter_for(slug: str) -> Presenter:
    module = _MODULES.get(slug)
    return GENERIC if module is None else import_module(module).PRESENTER


def controls_for(
    slug: str, choices: list[dict], view: dict, names: dict[int, dict], step: Mapping[str, str] | None = None
) -> list[dict]:
    """The control groups of a screen. A presenter with ``controls(choices, view, names, step)``
    asks its decisions step by step (``step``: the values chosen so far, from the page's query)."""
    presenter = presenter_for(slug)
    stepped = getattr(presenter, "controls", None)
    if stepped is not None:
        return stepped(choices, view, names, step)
    return build_controls(cast(list[Choice], choices), presenter.words(view, names))
