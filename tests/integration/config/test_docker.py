"""The compose file is checked here (no Docker engine runs in CI): every service's command
points at code that exists, and the stack has what production needs."""

import importlib
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[3]
COMPOSE = yaml.safe_load((ROOT / "docker" / "compose.yaml").read_text())


def command_of(service):
    return COMPOSE["services"][service]["command"]


class ComposeTests:
    def test_has_web_worker_beat_database_and_redis_with_health_checks(self):
        services = COMPOSE["services"]
        assert {"web", "worker", "beat", "db", "redis"} <= set(services)
        for name in ("web", "worker", "db", "redis"):
            assert "healthcheck" in services[name], name
        assert services["web"]["deploy"]["replicas"] >= 2
        assert "pgdata" in COMPOSE["volumes"]

    def test_web_serves_the_asgi_application_with_uvicorn_workers(self):
        """The live event streams need ASGI (games/live/streams.py); gunicorn runs uvicorn workers."""
        command = command_of("web")
        assert command[0] == "gunicorn"
        module, attr = command[1].split(":")
        assert module == "config.asgi"
        assert hasattr(importlib.import_module(module), attr)
        worker = command[command.index("--worker-class") + 1]
        worker_module, worker_class = worker.rsplit(".", 1)
        assert hasattr(importlib.import_module(worker_module), worker_class)
        assert "config.asgi:application" in (ROOT / "docker" / "Dockerfile").read_text()

    def test_celery_commands_name_the_project_app(self):
        for service in ("worker", "beat"):
            command = command_of(service)
            assert command[:3] == ["celery", "-A", "config"]
            assert command[3] == service
        from config.celery import app

        assert app.main == "chronicle"

    def test_migrate_runs_a_real_management_command(self):
        assert command_of("migrate")[:2] == ["python", "manage.py"]
        assert (ROOT / "manage.py").is_file()

    def test_dockerfile_runs_as_non_root_and_collects_static_files(self):
        dockerfile = (ROOT / "docker" / "Dockerfile").read_text()
        assert "USER chronicle" in dockerfile and "collectstatic" in dockerfile
        assert "requirements.txt" in dockerfile

    def test_no_secret_is_committed_in_compose(self):
        app_env = COMPOSE["x-app"]["environment"]
        assert app_env["SECRET_KEY"].startswith("${SECRET_KEY")

    def test_web_and_worker_share_the_media_volume(self):
        """An export the worker writes must be downloadable from every web replica."""
        media = COMPOSE["x-app"]["environment"]["MEDIA_ROOT"]
        for service in ("web", "worker"):
            volumes = COMPOSE["services"][service].get("volumes") or COMPOSE["x-app"].get("volumes", [])
            assert f"media:{media}" in volumes, service
        assert "media" in COMPOSE["volumes"]
