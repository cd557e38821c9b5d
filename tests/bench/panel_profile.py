"""make bench, section "where a panel fetch's time goes" (issue 27, item 2: profile first): the
stages of a phone's panel fetch after a tap, each timed by wrapping the function that does it.
Registered in tests/bench/run.py."""

from __future__ import annotations

import collections
import contextlib
import random
import time
from collections.abc import Callable, Iterator

from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

TAPS = 60
HTMX = {"HTTP_HX_REQUEST": "true"}

# (where the stage's function is looked up, its name there, what the stage does). A stage's time
# is its own: what a stage below it took is not counted twice.
STAGES = (
    ("games.views", "seat_for_join_token", "the seat by its token, with its session row (one query)"),
    ("games.versions", "session_version_facts", "the version's seats and newest actions (as kept)"),
    ("games.screens", "seat_screen", "the seat's view, its presenter's words and controls"),
    ("games.views", "render_to_string", "the panel's template drawn"),
    ("games.versions", "cache", "the cache of facts and panels (read; written after a drawing)"),
)
REST = "the rest: middleware, URL, handler, test client"


class Stages:
    """Time spent in each wrapped function, without the wrapped functions it called."""

    def __init__(self) -> None:
        self.spent: dict[str, float] = collections.defaultdict(float)
        self._inner: list[float] = []

    def wrap(self, name: str, fn: Callable) -> Callable:
        def timed(*args, **kwargs):
            self._inner.append(0.0)
            t0 = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                took = time.perf_counter() - t0
                inner = self._inner.pop()
                self.spent[name] += took - inner
                if self._inner:
                    self._inner[-1] += took

        return timed


class _TimedCache:
    """The cache as games.versions uses it (get, set), timed as one stage."""

    def __init__(self, cache, stages: Stages, name: str) -> None:
        self._cache = cache
        self.get = stages.wrap(name, cache.get)
        self.set = stages.wrap(name, cache.set)

    def __getattr__(self, attr):
        return getattr(self._cache, attr)


@contextlib.contextmanager
def staged(stages: Stages) -> Iterator[None]:
    import importlib

    saved = []
    for module_name, attr, label in STAGES:
        module = importlib.import_module(module_name)
        original = getattr(module, attr)
        saved.append((module, attr, original))
        timed = _TimedCache(original, stages, label) if attr == "cache" else stages.wrap(label, original)
        setattr(module, attr, timed)
    try:
        yield
    finally:
        for module, attr, original in saved:
            setattr(module, attr, original)


def _fetch(client: Client, url: str, stages: Stages, kind: dict) -> None:
    with CaptureQueriesContext(connection) as queries:
        t0 = time.perf_counter()
        response = client.get(url, **HTMX)
        took = time.perf_counter() - t0
    if response.status_code != 200:
        raise RuntimeError(f"a panel fetch answered {response.status_code}")
    kind["total"] += took
    kind["fetches"] += 1
    kind["queries"].append(len(queries))


def panel_fetch_profile():
    """The stages of a phone's panel fetch after a tap (issue 27, item 2: profile first), in this
    process through Django's test client (PostgreSQL, the Redis cache), at a For the King table of
    5 seats: after each tap (`session_submit_action`, committed, so its commit callbacks run),
    every seat's phone fetches its panel once (HX-Request: the first drawing of that panel at that
    version), then a second device on seat 0 fetches it again (the panel cache). Each stage is
    timed by wrapping the function that does it, its own time only (a stage inside another is not
    counted twice); "the rest" is the fetch's time outside them. Mean per fetch; the profile of
    a single process, with no other client, so its times are lower than the servers' under load."""
    from django.contrib.auth import get_user_model

    from games.services.sessions import session_create
    from games.services.taps import session_submit_action
    from tests.integration.games.conftest import random_move

    host = get_user_model().objects.create_user(username=f"bench-profile-{time.time_ns()}")
    session = session_create(
        game="for_the_king", seat_names=["Anna", "Ben", "Cleo", "Dario", "Emma"], host=host, seed=2027
    )
    seats = list(session.seats.order_by("index"))
    phones = {seat.index: Client() for seat in seats}
    second = Client()
    urls = {seat.index: f"/play/seat/{seat.token}/" for seat in seats}
    for seat in seats:
        phones[seat.index].get(urls[seat.index])  # each phone joins (its first opening writes)
    rng = random.Random(2027)
    kinds = {
        "first": {"total": 0.0, "fetches": 0, "queries": [], "stages": Stages()},
        "again": {"total": 0.0, "fetches": 0, "queries": [], "stages": Stages()},
    }
    taps = 0
    while taps < TAPS and session.is_running:
        actor, action = random_move(session, rng)
        session_submit_action(session=session, seat=actor, action=action, expected_version=session.version)
        taps += 1
        first, again = kinds["first"], kinds["again"]
        with staged(first["stages"]):
            for seat in seats:
                _fetch(phones[seat.index], urls[seat.index], first["stages"], first)
        with staged(again["stages"]):
            _fetch(second, urls[0], again["stages"], again)
    lines = [
        f"{taps} taps; after each, 5 first fetches and 1 again.",
        "",
        "| stage | first fetch of a panel at a version | the same panel again (a second device) |",
        "|---|---|---|",
    ]
    means = {}
    for key, kind in kinds.items():
        staged_total = sum(kind["stages"].spent.values())
        means[key] = {label: kind["stages"].spent.get(label, 0.0) / kind["fetches"] for *_, label in STAGES}
        means[key][REST] = (kind["total"] - staged_total) / kind["fetches"]
        means[key]["total"] = kind["total"] / kind["fetches"]
    for label in [*(label for *_, label in STAGES), REST]:
        cells = []
        for key in kinds:
            value, total = means[key][label], means[key]["total"]
            cells.append(f"{value * 1000:.2f} ms ({value / total:.0%})" if value else "–")
        lines.append(f"| {label} | {cells[0]} | {cells[1]} |")
    lines.append(
        f"| **a fetch, in all** | **{means['first']['total'] * 1000:.2f} ms** "
        f"| **{means['again']['total'] * 1000:.2f} ms** |"
    )
    queries = {key: sorted(set(kind["queries"])) for key, kind in kinds.items()}
    lines.append(
        f"| SQL queries per fetch | {', '.join(map(str, queries['first']))} "
        f"| {', '.join(map(str, queries['again']))} |"
    )
    return "Where a panel fetch's time goes (the profile)", lines
