"""Choices with parameters (docs/architecture.md section 3, revised 2026-11-23): a decision is one choice whose
parameters carry their bounds, whatever a hand holds, and the kernel's ``draw_action`` (with the
engine's ``sample`` for payments) always draws an action that applies."""

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engines.for_the_king.cards import CARDS
from games.engines.for_the_king.rules import RULES
from games.engines.kernel.choices import action_fits, amount, choice, draw_action, enumerate_choice
from tests.unit.contract import property_examples
from tests.unit.for_the_king.builders import act, esteem, gold, gov, king

G1, G2, G3 = gold(1), gold(2), gold(3)
ALL_GOLD = G1 + G2 + G3  # 13 cards of each value: 78 Gold


def bidding_on(card: str, hand: list[str]) -> dict:
    """Anna (seat 0) opens the bidding on ``card`` with ``hand``; Ben holds nothing."""
    return act(esteem(2, [hand, []], [card, gov("military", "G")]), "reveal", 0)


def won(hand: list[str], owed: int) -> dict:
    """Anna bid ``owed`` for a Government card, Ben passed: Anna pays."""
    state = act(bidding_on(gov("military", "H"), hand), "bid", 0, amount=owed)
    return act(state, "pass", 1)


class ChoiceSizeTests:
    def test_a_huge_hand_still_gives_one_bid_choice_with_the_right_bounds(self):
        small = RULES.choices(bidding_on(gov("military", "H"), [G3[0]]), 0)
        huge = RULES.choices(bidding_on(gov("military", "H"), ALL_GOLD), 0)
        assert small == [choice("pass", 0), choice("bid", 0, amount=amount(1, 3 + 2))]
        assert huge == [choice("pass", 0), choice("bid", 0, amount=amount(1, 78 + 2))]
        assert len(json.dumps(huge)) == len(json.dumps(small)) + 1  # "80" against "5"

    def test_a_huge_payment_is_one_choice_of_a_few_mixes_of_values(self):
        """78 Gold owing 40: one choice, one option per mix of values (never per combination of
        card ids, which would be millions), each reaching 40 with no card to spare."""
        hand = [*ALL_GOLD, gov("diplomacy", "A")]
        [offered] = RULES.choices(won(hand, 40), 0)
        options = offered["params"]["cards"]["options"]
        mixes = [tuple(sorted(CARDS[c]["value"] for c in o["cards"])) for o in options]
        # At most one mix per count of ones and twos (0 to 13 each): the threes follow.
        assert len(mixes) == len(set(mixes)) and len(options) <= 14 * 14
        for o in options:
            values = [CARDS[c]["value"] for c in o["cards"]]
            assert o["coins"] == sum(values) >= 40 > sum(values) - min(values)

    def test_a_gold_card_auction_offers_one_bid_choice_up_to_the_hand_size(self):
        hand = [gov("diplomacy", "A"), *G1]
        offered = RULES.choices(bidding_on(G3[0], hand), 0)
        assert offered == [choice("pass", 0), choice("bid", 0, amount=amount(1, 14 + 2))]

    def test_every_stage_offers_one_choice_per_action_type(self):
        state = won([*ALL_GOLD], 5)
        for seat in (None, 0, 1):
            types = [c["type"] for c in RULES.choices(state, seat)]
            assert len(types) == len(set(types))


class SampleTests:
    def test_every_value_is_drawn_by_the_kernel_alone(self):
        """The payments offered reach the bid without overpaying: no sampler of the engine's own."""
        assert getattr(RULES, "sample", None) is None
        state = won([*G1[:3], *G2[:2], G3[0]], 5)
        (pay,) = RULES.choices(state, 0)
        for action in enumerate_choice(pay):
            RULES.apply(state, action)

    def test_a_drawn_payment_of_a_huge_hand_applies(self):
        state = won([*ALL_GOLD, king("plus1")], 40)
        (pay,) = RULES.choices(state, 0)
        for seed in range(30):
            action = draw_action(RULES, state, pay, random.Random(seed))
            assert action_fits(pay, action)
            after = RULES.apply(state, action)
            assert after["phase"] == "reveal" and len(after["discard"]) == len(action["cards"])

    @settings(max_examples=property_examples(60), deadline=None)
    @given(
        ones=st.integers(0, 13),
        twos=st.integers(0, 13),
        threes=st.integers(0, 13),
        share=st.floats(0, 1),
        seed=st.integers(0, 2**32),
    )
    def test_a_payment_drawn_by_sample_always_applies(self, ones, twos, threes, share, seed):
        """DESIGN 8 'Paying Gold': whatever the hand and the bid, a drawn payment reaches the bid
        without a card to spare, and fits the one choice offered."""
        hand = [*G1[:ones], *G2[:twos], *G3[:threes], gov("livestock", "B")]
        means = ones + 2 * twos + 3 * threes
        if means == 0:
            return
        owed = max(1, round(share * means))
        state = won(hand, owed)
        assert state["phase"] == "pay_gold"
        (pay,) = RULES.choices(state, 0)
        action = draw_action(RULES, state, pay, random.Random(seed))
        assert action_fits(pay, action)
        values = [CARDS[c]["value"] for c in action["cards"]]
        assert sum(values) >= owed > sum(values) - min(values)
        assert RULES.apply(state, action)["payment"] is None
