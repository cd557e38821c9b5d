"""Arrows only go down (docs/architecture.md section 1): pages and API -> services and selectors ->
models -> engines, and from a higher app to a lower one (api -> campaign -> games -> config). Every import of the app (at the top of a module or inside a function) is read
with ``ast`` (module_graph.py) and checked against the layer of the module that makes it; the layers
are the table of the doc, and a test keeps the two the same."""

import re
import sys
from fnmatch import fnmatch
from pathlib import Path

from tests.unit.codebase.module_graph import ROOT, Import, all_imports, app_modules
from tests.unit.codebase.test_import_circles import CIRCLES_BEING_REMOVED

# Top to bottom. A module is in the lowest layer one of whose names covers it: ``a.b`` covers a.b
# and its submodules, ``*.b`` any package's b. What no layer covers is the framework (config/).
LAYERS = {
    "pages and API": (
        "api",
        "*.views",
        "games.screens",
        "*.forms",
        "*.urls",
        "*.admin",
        "*.apps",
        "campaign.management",
        "games.live",
        "config.urls",
        "config.asgi",
        "config.wsgi",
        "config.health",
    ),
    "services and selectors": (
        "*.services",
        "*.selectors",
        "*.story_selectors",
        "*.statistics_selectors",
        "campaign.sheet",
        "*.tasks",
        "games.presenters",
        "games.live.nudges",
        "games.versions",
        "games.access",
        "games.tonight",
        "campaign.access",
        "campaign.charts",
        "campaign.story_charts",
        "campaign.demo",
    ),
    "models": ("*.models", "campaign.colours", "games.translation"),
    "engines": ("games.engines", "campaign.legacy"),
}
FRAMEWORK = "framework"
ORDER = [*LAYERS, FRAMEWORK]
PROJECT = ("config", "campaign", "games", "api")
DOC = ROOT / "docs" / "architecture.md"


def covers(name: str, module: str) -> bool:
    return fnmatch(module, name) or fnmatch(module, name + ".*")


def layer(module: str) -> str:
    for kind in reversed(LAYERS):
        if any(covers(name, module) for name in LAYERS[kind]):
            return kind
    return FRAMEWORK


def _in_a_circle_being_removed(found: Import) -> bool:
    return any({found.source, found.target} <= part for part in CIRCLES_BEING_REMOVED)


def wrong_arrow(found: Import, modules: set[str]) -> str | None:
    """Why this import goes against the layers, or None."""
    kind, top = layer(found.source), found.target.partition(".")[0]
    if kind == "engines":
        # An engine imports the standard library and the engines only: nothing of Django or the project.
        if top in sys.stdlib_module_names or covers("games.engines", found.target):
            return None
        return "an engine imports only the standard library and the engines"
    if found.target not in modules:
        return None  # a library (Django, DRF, Celery) outside the engines
    target = layer(found.target)
    if kind == FRAMEWORK and target != FRAMEWORK:
        return "the framework (config/) imports nothing of campaign, games or api"
    if target != FRAMEWORK and ORDER.index(target) < ORDER.index(kind):
        return f"up to {target}"
    return None


def arrows_going_up(root: Path = ROOT) -> list[str]:
    modules = set(app_modules(root))
    wrong = []
    for found in all_imports(root):
        why = wrong_arrow(found, modules)
        if why and not _in_a_circle_being_removed(found):
            wrong.append(f"{found.source} ({layer(found.source)}) imports {found.target}: {why}")
    return sorted(set(wrong))


# The apps, bottom to top: an app imports only the apps below it (a night's access reaches games
# from campaign and api through what they register: games/access.py). The roots that wire every
# app together (the URLs, the ASGI application, the Celery app) are above them all.
APPS = ("config", "games", "campaign", "api")
APP_ROOTS = ("config.urls", "config.asgi", "config.celery")


def wrong_app(found: Import, modules: set[str]) -> str | None:
    """Why this import goes from a lower app to a higher one, or None."""
    if found.target not in modules or found.source in APP_ROOTS:
        return None
    source, target = found.source.partition(".")[0], found.target.partition(".")[0]
    if APPS.index(target) > APPS.index(source):
        return f"{source} is below {target}"
    return None


def apps_going_up(root: Path = ROOT) -> list[str]:
    modules = set(app_modules(root))
    wrong = []
    for found in all_imports(root):
        why = wrong_app(found, modules)
        if why:
            wrong.append(f"{found.source} imports {found.target}: {why}")
    return sorted(set(wrong))


# The pages' own modules: the API serves the same services and selectors as the pages, never
# through a page's module (its forms, its screens, its view helpers), so either can change alone.
PAGE_MODULES = ("*.views", "*.member_views", "*.story_views", "*.forms", "games.screens", "*.templatetags")


def is_page_module(module: str) -> bool:
    return not covers("api", module) and any(covers(name, module) for name in PAGE_MODULES)


def api_imports_of_pages(root: Path = ROOT) -> list[str]:
    """Every import of a page module of the project made by a module of the API (a library's forms,
    allauth's, are not pages of ours)."""
    modules = set(app_modules(root))
    return sorted(
        {
            f"{found.source} imports {found.target}: the API imports no page module"
            for found in all_imports(root)
            if covers("api", found.source) and found.target in modules and is_page_module(found.target)
        }
    )


