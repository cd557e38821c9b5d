"""The path of a tap through the project's files (docs/architecture.md, "The path of a tap"): a real
tap posted by a phone through the test client, then another phone's panel fetch, each traced with
``sys.setprofile`` from the page's view to its answer.

Counted: the application files under games/, campaign/, api/ and config/ that the path enters once
the page's view is called (the middleware before it is the request's frame, not the path). The
engines (games/engines/) are not counted: they are the pure library behind the kernel's seam, with
rooms of their own. An *entry* is a call from a function of one counted file into a function of
another (library frames between them are skipped: Django calling a model field or a URL converter
of ours counts as the counted caller below it). A *re-entry* is an entry into a file still on the
stack below its caller: the path going back up into a file it had left, other than by returning."""

import json
import random
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode

import pytest
from django.conf import settings
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from games.engines.kernel.bots import bot_choose_action
from games.engines.kernel.registry import slugs
from tests.integration.games.conftest import acting_seat, new_session, rules_of

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[3]
COUNTED = ("games", "campaign", "api", "config")
NOT_COUNTED = ("games/engines/",)
VIEWS = "games/views.py"  # the path begins where the page's view is called
DOC = ROOT / "docs" / "architecture.md"
HTMX = {"HTTP_HX_REQUEST": "true"}
CSRF_FIELD = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
FORM = "application/x-www-form-urlencoded"  # as htmx posts a form

# What docs/architecture.md states ("The path of a tap"), asserted below.
TAP_FILES = 12
TAP_REENTRIES = 0  # the presenters' flow is one way: the shared code never calls back into the game
PANEL_FILES = 10
PANEL_REENTRIES = 0
# With Redis as the cache (production, make test), its client is ours: one file more on each path.
REDIS_CACHE, CACHE_CLIENT = "config.cache.ResilientRedisCache", "config/cache.py"


def counted(filename: str) -> str | None:
    """The file's path in the repository when the path counts it, else None."""
    try:
        relative = Path(filename).resolve().relative_to(ROOT).as_posix()
    except ValueError:
        return None
    if relative.split("/", 1)[0] not in COUNTED or relative.startswith(NOT_COUNTED):
        return None
    return relative


@dataclass
class Trace:
    files: list[str] = field(default_factory=list)  # in the order first entered
    entries: int = 0
    reentries: list[tuple[str, str]] = field(default_factory=list)  # (from, into)


def traced(call):
    """Run ``call()`` and follow it: (its result, its ``Trace``)."""
    trace = Trace()
    stack: list[str | None] = []  # the counted file of each frame (None: not counted)
    names: dict[str, str | None] = {}

    def profile(frame, event, arg):
        if event == "call":
            filename = frame.f_code.co_filename
            if filename not in names:
                names[filename] = counted(filename)
            into = names[filename]
            caller = next((f for f in reversed(stack) if f is not None), None)
            if caller is None and into != VIEWS:
                into = None  # before the view: not the path
            stack.append(into)
            if into is None or into == caller:
                return
            trace.entries += 1
            if into in stack[:-1]:
                trace.reentries.append((caller or "?", into))
            if into not in trace.files:
                trace.files.append(into)
        elif event == "return" and stack:
            stack.pop()

    sys.setprofile(profile)
    try:
        result = call()
    finally:
        sys.setprofile(None)
    return result, trace


def tap_form(seat, csrf: str) -> str:
    """The phone's form for one legal choice of ``seat``: ``choice``, its ``p_<name>`` fields (a
    pick posts its option as JSON), the version and a key."""
    session = seat.session
    action = bot_choose_action(rules_of(session), session.state, seat.index, random.Random(3))
    data = {
        "choice": action["type"],
        "version": session.version,
        "key": "tap-path",
        "csrfmiddlewaretoken": csrf,
    }
    data |= {f"p_{name}": json.dumps(value) for name, value in action.items() if name not in ("type", "seat")}
    return urlencode(data)


def a_tap_and_the_next_panel(**game):
    """(the tap's trace, the other phone's panel fetch's trace) of one tap at a running table
    (``game``: its slug, else the tests' default game)."""
    cache.clear()
    session = new_session(seed=11, **game)
    index, seat = acting_seat(session)
    other = session.seats.exclude(index=index).first()
    phone, other_phone = Client(), Client()
    url, other_url = (reverse("games:seat_page", args=[s.token]) for s in (seat, other))
    csrf = CSRF_FIELD.search(phone.get(url).content.decode()).group(1)
    other_phone.get(other_url)  # joined: its panel fetch writes nothing
    answer, tap = traced(lambda: phone.post(url, tap_form(seat, csrf), content_type=FORM, **HTMX))
    assert answer.status_code == 200
    assert session.actions.count() == 2  # the deal and the tap
    panel, fetch = traced(lambda: other_phone.get(other_url, **HTMX))  # drawn: nobody drew it yet
    assert panel.status_code == 200 and f'data-version="{session.version + 1}"'.encode() in panel.content
    return tap, fetch


class TapPathTests:
    def test_a_tap_and_the_next_panel_enter_the_files_the_doc_states(self):
        tap, fetch = a_tap_and_the_next_panel()
        redis = int(settings.CACHES["default"]["BACKEND"] == REDIS_CACHE)
        assert (len(tap.files), len(tap.reentries)) == (TAP_FILES + redis, TAP_REENTRIES), tap
        assert (len(fetch.files), len(fetch.reentries)) == (PANEL_FILES + redis, PANEL_REENTRIES), fetch
        assert (CACHE_CLIENT in tap.files, CACHE_CLIENT in fetch.files) == (bool(redis), bool(redis))

    @pytest.mark.parametrize("slug", slugs())
    def test_no_game_s_tap_goes_back_up_into_a_file_it_had_left(self, slug):
        """Every game's presenter keeps the flow one way: it writes its words as plain data and the
        shared presenter code builds from them, never calling back into the game."""
        tap, fetch = a_tap_and_the_next_panel(game=slug)
        assert tap.reentries == [] and fetch.reentries == [], (tap, fetch)

    def test_the_doc_states_these_numbers(self):
        text = " ".join(DOC.read_text().split())
        assert f"a tap enters {TAP_FILES} files" in text
        assert f"goes back up into a file it had left {TAP_REENTRIES} times" in text
        assert f"the next screen's panel enters {PANEL_FILES} files" in text
