"""Random legal games (docs/architecture.md, engines and sessions): the engine contract, conservation of the 108
cards, Duty tiles within 1-6, no secret in another seat's view, and views that replay."""

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engines.for_the_king.cards import CARD_IDS
from games.engines.for_the_king.rules import RULES
from games.engines.kernel.choices import action_fits, draw_action
from tests.unit.contract import play_many_games, play_random_game, property_examples
from tests.unit.for_the_king.builders import config

SORTED_IDS = sorted(CARD_IDS)

PILES = ("deck", "box", "favor_deck", "middle", "discard", "discard_face_down", "king_cards_used")


def locations(state: dict) -> list[str]:
    cards = [c for pile in PILES for c in state[pile]]
    for seat in state["seats"]:
        cards += seat["personal_deck"] + seat["hand"]
    cards += [c for c in (state["drawn"], state["offer"]) if c is not None]
    if state["king_card"]:
        cards.append(state["king_card"]["card"])
    return cards


def public(state: dict) -> set[str]:
    shown = set(state["middle"] + state["discard"] + state["king_cards_used"])
    if state["offer"]:
        shown.add(state["offer"])
    if state["king_card"]:
        shown.add(state["king_card"]["card"])
    return shown


def own(state: dict, seat: int) -> set[str]:
    mine = set(state["seats"][seat]["personal_deck"] + state["seats"][seat]["hand"])
    if state["adviser"] == seat and state["drawn"]:
        mine.add(state["drawn"])
    return mine


def texts_in(value: object) -> set[str]:
    """Every text of a JSON value, its keys included: what a client reads of it (a card id is one)."""
    found: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            found.update(str(key) for key in item)
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)
        elif isinstance(item, str):
            found.add(item)
    return found


def check_invariants(state: dict) -> None:
    cards = locations(state)
    if state["phase"] != "deal":
        assert sorted(cards) == sorted(CARD_IDS), "every card is in exactly one place"
    for duty in state["duties"].values():
        assert 1 <= duty["primary"] <= 6
        assert duty["secondary"] is None or 1 <= duty["secondary"] <= 6
        assert duty["secondary"] == (None if len(state["seats"]) == 2 else duty["primary"] // 2 or None)
    seats = [None, *range(len(state["seats"]))]
    acting = [s for s in seats if RULES.legal_actions(state, s)]
    assert len(acting) == (0 if state["over"] else 1)
    check_choices(state)
    for seat in seats:
        view = RULES.view(state, seat)
        json.dumps(view)
        hidden = set(CARD_IDS) - public(state) - (own(state, seat) if seat is not None else set())
        leaked = hidden & texts_in(view)
        assert not leaked, f"seat {seat} sees hidden cards {sorted(leaked)}"


def check_choices(state: dict) -> None:
    """DESIGN 3: one choice per action type, every parameter bounded, and an action drawn from any
    choice offered (not only the one the game goes on with) fits it, applies and has words."""
    rng = random.Random(state["step"])
    for seat in [None, *range(len(state["seats"]))]:
        offered = RULES.legal_actions(state, seat)
        assert len({c["type"] for c in offered}) == len(offered)
        for offer in offered:
            assert offer["seat"] == seat
            if offer["type"] == "bid":
                bounds = offer["params"]["amount"]
                assert state["bidding"]["high_bid"] < bounds["min"] <= bounds["max"]
            action = draw_action(RULES, state, offer, rng)
            assert action_fits(offer, action), (offer, action)
            assert RULES.describe(state, action, RULES.apply(state, action))


def cautious(state, options, rng):
    """Bots that pass often and raise by one, so hands survive to the scoring. ``options`` are
    (seat, choice) pairs; the answer is (seat, concrete action)."""
    by_type = {c["type"]: (seat, c) for seat, c in options}
    if "pass" not in by_type:
        seat, offer = rng.choice(options)
        return seat, draw_action(RULES, state, offer, rng)
    seat, offer = by_type["pass"]
    if rng.random() < 0.6 or "bid" not in by_type:
        return seat, {"type": "pass", "seat": seat}
    seat, offer = by_type["bid"]
    return seat, {"type": "bid", "seat": seat, "amount": offer["params"]["amount"]["min"]}


def now_and_then_cautious(state, options, rng):
    if rng.random() < 0.5:
        return cautious(state, options, rng)
    seat, offer = rng.choice(options)
    return seat, draw_action(RULES, state, offer, rng)


class RandomGameTests:
    # A game of several hundred actions, every seat's view checked at each: a dozen per make test.
    @settings(max_examples=property_examples(12), deadline=None)
    @given(count=st.integers(2, 5), seed=st.integers(0, 2**32), careful=st.booleans())
    def test_random_games_keep_every_rule_and_every_secret(self, count, seed, careful):
        views = []

        def check(state):
            check_invariants(state)
            views.append([RULES.view(state, s) for s in [None, *range(count)]])

        state, log = play_random_game(
            RULES, config(count), seed, check=check, pick=cautious if careful else None
        )
        assert state["over"] is True
        result = state["result"]
        assert set(result) >= {"winners", "scores", "ranking", "positions"}
        assert sorted(result["ranking"]) == list(range(count)) and result["winners"]
        assert log[0] == {"type": "deal", "seat": None}

        # The views after each action equal the views of the replayed state (DESIGN 4).
        replayed = RULES.setup(config(count), seed)
        for i, action in enumerate(log):
            assert views[i] == [RULES.view(replayed, s) for s in [None, *range(count)]]
            replayed = RULES.apply(replayed, action)
        assert replayed == state
        assert views[-1] == [RULES.view(replayed, s) for s in [None, *range(count)]]


class FixedSeedGameTests:
    @pytest.mark.parametrize("count", [2, 3, 4, 5])
    def test_every_table_size_plays_to_a_scored_end(self, count):
        """A recorded game of each size: the contract replays its log to the same state."""
        state, log = play_random_game(
            RULES, config(count), 2024 + count, check=check_invariants, pick=cautious
        )
        assert state["over"] is True
        assert sum(state["result"]["scores"]) > 0
        types = {a["type"] for a in log}
        assert {"deal", "place", "choose", "reveal", "bid", "pass"} <= types and "draw" not in types


class ThousandsOfGamesTests:
    """'Property tests that play thousands of random legal games for 2-5 players with no crash and
    every card accounted for': ``make soak`` plays 2,000 games (CHRONICLE_PROPERTY_EXAMPLES=2000),
    the everyday suite a bounded number, in 8 chunks (spread over the test workers)."""

    CHUNKS = 8

    @pytest.mark.parametrize("chunk", range(CHUNKS))
    def test_random_games_account_for_every_card(self, chunk):
        size = max(1, property_examples(80) // self.CHUNKS)
        seeds = range(chunk * size, (chunk + 1) * size)
        games = [(config(2 + seed % 4), seed) for seed in seeds]

        def every_card_once(state):
            if state["phase"] != "deal":
                assert sorted(locations(state)) == SORTED_IDS, "every card is in exactly one place"

        ended = play_many_games(
            RULES,
            games,
            step_check=every_card_once,
            end_check=check_invariants,
            pick=now_and_then_cautious,
        )
        assert ended == size
