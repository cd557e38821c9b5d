"""Random legal games (docs/architecture.md, engines and sessions): the engine contract, every Politics card,
Councilor and Permit in exactly one place, no negative Coins or Servants, one Merchant per player
per city, and no secret in another seat's view."""

import json
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engines.council_of_four.board import CARD_IDS, COUNCILOR_COLOURS, MERCHANTS, PERMITS
from games.engines.council_of_four.pieces import councilors_in_play
from games.engines.council_of_four.rules import RULES
from games.engines.kernel.choices import action_fits, draw_action
from tests.unit.contract import described, play_many_games, play_random_game, property_examples
from tests.unit.council_of_four.builders import config

SORTED_CARDS = sorted(CARD_IDS)

CARD_ID = re.compile(r'"(P\d\d)"')
PERMIT_ID = re.compile(r'"([CHM]\d\d)"')
PRODUCTIVE = ("build", "queen_build", "acquire_permit", "choose_city_bonus", "take_free_permit")


def check_invariants(state: dict) -> None:
    seats = state["seats"]
    cards = state["deck"] + state["discard"] + [c for s in seats for c in s["hand"]]
    assert sorted(cards) == sorted(CARD_IDS), "every Politics card is in exactly one place"
    assert councilors_in_play(state) == dict.fromkeys(COUNCILOR_COLOURS, 4)
    if state["phase"] != "deal":
        assert all(len(line) == 4 for line in state["balconies"].values())
    permits = [p for d in state["permit_decks"].values() for p in d]
    permits += [p for f in state["face_up"].values() for p in f]
    permits += [p["id"] for s in seats for p in s["permits"]]
    assert sorted(permits) == sorted(PERMITS), "every Permit is in exactly one place"
    for i, seat in enumerate(seats):
        assert seat["coins"] >= 0 and seat["servants"] >= 0
        assert 0 <= seat["nobility"] <= 20
        assert sum(i in m for m in state["merchants"].values()) <= MERCHANTS
    for merchants in state["merchants"].values():
        assert len(merchants) == len(set(merchants)), "one Merchant per player per city"
    acting = [s for s in [None, *range(len(seats))] if RULES.legal_actions(state, s)]
    assert len(acting) == (0 if state["over"] else 1)
    hidden_permits = {p for d in state["permit_decks"].values() for p in d}
    for viewer in [None, *range(len(seats))]:
        text = json.dumps(RULES.view(state, viewer))
        own = set(seats[viewer]["hand"]) if viewer is not None else set()
        leaked = set(CARD_ID.findall(text)) - own
        assert not leaked, f"seat {viewer} sees Politics cards {leaked}"
        assert not set(PERMIT_ID.findall(text)) & hidden_permits, "a Permit deck is visible"


def eager(chance: float):
    """Random, but building and buying with this chance when possible, so games end in a few
    hundred actions (a purely random game ends too, after a long tail). The concrete action is drawn
    from the choice by the kernel's helper, as bots do."""

    def pick(state, options, rng):
        chosen = None
        if rng.random() < chance:
            preferred = [o for o in options if o[1]["type"] in PRODUCTIVE]
            if preferred:
                chosen = rng.choice(preferred)
        seat, choice = chosen or rng.choice(options)
        return seat, draw_action(RULES, state, choice, rng)

    return pick


productive = eager(0.8)


class RandomGameTests:
    @settings(max_examples=property_examples(20), deadline=None)
    @given(count=st.integers(2, 4), seed=st.integers(0, 2**32), chance=st.sampled_from([0.3, 0.8]))
    def test_random_games_keep_every_rule_and_every_secret(self, count, seed, chance):
        rng = random.Random(seed)

        def check(state):
            check_invariants(state)
            for seat in [None, *range(count)]:
                for choice in RULES.legal_actions(state, seat):
                    action = draw_action(RULES, state, choice, rng)
                    assert action_fits(choice, action), (choice, action)
                    assert described(RULES, state, action)

        state, log = play_random_game(
            RULES, config(count), seed, check=check, pick=eager(chance), max_steps=3000
        )
        assert state["over"] is True, f"{count} seats, seed {seed}: not over after {len(log)} actions"
        assert log[0] == {"type": "deal", "seat": None}
        result = state["result"]
        assert sorted(result["ranking"]) == list(range(count)) and result["winners"]
        assert len(result["scores"]) == count


