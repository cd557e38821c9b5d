from django.core.management.base import BaseCommand

from campaign.access import DEMO_USER
from campaign.demo import demo_campaign_load

DEMO_READY = (
    "Demo campaign '{name}' ready: 'Open the demo campaign' on the home page logs this machine in as "
    "{user} (it has no password; other devices cannot open it)."
)


class Command(BaseCommand):
    help = "Load the small demo campaign (idempotent). Its account has no password."

    def handle(self, *args, **options):
        campaign = demo_campaign_load()
        self.stdout.write(DEMO_READY.format(name=campaign.name, user=DEMO_USER))
