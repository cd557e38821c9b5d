"""Adding a game touches its engine folder, its presenter and its templates folder only
(docs/architecture.md, "Adding a game"): the shared views, selectors, services and page templates
never name a game, never compare a session's game and never include a game's partials by path;
what differs between games is asked of the game's presenter."""

import re
from pathlib import Path

from games.engines.kernel.registry import games

ROOT = Path(__file__).resolve().parents[3]
PRESENTERS = ROOT / "games" / "presenters"
SHARED = [
    ROOT / "games" / "views.py",
    ROOT / "games" / "screens.py",
    ROOT / "games" / "selectors.py",
    *sorted((ROOT / "games" / "services").glob("*.py")),
    # The presenters' shared parts (each game's own presenter modules sit beside them).
    PRESENTERS / "__init__.py",
    PRESENTERS / "base.py",
    *sorted((ROOT / "templates" / "games").glob("*.html")),
]
GAME_SLUGS = sorted(
    p.name
    for p in (ROOT / "games" / "engines").iterdir()
    if (p / "rules.py").is_file() and p.name != "kernel"
)
TEMPLATE_FOLDERS = sorted(p.name for p in (ROOT / "templates" / "games").iterdir() if p.is_dir())
# Every game's action types, read from its rules module's source (this test imports no game):
# the keys of ``moves = {...}``.
ACTION_TYPES = sorted({action for rules in games() for action in rules.moves})
COMPARISON = re.compile(r"\bgame\s*(==|!=)|(==|!=)\s*[\w.]*\bgame\b|\bgame\s+(not\s+)?in\b")


def game_names_in(path: Path, slugs=GAME_SLUGS, folders=TEMPLATE_FOLDERS, actions=ACTION_TYPES) -> list[str]:
    found = []
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        where = f"{path.name}:{number}"
        found += [f"{where} names {slug}" for slug in slugs if slug in line]
        found += [f"{where} names the action {a}" for a in actions if f'"{a}"' in line or f"'{a}'" in line]
        found += [f"{where} includes games/{f}/" for f in folders if f"games/{f}/" in line]
        if COMPARISON.search(line):
            found.append(f"{where} compares a game: {line.strip()}")
    return found


class NoGameNamesTests:
    def test_the_games_and_the_shared_files_are_found(self):
        assert len(GAME_SLUGS) >= 3 and "generic" in TEMPLATE_FOLDERS
        assert all(path.exists() for path in SHARED) and len(SHARED) > 11
        assert len(ACTION_TYPES) > 30

    def test_no_shared_view_selector_service_or_page_template_names_a_game(self):
        assert [f for path in SHARED for f in game_names_in(path)] == []

    def test_a_slug_a_comparison_or_a_game_partial_is_reported(self, tmp_path):
        page = tmp_path / "seat.html"
        page.write_text(
            '{% if session.game == "chess" %}\n{% include "games/ch/_board.html" %}\n'
            "if session.game != rules.slug:\n{% endif %}\n"
            'OPEN = frozenset({"castle"})\n'
        )
        assert game_names_in(page, slugs=["chess"], folders=["ch"], actions=["castle"]) == [
            "seat.html:1 names chess",
            'seat.html:1 compares a game: {% if session.game == "chess" %}',
            "seat.html:2 includes games/ch/",
            "seat.html:3 compares a game: if session.game != rules.slug:",
            "seat.html:5 names the action castle",
        ]
