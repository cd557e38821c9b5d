"""Issue 29 item 9: an operation's summary and description become a generated client's docstrings,
so they are written for a client developer, never internal notes: no Python module or file, no
"issue NN", no reStructuredText literal or ``self.``, no name of a function of the code (a word with
an underscore that is not one of the API's own words: a field, a parameter, an enum value, an error
code)."""

import ast
import re
from pathlib import Path

import pytest
from drf_spectacular.generators import SchemaGenerator

from config.api_errors import ERROR_CODES

ROOT = Path(__file__).resolve().parents[3]
PACKAGES = ("api", "campaign", "games", "config")
NOTES = {
    "a Python file": re.compile(r"\b[\w/]+\.py\b"),
    "an issue number": re.compile(r"\bissue\s*#?\d+", re.I),
    "a reStructuredText literal": re.compile(r"``"),
    "self.": re.compile(r"\bself\."),
    "a module path": re.compile(r"\b(?:" + "|".join(PACKAGES) + r")\.[a-z_]+\.[a-z_]+"),
}
SNAKE = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")


def code_functions() -> set[str]:
    """The names of the functions and methods the project defines."""
    names = set()
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                    names.add(node.name)
    return names


def example_words(example) -> set[str]:
    """The keys and words of an example answer (an event's type, an error's extra)."""
    if isinstance(example, dict):
        return {str(k) for k in example} | {w for v in example.values() for w in example_words(v)}
    if isinstance(example, list):
        return {w for v in example for w in example_words(v)}
    if isinstance(example, str):
        return set(SNAKE.findall(example))
    return set()


def api_words(schema: dict) -> set[str]:
    """Every name the API itself publishes: properties, parameters, enum values, error codes, and the
    words of its examples."""
    words = set(ERROR_CODES)

    def walk(value):
        if isinstance(value, dict):
            words.update(str(k) for k in value.get("properties", {}))
            words.update(str(v) for v in value.get("enum", []) if isinstance(v, str))
            if "name" in value and "in" in value:
                words.add(str(value["name"]))
            words.update(example_words(value.get("example")))
            for named in (
                (value.get("examples") or {}).values() if isinstance(value.get("examples"), dict) else []
            ):
                words.update(example_words(named.get("value") if isinstance(named, dict) else named))
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk(schema)
    return words


def internal_notes(text: str, *, functions: set[str], public: set[str]) -> list[str]:
    found = [what for what, pattern in NOTES.items() if pattern.search(text)]
    found += [f"the function {name}" for name in SNAKE.findall(text) if name in functions - public]
    return found


@pytest.fixture(scope="module")
def schema() -> dict:
    return SchemaGenerator().get_schema(request=None, public=True)


def operations(schema: dict):
    for path, methods in schema["paths"].items():
        for method, operation in methods.items():
            yield f"{method.upper()} {path}", operation


class OperationDescriptionTests:
    def test_no_operation_reads_like_an_internal_note(self, schema):
        functions, public = code_functions(), api_words(schema)
        found = {
            label: notes
            for label, operation in operations(schema)
            if (
                notes := internal_notes(
                    f"{operation.get('summary', '')}\n{operation.get('description', '')}",
                    functions=functions,
                    public=public,
                )
            )
        }
        assert not found, found

    def test_the_check_finds_the_notes_the_schema_held(self, schema):
        """What the descriptions said before (inherited from the views' base classes) is caught."""
        functions, public = code_functions(), api_words(schema)
        before = {
            "A view under /api/campaigns/<campaign_id>/: ``self.campaign`` is set for members": [
                "a reStructuredText literal",
                "self.",
            ],
            "Write the archive (campaign/services/archive.py)": ["a Python file"],
            "The request path budget of issue 18": ["an issue number"],
            "Calls campaign.services.archive and campaign_export_enqueue.": [
                "a module path",
                "the function campaign_export_enqueue",
            ],
            "Send it with the expected_version and a status_url": [],
        }
        for text, notes in before.items():
            assert internal_notes(text, functions=functions, public=public) == notes, text

    def test_every_operation_has_a_summary_and_these_modules_a_description(self, schema):
        described = ("/api/campaigns/",)
        for label, operation in operations(schema):
            assert operation.get("summary"), label
            if label.split(" ", 1)[1].startswith(described):
                assert len(operation.get("description", "")) > 60, label
