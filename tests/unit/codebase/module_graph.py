"""The app's modules and their imports, read with ``ast``: imports inside functions count as much as
those at the top (an import hidden in a function still makes an arrow, and may close a circle).
Shared by test_layers.py and test_import_circles.py."""

import ast
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
PACKAGES = ("config", "campaign", "games", "api")


@dataclass(frozen=True)
class Import:
    source: str  # the importing module
    target: str  # a module of the project (resolved), or the dotted name of anything else
    line: int
    function: str | None  # the function the import sits in; None at the top of the module


def app_modules(root: Path = ROOT) -> dict[str, Path]:
    """Every module of the app packages (migrations are history, not code that runs on import)."""
    found = {}
    for package in PACKAGES:
        for path in sorted((root / package).glob("**/*.py")):
            if "migrations" not in path.relative_to(root).parts:
                found[module_name(path, root)] = path
    return found


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _resolve(name: str, modules: dict[str, Path]) -> str:
    """The project module ``name`` lives in (itself, or the nearest package above), else ``name``."""
    probe = name
    while probe:
        if probe in modules:
            return probe
        probe = probe.rpartition(".")[0]
    return name


def _absolute(node: ast.ImportFrom, module: str, is_package: bool) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".") if is_package else module.split(".")[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


def _targets(node: ast.Import | ast.ImportFrom, module: str, modules: dict[str, Path]) -> list[str]:
    if isinstance(node, ast.Import):
        return [_resolve(alias.name, modules) for alias in node.names]
    base = _absolute(node, module, modules[module].name == "__init__.py")
    if base.partition(".")[0] not in PACKAGES:
        return [base]  # outside the project: the module named (django.db, redis)
    # ``from a import b``: the submodule a.b when there is one, else a name of a.
    return [_resolve(f"{base}.{alias.name}", modules) for alias in node.names]


def _imports_in(tree: ast.AST, module: str, modules: dict[str, Path]) -> list[Import]:
    found = []

    def visit(node: ast.AST, function: str | None) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Import | ast.ImportFrom):
                for target in dict.fromkeys(_targets(child, module, modules)):
                    found.append(Import(module, target, child.lineno, function))
            inner = child.name if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef) else None
            visit(child, function or inner)

    visit(tree, None)
    return found


def all_imports(root: Path = ROOT) -> list[Import]:
    modules = app_modules(root)
    found = []
    for module, path in modules.items():
        found += _imports_in(ast.parse(path.read_text(), filename=str(path)), module, modules)
    return found


def graph(root: Path = ROOT) -> dict[str, set[str]]:
    """module -> the project modules it imports (at the top or inside a function)."""
    modules = app_modules(root)
    arrows: dict[str, set[str]] = {module: set() for module in modules}
    for found in all_imports(root):
        if found.target in modules and found.target != found.source:
            arrows[found.source].add(found.target)
    return arrows
