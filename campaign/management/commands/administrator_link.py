from django.core.management.base import BaseCommand

from config.administrator import LINK_MAX_AGE, LINK_PATH, administrator_exists, administrator_link_token

LINK_PRINTED = (
    "No administrator yet. On this machine, open {url} to make one (the link works once, for "
    "{hours} hours), or run `python manage.py createsuperuser`. No sign-up administers the install."
)


class Command(BaseCommand):
    help = (
        "Print a one-time link that makes the install's administrator, while it has none "
        "(make run calls it; the console of this machine is the only place it appears)."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--base-url",
            default="http://localhost:8000",
            help="Where this machine's browser reaches Chronicle.",
        )

    def handle(self, *args, **options):
        if administrator_exists():
            return
        url = options["base_url"].rstrip("/") + LINK_PATH.format(token=administrator_link_token())
        self.stdout.write(LINK_PRINTED.format(url=url, hours=LINK_MAX_AGE // 3600))
