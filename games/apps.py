from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Table companion"

    def ready(self) -> None:
        """Wire what the lower modules must not import: the live-update transport of the event
        streams (games.events imports games.nudges, so nudges learns of it here) and the tasks,
        which the services send by name (games.services.common.BOT_MOVE_TASK)."""
        from games import events, nudges, tasks  # noqa: F401  # tasks: registered with the Celery app

        nudges.register_transport(events.inprocess_transport)
