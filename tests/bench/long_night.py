"""make bench, section "a long night" (issue 27, item 4): undo and a night's story at 50 and at 3,000
logged actions, side by side in one run. Registered in tests/bench/run.py."""

from __future__ import annotations

import json
import statistics
import time

from django.core.cache import cache
from django.db import transaction
from django.test import Client

from games.services.taps import SNAPSHOT_EVERY

SIZES = (50, 3000)
REPEAT = 7
ROWS = ("influence", "wealth", "morale", "welfare", "knowledge")
UNDO_TARGET = STORY_TARGET = 2.0  # at most this many times the cost at 50 actions


class Night:
    """A King's Dilemma session played by the engine in memory, then written as the service writes
    it: one SessionAction per action, a SessionSnapshot every SNAPSHOT_EVERY, the session's state and
    version. Played through ``session_submit_action``, a 3,000-action night takes minutes (each action
    copies, encodes and writes the whole state, 200 KB by then: every card met is kept; the engine's
    ``describe`` copies it too), so the state is changed in place as the engine's own replay does
    (``kings_dilemma.story.replay``) and encoded only for the snapshots and at the end. The labels of
    these actions are the service's fallback (the action's type), their undoable flags the engine's
    answer with a shallow copy of the state before: neither enters the figures (the story is told from
    the payloads; the action undone is played through the service)."""

    def __init__(self, session):
        from games.services.taps import session_rules

        self.session = session
        self.rules = session_rules(session)
        self.state = session.state
        self.rows: list[tuple] = []
        self.snapshots: dict[int, dict] = {}

    def play(self, seat: int | None, kind: str, **fields) -> dict:
        action = {"type": kind, "seat": seat, **fields}
        before = {**self.state}
        label = kind.replace("_", " ")  # the service's label when the engine cannot describe
        self.state["news"] = []  # as the engine's apply: each action's own consequences
        self.rules.apply_in_place(self.state, action)  # type: ignore[attr-defined]
        undoable = bool(self.rules.undoable(before, action, self.state))
        self.rows.append((seat, action, label, undoable))
        seq = self.session.last_seq + len(self.rows)
        if seq % SNAPSHOT_EVERY == 0:
            self.snapshots[seq] = json.loads(json.dumps(self.state))
        return self.state

    def write(self) -> None:
        from games.models import GameSession, SessionAction, SessionSnapshot

        s = self.session
        actions: list = []
        for i, (seat, action, label, undoable) in enumerate(self.rows, start=1):
            seq, version = s.last_seq + i, s.version + i
            actions.append(SessionAction(session=s, seq=seq, seat=seat, payload=action, label=label,
                                         undoable=undoable, version=version))  # fmt: skip
        with transaction.atomic():
            SessionAction.objects.bulk_create(actions, batch_size=500)
            SessionSnapshot.objects.bulk_create(
                [SessionSnapshot(session=s, seq=seq, state=state) for seq, state in self.snapshots.items()]
            )
            GameSession.objects.filter(pk=s.pk).update(
                state=json.loads(json.dumps(self.state)),
                version=s.version + len(self.rows),
                last_seq=s.last_seq + len(self.rows),
            )
        s.refresh_from_db()
        self.rows, self.snapshots = [], {}


def _vote(night: Night, side: str) -> dict:
    """The first seat with Power votes ``side`` with 1; the others pass (tests/kd_play.vote_through)."""
    state, voted = night.state, False
    while state["phase"] == "voting":
        seat = state["vote"]["turn"]
        if state["vote"]["choice"][seat] is not None:
            state = night.play(seat, "stay")
        elif not voted and state["seats"][seat]["power"] > 0:
            state = night.play(seat, "vote", side=side, power=1)
            voted = True
        else:
            state = night.play(seat, "pass_gather")
    if state["phase"] == "tie_break":
        state = night.play(state["moderator"], "break_tie", side=side)
    if state["phase"] == "leader_choice":
        state = night.play(state["moderator"], "give_leader", to=state["leader_candidates"][0])
    return state


def _dilemma(night: Night, number: int) -> None:
    """One Dilemma drawn, voted (sides alternate: the realm stays level) and read, left in its
    resolution (the host may move a Resource by hand there, and undo it)."""
    row = ROWS[number % 5]
    card = {
        "number": number, "title": f"Dilemma {number}", "question": f"Shall the realm answer question {number}?",
        "aye": {"resources": [[row, "up"]], "sticker": None}, "nay": {"resources": [[row, "down"]], "sticker": None},
    }  # fmt: skip
    night.play(None, "draw_dilemma", card=card)
    state = _vote(night, "aye" if number % 2 else "nay")
    outcome = [[row, 1 if state["winning_side"] == "aye" else -1]]
    night.play(
        None,
        "read_outcome",
        outcome={"resources": outcome, "sticker": None, "envelope": None, "lightning": False},
    )


