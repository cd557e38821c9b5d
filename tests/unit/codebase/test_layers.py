"""Arrows only go down (docs/architecture.md section 1): pages and API -> services and selectors ->
models -> pure engines. Every import of the project (at the top of a module or inside a function) is
read with ``ast`` and checked against the layer of the module that makes it."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
ENGINE_PACKAGES = sorted(
    p.name for p in (ROOT / "games" / "engines").iterdir() if (p / "__init__.py").is_file()
)
PAGES_AND_API = ("api", "config.urls", "games.views", "games.forms", "campaign.views", "campaign.forms")
WRITERS_AND_READERS = ("campaign.services", "campaign.selectors", "games.services", "games.selectors")


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def under(name: str, prefixes) -> bool:
    return any(name == p or name.startswith(p + ".") for p in prefixes)


def layer(module: str) -> str | None:
    if under(module, ["games.engines"]) or module == "campaign.legacy":
        return "engine"
    if module in ("games.models", "campaign.models"):
        return "model"
    if under(module, WRITERS_AND_READERS) or under(module, ("games.presenters",)):
        return "service"
    return None


# What each layer may not import: everything above it.
FORBIDDEN = {
    "engine": (
        "django",
        "rest_framework",
        "config",
        "api",
        "games.models",
        "campaign.models",
        *WRITERS_AND_READERS,
        "games.presenters",
        "games.views",
        "campaign.views",
    ),
    "model": (*PAGES_AND_API, *WRITERS_AND_READERS, "games.presenters"),
    "service": PAGES_AND_API,
}


def arrows_going_up(root: Path = ROOT) -> list[str]:
    wrong = []
    for path in sorted(root.glob("**/*.py")):
        relative = path.relative_to(root).parts
        if relative[0] in (".venv", "tests", "docs") or "migrations" in relative:
            continue
        module = module_name(path, root)
        kind = layer(module)
        if kind is None:
            continue
        for name in sorted(imports(path)):
            if under(name, FORBIDDEN[kind]):
                wrong.append(f"{module} ({kind}) imports {name}")
    return wrong


class LayerTests:
    def test_the_layers_are_found(self):
        assert {"kernel", "kings_dilemma", "for_the_king", "council_of_four"} <= set(ENGINE_PACKAGES)
        assert (
            layer("games.engines.kings_dilemma.voting") == "engine" and layer("campaign.legacy") == "engine"
        )
        assert layer("campaign.services.stickers") == "service" and layer("games.models") == "model"

    def test_arrows_only_go_down(self):
        assert arrows_going_up() == []

    def test_an_arrow_going_up_is_reported(self, tmp_path):
        for name, source in {
            "games/engines/kings_dilemma/voting.py": "def f():\n    from django.db import transaction\n",
            "campaign/models.py": "from campaign.services import sticker_attach\n",
            "campaign/services/stickers.py": "from campaign import views\n",
            "games/selectors.py": "from games.engines.kernel.rules import TABLE\n",
        }.items():
            (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / name).write_text(source)
        assert arrows_going_up(tmp_path) == [
            "campaign.models (model) imports campaign.services",
            "campaign.models (model) imports campaign.services.sticker_attach",
            "campaign.services.stickers (service) imports campaign.views",
            "games.engines.kings_dilemma.voting (engine) imports django.db",
            "games.engines.kings_dilemma.voting (engine) imports django.db.transaction",
        ]
