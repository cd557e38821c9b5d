from django.core.management.base import BaseCommand

from campaign.access import DEMO_USER
from campaign.demo import DEMO_PASSWORD, demo_campaign_load


class Command(BaseCommand):
    help = "Load the small demo campaign (idempotent)."

    def handle(self, *args, **options):
        campaign = demo_campaign_load()
        self.stdout.write(f"Demo campaign '{campaign.name}' ready. Log in as {DEMO_USER} / {DEMO_PASSWORD}.")
