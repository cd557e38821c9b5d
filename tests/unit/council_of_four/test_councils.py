"""MAIN ACTION 1 (elect a Councilor), MAIN ACTION 2 (acquire a Business Permit tile), QUICK ACTIONS 2
and 3 (change the Permits, send a Servant to elect a Councilor)."""

import pytest

from games.engines.council_of_four import messages as msg
from games.engines.council_of_four.payments import (
    cheapest_shape,
    payment_cost,
    payment_shapes,
    permit_payment_cost,
    shape_cost,
)
from games.engines.council_of_four.rules import RULES
from games.engines.kernel.errors import RuleError
from tests.unit.council_of_four.builders import (
    act,
    cards,
    choices_of,
    jokers,
    offered,
    options,
    playing,
    set_balcony,
    set_face_up,
    set_hand,
)


def refused(state, type_, seat, message, **fields):
    with pytest.raises(RuleError) as error:
        act(state, type_, seat, **fields)
    assert error.value.message == message


def council(colours=("black", "black", "white", "orange"), balcony="coast"):
    """Anna to act, with the given Balcony and no cards yet."""
    state = playing(3)
    set_balcony(state, balcony, list(colours))
    set_face_up(state, "coast", ["C01", "C09"])
    set_hand(state, 0, [])
    return state


class ElectTests:
    def test_electing_pushes_the_oldest_councilor_out_and_pays_4_coins(self):
        """Main action 1: insert on the arrow side, push the last one out, receive 4 Coins."""
        state = council(("black", "white", "orange", "pink"))
        state["councilors"] = {"black": 0, "white": 0, "orange": 0, "pink": 2, "purple": 3, "blue": 3}
        state["councilors"]["black"] = 1
        state = act(state, "elect", 0, colour="purple", balcony="coast")
        assert state["balconies"]["coast"] == ["purple", "black", "white", "orange"]
        assert state["councilors"]["purple"] == 2 and state["councilors"]["pink"] == 3
        assert state["seats"][0]["coins"] == 14

    def test_only_councilors_beside_the_board(self):
        state = council()
        state["councilors"]["blue"] += state["councilors"]["pink"]
        state["councilors"]["pink"] = 0
        refused(
            state, "elect", 0, msg.NO_SUCH_COUNCILOR.format(colour="pink"), colour="pink", balcony="coast"
        )
        refused(
            state, "elect", 0, msg.NO_SUCH_COUNCILOR.format(colour="gold"), colour="gold", balcony="coast"
        )
        refused(state, "elect", 0, msg.UNKNOWN_BALCONY.format(balcony="sea"), colour="blue", balcony="sea")
        elect = {(a["colour"], a["balcony"]) for a in offered(state, 0, "elect")}
        assert ("pink", "coast") not in elect and ("blue", "queen") in elect
        [choice] = choices_of(state, 0, "elect")
        assert choice["params"] == {
            "balcony": {"kind": "pick", "options": ["coast", "hills", "mountains", "queen"]},
            "colour": {"kind": "pick", "options": [c for c, n in state["councilors"].items() if n]},
        }
        assert "pink" not in choice["params"]["colour"]["options"]

    def test_a_servant_elects_without_coins(self):
        """Quick action 3: return 1 Servant, elect exactly as the Main action, earn no Coins."""
        state = council(("black", "white", "orange", "pink"), balcony="queen")
        state = act(state, "send_servant", 0, colour="blue", balcony="queen")
        assert state["balconies"]["queen"] == ["blue", "black", "white", "orange"]
        assert (state["seats"][0]["coins"], state["seats"][0]["servants"]) == (10, 0)
        assert state["turn"]["main_left"] == 1

    def test_sending_a_servant_needs_one(self):
        state = council()
        state["seats"][0]["servants"] = 0
        refused(
            state,
            "send_servant",
            0,
            msg.NOT_ENOUGH_SERVANTS.format(cost=1, servants=0, s=""),
            colour="blue",
            balcony="coast",
        )
        assert not any(a["type"] == "send_servant" for a in RULES.choices(state, 0))


