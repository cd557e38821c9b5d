from django.apps import AppConfig


class CampaignConfig(AppConfig):
    name = "campaign"
    verbose_name = "King's Dilemma campaigns"

    def ready(self) -> None:
        # Registers the Celery tasks in every process (web too): the services send them by name.
        from campaign import tasks  # noqa: F401