def doc_layers(text: str) -> dict[str, tuple[str, ...]]:
    """The layer table of docs/architecture.md: ``| layer | `name`, `name` |`` rows, top to bottom."""
    rows = re.findall(r"^\| \*\*(.+?)\*\* \| (.+?) \|$", text, flags=re.MULTILINE)
    return {kind: tuple(re.findall(r"`([^`]+)`", names)) for kind, names in rows}


class LayerTests:
    def test_the_layers_are_found(self):
        assert layer("games.engines.kings_dilemma.voting") == "engines" == layer("campaign.legacy")
        assert (
            layer("campaign.services.stickers") == "services and selectors" == layer("api.accounts.services")
        )
        assert layer("games.models") == "models" == layer("api.models")
        assert layer("api.sessions.views") == "pages and API" == layer("campaign.views.story")
        assert layer("config.json_limits") == FRAMEWORK

    def test_the_doc_and_the_test_name_the_same_layers(self):
        assert doc_layers(DOC.read_text()) == LAYERS

    def test_arrows_only_go_down(self):
        assert arrows_going_up() == []

    def test_no_app_imports_a_higher_app(self):
        assert apps_going_up() == []

    def test_an_import_of_a_higher_app_is_reported_but_not_from_the_roots(self, tmp_path):
        for name, source in {
            "games/selectors.py": "from campaign.access import Need\n",
            "games/live/streams.py": "def f():\n    from api import throttles\n",
            "campaign/access.py": "from games.access import session_kept_by\n",
            "campaign/views.py": "from api.authentication import request_token_key\n",
            "api/throttles.py": "from config.ratelimits import client_address\n",
            "api/authentication.py": "from games import access\n",
            "config/ratelimits.py": "from games.models import Seat\n",
            "config/urls.py": "from api import urls\n",
            "config/asgi.py": "from games.live import asgi\n",
            "config/celery.py": "from campaign import tasks\n",
        }.items():
            (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / name).write_text(source)
        for package in ("games", "games/live", "campaign", "api", "config"):
            (tmp_path / package / "__init__.py").touch()
        for module in ("games/models.py", "games/access.py", "api/urls.py", "campaign/tasks.py"):
            (tmp_path / module).touch()
        assert apps_going_up(tmp_path) == [
            "campaign.views imports api.authentication: campaign is below api",
            "config.ratelimits imports games.models: config is below games",
            "games.live.streams imports api.throttles: games is below api",
            "games.selectors imports campaign.access: games is below campaign",
        ]

    def test_the_api_imports_no_page_module(self):
        assert api_imports_of_pages() == []

    def test_an_api_import_of_a_page_module_is_reported(self, tmp_path):
        for name, source in {
            "api/sessions/views.py": "from api.sessions import callers\nfrom games import screens\n",
            "api/sessions/callers.py": "def f():\n    from games.views import seat_page\n",
            "api/campaigns/members.py": "from campaign.forms import InvitationForm\nfrom campaign import selectors\n",
            "api/campaigns/story.py": "from campaign.story_views import story_page\n",
            "api/urls.py": "from api.campaigns import views\n",
            "api/accounts/services.py": "from allauth.account.forms import SignupForm\n",
            "games/views.py": "from games import screens\n",
            "games/screens.py": "",
            "campaign/forms.py": "",
            "campaign/story_views.py": "",
            "campaign/selectors.py": "",
        }.items():
            (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / name).write_text(source)
        assert api_imports_of_pages(tmp_path) == [
            "api.campaigns.members imports campaign.forms: the API imports no page module",
            "api.campaigns.story imports campaign.story_views: the API imports no page module",
            "api.sessions.callers imports games.views: the API imports no page module",
            "api.sessions.views imports games.screens: the API imports no page module",
        ]

    def test_an_arrow_going_up_is_reported(self, tmp_path):
        for name, source in {
            "games/engines/kings_dilemma/voting.py": "def f():\n    from django.db import transaction\n",
            "games/engines/kings_dilemma/board.py": "import random\nfrom games.engines.kernel import rng\n",
            "games/engines/kernel/rng.py": "from campaign import legacy\n",
            "campaign/legacy.py": "from games.engines.kernel import rng\n",
            "campaign/models.py": "from campaign.services.stickers import sticker_attach\n",
            "campaign/services/stickers.py": "def f():\n    from campaign import views\n",
            "campaign/views.py": "from campaign.services import stickers\n",
            "config/http.py": "from games.models import GameSession\n",
            "games/models.py": "from config.http import HttpRequest\n",
        }.items():
            (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / name).write_text(source)
        assert arrows_going_up(tmp_path) == [
            "campaign.models (models) imports campaign.services.stickers: up to services and selectors",
            "campaign.services.stickers (services and selectors) imports campaign.views: up to pages and API",
            "config.http (framework) imports games.models: the framework (config/) imports nothing of "
            "campaign, games or api",
            "games.engines.kernel.rng (engines) imports campaign.legacy: an engine imports only the "
            "standard library and the engines",
            "games.engines.kings_dilemma.voting (engines) imports django.db: an engine imports only the "
            "standard library and the engines",
        ]
