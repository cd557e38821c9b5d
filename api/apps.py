from django.apps import AppConfig


class ApiConfig(AppConfig):
    name = "api"
    verbose_name = "REST API"

    def ready(self) -> None:
        # A password reset or change revokes the account's API tokens (allauth's signals).
        from api import signals  # noqa: F401
