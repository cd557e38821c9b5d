"""The campaign services send their Celery tasks by name (no import of campaign/tasks.py, hence no
circle): every process must have registered those names at start-up, the web process too."""

import subprocess
import sys

from campaign.services.archive.export_queue import EXPORT_TASK
from campaign.services.chronicles import CHARTS_TASK
from tests.unit.codebase.module_graph import ROOT, all_imports

REGISTERED_AFTER_SETUP = """
import django
django.setup()
from config.celery import app
print(" ".join(sorted(name for name in app.tasks if name.startswith("campaign."))))
"""


class TasksByNameTests:
    def test_a_process_that_only_sets_django_up_knows_the_tasks_the_services_send(self):
        answer = subprocess.run(
            [sys.executable, "-c", REGISTERED_AFTER_SETUP],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        )
        registered = set(answer.stdout.split())
        assert {EXPORT_TASK, CHARTS_TASK, "campaign.tasks.campaign_export_sweep_task"} <= registered

    def test_the_services_never_import_the_tasks_module(self):
        senders = {i.source for i in all_imports() if i.target == "campaign.tasks"}
        assert senders == {"campaign.apps"}
