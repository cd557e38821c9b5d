"""SETUP and SETTING UP A TWO-PLAYER GAME: the state before and after the table's deal."""

from collections import Counter

import pytest

from games.engines.council_of_four import messages as msg
from games.engines.council_of_four.board import (
    CARD_IDS,
    CARDS,
    CITIES,
    COUNCILOR_COLOURS,
    JOKER,
    PERMITS,
    QUEEN_CITY,
    REGIONS,
)
from games.engines.council_of_four.rules import RULES
from games.engines.kernel.errors import RuleError
from games.engines.kernel.rules import ALWAYS
from tests.unit.council_of_four.builders import act, config, dealt, new_game, playing


class RulesObjectTests:
    def test_the_registry_hands_out_council_of_four(self):
        from games.engines.kernel.registry import get_game

        rules = get_game("council_of_four")
        assert rules is RULES
        assert (rules.slug, rules.name, rules.min_seats, rules.max_seats) == (
            "council_of_four",
            "Council of Four",
            2,
            4,
        )

    def test_actions_that_reveal_hidden_information_cannot_be_undone(self):
        """Satisfying a council shows the Politics cards discarded; the deal deals hidden cards; a
        move that ends a turn shows the next player the card it draws ('Phase 1: Draw a Card' happens
        by itself), so it is undone only when it drew nothing."""
        for type_ in ("deal", "acquire_permit", "queen_build"):
            assert RULES.revealing[type_] is ALWAYS
        assert not RULES.undoable(new_game(3), {"type": "deal", "seat": None}, dealt(3))
        state = playing(3)
        colour = next(c for c, n in state["councilors"].items() if n)
        elect = {"type": "elect", "seat": 0, "colour": colour, "balcony": "coast"}
        elected = RULES.apply(state, elect)
        assert RULES.undoable(state, elect, elected)  # the turn goes on: nothing drawn
        end = {"type": "end_turn", "seat": 0}
        assert not RULES.undoable(elected, end, RULES.apply(elected, end))  # Ben drew a card


class SetupTests:
    def test_setup_waits_for_the_table_to_deal(self):
        state = new_game(3)
        assert state["step"] == 0 and state["over"] is False and state["result"] is None
        assert state["phase"] == "deal"
        assert all(s["hand"] == [] for s in state["seats"])
        assert RULES.choices(state, None) == [{"type": "deal", "seat": None, "params": {}}]
        assert all(RULES.choices(state, s) == [] for s in range(3))

    def test_coins_and_servants_follow_turn_order(self):
        """PLAYER SETUP: 10/11/12/13 Coins and 1/2/3/4 Servants."""
        state = new_game(4)
        assert [s["coins"] for s in state["seats"]] == [10, 11, 12, 13]
        assert [s["servants"] for s in state["seats"]] == [1, 2, 3, 4]
        assert [s["name"] for s in state["seats"]] == ["Anna", "Ben", "Chloe", "David"]

    @pytest.mark.parametrize("count", [0, 1, 5])
    def test_two_to_four_players(self, count):
        with pytest.raises(RuleError) as error:
            RULES.setup({"seats": [{"name": f"P{i}"} for i in range(count)]}, 1)
        assert error.value.message == msg.SEAT_COUNT

    def test_every_seat_needs_a_name(self):
        with pytest.raises(RuleError) as error:
            RULES.setup({"seats": [{"name": "Anna"}, {"name": " "}]}, 1)
        assert error.value.message == msg.SEAT_NAMES

    def test_nothing_but_the_deal_before_the_deal(self):
        with pytest.raises(RuleError) as error:
            act(new_game(), "elect", 0, colour="black", balcony="coast")
        assert error.value.message == msg.NOT_NOW.format(what="elect a Councilor")


class DealTests:
    def test_the_deal_sets_up_the_board(self):
        """SETUP 2-8: City tokens, Permit decks with 2 face up, the Queen, 4 random Councilors per
        Balcony with 8 beside the board, 6 Politics cards each."""
        state = dealt(3)
        assert state["phase"] == "actions" and state["current"] == 0
        assert set(state["city_tokens"]) == set(CITIES) - {QUEEN_CITY}
        assert sorted(state["city_tokens"].values()) == list(range(1, 15))
        assert state["queen"] == QUEEN_CITY == "J"
        for region in REGIONS:
            assert len(state["face_up"][region]) == 2
            assert len(state["permit_decks"][region]) == 13
            assert {PERMITS[p]["region"] for p in state["face_up"][region]} == {region}
        assert all(len(line) == 4 for line in state["balconies"].values())
        assert sum(state["councilors"].values()) == 8
        seated = Counter(c for line in state["balconies"].values() for c in line)
        seated.update(state["councilors"])
        assert seated == dict.fromkeys(COUNCILOR_COLOURS, 4)
        # 6 each, and Anna's draw to begin the first turn (Phase 1, made by itself).
        assert [len(s["hand"]) for s in state["seats"]] == [7, 6, 6]
        held = state["deck"] + [c for s in state["seats"] for c in s["hand"]]
        assert sorted(held) == sorted(CARD_IDS) and len(state["deck"]) == 90 - 19
        assert state["neutral"] == []

    def test_ninety_politics_cards(self):
        """COMPONENTS: 90 Politics cards, 13 each in 6 colours, 12 Jokers."""
        counts = Counter(CARDS.values())
        assert counts[JOKER] == 12 and len(counts) == 7
        assert all(counts[c] == 13 for c in COUNCILOR_COLOURS)

    def test_the_deal_depends_on_the_seed_only(self):
        assert dealt(3, 7) == dealt(3, 7)
        assert dealt(3, 7)["deck"] != dealt(3, 8)["deck"]

    @pytest.mark.parametrize("seed", range(12))
    def test_two_players_share_the_map_with_a_neutral_colour(self, seed):
        """SETTING UP A TWO-PLAYER GAME: one random Permit per region places a neutral Merchant in
        each city it shows (3 to 9 Merchants); the tiles go back into their decks."""
        state = dealt(2, seed)
        assert 3 <= len(state["neutral"]) <= 9
        for region in REGIONS:
            assert len(state["permit_decks"][region]) + len(state["face_up"][region]) == 15
            assert any(c in state["neutral"] for c in CITIES if CITIES[c]["region"] == region)

    def test_only_the_table_deals_and_only_once(self):
        state = new_game()
        with pytest.raises(RuleError) as error:
            act(state, "deal", 0)
        assert error.value.message == msg.TABLE_ONLY
        with pytest.raises(RuleError) as error:
            act(dealt(), "deal", None)
        assert error.value.message == msg.NOT_NOW.format(what="deal the game")

    def test_config_in_turn_order(self):
        assert [s["name"] for s in dealt(2)["seats"]] == [s["name"] for s in config(2)["seats"]]
