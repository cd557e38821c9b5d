"""What each seat and the table screen see, and the labels of the session log."""

import json
import random
from functools import partial

from games.engines.council_of_four.player_view import CouncilOfFourSeatView, CouncilOfFourTableView
from games.engines.council_of_four.rules import RULES
from games.engines.kernel.choices import draw_action
from games.engines.kernel.contract import check_view, required_keys, view_type_for
from tests.unit.contract import described
from tests.unit.council_of_four.builders import (
    act,
    cards,
    dealt,
    give_permit,
    jokers,
    new_game,
    place,
    playing,
    set_balcony,
    set_face_up,
    set_hand,
)


class ViewTests:
    def test_a_seat_sees_its_own_hand_and_only_counts_of_the_others(self):
        state = dealt(3)
        view = RULES.view(state, 1)
        assert view["you"] == 1
        assert [c["id"] for c in view["private"]["hand"]] == sorted(state["seats"][1]["hand"])
        assert all(set(c) == {"id", "colour"} for c in view["private"]["hand"])
        assert [s["hand_count"] for s in view["seats"]] == [7, 6, 6]  # Anna drew to begin her turn
        text = json.dumps(view)
        for other in (0, 2):
            assert not any(f'"{c}"' in text for c in state["seats"][other]["hand"])
        assert not any(f'"{c}"' in text for c in state["deck"])

    def test_the_table_sees_no_hand(self):
        state = dealt(4)
        view = RULES.view(state, None)
        assert "private" not in view and view["you"] is None
        text = json.dumps(view)
        assert not any(f'"{c}"' in text for s in state["seats"] for c in s["hand"])

    def test_the_map_and_the_tracks_for_the_ui(self):
        state = dealt(2)
        view = RULES.view(state, 0)
        assert set(view) >= {
            "cities", "roads", "balconies", "queen", "permits", "seats", "rewards", "nobility_track",
            "turn", "pending", "to_act", "politics", "councilors", "final", "over", "result",
        }  # fmt: skip
        juvelar = next(c for c in view["cities"] if c["letter"] == "J")
        assert juvelar == {
            "letter": "J", "name": "Juvelar", "region": "hills", "colour": "grey", "token": None,
            "merchants": [], "neutral": "J" in state["neutral"], "queen": True,
        }  # fmt: skip
        assert len(view["roads"]) == 18 and len(view["cities"]) == 15
        assert {c["letter"] for c in view["cities"] if c["neutral"]} == set(state["neutral"])
        assert all(len(p["face_up"]) == 2 and p["deck_count"] == 13 for p in view["permits"].values())
        assert view["turn"] == {
            "seat": 0, "name": "Anna", "phase": "actions", "main_left": 1, "quick_left": 1,
            "mains_done": 0, "can_end": False,
        }  # fmt: skip
        assert view["to_act"] == [0]
        assert view["rewards"]["queen"] == [25, 18, 12, 7, 3]
        assert view["seats"][1]["coins"] == 11 and view["seats"][1]["merchants_left"] == 10

    def test_before_the_deal_the_table_acts(self):
        view = RULES.view(new_game(3), None)
        assert view["to_act"] == [None] and view["turn"] is None