class BalconyPaymentTests:
    @pytest.mark.parametrize(
        ("hand", "cost"),
        [
            (cards("black", 1), 10),
            (cards("black", 2), 7),
            (cards("black", 2) + cards("white", 1), 4),
            (cards("black", 2) + cards("white", 1) + cards("orange", 1), 0),
            (jokers(1), 11),
            (cards("white", 1) + jokers(1), 8),
            (cards("black", 1) + jokers(2), 6),
            (jokers(4), 4),
        ],
    )
    def test_coins_by_cards_played_plus_one_per_joker(self, hand, cost):
        """Main action 2: 1 card 10 Coins, 2 cards 7, 3 cards 4, 4 cards 0; +1 Coin per multi-coloured card."""
        state = council()
        state["seats"][0]["coins"] = 20
        set_hand(state, 0, hand)
        state = act(state, "acquire_permit", 0, balcony="coast", cards=hand, permit="C09")
        assert state["seats"][0]["coins"] == 20 - cost
        assert state["seats"][0]["hand"] == [] and set(hand) <= set(state["discard"])
        assert [p["id"] for p in state["seats"][0]["permits"]] == ["C09"]
        assert state["seats"][0]["victory"] == 7  # C09's bonus at once

    def test_each_card_matches_a_different_councilor(self):
        state = council()
        hand = cards("white", 2)
        set_hand(state, 0, hand + cards("pink", 1))
        balcony = "Coast Balcony"
        refused(
            state,
            "acquire_permit",
            0,
            msg.CARDS_DO_NOT_MATCH.format(balcony=balcony),
            balcony="coast",
            cards=hand,
            permit="C09",
        )
        refused(
            state,
            "acquire_permit",
            0,
            msg.CARDS_DO_NOT_MATCH.format(balcony=balcony),
            balcony="coast",
            cards=cards("pink", 1),
            permit="C09",
        )

    def test_the_cards_must_be_a_few_of_your_own(self):
        state = council()
        set_hand(state, 0, cards("black", 2) + jokers(3))
        for bad in ([], "P01", jokers(3) + cards("black", 2), [1]):
            refused(state, "acquire_permit", 0, msg.CARDS_FORMAT, balcony="coast", cards=bad, permit="C09")
        black = cards("black", 1)
        refused(state, "acquire_permit", 0, msg.CARD_TWICE, balcony="coast", cards=black * 2, permit="C09")
        refused(
            state,
            "acquire_permit",
            0,
            msg.CARD_NOT_IN_HAND,
            balcony="coast",
            cards=cards("white", 1),
            permit="C09",
        )

    def test_you_must_afford_the_coins(self):
        state = council()
        state["seats"][0]["coins"] = 9
        set_hand(state, 0, cards("black", 1))
        refused(
            state,
            "acquire_permit",
            0,
            msg.NOT_ENOUGH_COINS.format(cost=10, coins=9, s="s"),
            balcony="coast",
            cards=cards("black", 1),
            permit="C09",
        )
        assert not any(a["type"] == "acquire_permit" for a in RULES.choices(state, 0))

    def test_the_permit_must_face_up_beside_that_balcony(self):
        state = council()
        set_hand(state, 0, cards("black", 1))
        refused(
            state,
            "acquire_permit",
            0,
            msg.PERMIT_NOT_FACE_UP.format(balcony="Coast Balcony"),
            balcony="coast",
            cards=cards("black", 1),
            permit="C02",
        )
        refused(
            state,
            "acquire_permit",
            0,
            msg.UNKNOWN_REGION.format(region="queen"),
            balcony="queen",
            cards=cards("black", 1),
            permit="C01",
        )

    def test_the_taken_permit_is_replaced_from_its_deck(self):
        """ "Replace the tile with the top tile of the corresponding deck."""
        state = council()
        state["seats"][0]["coins"] = 20
        set_hand(state, 0, cards("black", 1))
        top = state["permit_decks"]["coast"][0]
        state = act(state, "acquire_permit", 0, balcony="coast", cards=cards("black", 1), permit="C01")
        assert state["face_up"]["coast"] == [top, "C09"]

    def test_an_exhausted_deck_leaves_the_space_empty(self):
        state = council()
        state["permit_decks"]["coast"] = []
        set_hand(state, 0, cards("black", 1))
        state = act(state, "acquire_permit", 0, balcony="coast", cards=cards("black", 1), permit="C01")
        assert state["face_up"]["coast"] == ["C09"]


