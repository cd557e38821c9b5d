from django.apps import AppConfig


class CampaignConfig(AppConfig):
    name = "campaign"
    verbose_name = "King's Dilemma campaigns"

    def ready(self) -> None:
        # Registers the Celery tasks in every process (web too): the services send them by name.
        # What the table companion asks of a campaign's night, registered from here: games imports
        # nothing of campaign.
        from campaign import (
            access,
            tasks,  # noqa: F401
        )
        from games import access as games_access

        games_access.register_campaign_night_rule(access.night_kept_by)
        games_access.register_member_names(access.member_name)
        # The account's language and time zone carried into its session at log-in and sign-up.
        from campaign.views import preferences

        preferences.connect_signals()
        # Each account's e-mails in its language.
        from campaign import selectors
        from config import accounts

        accounts.register_recipient_language(selectors.account_language_for_email)
