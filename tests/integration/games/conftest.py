"""Helpers for session tests: a session factory, a seeded random player and ``verify_nudge``,
the Zulip ``verify_action`` of our sessions."""

import json
import random
from contextlib import contextmanager

import pytest

from games.engines.kernel.bots import bot_choose_action
from games.engines.kernel.registry import get_game
from games.live import nudges
from games.models import GameSession
from games.selectors import session_view_for_seat, session_view_for_table
from games.services.sessions import session_create
from games.services.taps import session_submit_action
from games.services.undo import session_replay

GAME = "for_the_king"
NAMES = ["Anna", "Bruno", "Chiara"]


def new_session(*, names=NAMES, host=None, seed=7, game=GAME, **kwargs) -> GameSession:
    return session_create(game=game, seat_names=list(names), host=host, seed=seed, **kwargs)


def rules_of(session):
    return get_game(session.game)


def acting_seat(session):
    """The Seat object (or None for the table) of the first seat that must act now (the view's
    ``to_act``: a House that may only bargain is not acting)."""
    rules = rules_of(session)
    active = rules.view(session.state, None).get("to_act") or rules.active_seats(session.state)
    if not active:
        return None, None
    index = active[0]
    seat = None if index is None else session.seats.get(index=index)
    return index, seat


def random_move(session, rng: random.Random):
    """A legal action for the first seat that can act, chosen with ``rng``: (seat, action)."""
    index, seat = acting_seat(session)
    action = bot_choose_action(rules_of(session), session.state, index, rng)
    return seat, action


def play(session, rng: random.Random, moves: int) -> int:
    """Play up to ``moves`` random legal actions; returns how many were played."""
    played = 0
    while played < moves and session.status == GameSession.Status.ACTIVE:
        seat, action = random_move(session, rng)
        session_submit_action(session=session, seat=seat, action=action, expected_version=session.version)
        played += 1
    return played


def all_views(session) -> dict:
    views = {"table": session_view_for_table(session=session)}
    for seat in session.seats.all():
        views[seat.index] = session_view_for_seat(session=session, seat=seat)
    return views


@pytest.fixture
def nudge_log(monkeypatch):
    """Every nudge published, as (channel, message JSON text)."""
    sent: list[tuple[str, str]] = []
    monkeypatch.setattr(nudges, "TRANSPORTS", [*nudges.TRANSPORTS, lambda c, m: sent.append((c, m))])
    return sent


@pytest.fixture
def verify_nudge(django_capture_on_commit_callbacks, nudge_log):
    """Run a service under captured on-commit callbacks and check, like Zulip's verify_action:
    exactly ``num_nudges`` nudges, each only {type, session, version} and JSON all the way; the
    cached state equals a fresh replay of the log; every seat view and the table view refetched
    from the database equal the engine's views of that replay; and something changed."""

    @contextmanager
    def verify(session, *, num_nudges: int = 1, state_change_expected: bool = True):
        before = all_views(GameSession.objects.get(pk=session.pk))
        start = len(nudge_log)
        with django_capture_on_commit_callbacks(execute=True):
            yield
        sent = nudge_log[start:]
        assert len(sent) == num_nudges, sent

        fresh = GameSession.objects.get(pk=session.pk)
        for channel, message in sent:
            data = json.loads(message)
            assert json.loads(json.dumps(data)) == data
            assert set(data) == {"type", "session", "version"}
            assert data["type"] == "session_version"
            assert data["session"] == fresh.pk
            assert channel == f"session-{fresh.pk}"
        if sent:
            assert json.loads(sent[-1][1])["version"] == fresh.version

        replayed = session_replay(session=fresh)
        assert fresh.state == replayed
        rules = rules_of(fresh)
        after = all_views(fresh)
        running = fresh.status == GameSession.Status.ACTIVE
        for key, got in after.items():
            index = None if key == "table" else key
            assert json.loads(json.dumps(got)) == got
            assert got["version"] == fresh.version
            assert got["view"] == rules.view(replayed, index), f"view of {key} differs from replay"
            expected_actions = rules.legal_actions(replayed, index) if running else []
            assert got["legal_actions"] == expected_actions
        if state_change_expected:
            assert after != before, "nothing changed"
        else:
            assert after == before

    return verify


@pytest.fixture
def play_verified(verify_nudge):
    """Play up to ``moves`` random legal actions, each submitted under ``verify_nudge``: one nudge,
    every refetched view equal to the view of a fresh replay of the log, and something changed.
    Returns how many were played."""

    def run(session, rng: random.Random, moves: int) -> int:
        played = 0
        while played < moves and session.status == GameSession.Status.ACTIVE:
            seat, action = random_move(session, rng)
            with verify_nudge(session):
                session_submit_action(
                    session=session, seat=seat, action=action, expected_version=session.version
                )
            played += 1
        return played

    return run


def without_tokens(html: str, session) -> str:
    """A page without its session's seat tokens: random, they may hold a card's id by chance."""
    for token in session.seats.values_list("token", flat=True):
        html = html.replace(token, "")
    return html
