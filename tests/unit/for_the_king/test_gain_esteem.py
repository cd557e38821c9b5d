"""The Gain Esteem phase ('Gameplay' 2 in the rulebook): bidding and paying."""

import itertools

import pytest

from games.engines.for_the_king import messages as msg
from games.engines.for_the_king.cards import CARDS
from games.engines.for_the_king.esteem import BID_CAP_ABOVE_MEANS, gold_payments
from games.engines.for_the_king.rules import RULES
from games.engines.kernel.choices import amount, choice, payment, pick
from games.engines.kernel.errors import RuleError
from tests.unit.for_the_king.builders import act, esteem, gold, gov, king

G1, G2, G3 = gold(1), gold(2), gold(3)


def revealed(count, hands, favor, first_player=0, **kwargs):
    state = esteem(count, hands, favor, first_player=first_player, **kwargs)
    return act(state, "reveal", first_player)


def bids(state, *moves):
    """Apply bids and passes in order: an int is a bid of that amount, None a pass, by whoever's turn it is."""
    for move in moves:
        seat = state["bidding"]["turn"]
        state = act(state, "pass", seat) if move is None else act(state, "bid", seat, amount=move)
    return state


class RulebookExampleTests:
    def test_king_card_won_for_four_gold_paid_with_two_and_three(self):
        """'Gain Esteem' example 1: you bid 2 Gold for a King card, your neighbour bids 4, the others
        pass, you pass. She pays with her 2 Gold and 3 Gold card, gets no change back, and plays the
        King card at once."""
        card = king("plus1")
        hands = [[G3[0], G3[1]], [G2[0], G3[2], gov("military", "A")], [G1[0]], [G1[1]]]
        state = revealed(4, hands, [card, G1[5]], first_player=0)
        assert state["offer"] == card
        state = act(state, "bid", 0, amount=2)
        state = act(state, "bid", 1, amount=4)
        state = act(state, "pass", 2)
        state = act(state, "pass", 3)
        state = act(state, "pass", 0)
        assert state["phase"] == "pay_gold"
        assert state["payment"] == {"seat": 1, "owed": 4, "paid": 0}
        # One choice: the payments; only 2 + 3 reaches 4 without a card to spare.
        only = {"cards": [G2[0], G3[2]], "coins": 5, "label": "Gold 3 + Gold 2: 5 Gold"}
        assert RULES.choices(state, 1) == [choice("pay_gold", 1, cards=payment([only]))]
        state = act(state, "pay_gold", 1, cards=[G3[2], G2[0]])
        assert state["seats"][1]["hand"] == [gov("military", "A")]
        assert state["discard"] == [G3[2], G2[0]]  # face up, no change
        assert state["phase"] == "king_card" and state["king_card"]["seat"] == 1
        state = act(state, "king_card", 1, changes=[{"office": "military", "change": 1}])
        assert state["duties"]["military"]["primary"] == 4
        assert state["phase"] == "reveal" and state["first_player"] == 1

    def test_gold_card_won_for_three_cards_discarded_face_down(self):
        """'Gain Esteem' example 2: your neighbour bids 2 cards for a Gold card, the others pass, you
        bid 3, she passes. You discard 3 cards face down, then take the Gold card."""
        card = G3[0]
        anna = [gov("diplomacy", "A"), G1[0], gov("livestock", "C"), G2[0]]
        hands = [anna, [G1[1], G1[2]], [G1[3]]]
        state = revealed(3, hands, [card, G1[5]], first_player=1)
        state = act(state, "bid", 1, amount=2)
        state = act(state, "pass", 2)
        state = act(state, "bid", 0, amount=3)
        state = act(state, "pass", 1)
        assert state["phase"] == "discard" and state["payment"] == {"seat": 0, "owed": 3, "paid": 0}
        assert RULES.choices(state, 0) == [choice("discard", 0, card=pick(sorted(anna)))]
        for c in (G1[0], gov("livestock", "C"), G2[0]):
            state = act(state, "discard", 0, card=c)
        assert state["discard_face_down"] == [G1[0], gov("livestock", "C"), G2[0]]
        assert state["seats"][0]["hand"] == [gov("diplomacy", "A"), card]
        assert state["phase"] == "reveal" and state["first_player"] == 2


