"""MAIN ACTION 1 (elect a Councilor), MAIN ACTION 2 (acquire a Business Permit tile), QUICK ACTIONS 2
and 3 (change the Permits, send a Servant to elect a Councilor)."""

import pytest

from games.council_of_four import messages as msg
from games.council_of_four.legal import payments
from games.council_of_four.rules import RULES
from games.engine.errors import RuleError
from tests.unit.council_of_four.builders import (
    act,
    cards,
    jokers,
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
        options = {(a["colour"], a["balcony"]) for a in RULES.legal_actions(state, 0) if a["type"] == "elect"}
        assert ("pink", "coast") not in options and ("blue", "queen") in options

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
            msg.NOT_ENOUGH_SERVANTS.format(cost=1, servants=0),
            colour="blue",
            balcony="coast",
        )
        assert not any(a["type"] == "send_servant" for a in RULES.legal_actions(state, 0))


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
            msg.NOT_ENOUGH_COINS.format(cost=10, coins=9),
            balcony="coast",
            cards=cards("black", 1),
            permit="C09",
        )
        assert not any(a["type"] == "acquire_permit" for a in RULES.legal_actions(state, 0))

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

    def test_payments_are_listed_by_colours_not_by_card_ids(self):
        state = council()
        set_hand(state, 0, cards("black", 3) + cards("white", 2) + jokers(2) + cards("pink", 1))
        found = payments(state, 0, "coast")
        # black 0-2, white 0-1, orange 0, jokers 0-2; 1 to 4 cards in all.
        shapes = {tuple(sorted(c)) for c, _ in found}
        assert len(shapes) == len(found)
        assert (cards("black", 2) + cards("white", 1) + jokers(1), 1) in found
        assert (jokers(2), 9) in found
        assert all(1 <= len(c) <= 4 for c, _ in found)
        # black 0-2, white 0-1, orange 0, jokers 0-2: 18 shapes but the empty one and 2+1+2 cards.
        assert len(found) == 16

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
            state, "change_permits", 0, msg.NOT_ENOUGH_SERVANTS.format(cost=1, servants=0), region="coast"
        )
        state["seats"][0]["servants"] = 1
        state["permit_decks"]["coast"] += state["face_up"]["coast"]
        state["face_up"]["coast"] = []
        refused(state, "change_permits", 0, msg.NO_FACE_UP_PERMITS, region="coast")
        regions = {a["region"] for a in RULES.legal_actions(state, 0) if a["type"] == "change_permits"}
        assert regions == {"hills", "mountains"}