class DescribeTests:
    def test_labels_tell_the_story(self):
        state = playing(3)
        set_balcony(state, "coast", ["black", "white", "orange", "pink"])
        set_face_up(state, "coast", ["C03", "C01"])
        set_hand(state, 0, cards("black", 1) + jokers(1))
        state["neutral"] = []
        describe = partial(described, RULES)
        assert describe(new_game(3), {"type": "deal", "seat": None}).endswith(
            "; Anna drew a Politics card to begin the first turn"
        )
        assert (
            describe(state, {"type": "elect", "seat": 0, "colour": "blue", "balcony": "coast"})
            == "Anna elected a blue Councilor in the Coast Balcony and gained 4 Coins"
        )
        hand = cards("black", 1) + jokers(1)
        assert describe(
            state, {"type": "acquire_permit", "seat": 0, "balcony": "coast", "cards": hand, "permit": "C03"}
        ) == (
            "Anna satisfied the Coast Balcony with 2 Politics cards (black, joker), paid 8 Coins and "
            "acquired the Permit for Arkon, Dorful and Esti (1 Coin, 2 Victory Points)"
        )
        place(state, 1, "A")
        give_permit(state, 0, "C15")
        assert (
            describe(state, {"type": "build", "seat": 0, "permit": "C15", "city": "A"})
            == "Anna placed a Merchant in Arkon with the Permit for Arkon, returning 1 Servant"
        )
        set_balcony(state, "queen", ["black", "white", "orange", "pink"])
        assert describe(state, {"type": "queen_build", "seat": 0, "cards": hand, "city": "M"}) == (
            "Anna satisfied the Queen's Balcony with 2 Politics cards (black, joker), moved the Queen "
            "from Juvelar to Merkatim (2 roads), paid 12 Coins and placed a Merchant there"
        )
        assert describe(state, {"type": "engage_servant", "seat": 0}) == "Anna engaged a Servant for 3 Coins"
        assert describe(state, {"type": "end_turn", "seat": 2}) == "Chloe ended their turn"

    def test_the_next_players_draw_is_said_with_the_action_that_passed_the_turn(self):
        """Phase 1: Draw a Card happens by itself as a turn starts: the log says it, never the card."""
        state = playing(3)
        colour = next(c for c, n in state["councilors"].items() if n)
        state = act(state, "elect", 0, colour=colour, balcony="coast")
        top = state["deck"][0]
        label = described(RULES, state, {"type": "end_turn", "seat": 0})
        assert label == "Anna ended their turn; Ben drew a Politics card"
        assert top not in label
        label = described(RULES, state, {"type": "engage_servant", "seat": 0})
        assert label == "Anna engaged a Servant for 3 Coins; the turn passes to Ben, who drew a Politics card"
        state["deck"], state["discard"] = [], []
        assert described(RULES, state, {"type": "end_turn", "seat": 0}) == (
            "Anna ended their turn; the turn passes to Ben (no Politics card left to draw)"
        )

    def test_a_before_a_vowel_and_one_coin_in_the_singular(self):
        """Issue 26: "a orange Councilor" and "paid 1 Coins" read wrong."""
        state = playing(3)
        state["councilors"]["orange"] = max(1, state["councilors"]["orange"])
        label = described(RULES, state, {"type": "elect", "seat": 0, "colour": "orange", "balcony": "coast"})
        assert label.startswith("Anna elected an orange Councilor")

    def test_a_label_never_names_a_drawn_card(self):
        state = new_game(3)
        dealt_state = RULES.apply(state, {"type": "deal", "seat": None})
        label = described(RULES, state, {"type": "deal", "seat": None})
        assert all(card not in label for card in dealt_state["seats"][0]["hand"])

    def test_a_bad_action_still_gets_a_label(self):
        assert described(RULES, dealt(3), {"type": "elect", "seat": 0}) == "elect"

    def test_every_offered_action_has_a_label(self):
        state = dealt(3)
        state["seats"][0]["coins"] = 40
        rng = random.Random(3)
        for choice in RULES.legal_actions(state, 0):
            for _ in range(5):
                action = draw_action(RULES, state, choice, rng)
                assert described(RULES, state, action).startswith("Anna ")


class MoreLabelTests:
    def test_quick_actions_and_choices_in_words(self):
        state = playing(3)
        describe = partial(described, RULES)
        assert (
            describe(state, {"type": "send_servant", "seat": 0, "colour": "pink", "balcony": "queen"})
            == "Anna sent a Servant to elect a pink Councilor in the Queen's Balcony"
        )
        assert (
            describe(state, {"type": "change_permits", "seat": 0, "region": "hills"})
            == "Anna sent a Servant to change the face-up Hills Permits"
        )
        assert (
            describe(state, {"type": "additional_main", "seat": 0})
            == "Anna returned 3 Servants to perform an additional Main action"
        )
        assert (
            describe(state, {"type": "choose_city_bonus", "seat": 0, "cities": ["A", "B"]})
            == "Anna took again the bonus of the City tokens of Arkon and Burgen"
        )
        assert (
            describe(state, {"type": "choose_permit_bonus", "seat": 0, "permit": "M12"})
            == "Anna took again the bonus of the Permit for Naris (7 Coins)"
        )
        assert (
            describe(state, {"type": "take_free_permit", "seat": 0, "permit": "H14"})
            == "Anna took the Permit for Juvelar (an additional Main action, 2 Victory Points) for free"
        )
        assert describe(state, {"type": "deal", "seat": None}).startswith("The table shuffled")


class ViewContractTests:
    """games.engines.council_of_four.player_view: every declared key, for the table and every seat, in
    every phase; ``to_act`` names who must act now (here: the one seat, or the table, with a choice)."""

    def states(self):
        state = new_game(3)
        yield state
        state = dealt(3)
        yield state
        state = act(
            state, "elect", 0, colour=next(c for c, n in state["councilors"].items() if n), balcony="coast"
        )
        yield state
        pending = playing(3)
        give_permit(pending, 0, "C15")
        pending["city_tokens"] = {"A": 1}
        pending["seats"][0]["nobility"] = 13
        pending = act(pending, "build", 0, permit="C15", city="A")
        assert pending["pending"]
        yield pending
        over = dealt(2)
        over["over"], over["phase"] = True, "over"
        yield over

    def test_every_view_has_every_declared_key(self):
        table_keys = required_keys(CouncilOfFourTableView)
        assert {"phase", "to_act", "seats", "you", "game", "turn", "pending", "cities"} <= table_keys
        assert "private" not in table_keys and "hand" not in table_keys
        assert required_keys(CouncilOfFourSeatView) == table_keys | {"private"}
        for state in self.states():
            for viewer in (None, 0, 1, 2):
                if viewer is not None and viewer >= len(state["seats"]):
                    continue
                view = RULES.view(state, viewer)
                assert check_view(view_type_for(RULES, viewer), view) == []
                assert view["you"] == viewer
                assert view["to_act"] == [
                    s for s in (None, *range(len(state["seats"]))) if RULES.legal_actions(state, s)
                ]
