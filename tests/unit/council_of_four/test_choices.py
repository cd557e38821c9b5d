"""Choices with parameters (docs/architecture.md section 3, revised 2026-11-23; docs/architecture.md, Conventions): a decision fits one
screen whatever the player holds, and every concrete action the kernel draws from a choice applies.
The first contract listed every Balcony x Permit x payment: 82 to 132 actions to acquire a Permit and
106 for the Queen's help."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engines.council_of_four.board import CITIES, COUNCILOR_COLOURS, REGIONS
from games.engines.council_of_four.payments import payment_cost, payment_shapes
from games.engines.council_of_four.rules import RULES
from games.engines.kernel.choices import action_fits, draw_action
from tests.unit.contract import property_examples
from tests.unit.council_of_four.builders import (
    cards,
    choices_of,
    config,
    give_permit,
    jokers,
    playing,
    set_balcony,
    set_face_up,
    set_hand,
)
from tests.unit.council_of_four.test_properties import eager


def big_hand(state, seat=0):
    """20 Politics cards: 3 of each colour and 2 Jokers."""
    set_hand(state, seat, [c for colour in COUNCILOR_COLOURS for c in cards(colour, 3)] + jokers(2))


def rich(coins=40):
    state = playing(3)
    big_hand(state)
    state["seats"][0]["coins"] = coins
    state["seats"][0]["servants"] = 5
    return state


def draws_apply(state, choice, times, rng):
    for _ in range(times):
        action = draw_action(RULES, state, choice, rng)
        assert action_fits(choice, action), (choice, action)
        RULES.apply(state, action)  # raises RuleError if the drawn action is not legal


class SizeTests:
    def test_a_large_hand_gives_one_permit_choice_per_council_and_one_for_the_queen(self):
        state = rich()
        choices = RULES.legal_actions(state, 0)
        permits = [c for c in choices if c["type"] == "acquire_permit"]
        assert sorted(c["params"]["balcony"]["options"][0] for c in permits) == sorted(REGIONS)
        assert all(len(c["params"]["balcony"]["options"]) == 1 for c in permits)
        assert all(len(c["params"]["permit"]["options"]) == 2 for c in permits)
        queens = choices_of(state, 0, "queen_build")  # one per city, its payments priced with the roads
        cities = [c["params"]["city"]["options"] for c in queens]
        assert all(len(c) == 1 for c in cities) and len({c[0] for c in cities}) == len(cities) <= len(CITIES)
        assert len(choices_of(state, 0, "elect")) == len(choices_of(state, 0, "send_servant")) == 1
        assert len(choices) <= 10 + len(queens)
        payments = [c["params"]["cards"]["options"] for c in choices if "cards" in c["params"]]
        assert all(len(p) <= 64 for p in payments)

    def test_the_size_does_not_grow_with_coins(self):
        assert RULES.legal_actions(rich(40), 0) == RULES.legal_actions(rich(4000), 0)

    def test_the_cards_offered_are_those_that_can_serve_that_council(self):
        state = rich()
        set_balcony(state, "coast", ["black", "black", "white", "orange"])
        set_balcony(state, "queen", ["pink", "pink", "blue", "pink"])
        [coast] = [
            c
            for c in choices_of(state, 0, "acquire_permit")
            if c["params"]["balcony"]["options"] == ["coast"]
        ]
        usable = set(cards("black", 3) + cards("white", 3) + cards("orange", 3) + jokers(2))
        options = coast["params"]["cards"]["options"]
        assert all(set(o["cards"]) <= usable for o in options)
        assert len(options) == len(payment_shapes(state, 0, "coast"))  # every way by colours, affordable
        for o in options:
            assert o["coins"] == payment_cost(state, 0, "coast", o["cards"])
        queen_cards = set(cards("pink", 3) + cards("blue", 3) + jokers(2))
        for queen in choices_of(state, 0, "queen_build"):
            assert all(set(o["cards"]) <= queen_cards for o in queen["params"]["cards"]["options"])

    def test_each_held_permit_is_a_small_choice_of_its_cities(self):
        state = rich()
        state["neutral"] = []
        give_permit(state, 0, "C02")
        give_permit(state, 0, "H14")
        builds = choices_of(state, 0, "build")
        assert [(c["params"]["permit"]["options"], c["params"]["city"]["options"]) for c in builds] == [
            (["C02"], ["A", "B", "E"]),
            (["H14"], ["J"]),
        ]


class DrawTests:
    def test_a_drawn_permit_is_paid_with_matching_cards_the_seat_can_afford(self):
        """Black, black, white, orange and 7 Coins: only 2+ matching cards are affordable."""
        state = playing(3)
        set_balcony(state, "coast", ["black", "black", "white", "orange"])
        set_face_up(state, "coast", ["C01", "C09"])
        set_hand(state, 0, cards("black", 3) + cards("white", 2) + jokers(1) + cards("pink", 2))
        state["seats"][0]["coins"] = 7
        [coast] = [
            c
            for c in choices_of(state, 0, "acquire_permit")
            if c["params"]["balcony"]["options"] == ["coast"]
        ]
        rng = random.Random(5)
        seen = set()
        for _ in range(200):
            action = draw_action(RULES, state, coast, rng)
            assert action["balcony"] == "coast" and action["permit"] in ("C01", "C09")
            after = RULES.apply(state, action)
            assert after["seats"][0]["coins"] >= 0
            seen.add(len(action["cards"]))
        assert seen == {2, 3, 4}

    def test_a_drawn_queen_city_comes_with_a_payment_that_covers_the_roads(self):
        state = playing(3)
        state["neutral"] = []
        set_balcony(state, "queen", ["black", "white", "orange", "pink"])
        set_hand(state, 0, cards("black", 1) + cards("white", 1) + jokers(2))
        state["seats"][0]["coins"] = 9
        queens = choices_of(state, 0, "queen_build")
        assert queens
        rng = random.Random(2)
        for queen in queens:
            for _ in range(20):
                action = draw_action(RULES, state, queen, rng)
                RULES.apply(state, action)  # the roads are in each payment's price
                assert action["city"] == queen["params"]["city"]["options"][0]

    def test_choices_without_constraints_are_drawn_value_by_value(self):
        state = rich()
        rng = random.Random(1)
        assert getattr(RULES, "sample", None) is None  # the payments offered are priced and affordable
        for choice in RULES.legal_actions(state, 0):
            draws_apply(state, choice, 20, rng)

    @settings(max_examples=property_examples(25), deadline=None)
    @given(count=st.integers(2, 4), seed=st.integers(0, 2**32), steps=st.integers(0, 250))
    def test_every_drawn_action_applies_anywhere_in_a_game(self, count, seed, steps):
        """From a random position: each choice of each seat, drawn 5 times, fits the choice and
        applies without RuleError."""
        state = RULES.setup(config(count), seed)
        rng = random.Random(seed)
        pick = eager(0.5)
        for _ in range(steps):
            if RULES.is_over(state):
                break
            options = [(s, c) for s in (None, *range(count)) for c in RULES.legal_actions(state, s)]
            state = RULES.apply(state, pick(state, options, rng)[1])
        for seat in (None, *range(count)):
            for choice in RULES.legal_actions(state, seat):
                draws_apply(state, choice, 5, rng)