class BiddingTests:
    def test_first_bid_is_one_or_more(self):
        """'Bid': the first number bid that round must be equal to or greater than 1."""
        state = revealed(3, [[G3[0]], [], []], [gov("military", "H")])
        with pytest.raises(RuleError) as error:
            act(state, "bid", 0, amount=0)
        assert error.value.message == msg.BID_TOO_LOW_FIRST
        assert act(state, "bid", 0, amount=1)["bidding"]["high_bid"] == 1

    def test_later_bids_are_strictly_greater(self):
        """'Bid': any subsequent bids must be strictly greater than the previous number."""
        state = bids(revealed(3, [[G3[0]], [], []], [gov("military", "H")]), 2)
        with pytest.raises(RuleError) as error:
            act(state, "bid", 1, amount=2)
        assert error.value.message == msg.BID_TOO_LOW.format(high=2)

    @pytest.mark.parametrize("amount", ["3", 2.5, True, None])
    def test_a_bid_is_a_whole_number(self, amount):
        state = revealed(3, [[G3[0]], [], []], [gov("military", "H")])
        with pytest.raises(RuleError) as error:
            act(state, "bid", 0, amount=amount)
        assert error.value.message == msg.BID_NOT_A_NUMBER

    def test_bidding_goes_round_the_table_several_times(self):
        """'Players can continue raising the bid around the table multiple times.'"""
        state = revealed(3, [[G3[0]], [G3[1]], [G3[2]]], [gov("military", "H")], first_player=2)
        assert state["bidding"]["turn"] == 2
        state = bids(state, 1, 2, 3, 4)
        assert state["bidding"]["turn"] == 0  # 2, 0, 1, then 2 again, now 0
        assert state["bidding"]["last_bids"] == [2, 3, 4]

    def test_a_player_who_passed_cannot_raise_this_round(self):
        """'Pass': you are removed from the bidding and can no longer Raise this round."""
        state = revealed(3, [[G3[0]], [G3[1]], [G3[2]]], [gov("military", "H")])
        state = bids(state, 1, None, 2)  # Anna 1, Ben passes, Chloe 2
        assert state["bidding"]["turn"] == 0
        state = bids(state, 3)
        assert state["bidding"]["turn"] == 2  # Ben is skipped
        assert RULES.choices(state, 1) == []
        with pytest.raises(RuleError) as error:
            act(state, "bid", 1, amount=9)
        assert error.value.message == msg.NOT_YOUR_TURN.format(name="Chloe", what="bid")

    def test_the_last_player_in_wins_at_their_bid(self):
        """'End of a round': when all players but one have passed, the remaining player wins."""
        state = revealed(3, [[G3[0]], [G3[1]], [G3[2]]], [gov("military", "H")])
        state = bids(state, 1, 2, None, None)
        assert state["phase"] == "pay_gold" and state["payment"]["seat"] == 1

    def test_everybody_passing_discards_the_card(self):
        """'If all players Pass without bidding on a card, discard the card.'"""
        card = gov("military", "H")
        state = revealed(3, [[G3[0]], [], []], [card, G1[4]], first_player=1)
        state = bids(state, None, None, None)
        assert state["discard"] == [card]
        assert state["phase"] == "reveal"
        assert state["first_player"] == 2  # 'the player to the left of the first player'

    def test_the_last_player_in_without_a_bid_may_still_bid(self):
        """Decision 'The last player in who has not bid': all others passed without a bid, so the
        last one bids (1 is enough) or passes."""
        state = bids(revealed(3, [[G3[0]], [], [G1[0]]], [gov("military", "H")]), None, None)
        assert state["phase"] == "bidding" and state["bidding"]["turn"] == 2
        assert choice("pass", 2) in RULES.choices(state, 2)
        won = bids(state, 1)
        assert won["phase"] == "pay_gold" and won["payment"] == {"seat": 2, "owed": 1, "paid": 0}

    def test_bids_are_offered_up_to_the_bidders_means_plus_a_little(self):
        """DESIGN 8 'Bids above one's means are allowed': one bid choice from 1 up to Gold + 2; any
        higher bid applies."""
        state = revealed(3, [[G3[0], G2[0], gov("military", "A")], [], []], [gov("military", "H")])
        assert RULES.choices(state, 0) == [
            choice("pass", 0),
            choice("bid", 0, amount=amount(1, 5 + BID_CAP_ABOVE_MEANS)),
        ]
        assert act(state, "bid", 0, amount=40)["bidding"]["high_bid"] == 40

    def test_a_later_bid_starts_above_the_high_bid(self):
        """'Any subsequent bids must be strictly greater than the previous number.'"""
        state = bids(revealed(3, [[G3[0]], [G3[1], G2[0]], []], [gov("military", "H")]), 2)
        (bid,) = [c for c in RULES.choices(state, 1) if c["type"] == "bid"]
        assert bid["params"] == {"amount": amount(3, 5 + BID_CAP_ABOVE_MEANS)}

    def test_a_high_bid_beyond_ones_means_leaves_only_pass_on_offer(self):
        """The bid choice reaches means + 2; above that only Pass is offered (a bid still applies)."""
        state = bids(revealed(3, [[G3[0]], [G1[0]], []], [gov("military", "H")]), 9)
        assert RULES.choices(state, 1) == [choice("pass", 1)]
        assert act(state, "bid", 1, amount=10)["bidding"]["high_bid"] == 10

    def test_for_a_gold_card_the_means_are_the_cards_in_hand(self):
        state = revealed(3, [[G3[0], gov("military", "A")], [], []], [G3[5]])
        assert RULES.choices(state, 0) == [
            choice("pass", 0),
            choice("bid", 0, amount=amount(1, 2 + BID_CAP_ABOVE_MEANS)),
        ]

    def test_only_the_first_player_reveals(self):
        """'The first player reveals the top card of the Favor deck.'"""
        state = esteem(3, [[], [], []], [G1[0]], first_player=1)
        with pytest.raises(RuleError) as error:
            act(state, "reveal", 0)
        assert error.value.message == msg.NOT_YOUR_TURN.format(name="Ben", what="reveal a Favor card")
        with pytest.raises(RuleError) as error:
            act(state, "bid", 1, amount=1)
        assert error.value.message == msg.NOT_NOW.format(what="bid")


