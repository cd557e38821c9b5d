"""A night paused after a printed effect applied to several Houses at once travels in the campaign's
archive as it was logged (the actions are the log: one action naming a list of Houses), and the copy
replays to the same state."""

from __future__ import annotations

import json

import pytest

from campaign.services.archive.export import archive_dumps, campaign_archive
from campaign.services.archive.restore import campaign_import
from campaign.services.game_nights import game_night_start
from tests.factories import campaign_with_houses
from tests.kings_dilemma_play import draft, front, outcome, play, vote_as

pytestmark = pytest.mark.django_db

CARD = {"number": 12, "title": "Bread taxes", "aye": outcome("wealth", 1), "nay": outcome("wealth", -1)}


def without_house_ids(state: dict) -> dict:
    """The state but the Houses' database ids (the copy's Houses are new rows)."""
    return {**state, "seats": [{k: v for k, v in seat.items() if k != "house"} for seat in state["seats"]]}


def test_an_effect_on_several_houses_round_trips(user):
    campaign, houses = campaign_with_houses("Anna", "Ben", "Cora", user=user)
    session = game_night_start(campaign=campaign, houses=houses, king_name="Aldric 1", host=user, seed=8)
    draft(session)
    play(session, None, "draw_dilemma", card=front(CARD))
    state = vote_as(session, {0: ("aye", 1), 1: ("nay", 2), 2: ("nay", 1)})
    if state["phase"] == "leader_choice":
        state = play(session, state["moderator"], "give_leader", to=state["leader_candidates"][0])
    play(session, None, "read_outcome", outcome=CARD[state["winning_side"]], place="resolution")
    play(session, None, "adjust", target=[1, 2], what="coins", amount=-1, label="NAY pays")
    play(session, None, "adjust", target=[0, 2], what="prestige", amount=1, label="Feast")
    session.refresh_from_db()

    copy = campaign_import(archive=json.loads(archive_dumps(campaign_archive(campaign=campaign))), owner=user)
    restored = copy.sessions.get()
    logged = [a.payload for a in session.actions.order_by("seq")]
    assert [a.payload for a in restored.actions.order_by("seq")] == logged
    assert [p["target"] for p in logged if p["type"] == "adjust"] == [[1, 2], [0, 2]]
    assert without_house_ids(restored.state) == without_house_ids(session.state)
    assert [(e["seat"], e["prestige"]) for e in restored.state["prestige_crave_effects"]] == [(0, 1), (2, 1)]
