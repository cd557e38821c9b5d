"""The Council of Four bot (bot.py) on choices with parameters: it answers a concrete action that
one of its choices offers, builds when it holds a Permit, buys the cheapest Permit it can afford,
else elects; bots play whole games to the end."""

import random

import pytest

from games.engines.council_of_four import bot
from games.engines.council_of_four.rules import RULES
from games.engines.kernel.bots import bot_choose_action
from games.engines.kernel.choices import draw_action, matching_choice
from games.engines.kernel.rules import TABLE
from tests.unit.council_of_four.builders import (
    act,
    cards,
    config,
    give_permit,
    jokers,
    playing,
    set_balcony,
    set_face_up,
    set_hand,
)


def policy(state, seat=0):
    choices = RULES.legal_actions(state, seat)
    action = bot.choose(state, seat, choices, random.Random(1))
    assert action is None or matching_choice(choices, action) is not None, action
    return action


def play(count, seed, bots, cap=3000):
    """Bots use ``bot_choose_action``; the other seats draw a random action of a random choice."""
    state = RULES.setup(config(count), seed)
    for step in range(cap):
        if RULES.is_over(state):
            return state
        rng = random.Random(f"{seed}:{step}")
        seat = next(s for s in (TABLE, *range(count)) if RULES.legal_actions(state, s))
        if seat in bots:
            choices = RULES.legal_actions(state, seat)
            answer = bot.choose(state, seat, choices, rng)
            assert answer is None or matching_choice(choices, answer) is not None, answer
            action = bot_choose_action(RULES, state, seat, rng)
        else:
            action = draw_action(RULES, state, rng.choice(RULES.legal_actions(state, seat)), rng)
        state = RULES.apply(state, action)
    raise AssertionError(f"not over after {cap} steps")


class PolicyTests:
    def test_it_builds_with_a_permit_it_holds(self):
        state = playing(3)
        state["neutral"] = []
        give_permit(state, 0, "C02")
        action = policy(state)
        assert action["type"] == "build" and action["permit"] == "C02" and action["city"] in "ABE"

    def test_it_buys_the_cheapest_permit_paying_with_its_cheapest_cards(self):
        state = playing(3)
        set_balcony(state, "coast", ["black", "black", "white", "orange"])
        for region in ("hills", "mountains"):
            set_balcony(state, region, ["pink", "pink", "pink", "pink"])
        set_face_up(state, "coast", ["C01", "C09"])
        set_hand(state, 0, cards("black", 2) + cards("white", 1) + jokers(2) + cards("blue", 1))
        action = policy(state)
        assert action["type"] == "acquire_permit" and action["balcony"] == "coast"
        assert sorted(action["cards"]) == sorted(cards("black", 2) + cards("white", 1) + jokers(1))
        after = RULES.apply(state, action)
        assert after["seats"][0]["coins"] == 10 - 1

    def test_without_a_permit_to_buy_it_elects(self):
        state = playing(3)
        set_hand(state, 0, cards("blue", 2))
        for balcony in ("coast", "hills", "mountains", "queen"):
            set_balcony(state, balcony, ["pink", "pink", "white", "white"])
        action = policy(state)
        assert action["type"] == "elect" and action["colour"] == "blue"

    def test_it_takes_the_best_city_tokens(self):
        state = playing(3)
        state["neutral"] = []
        state["city_tokens"] = {"A": 1, "D": 7, "E": 4, "K": 11}  # 1 step, 3 VP, 1 Coin, 2 VP
        state["merchants"]["D"] = [0]
        state["merchants"]["E"] = [0]
        state["merchants"]["K"] = [0]
        state["seats"][0]["nobility"] = 15
        give_permit(state, 0, "C15")
        state = act(state, "build", 0, permit="C15", city="A")
        action = policy(state)
        assert action == {"type": "choose_city_bonus", "seat": 0, "cities": ["D", "K"]}


class GameTests:
    @pytest.mark.parametrize("seed", range(4))
    def test_bots_play_whole_games(self, seed):
        count = 2 + seed % 3
        state = play(count, seed, bots=set(range(count)))
        assert state["result"]["winners"]

    def test_the_bot_beats_random_players(self):
        wins = 0
        for seed in range(6):
            state = play(2, 3000 + seed, bots={seed % 2})
            wins += seed % 2 in state["result"]["winners"]
        assert wins >= 5, wins