class PayingGoldTests:
    def _won(self, hand, owed):
        state = revealed(2, [hand, []], [gov("military", "H")])
        return bids(state, owed, None)

    def test_no_gratuitous_overpayment(self):
        """DESIGN 8 'Paying Gold': no card of the payment may be left out while still reaching the bid."""
        state = self._won([G1[0], G3[0], G2[0]], 3)
        with pytest.raises(RuleError) as error:
            act(state, "pay_gold", 0, cards=[G1[0], G3[0]])
        assert error.value.message == msg.PAY_TOO_MUCH.format(owed=3)

    def test_a_card_worth_of_change_is_lost(self):
        """'If they discard more Gold than required, they do not get any change.'"""
        state = self._won([G3[0], G3[1]], 4)
        state = act(state, "pay_gold", 0, cards=[G3[0], G3[1]])
        assert state["discard"] == [G3[0], G3[1]] and state["payment"] is None

    def test_the_payment_must_reach_the_bid(self):
        state = self._won([G1[0], G3[0], G2[0]], 5)
        with pytest.raises(RuleError) as error:
            act(state, "pay_gold", 0, cards=[G1[0], G3[0]])
        assert error.value.message == msg.PAY_NOT_ENOUGH.format(owed=5)

    def test_only_gold_cards_from_your_hand_pay(self):
        state = self._won([G3[0], gov("military", "A")], 3)
        for cards in ([gov("military", "A")], [G3[5]]):
            with pytest.raises(RuleError) as error:
                act(state, "pay_gold", 0, cards=cards)
            assert error.value.message == msg.PAY_NOT_GOLD_IN_HAND

    def test_a_card_pays_once(self):
        state = self._won([G1[0], G3[0]], 2)
        with pytest.raises(RuleError) as error:
            act(state, "pay_gold", 0, cards=[G1[0], G1[0]])
        assert error.value.message == msg.PAY_SAME_CARD

    @pytest.mark.parametrize("cards", [None, [], "c001", [1]])
    def test_the_payment_is_a_list_of_cards(self, cards):
        state = self._won([G3[0]], 2)
        with pytest.raises(RuleError) as error:
            act(state, "pay_gold", 0, cards=cards)
        assert error.value.message == msg.PAY_FORMAT

    def test_only_the_winner_pays(self):
        state = self._won([G3[0]], 2)
        with pytest.raises(RuleError) as error:
            act(state, "pay_gold", 1, cards=[G3[0]])
        assert error.value.message == msg.NOT_YOUR_TURN.format(name="Anna", what="pay Gold")

    def test_the_payment_choice_offers_each_set_that_reaches_the_bid_without_overpaying(self):
        """DESIGN 8, 'Paying Gold': one option per mix of values that reaches the bid with no card to
        spare (a 3, or 1 + 2 for 3; never 1 + 1, short, nor 1 + 2 + 3), the least Gold first;
        Government cards are not offered (issue 29: "any 2 of these 3" offered 1 + 2 for 4)."""
        hand = [G1[0], G1[1], G2[0], G3[0], gov("military", "A")]
        state = self._won(hand, 3)
        one = min(G1[0], G1[1])
        assert RULES.choices(state, 0) == [
            choice(
                "pay_gold",
                0,
                cards=payment(
                    [
                        {"cards": [G3[0]], "coins": 3, "label": "Gold 3: 3 Gold"},
                        {"cards": [one, G2[0]], "coins": 3, "label": "Gold 2 + Gold 1: 3 Gold"},
                    ]
                ),
            )
        ]
        for option in RULES.choices(state, 0)[0]["params"]["cards"]["options"]:
            act(state, "pay_gold", 0, cards=option["cards"])  # each one applies

    def test_the_listed_payments_are_every_mix_of_values(self):
        hand = [G1[0], G1[1], G2[0], G3[0], gov("military", "A")]
        listed = sorted(sorted(CARDS[c]["value"] for c in cards) for cards in gold_payments(hand, 3))
        assert listed == [[1, 2], [3]]

    @pytest.mark.parametrize("owed", range(1, 12))
    def test_listed_payments_match_a_brute_force_search(self, owed):
        hand = [G1[0], G1[1], G2[0], G2[1], G3[0], G3[1]]
        expected = set()
        for size in range(1, len(hand) + 1):
            for combo in itertools.combinations(hand, size):
                values = [CARDS[c]["value"] for c in combo]
                if sum(values) >= owed and sum(values) - min(values) < owed:
                    expected.add(tuple(sorted(values)))
        listed = {tuple(sorted(CARDS[c]["value"] for c in cards)) for cards in gold_payments(hand, owed)}
        assert listed == expected
        for cards in gold_payments(hand, owed):
            act(self._won(hand, owed), "pay_gold", 0, cards=cards)


