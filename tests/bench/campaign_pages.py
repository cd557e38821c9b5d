"""make bench, section "the campaign over months" (issue 16): the House page, the realm's statistics
and a night's story with 1, 15 and 50 nights, each night played through the session services and
saved into the campaign (tests/story_play.py), so that every figure drawn from the nights' logs is
real. Registered in tests/bench/run.py."""

from __future__ import annotations

import statistics
import time

from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

NIGHTS = (1, 15, 50)
REPEAT = 5


def _measure(client: Client, url: str, *, cold: bool) -> tuple[int, float]:
    """Queries of one GET, and the median time of REPEAT GETs (cold: the stories' cache emptied
    before each, so every night is replayed from its log)."""
    times = []
    queries = 0
    for _ in range(REPEAT):
        if cold:
            cache.clear()
        else:
            client.get(url)
        with CaptureQueriesContext(connection) as ctx:
            t0 = time.perf_counter()
            response = client.get(url)
            times.append(time.perf_counter() - t0)
        if response.status_code != 200:
            raise RuntimeError(f"{url} answered {response.status_code}")
        queries = len(ctx)
    return queries, statistics.median(times)


def campaign_over_months():
    """One campaign of four Houses grows to 50 nights, each played through `session_submit_action`
    (ten Dilemmas to the lightning space, a bargain, a tie the Moderator decides, a Chronicle
    sticker, an Envelope every other night) and saved with `game_night_record`. At 1, 15 and 50
    nights, through Django's test client in this process (PostgreSQL, the Redis cache): SQL queries
    and median time of 5 requests of each page. "Warm": every night's story is already in the cache
    (a finished night never changes, so it is told once and kept by session and version). "Cold":
    the cache emptied before each request, so every night is replayed from its log (one query for
    the logs of all the nights missing). The House page and the statistics read every night's
    story; a night's story (for a member, and by its read-only link) reads one."""
    from campaign.services.stories import story_link_create
    from tests.factories import UserFactory, campaign_with_houses
    from tests.story_play import HOUSES, night_played

    user = UserFactory(username=f"bench-months-{time.time_ns()}")
    campaign, houses = campaign_with_houses(*HOUSES, user=user, name="bench: the campaign over months")
    client = Client()
    client.force_login(user)
    anonymous = Client()
    rows = []
    built = 0
    build_seconds = 0.0
    for nights in NIGHTS:
        t0 = time.perf_counter()
        while built < nights:
            built += 1
            night_played(campaign, houses, built, host=user)
        build_seconds += time.perf_counter() - t0
        link = story_link_create(game=campaign.games.get(number=1), actor=user)
        pages = (
            ("House page", f"/campaigns/{campaign.pk}/houses/{houses[1].pk}/", client),
            ("statistics", f"/campaigns/{campaign.pk}/statistics/", client),
            ("statistics chart (council)", f"/campaigns/{campaign.pk}/statistics/council.svg", client),
            ("a night's story", f"/campaigns/{campaign.pk}/games/{nights}/story/", client),
            ("shared story (no account)", f"/stories/{link.token}/", anonymous),
        )
        for name, url, who in pages:
            warm_q, warm_t = _measure(who, url, cold=False)
            cold_q, cold_t = _measure(who, url, cold=True)
            rows.append((nights, name, warm_q, warm_t, cold_q, cold_t))
        print(f"   {nights} nights measured ({build_seconds:.0f} s of play so far)", flush=True)
    actions = sum(g.sessions.get().actions.count() for g in campaign.games.all())
    lines = [
        f"Built: {built} nights, {actions} logged actions, played and saved in {build_seconds:.0f} s.",
        "",
        "| nights | page | queries (warm) | median (warm) | queries (cold) | median (cold) |",
        "|---|---|---|---|---|---|",
    ]
    lines += [
        f"| {n} | {name} | {wq} | {wt * 1000:.1f} ms | {cq} | {ct * 1000:.1f} ms |"
        for n, name, wq, wt, cq, ct in rows
    ]
    return "The campaign over months: House page, statistics, a night's story", lines
