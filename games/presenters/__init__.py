"""Presenters turn an engine's view dict into what the templates draw, in the game's own words;
any other game falls back to a tidy generic rendering of its view dict."""

from __future__ import annotations

import json

from games.models import GameSession
from games.presenters.common import _generic_label, _words
from games.presenters.council_of_four import C4_GROUPS, _c4_label, _c4_present, _c4_private
from games.presenters.for_the_king import _ftk_label, _ftk_present, _ftk_private
from games.presenters.kings_dilemma import _kd_present, _kd_private

# ---- Choosing the presenter --------------------------------------------------------------

PRESENTERS = {"for_the_king": _ftk_present, "council_of_four": _c4_present, "kings_dilemma": _kd_present}
LABELLERS = {"for_the_king": _ftk_label, "council_of_four": _c4_label}
PRIVATE = {"for_the_king": _ftk_private, "council_of_four": _c4_private, "kings_dilemma": _kd_private}


def _present(session: GameSession, view: dict, names: dict[int, dict], result: dict | None) -> dict | None:
    presenter = PRESENTERS.get(session.game)
    if presenter is None:
        return None
    try:
        return presenter(view, names, result)
    except Exception:  # a new view shape must never break the table: fall back to generic
        return None


def _choices(
    session: GameSession, legal_actions: list[dict], view: dict, names: dict[int, dict]
) -> list[dict]:
    """One button per legal action: its JSON, words of the game, and its group."""
    labeller = LABELLERS.get(session.game)
    choices = []
    for action in legal_actions:
        try:
            label, group = labeller(action, view, names) if labeller else (_generic_label(action), "main")
        except Exception:  # a label must never break the page
            label, group = _generic_label(action), "main"
        choices.append({"json": json.dumps(action), "label": label, "group": group})
    return choices


GROUP_TITLES = {**C4_GROUPS}


def _choice_context(choices: list[dict]) -> dict:
    """Single buttons first, bids in a compact grid, long families of options folded by kind."""
    groups: dict[str, list[dict]] = {}
    for c in choices:
        if c["group"] not in ("main", "bid"):
            groups.setdefault(c["group"], []).append(c)
    return {
        "choices": choices,
        "main_choices": [c for c in choices if c["group"] == "main"],
        "bid_choices": [c for c in choices if c["group"] == "bid"],
        "choice_groups": [
            {"title": GROUP_TITLES.get(g, _words(g)), "choices": cs, "open": len(choices) <= 6}
            for g, cs in groups.items()
        ],
    }