def long_night(campaign, houses, host, actions: int):
    """The campaign's first night (a card drawn on an earlier night is refused), with at least
    ``actions`` logged actions: the draft through the service, then Dilemmas sent to the Event area."""
    from campaign.services.game_nights import game_night_start
    from tests.kings_dilemma_play import draft
    from tests.story_play import _first_two_open_agendas

    keep = _first_two_open_agendas(campaign, houses)
    session = game_night_start(
        campaign=campaign, houses=houses, king_name=f"Long {actions}", host=host, seed=actions, keep=keep
    )
    draft(session)
    session.refresh_from_db()
    night, number = Night(session), 0
    while True:
        number += 1
        _dilemma(night, number)
        if session.last_seq + len(night.rows) >= actions:
            night.write()
            return _with_its_game(session)
        night.play(None, "to_event_area", label="Event")


def _with_its_game(session):
    """A night's story is a page of the campaign once the night is saved as a game of the Realm
    Chronicles: the long night, still played, gets its game row as its save would write it (so its
    story is read while it grows, as a night begun before saves wrote the game)."""
    from campaign.services.chronicles import game_begin
    from games.services.sessions import session_night_saved

    game = game_begin(campaign=session.campaign, king_name=session.config["king_name"], aging=[])
    return session_night_saved(session=session, chronicle_game=game)


def undo_times(session) -> list[float]:
    """REPEAT undos of a Resource moved by hand (each played again first, through the service)."""
    from games.services.undo import session_undo
    from tests.kings_dilemma_play import play

    times = []
    for _ in range(REPEAT):
        play(session, None, "move_resource", row="wealth", amount=1, label="bench")
        session.refresh_from_db()
        t0 = time.perf_counter()
        session_undo(session=session, by=session.host)
        times.append(time.perf_counter() - t0)
    return times


def story_times(client: Client, url: str, *, cold: bool) -> tuple[list[float], int]:
    """REPEAT GETs of the night's story (cold: the stories' cache emptied before each), and its size."""
    times, size = [], 0
    for _ in range(REPEAT):
        if cold:
            cache.clear()
        else:
            client.get(url)
        t0 = time.perf_counter()
        response = client.get(url)
        times.append(time.perf_counter() - t0)
        if response.status_code != 200:
            raise RuntimeError(f"{url} answered {response.status_code}")
        size = len(response.content)
    return times, size


def _row(what: str, small: list[float], big: list[float], target: float | None, sizes: str = "") -> str:
    a, b = statistics.median(small), statistics.median(big)
    verdict = "" if target is None else f" ({'met' if b / a <= target else '**not met**'}: ≤ {target:.0f}×)"
    return f"| {what} | {a * 1000:.1f} ms | {b * 1000:.1f} ms | {b / a:.1f}×{verdict} | {sizes} |"


def long_night_section():
    """Undo and a night's story with 50 and with 3,000 logged actions, side by side in this run
    (PostgreSQL, the Redis cache, this process). Two King's Dilemma nights of their own campaigns:
    the draft through `session_submit_action`, then Dilemmas drawn, voted, read and sent to the Event
    area (the last one left in its resolution) until the log holds the actions wanted, each action
    applied, described and judged undoable by the engine as the service does, and written as the
    service writes them (the actions, a snapshot every 100, the state). Undo: the host's
    `session_undo` of a Resource moved by hand, played again before each of 7 undos (median). The
    story: the member's page of the night through Django's test client, median of 7; "cold" empties
    the stories' cache before each request (the night told again from its log, as the first reader
    after each action finds it), "warm" reads the story told once; a long night's story is told 20
    Dilemmas a page."""
    from tests.factories import UserFactory, campaign_with_houses
    from tests.story_play import HOUSES

    measured = {}
    for size in SIZES:
        t0 = time.perf_counter()
        user = UserFactory(username=f"bench-long-{size}-{time.time_ns()}")
        campaign, houses = campaign_with_houses(*HOUSES, user=user, name=f"bench: a night of {size}")
        session = long_night(campaign, houses, user, size)
        built = time.perf_counter() - t0
        client = Client()
        client.force_login(user)
        url = f"/campaigns/{campaign.pk}/games/{session.chronicle_game.number}/story/"
        warm, warm_size = story_times(client, url, cold=False)
        cold, _ = story_times(client, url, cold=True)
        measured[size] = {"actions": session.last_seq, "undo": undo_times(session), "warm": warm, "cold": cold,
                          "size": warm_size, "built": built}  # fmt: skip
        print(f"   a night of {session.last_seq} actions measured (built in {built:.0f} s)", flush=True)
    small, big = measured[SIZES[0]], measured[SIZES[1]]
    pages = f"{small['size'] / 1024:.0f} KB / {big['size'] / 1024:.0f} KB"
    return "A long night: undo and the story at 50 and 3,000 actions", [
        f"Nights: {small['actions']} and {big['actions']} logged actions.",
        "",
        f"| measure (median of {REPEAT}) | {small['actions']} actions | {big['actions']} actions | ratio | page size |",
        "|---|---|---|---|---|",
        _row("undo (`session_undo`)", small["undo"], big["undo"], UNDO_TARGET),
        _row("the night's story, warm (as read)", small["warm"], big["warm"], STORY_TARGET, pages),
        _row("the night's story, cold (told from the log)", small["cold"], big["cold"], None),
    ]
