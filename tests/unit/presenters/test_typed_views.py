"""Presenters read their engine's declared view: each game's presenter names the view type its engine
declares (games/engines/<game>/player_view.py), so mypy checks every key a presenter reads against
the engine's declaration, and no presenter takes a plain ``dict`` view."""

from pathlib import Path
from typing import get_type_hints, is_typeddict

import pytest

from games.engines.kernel.contract import declared_keys
from games.engines.kernel.registry import games
from games.presenters.base import GENERIC, presenter_for

PRESENTERS = Path(__file__).resolve().parents[3] / "games" / "presenters"


@pytest.mark.parametrize("rules", games(), ids=lambda r: r.slug)
class TypedViewTests:
    def test_the_presenter_reads_a_view_its_engine_declares(self, rules):
        presenter = presenter_for(rules.slug)
        assert presenter is not GENERIC
        own = [m for m in ("present", "private", "words", "controls") if m in vars(type(presenter))]
        assert own
        for method in own:
            view = get_type_hints(getattr(type(presenter), method))["view"]
            assert is_typeddict(view), f"{rules.slug} {method} takes {view}"
            assert declared_keys(view) <= declared_keys(rules.table_view_type)


def test_no_game_s_presenter_takes_a_plain_dict_view():
    """A game's presenter modules (``<slug>.py`` and its helpers ``<slug>_*.py``)."""
    slugs = tuple(rules.slug for rules in games())
    found = [
        f"{path.name}:{number}"
        for path in sorted(PRESENTERS.glob("*.py"))
        if path.stem.startswith(slugs)
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if "view: dict" in line or "view: Mapping" in line
    ]
    assert found == []
