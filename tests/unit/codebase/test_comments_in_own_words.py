"""Comments say why in the code's own words: none points at something a reader of the repository
cannot open (a tracker's issue number, a section of a design note kept elsewhere). A reference like
"issue 27, item 4" tells a newcomer nothing; the reason it stood for belongs in the sentence."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
# The application: its Python, its templates and its own scripts and styles (vendored files and the
# migrations, which are history, aside).
SOURCES = {
    "api": ("*.py",),
    "campaign": ("*.py",),
    "config": ("*.py",),
    "games": ("*.py",),
    "templates": ("*.html", "*.js", "*.txt"),
    "static": ("*.js", "*.css"),
}
SKIPPED = ("migrations", "vendor")
OUTSIDE = re.compile(
    r"\bissues? \d+|\bDESIGN(\.md| \d| §)|\bSTYLE(\.md| \d)|\.\./shared/",
)


def outside_references(root: Path = ROOT) -> list[str]:
    """``path:line: text`` of every line of the application naming something outside the repository."""
    found = []
    for folder, patterns in SOURCES.items():
        for pattern in patterns:
            for path in sorted((root / folder).rglob(pattern)):
                if any(part in SKIPPED for part in path.relative_to(root).parts):
                    continue
                for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                    if OUTSIDE.search(line):
                        found.append(f"{path.relative_to(root)}:{number}: {line.strip()}")
    return found


def test_no_comment_points_outside_the_repository():
    assert outside_references() == []


def test_a_reference_outside_the_repository_is_found(tmp_path):
    (tmp_path / "games" / "migrations").mkdir(parents=True)
    (tmp_path / "static" / "js" / "vendor").mkdir(parents=True)
    (tmp_path / "games" / "models.py").write_text(
        "# The cached state in two columns (issue 27, item 4).\nSTATE = 1  # the rows, as in DESIGN 8\n"
        "# an issue of the engine, in our words: fine\n"
    )
    (tmp_path / "games" / "migrations" / "0001_initial.py").write_text("# issue 3\n")
    (tmp_path / "static" / "js" / "live.js").write_text("// see ../shared/DESIGN.md\n")
    (tmp_path / "static" / "js" / "vendor" / "htmx.js").write_text("// issue 1234 upstream\n")
    assert outside_references(tmp_path) == [
        "games/models.py:1: # The cached state in two columns (issue 27, item 4).",
        "games/models.py:2: STATE = 1  # the rows, as in DESIGN 8",
        "static/js/live.js:1: // see ../shared/DESIGN.md",
    ]
