"""Whatever the app accepts, its export imports (the property): a campaign night is played by
random legal actions, each sent through the API or through the pages (a phone's seat page, the
host's table), many of them made hostile first (control and bidi characters, lone surrogates, keys
no choice names); no answer is a 500, a clean action is applied, and a hostile one is refused
with nothing written. Then the campaign is exported: the export is ready, and its file imports.
Runs on SQLite and PostgreSQL (``database``: they store text and JSON differently)."""

from __future__ import annotations

import json
import random
import uuid

import pytest
from django.db import transaction
from django.test import Client
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from campaign.models import CampaignExport
from campaign.services.archive.export_queue import campaign_export_request, campaign_export_write
from campaign.services.archive.restore import campaign_import
from games.engines.kernel.choices import draw_action
from games.engines.kernel.registry import get_game
from games.models import GameSession
from tests.integration.campaign.test_archive_restores import paused_night
from tests.unit.contract import property_examples

pytestmark = [pytest.mark.database, pytest.mark.django_db]

RULES = get_game("kings_dilemma")
HOSTILE_CHARACTERS = [
    "\x1b",
    "\x00",
    "\x7f",
    "\x85",
    "\u202e",
    "\u202a",
    "\u2066",
    "\u2069",
    "\u200e",
    "\ud800",
    "\udfff",
]
HOSTILE_TEXT = st.builds(
    lambda before, bad, after: before + bad + after,
    st.text(alphabet="ab \n", max_size=3),
    st.sampled_from(HOSTILE_CHARACTERS),
    st.text(alphabet="ab", max_size=3),
)
MUTATIONS = st.one_of(
    st.just(("none",)),
    st.tuples(
        st.just("extra key"), st.sampled_from(["note", "comment", "x"]), HOSTILE_TEXT | st.just("plain")
    ),
    st.tuples(st.just("hostile key"), HOSTILE_TEXT),
    st.tuples(st.just("hostile value"), HOSTILE_TEXT),
)
CHANNELS = st.sampled_from(["api", "page"])
STEPS = st.lists(st.tuples(CHANNELS, MUTATIONS, st.integers(0, 2**16)), min_size=4, max_size=10)


def _strings(value, path=()):
    """The paths to every text value of an action (its ``type`` aside)."""
    if isinstance(value, dict):
        for key, child in value.items():
            if path or key != "type":
                yield from _strings(child, (*path, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            yield from _strings(child, (*path, index))
    elif isinstance(value, str):
        yield path


def mutated(action: dict, mutation: tuple, rng: random.Random) -> dict:
    kind = mutation[0]
    if kind == "extra key":
        return {**action, mutation[1]: mutation[2]}
    if kind == "hostile key":
        return {**action, mutation[1]: 1}
    if kind == "hostile value":
        paths = list(_strings(action))
        if not paths:
            return {**action, "note": mutation[1]}
        changed = json.loads(json.dumps(action))
        *parents, last = rng.choice(paths)
        place = changed
        for key in parents:
            place = place[key]
        place[last] = mutation[1]
        return changed
    return action


def a_legal_action(session: GameSession, rng: random.Random) -> tuple[int | None, dict]:
    state = session.state
    options = [
        (seat, c) for seat in [None, *range(len(state["seats"]))] for c in RULES.legal_actions(state, seat)
    ]
    seat, choice = rng.choice(options)
    return seat, draw_action(RULES, state, choice, rng)


def sent(channel: str, session: GameSession, seat: int | None, action: dict, host) -> int:
    """Send ``action`` for ``seat`` (None: the table) through the API or the page: the status."""
    version = session.version
    if channel == "api":
        client = APIClient()
        if seat is None:
            client.force_authenticate(host)
            address = f"/api/sessions/{session.pk}/table/actions/submit/"
        else:
            client.credentials(HTTP_X_SEAT_TOKEN=session.seats.get(index=seat).token)
            address = f"/api/sessions/{session.pk}/seats/{seat}/actions/submit/"
        body = json.dumps({"action": action, "expected_version": version})  # a surrogate as \\ud800
        return client.post(
            address, body, content_type="application/json", HTTP_IDEMPOTENCY_KEY=uuid.uuid4().hex
        ).status_code
    client = Client()
    if seat is None:
        client.force_login(host)
        address = f"/play/s/{session.pk}/act/"
    else:
        address = f"/play/seat/{session.seats.get(index=seat).token}/"
    form = {"action": json.dumps(action), "version": version, "key": uuid.uuid4().hex}
    return client.post(address, form, headers={"HX-Request": "true"}).status_code


def play_hostile(campaign, session, host, steps) -> None:
    for channel, mutation, seed in steps:
        session.refresh_from_db()
        if not session.is_running:
            break
        rng = random.Random(seed)
        seat, action = a_legal_action(session, rng)
        action = mutated(action, mutation, rng)
        before = session.version
        status = sent(channel, session, seat, action, host)
        session.refresh_from_db()
        assert status < 500, (channel, mutation, action)
        if mutation[0] == "none":
            assert status == 200 and session.version == before + 1, (channel, action, status)
        else:  # a key no choice names, or a text the archive could not carry
            assert status in (400, 422) and session.version == before, (channel, mutation, status)


def exported_and_imported(campaign, host) -> None:
    export = campaign_export_request(campaign=campaign, requested_by=host)
    name = campaign_export_write(export_id=export.pk)
    export.refresh_from_db()
    assert export.status == CampaignExport.Status.READY, export.error
    from django.conf import settings

    text = (settings.MEDIA_ROOT / "exports" / name).read_text()
    copy = campaign_import(archive=json.loads(text), owner=host)
    assert copy.sessions.get().last_seq == campaign.sessions.get().last_seq


class HostileTapTests:
    def test_every_export_of_what_the_taps_accepted_imports(self, user, settings, tmp_path):
        settings.MEDIA_ROOT = tmp_path

        @hypothesis_settings(
            max_examples=property_examples(6),
            deadline=None,
            suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
        )
        @given(steps=STEPS)
        def check(steps):
            with transaction.atomic():
                campaign, session = paused_night(user)
                play_hostile(campaign, session, user, steps)
                exported_and_imported(campaign, user)
                transaction.set_rollback(True)

        check()
