"""Services read as named steps: no function in the writers is longer than a screen."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
WRITERS = [
    *sorted((ROOT / "campaign" / "services").glob("*.py")),
    *sorted((ROOT / "games" / "services").glob("*.py")),
]
MAX_LINES = 60


def long_functions(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    return [
        f"{path.name}:{node.lineno} {node.name} ({node.end_lineno - node.lineno + 1} lines)"
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and node.end_lineno - node.lineno + 1 > MAX_LINES
    ]


class FunctionLengthTests:
    def test_the_writers_are_found(self):
        assert len(WRITERS) > 5 and all(path.exists() for path in WRITERS)

    def test_no_service_function_is_longer_than_60_lines(self):
        assert [f for path in WRITERS for f in long_functions(path)] == []

    def test_a_long_function_is_reported(self, tmp_path):
        source = tmp_path / "long.py"
        source.write_text("def f():\n" + "    x = 1\n" * MAX_LINES)
        assert long_functions(source) == [f"long.py:1 f ({MAX_LINES + 1} lines)"]