class PayingCardsForGoldTests:
    def _won(self, hand, owed):
        state = revealed(2, [hand, []], [G3[5], G1[9]])
        return bids(state, owed, None)

    def test_cards_of_any_type_pay_for_a_gold_card(self):
        """'The winner must discard as many cards (of any type) from their hand as the last number.'"""
        state = self._won([G3[0], gov("military", "A")], 2)
        state = act(state, "discard", 0, card=G3[0])
        assert state["phase"] == "discard" and state["payment"]["paid"] == 1
        state = act(state, "discard", 0, card=gov("military", "A"))
        assert state["seats"][0]["hand"] == [G3[5]]

    def test_the_won_card_does_not_pay_for_itself(self):
        """'Then, they take the card they won into their hand.'"""
        state = self._won([G1[0]], 1)
        with pytest.raises(RuleError) as error:
            act(state, "discard", 0, card=G3[5])
        assert error.value.message == msg.DISCARD_NOT_IN_HAND


class WinnerWhoCannotPayTests:
    def test_the_left_neighbour_draws_a_random_card_and_the_others_bid_again(self):
        """'If you don't have enough cards to pay, you don't pay anything. Instead, the player to your
        left draws a random card from your hand and discards it face down. Then all players except
        you bid for the same card.'"""
        card = gov("military", "H")
        hands = [[G1[0], gov("diplomacy", "B")], [G3[0]], [G2[0]]]
        state = revealed(3, hands, [card, G1[5]], first_player=0)
        state = bids(state, 5, None, None)  # Anna bids 5 with 1 Gold
        assert state["phase"] == "cannot_pay" and state["payment"]["seat"] == 0
        assert RULES.choices(state, 1) == [choice("draw_random_card", 1)]
        assert RULES.choices(state, 0) == []
        with pytest.raises(RuleError) as error:
            act(state, "draw_random_card", 2)
        assert error.value.message == msg.NOT_YOUR_TURN.format(name="Ben", what="draw a random card")
        state = act(state, "draw_random_card", 1)
        assert len(state["seats"][0]["hand"]) == 1
        assert len(state["discard_face_down"]) == 1
        assert state["discard_face_down"][0] in hands[0]
        assert state["offer"] == card
        assert state["phase"] == "bidding"
        assert state["bidding"]["excluded"] == [0]
        assert state["bidding"]["passed"] == [] and state["bidding"]["high_bid"] == 0
        assert state["bidding"]["turn"] == 1  # the first player is out: the next one starts
        assert RULES.choices(state, 0) == []
        state = bids(state, 1, None)
        assert state["phase"] == "pay_gold" and state["payment"]["seat"] == 1

    def test_a_winner_with_an_empty_hand_loses_nothing_but_the_round(self):
        """Decision 'Winner who cannot pay with an empty hand': there is no card to draw."""
        state = revealed(3, [[], [G3[0]], [G2[0]]], [gov("military", "H"), G1[5]])
        state = bids(state, 1, None, None)
        assert state["phase"] == "bidding" and state["bidding"]["excluded"] == [0]
        assert state["discard_face_down"] == []

    def test_the_one_bidder_left_may_bid_or_pass(self):
        """DESIGN 8: if every other player has been excluded, the one bidder left may bid or pass;
        a card nobody wins is discarded."""
        card = gov("military", "H")
        state = revealed(2, [[G1[0]], [G1[1]]], [card, G1[5]])
        state = bids(state, 3, None)
        state = act(state, "draw_random_card", 1)
        assert state["bidding"]["turn"] == 1 and state["seats"][0]["hand"] == []
        state = bids(state, 4)
        assert state["phase"] == "cannot_pay" and state["payment"]["seat"] == 1
        state = act(state, "draw_random_card", 0)
        assert state["discard"] == [card]
        assert state["phase"] == "reveal" and state["first_player"] == 1

    def test_the_one_bidder_left_who_passes_discards_the_card(self):
        card = gov("military", "H")
        state = revealed(2, [[G1[0]], [G1[1]]], [card, G1[5]])
        state = act(bids(state, 3, None), "draw_random_card", 1)
        state = bids(state, None)
        assert state["discard"] == [card] and state["phase"] == "reveal"


class EndOfPhaseTests:
    def test_the_game_ends_when_the_favor_deck_is_empty(self):
        """'After the final round is over and the common deck is empty, continue to the End of the Game.'"""
        state = revealed(2, [[G3[0]], []], [gov("military", "H")])
        state = bids(state, 3, None)
        state = act(state, "pay_gold", 0, cards=[G3[0]])
        assert state["over"] is True
        assert state["result"]["winners"] == [0]
        assert RULES.choices(state, None) == []
        with pytest.raises(RuleError):
            act(state, "reveal", 1)
