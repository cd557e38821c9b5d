"""What a phone offers to pay a Council (MAIN ACTION 2 and 4): ``payment_offers``, ``road_coins`` and
``servants_to_place``, pure helpers of the engine for the step-by-step controls."""

from collections import Counter

from games.engines.council_of_four.board import CARDS, JOKER
from games.engines.council_of_four.merchants import servants_to_place
from games.engines.council_of_four.payments import payment_cost, payment_offers, road_coins
from tests.unit.council_of_four.builders import cards, jokers, playing, set_balcony, set_hand


class PaymentOffersTests:
    def test_the_cheapest_payment_comes_first_and_each_price_follows_the_table(self):
        """MAIN ACTION 2: 1 card 10 Coins, 2 cards 7, 3 cards 4, 4 cards 0; +1 Coin per Joker."""
        hand = cards("black", 2) + cards("white", 1) + jokers(1) + cards("blue", 2)
        offers = payment_offers(hand, ["black", "black", "white", "orange"], coins=20)
        assert offers[0] == {
            "cards": cards("black", 2) + cards("white", 1) + jokers(1),
            "shape": {"black": 2, "white": 1, JOKER: 1},
            "size": 4,
            "coins": 1,
        }
        prices = [o["coins"] for o in offers]
        assert prices == sorted(prices)
        for offer in offers:
            colours = Counter(CARDS[c] for c in offer["cards"])
            assert colours == Counter(offer["shape"])
            jokers_played = colours[JOKER]
            assert offer["coins"] == {1: 10, 2: 7, 3: 4, 4: 0}[offer["size"]] + jokers_played
        assert not any("blue" in o["shape"] for o in offers)  # no blue Councilor sits there

    def test_only_what_the_coins_can_pay_is_offered(self):
        hand = cards("black", 1) + cards("white", 1)
        council = ["black", "white", "pink", "pink"]
        assert [o["coins"] for o in payment_offers(hand, council, coins=7)] == [7]
        assert [o["coins"] for o in payment_offers(hand, council, coins=10)] == [7, 10, 10]
        assert payment_offers(hand, council, coins=6) == []

    def test_the_roads_are_added_to_the_price(self):
        """MAIN ACTION 4: pay 2 Coins for each road the Queen travels."""
        hand = cards("pink", 4)
        offers = payment_offers(hand, ["pink"] * 4, coins=4, extra=4)
        assert [(o["size"], o["coins"]) for o in offers] == [(4, 4)]

    def test_the_price_is_the_engines_price(self):
        state = playing(2)
        set_balcony(state, "coast", ["black", "white", "white", "purple"])
        set_hand(state, 0, cards("white", 2) + cards("purple", 1) + jokers(2))
        hand = state["seats"][0]["hand"]
        offers = payment_offers(hand, state["balconies"]["coast"], coins=99)
        assert len(offers) > 5
        for offer in offers:
            assert payment_cost(state, 0, "coast", offer["cards"]) == offer["coins"]

    def test_a_hand_without_matching_cards_offers_nothing(self):
        assert payment_offers(cards("blue", 3), ["black"] * 4, coins=50) == []


class RoadsAndServantsTests:
    def test_staying_is_free_and_each_road_costs_2_coins(self):
        assert road_coins("J", "J") == 0
        assert road_coins("J", "I") == 2  # a road links Juvelar and I
        assert road_coins("J", "A") == 8  # four roads away
        assert road_coins("J", "nowhere") is None

    def test_one_servant_per_merchant_of_another_player(self):
        """RULES FOR PLACING A MERCHANT: return 1 Servant for each Merchant of other players."""
        assert servants_to_place([], False, 0) == 0
        assert servants_to_place([0], False, 0) == 0
        assert servants_to_place([1, 2], False, 0) == 2
        assert servants_to_place([1], True, 0) == 2  # the Neutral Merchant counts too (DESIGN 8)
