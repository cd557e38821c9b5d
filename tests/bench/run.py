"""make bench: the figures of docs/benchmarks.md, measured on this machine, against PostgreSQL.

Run through scripts/bench.sh (it starts the throwaway PostgreSQL and Redis and stops them after).
Each section prints and returns its figures; the report is written to docs/benchmarks.md.
"""

from __future__ import annotations

import os
import platform
import sys
import time
from pathlib import Path

import django

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup()

from django.db import connection  # noqa: E402
from django.test.utils import CaptureQueriesContext, setup_test_environment  # noqa: E402

SECTIONS = []


def section(fn):
    SECTIONS.append(fn)
    return fn


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


@section
def campaign_page_queries():
    """SQL queries of the campaign page and the Realm Chronicles page with 1 and with 15 games."""
    import datetime

    from django.test import Client

    from campaign import services
    from tests.factories import UserFactory

    rows = []
    for games in (1, 15):
        user = UserFactory(username=f"bench-queries-{games}-{time.time_ns()}")
        campaign = services.campaign_create(name=f"bench {games}", created_by=user)
        houses = [services.house_create(campaign=campaign, name=f"H{i}", number=i + 1) for i in range(5)]
        for g in range(games):
            game = services.game_begin(
                campaign=campaign, king_name=f"K{g}", played_on=datetime.date(2026, 1, 1)
            )
            services.sticker_attach(
                campaign=campaign,
                number=g + 1,
                row="wealth",
                positive=bool(g % 2),
                signer=houses[g % 5],
                game=game,
            )
            services.game_result_record(
                game=game,
                end="king_died",
                rows=[
                    {
                        "house": h,
                        "secret_agenda": "greedy",
                        "agenda_points": i,
                        "open_agenda_points": 0,
                        "coins_points": 0,
                        "power_points": 0,
                    }
                    for i, h in enumerate(houses)
                ],
            )
        client = Client()
        client.force_login(user)
        counts = {}
        for name, url in (
            ("campaign page", f"/campaigns/{campaign.pk}/"),
            ("Realm Chronicles", f"/campaigns/{campaign.pk}/chronicles/"),
        ):
            with CaptureQueriesContext(connection) as ctx:
                assert client.get(url).status_code == 200
            counts[name] = len(ctx)
        rows.append((games, counts))
    lines = ["| games | campaign page queries | Realm Chronicles queries |", "|---|---|---|"]
    lines += [f"| {g} | {c['campaign page']} | {c['Realm Chronicles']} |" for g, c in rows]
    return "SQL queries per page", lines


def main():
    setup_test_environment()
    from django.conf import settings

    settings.ALLOWED_HOSTS = ["*"]
    report = [
        "# Benchmarks",
        "",
        f"Measured by `make bench` on {time.strftime('%Y-%m-%d')}: {platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, database {connection.vendor}.",
        "",
    ]
    only = set(sys.argv[1:])
    for fn in SECTIONS:
        if only and fn.__name__ not in only:
            continue
        title, lines = fn()
        print(f"== {title}")
        print("\n".join(lines))
        report += [f"## {title}", "", (fn.__doc__ or "").strip(), "", *lines, ""]
    if not only:
        (ROOT / "docs" / "benchmarks.md").write_text("\n".join(report))


if __name__ == "__main__":
    main()
