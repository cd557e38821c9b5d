"""The seam between the engines and the screens (issue 28): no import circles inside games/, one
declaration of the channel name, the bots' task sent by name."""

import ast
from pathlib import Path

from config.celery import app as celery_app
from games import screens, tasks
from games.engines.kernel.choices import amount, choice
from games.live import nudges, streams
from games.presenters.base import GENERIC, Words
from games.services import taps as service_taps

GAMES = Path(screens.__file__).resolve().parent


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
        for module in sorted((GAMES / "services").glob("*.py")):
            assert "games.tasks" not in imported_modules(module), module.name

    def test_the_nudges_never_import_the_event_streams(self):
        assert "games.live.streams" not in imported_modules(GAMES / "live" / "nudges.py")

    def test_an_import_inside_a_function_is_found(self, tmp_path):
        source = tmp_path / "m.py"
        source.write_text("def f():\n    from games.tasks import bot_move_task\n")
        assert "games.tasks" in imported_modules(source)


class WiringTests:
    def test_the_bots_task_is_sent_by_the_name_it_is_registered_under(self):
        sent = celery_app.tasks[service_taps.BOT_MOVE_TASK]
        assert sent.name == tasks.bot_move_task.name and sent.run is tasks.bot_move_task.run

    def test_the_event_streams_are_a_transport_registered_at_start_up(self):
        assert streams.inprocess_transport in nudges.TRANSPORTS

    def test_the_channel_name_is_built_in_one_place(self):
        assert streams._session_id(nudges.session_channel(42)) == 42
        assert streams.CHANNEL_FORMAT is nudges.CHANNEL_FORMAT


class OpenChoiceTests:
    """What a seat may do without claiming the turn comes from the engine's data (a choice for a
    seat that is not in the view's ``to_act``), never from a list of a game's action names."""

    CHOICES = [choice("wave", 1, times=amount(1, 3)), choice("cheer", 1)]

    def test_a_choice_of_a_seat_the_game_is_not_waiting_for_is_open(self):
        groups = GENERIC.controls(self.CHOICES, {"to_act": [0]}, Words({}), None)
        assert [(g["type"], g["open"]) for g in groups] == [("wave", True), ("cheer", True)]

    def test_the_choices_of_the_seat_that_must_act_are_its_decisions(self):
        groups = GENERIC.controls(self.CHOICES, {"to_act": [1]}, Words({}), None)
        assert [g["open"] for g in groups] == [False, False]

    def test_the_seat_screen_splits_them(self):
        groups = GENERIC.controls(self.CHOICES[:1], {"to_act": [0]}, Words({}), None)
        split = screens._split_open(
            groups + GENERIC.controls(self.CHOICES[1:], {"to_act": [1]}, Words({}), None)
        )
        assert [g["type"] for g in split["groups"]] == ["cheer"]
        assert [g["type"] for g in split["open_groups"]] == ["wave"]