class PermitChoiceTests:
    """Main action 2 as one choice per Council: the Council, then the Permit, then the cards (docs/architecture.md
    section 3, revised 2026-11-23), never one entry per Permit and payment."""

    def test_one_choice_per_council_with_the_cards_that_can_serve_it(self):
        state = council()
        set_hand(state, 0, cards("black", 3) + cards("white", 2) + jokers(2) + cards("pink", 1))
        [coast] = [
            c
            for c in choices_of(state, 0, "acquire_permit")
            if c["params"]["balcony"]["options"] == ["coast"]
        ]
        assert coast["params"]["balcony"] == {"kind": "pick", "options": ["coast"]}
        assert coast["params"]["permit"] == {"kind": "pick", "options": ["C01", "C09"]}
        options = coast["params"]["cards"]["options"]
        assert coast["params"]["cards"]["kind"] == "payment"
        usable = set(cards("black", 3) + cards("white", 2) + jokers(2))
        assert all(set(o["cards"]) <= usable for o in options)  # never the pink card
        prices = [o["coins"] for o in options]
        assert prices == sorted(prices) and prices[-1] <= state["seats"][0]["coins"]
        for o in options:
            assert o["coins"] == payment_cost(state, 0, "coast", o["cards"])

    def test_a_council_is_offered_when_its_cheapest_payment_is_affordable(self):
        """Black, black, white, orange: 2 black cards cost 7 Coins; all four match for 0 Coins."""
        state = council()
        set_hand(state, 0, cards("black", 2))
        state["seats"][0]["coins"] = 6
        assert not choices_of(state, 0, "acquire_permit")
        state["seats"][0]["coins"] = 7
        assert options(state, 0, "acquire_permit", "balcony") == ["coast"]
        state["seats"][0]["coins"] = 0
        set_hand(state, 0, cards("black", 2) + cards("white", 1) + cards("orange", 1))
        assert options(state, 0, "acquire_permit", "balcony") == ["coast"]

    def test_no_card_that_can_serve_no_choice(self):
        state = council()
        state["seats"][0]["coins"] = 50
        set_hand(state, 0, cards("pink", 3) + cards("blue", 3))
        assert "coast" not in options(state, 0, "acquire_permit", "balcony")

    def test_payments_are_told_apart_by_colours_not_by_card_ids(self):
        state = council()
        set_hand(state, 0, cards("black", 3) + cards("white", 2) + jokers(2) + cards("pink", 1))
        shapes = payment_shapes(state, 0, "coast")
        # black 0-2, white 0-1, orange 0, jokers 0-2: 18 shapes but the empty one and 2+1+2 cards.
        assert len(shapes) == 16
        assert {"black": 2, "white": 1, "joker": 1} in shapes and {"joker": 2} in shapes
        assert all(1 <= sum(s.values()) <= 4 for s in shapes)
        assert shape_cost({"black": 2, "white": 1, "joker": 1}) == 1 and shape_cost({"joker": 2}) == 9

    def test_the_cheapest_payment_matches_every_councilor_it_can_then_adds_jokers(self):
        state = council()
        set_hand(state, 0, cards("black", 3) + cards("white", 2) + jokers(2) + cards("pink", 1))
        assert cheapest_shape(state, 0, "coast") == {"black": 2, "white": 1, "joker": 1}
        costs = [shape_cost(s) for s in payment_shapes(state, 0, "coast")]
        assert min(costs) == shape_cost(cheapest_shape(state, 0, "coast"))
        set_hand(state, 0, cards("pink", 2))
        assert cheapest_shape(state, 0, "coast") is None


class PaymentCostTests:
    """The price the web layer shows as a player picks cards (``payments.permit_payment_cost``, from the seat's view)."""

    def test_the_cost_of_cards_that_satisfy_the_council(self):
        state = council()
        set_hand(state, 0, cards("black", 2) + cards("white", 1) + jokers(1) + cards("pink", 1))
        assert permit_payment_cost(RULES.view(state, 0), "coast", cards("black", 1)) == 10
        assert permit_payment_cost(RULES.view(state, 0), "coast", cards("black", 2) + jokers(1)) == 5
        assert (
            permit_payment_cost(
                RULES.view(state, 0), "coast", cards("black", 2) + cards("white", 1) + jokers(1)
            )
            == 1
        )

    def test_none_when_the_cards_cannot_pay(self):
        state = council()
        set_hand(state, 0, cards("black", 2) + cards("pink", 1))
        for bad in ([], cards("pink", 1), cards("white", 1), cards("black", 1) * 2, "P01", None):
            assert permit_payment_cost(RULES.view(state, 0), "coast", bad) is None
        assert permit_payment_cost(RULES.view(state, 0), "queen", cards("black", 1)) is None
        assert permit_payment_cost(RULES.view(state, None), "coast", cards("black", 1)) is None

    def test_none_when_the_coins_fall_short(self):
        state = council()
        set_hand(state, 0, cards("black", 2))
        state["seats"][0]["coins"] = 9
        assert permit_payment_cost(RULES.view(state, 0), "coast", cards("black", 1)) is None
        assert permit_payment_cost(RULES.view(state, 0), "coast", cards("black", 2)) == 7


class ChangePermitsTests:
    def test_the_face_up_permits_go_under_the_deck(self):
        """Quick action 2: return 1 Servant; the two face-up tiles go to the bottom, two new come up."""
        state = council()
        deck = list(state["permit_decks"]["coast"])
        state = act(state, "change_permits", 0, region="coast")
        assert state["face_up"]["coast"] == deck[:2]
        assert state["permit_decks"]["coast"] == deck[2:] + ["C01", "C09"]
        assert state["seats"][0]["servants"] == 0

    def test_changing_needs_a_servant_and_permits(self):
        state = council()
        refused(state, "change_permits", 0, msg.UNKNOWN_REGION.format(region="queen"), region="queen")
        state["seats"][0]["servants"] = 0
        refused(
            state,
            "change_permits",
            0,
            msg.NOT_ENOUGH_SERVANTS.format(cost=1, servants=0, s=""),
            region="coast",
        )
        state["seats"][0]["servants"] = 1
        state["permit_decks"]["coast"] += state["face_up"]["coast"]
        state["face_up"]["coast"] = []
        refused(state, "change_permits", 0, msg.NO_FACE_UP_PERMITS, region="coast")
        assert options(state, 0, "change_permits", "region") == ["hills", "mountains"]
