from django.apps import AppConfig
from django.db.models.signals import post_migrate

from config.ratelimits import limits_table_create


class ApiConfig(AppConfig):
    name = "api"
    verbose_name = "REST API"

    def ready(self) -> None:
        # A new password, however set, revokes the account's API tokens.
        from api.accounts import signals  # noqa: F401

        # The table companion reads API tokens through what the API registers: games imports nothing of api.
        from api.authentication import DeviceTokens
        from games import access

        access.register_api_tokens(DeviceTokens())

        # The log-in limits' table (config/ratelimits.py) after every migrate, make run's included.
        post_migrate.connect(limits_table_create, sender=self, dispatch_uid="chronicle-limits-table")