class ReplayTests:
    @pytest.mark.parametrize("count", [2, 3, 4])
    def test_views_after_each_action_equal_the_views_of_a_replay(self, count):
        """docs/architecture.md section 4: a seat's view after each action equals the view computed from a fresh replay."""
        views = []

        def check(state):
            views.append([RULES.view(state, s) for s in [None, *range(count)]])

        state, log = play_random_game(RULES, config(count), 99 + count, check=check, pick=productive)
        assert state["over"]
        replayed = RULES.setup(config(count), 99 + count)
        for i, action in enumerate(log):
            assert views[i] == [RULES.view(replayed, s) for s in [None, *range(count)]]
            replayed = RULES.apply(replayed, action)
        assert replayed == state
        types = {a["type"] for a in log}
        assert {"deal", "elect", "acquire_permit", "build", "end_turn"} <= types and "draw" not in types


FIELD = st.one_of(
    st.none(),
    st.integers(-2, 5),
    st.sampled_from(["coast", "queen", "black", "A", "J", "Z", "C01", "M12", "P01", "P90", ""]),
    st.lists(st.sampled_from(["P01", "P14", "P80", "P90", "A", "B", 3]), max_size=5),
    st.dictionaries(st.text(max_size=2), st.integers(), max_size=1),
)


class BadInputTests:
    @settings(max_examples=60, deadline=None)
    @given(
        type_=st.sampled_from(sorted(RULES.moves)),
        seat=st.one_of(st.none(), st.integers(-1, 4), st.just("0")),
        fields=st.dictionaries(
            st.sampled_from(["colour", "balcony", "cards", "permit", "city", "cities", "region"]), FIELD
        ),
        elected=st.booleans(),
    )
    def test_any_input_is_applied_or_refused_with_a_sentence(self, type_, seat, fields, elected):
        """Every input is validated by the engine: a RuleError, never a crash (docs/architecture.md section 7)."""
        from games.engines.kernel.errors import RuleError
        from tests.unit.council_of_four.builders import act, dealt

        state = dealt(2)
        if elected:
            state = act(
                state,
                "elect",
                0,
                colour=next(c for c, n in state["councilors"].items() if n),
                balcony="coast",
            )
        action = {"type": type_, "seat": seat, **fields}
        try:
            after = RULES.apply(state, action)
        except RuleError as error:
            assert error.message
        else:
            RULES.describe(state, action, after)


class ThousandsOfGamesTests:
    """'Property tests that play thousands of random legal games for 2-4 players with no crash,
    Coins never negative, and every Councilor, Politics card and Permit accounted for': 8 chunks
    (spread over the test workers), checked after every action; 80 games in ``make test``, 2,000 in
    ``make soak`` (``property_examples``)."""

    CHUNKS = 8

    @pytest.mark.parametrize("chunk", range(CHUNKS))
    def test_random_games_account_for_everything(self, chunk):
        size = max(1, property_examples(80) // self.CHUNKS)
        seeds = range(chunk * size, (chunk + 1) * size)
        games = [(config(2 + seed % 3), seed) for seed in seeds]

        def conserved(state):
            seats = state["seats"]
            assert (
                sorted(state["deck"] + state["discard"] + [c for s in seats for c in s["hand"]])
                == SORTED_CARDS
            )
            assert councilors_in_play(state) == dict.fromkeys(COUNCILOR_COLOURS, 4)
            assert all(s["coins"] >= 0 and s["servants"] >= 0 for s in seats)

        ended = play_many_games(
            RULES, games, step_check=conserved, end_check=check_invariants, pick=productive
        )
        assert ended == size
