from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Table companion"

    def ready(self) -> None:
        """Wire what the lower modules must not import: the live-update transport of the event
        streams (games.live.streams imports games.live.nudges, so nudges learns of it here) and the tasks,
        which the services send by name (games.services.taps.BOT_MOVE_TASK)."""
        from games import tasks  # noqa: F401  # registered with the Celery app
        from games.live import nudges, streams

        nudges.register_transport(streams.inprocess_transport)
