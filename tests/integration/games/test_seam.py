"""The seam between the engines and the screens (issue 28): no import circles inside games/, one
declaration of the channel name, the bots' task sent by name."""

import ast
from pathlib import Path

from config.celery import app as celery_app
from games import events, nudges, services, tasks

GAMES = Path(services.__file__).resolve().parent


def imported_modules(path: Path) -> set[str]:
    """Every module a file imports, at the top or inside a function."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found |= {f"{node.module}.{alias.name}" for alias in node.names}
    return found


class ImportCircleTests:
    def test_the_services_never_import_the_tasks(self):
        assert "games.tasks" not in imported_modules(GAMES / "services.py")

    def test_the_nudges_never_import_the_event_streams(self):
        assert "games.events" not in imported_modules(GAMES / "nudges.py")

    def test_an_import_inside_a_function_is_found(self, tmp_path):
        source = tmp_path / "m.py"
        source.write_text("def f():\n    from games.tasks import bot_move_task\n")
        assert "games.tasks" in imported_modules(source)


class WiringTests:
    def test_the_bots_task_is_sent_by_the_name_it_is_registered_under(self):
        sent = celery_app.tasks[services.BOT_MOVE_TASK]
        assert sent.name == tasks.bot_move_task.name and sent.run is tasks.bot_move_task.run

    def test_the_event_streams_are_a_transport_registered_at_start_up(self):
        assert events.inprocess_transport in nudges.TRANSPORTS

    def test_the_channel_name_is_built_in_one_place(self):
        assert events._session_id(nudges.session_channel(42)) == 42
        assert events.CHANNEL_FORMAT is nudges.CHANNEL_FORMAT
