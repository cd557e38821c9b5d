"""What every presenter can do, with the defaults a game without anything special gets.

A game's presenter (``games/presenters/<slug>.py``, module attribute ``PRESENTER``) subclasses
:class:`Presenter` and overrides what its pages need: the words of its view and choices, its
template folder, and the hooks the shared pages call (step-by-step controls, the table's own forms).
The shared views and templates never ask which game they show: they ask the presenter."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, cast

from games.engines.kernel.choices import Choice
from games.presenters.controls import Words, build_controls

GENERIC_TEMPLATES = "games/generic"


@dataclass(frozen=True)
class SessionFacts:
    """What a presenter knows of a session besides its views: plain data, read once by the pages, so a
    presenter does no I/O of its own."""

    id: int
    version: int
    campaign_id: int | None
    seats: dict[int, dict]  # index -> the seat's infos (index, name, hex, is_bot, player)
    night_recorded: bool | None = None  # a campaign night: its result is in the campaign (None: no night)


class Presenter[View: Mapping[str, Any]]:
    """The generic presenter: no words of its own, the view drawn tidily as it is. A game's presenter
    names its engine's declared view (``Presenter[<Game>TableView]``), so mypy checks every key it
    reads against the engine's declaration. ``View``: what the table's view and a seat's share, as the
    engine declares it (a TypedDict of its ``player_view.py``); a seat's adds its ``private``."""

    # Where the game's partials live: ``<folder>/_seat.html`` (the middle of a phone's panel),
    # ``<folder>/_table.html`` (the middle of the host's panel) and, with a presented result,
    # ``<folder>/_result.html`` (the closed seat's page).
    template_folder = GENERIC_TEMPLATES

    def present(self, view: View, names: dict[int, dict], result: dict | None) -> dict | None:
        """What the game's templates draw; ``None``: the generic templates draw the raw view."""
        return None

    def private(self, view: View) -> dict | None:
        return None

    def words(self, view: View, names: dict[int, dict]) -> Words:
        return Words(names)

    def controls(
        self, choices: list[dict], view: View, names: dict[int, dict], step: Mapping[str, str] | None
    ) -> list[dict]:
        """The control groups of a screen (``step``: the values chosen so far, from the page's
        query, for a game that asks its decisions step by step)."""
        to_act = view.get("to_act")
        return build_controls(
            cast(list[Choice], choices), self.words(view, names), to_act if isinstance(to_act, list) else None
        )

    def template(self, part: str) -> str:
        return f"{self.template_folder}/_{part}.html"

    # ---- The host's screen: choices the table answers with forms of its own ----------------

    def table_choices(self, choices: list[dict]) -> list[dict]:
        """The table's choices shown as controls (the rest get the game's own forms)."""
        return choices

    def table_forms(self, *, facts: SessionFacts, table: dict, bound: dict) -> dict[str, Any]:
        """Extra context for the game's table partial (``bound``: refused forms, kept as typed)."""
        return {}

    def compose_form(self, *, kind: str, data: Any, facts: SessionFacts, table: dict) -> Any | None:
        """A bound form of the table's own (``kind`` from the posted ``compose`` field), with
        ``action()`` and ``cleaned_data['version'/'key']``; ``None``: the game has no such form."""
        return None
