"""A screen's controls as ``games.screens`` builds them: the game's words of the choices first (plain
data), then the controls built from them."""

from typing import Any


def shown_controls(
    presenter: Any, choices: list[dict], view: Any, names: dict[int, dict], step: Any = None
) -> list[dict]:
    return presenter.controls(choices, view, presenter.words(view, names, choices), step)
