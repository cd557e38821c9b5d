"""A room a newcomer can read: no application module is longer than 600 lines (a module that grows
past it holds two concerns, and is split by them, as games/services/ and api/<area>/ were)."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
APPS = ("config", "games", "campaign", "api")
MAX_LINES = 600


def application_modules() -> list[Path]:
    return [
        path for app in APPS for path in sorted((ROOT / app).rglob("*.py")) if "migrations" not in path.parts
    ]


def too_long(paths: list[Path], root: Path = ROOT) -> list[str]:
    lengths = {path: len(path.read_text().splitlines()) for path in paths}
    return [f"{path.relative_to(root)} ({n} lines)" for path, n in lengths.items() if n > MAX_LINES]


class ModuleLengthTests:
    def test_the_modules_are_found(self):
        modules = application_modules()
        assert len(modules) > 100 and ROOT / "games" / "screens.py" in modules

    def test_no_application_module_is_longer_than_600_lines(self):
        assert too_long(application_modules()) == []

    def test_a_module_of_601_lines_is_found(self, tmp_path):
        long = tmp_path / "long.py"
        long.write_text("x = 1\n" * 601)
        short = tmp_path / "short.py"
        short.write_text("x = 1\n" * 600)
        assert [found.split(" ")[0] for found in too_long([long, short], tmp_path)] == ["long.py"]
