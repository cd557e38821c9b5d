"""Setup and the deal ('Game Elements and Setup' in the rulebook)."""

import json

import pytest

from games.engines.for_the_king import messages as msg
from games.engines.for_the_king.cards import CARD_IDS, CARDS
from games.engines.for_the_king.rules import RULES
from games.engines.kernel.errors import RuleError
from games.engines.kernel.registry import get_game
from games.engines.kernel.rules import ALWAYS
from tests.unit.for_the_king.builders import act, adviser_turn, dealt, esteem, gold, gov, king, new_game


class RulesObjectTests:
    def test_the_registry_hands_out_this_engine(self):
        rules = get_game("for_the_king")
        assert rules is RULES
        assert (rules.slug, rules.name, rules.min_seats, rules.max_seats) == (
            "for_the_king",
            "For the King (and Me)",
            2,
            5,
        )

    def test_the_card_data_file_holds_108_cards(self):
        """'Contents': 54 Government cards, 15 King cards, 39 Gold cards."""
        kinds = [c["kind"] for c in CARDS.values()]
        assert (kinds.count("government"), kinds.count("king"), kinds.count("gold")) == (54, 15, 39)

    def test_card_distribution_matches_the_summary(self):
        """Summary 'Card Distribution': orange, violet and green 7x 1s and 2x 2s; red, blue and pink
        4x 2s, 3x 3s and 2x 4s; Gold 13 of each value; King cards 3 of each single/double effect, 2
        of +1/-1 and 1 of +1/-1 on two colours."""
        from collections import Counter

        def values(colour):
            return Counter(c["value"] for c in CARDS.values() if c["colour"] == colour)

        for colour in ("orange", "violet", "green"):
            assert values(colour) == {1: 7, 2: 2}
        for colour in ("red", "blue", "pink"):
            assert values(colour) == {2: 4, 3: 3, 4: 2}
        assert Counter(c["value"] for c in CARDS.values() if c["kind"] == "gold") == {1: 13, 2: 13, 3: 13}
        assert Counter(c["effect"] for c in CARDS.values() if c["kind"] == "king") == {
            "plus1": 3,
            "minus1": 3,
            "plus1_two": 3,
            "minus1_two": 3,
            "plus_or_minus1": 2,
            "plus1_minus1_two": 1,
        }

    def test_revealing_actions_cannot_be_undone(self):
        """The deal, a Favor card revealed and a card drawn at random show hidden cards."""
        for type_ in ("deal", "reveal", "draw_random_card", "pay_gold"):
            assert RULES.revealing[type_] is ALWAYS
        assert not RULES.undoable(new_game(3), {"type": "deal", "seat": None}, dealt(3))


class UndoableTests:
    """Undo never drops an action that revealed a card (docs/api.md "Undo"): what an action shows
    depends on its parameters and the card, not on its type."""

    def placed(self, area: str, card: str, *rest: str) -> tuple[dict, dict, dict]:
        state = adviser_turn(3, [card, *rest])
        action = {"type": "place", "seat": 0, "area": area}
        return state, action, RULES.apply(state, action)

    def test_a_card_placed_face_up_in_the_middle_cannot_be_undone(self):
        """'Distribute Cards': 'Place the card face up in the middle of the table'."""
        before, action, after = self.placed("middle", gov("military", "A"))
        assert after["middle"] == [gov("military", "A")]
        assert RULES.reveals(before, action, after) and not RULES.undoable(before, action, after)

    def test_a_king_card_kept_in_front_of_yourself_is_revealed_and_cannot_be_undone(self):
        """'Receiving King cards': 'reveal it immediately instead' (DESIGN 8: also when kept)."""
        before, action, after = self.placed("personal", king("plus1"))
        assert after["king_card"]["card"] == king("plus1")
        assert not RULES.undoable(before, action, after)

    def test_a_card_kept_face_down_or_put_on_the_favor_deck_may_be_undone_when_nothing_is_drawn_after_it(
        self,
    ):
        """The Adviser's last card this turn: nothing is drawn after it, nothing was shown."""
        for area in ("personal", "favor"):
            before = adviser_turn(2, [gov("military", "A"), gov("military", "B")])
            before["middle"] = [gov("military", "C")]
            before["placed"] = {"personal": 1, "middle": 1, "favor": 1} | {area: 0}
            action = {"type": "place", "seat": 0, "area": area}
            after = RULES.apply(before, action)
            assert after["phase"] == "choose" and after["drawn"] is None and after["king_card"] is None
            assert RULES.undoable(before, action, after)

    def test_a_placement_followed_by_the_compulsory_draw_cannot_be_undone(self):
        """'Distribute Cards': "Then, draw the next card": the Adviser saw it, a drawn card stays drawn."""
        for area in ("personal", "favor"):
            before, action, after = self.placed(area, gov("military", "A"), gov("military", "B"))
            assert after["phase"] == "distribute" and after["drawn"] == gov("military", "B")
            assert RULES.reveals(before, action, after) and not RULES.undoable(before, action, after)

    def test_a_bid_may_be_undone_until_it_ends_the_bidding(self):
        """'End of a round': once the bidding ends, all see whether the winner can pay in Gold."""
        state = act(esteem(2, [[gold(3)[0]], [gold(1)[0]]], [gov("military", "A"), gold(1)[1]]), "reveal", 0)
        action = {"type": "bid", "seat": 0, "amount": 2}
        after = RULES.apply(state, action)
        assert RULES.undoable(state, action, after)
        passing = {"type": "pass", "seat": 1}
        called = RULES.apply(after, passing)
        assert called["phase"] == "pay_gold"
        assert not RULES.undoable(after, passing, called)


class SetupTests:
    def test_setup_waits_for_the_table_to_deal(self):
        state = new_game(3, seed=7)
        assert state["seed"] == 7 and state["step"] == 0
        assert state["over"] is False and state["result"] is None
        assert [s["name"] for s in state["seats"]] == ["Anna", "Ben", "Chloe"]
        assert state["deck"] == [] and state["adviser"] is None
        assert RULES.choices(state, None) == [{"type": "deal", "seat": None, "params": {}}]
        assert all(RULES.choices(state, s) == [] for s in range(3))
        json.dumps(state)

    def test_government_board_has_five_offices_up_to_four_players_and_six_with_five(self):
        """'Setup' step 2: 5 portraits with 2-4 players, 6 with 5."""
        assert len(new_game(4)["offices"]) == 5
        assert "provisions" not in new_game(4)["offices"]
        assert len(new_game(5)["offices"]) == 6

    def test_duty_tiles_start_at_three_and_one(self):
        """'Setup' step 3: 3-value Primary, 1-value Secondary tiles."""
        assert all(d == {"primary": 3, "secondary": 1} for d in new_game(3)["duties"].values())

    def test_two_players_use_no_secondary_tiles(self):
        """'Setup' step 3: in 2-player games only, do not use the 1-value tiles."""
        assert all(d == {"primary": 3, "secondary": None} for d in new_game(2)["duties"].values())

    @pytest.mark.parametrize("count", [1, 6])
    def test_two_to_five_players(self, count):
        with pytest.raises(RuleError) as error:
            RULES.setup({"seats": [{"name": f"P{i}"} for i in range(count)]}, 1)
        assert error.value.message == msg.SEAT_COUNT

    def test_every_seat_needs_a_name(self):
        with pytest.raises(RuleError) as error:
            RULES.setup({"seats": [{"name": "Anna"}, {"name": " "}]}, 1)
        assert error.value.message == msg.SEAT_NAMES


class DealTests:
    @pytest.mark.parametrize(("count", "deck_size"), [(2, 65), (3, 77), (4, 85), (5, 108)])
    def test_deck_size_after_marked_and_random_removals(self, count, deck_size):
        """'Setup' steps 4-5: marked cards, then 22 / 13 / 8 / 0 random cards go back to the box."""
        state = dealt(count)
        assert len(state["deck"]) + 1 == deck_size  # the first Adviser already drew the top card
        assert len(state["box"]) == 108 - deck_size
        assert sorted([state["drawn"], *state["deck"], *state["box"]]) == sorted(CARD_IDS)

    @pytest.mark.parametrize(("count", "gold_each"), [(2, 9), (3, 10), (4, 11), (5, 13)])
    def test_gold_cards_leave_by_player_count(self, count, gold_each):
        """Summary 'Setup': remove 4 of each Gold with 2 players, 3 with 3 players, 2 with 4 players
        (before the random removals), and the pink suit with fewer than 5 players."""
        from collections import Counter

        from games.engines.for_the_king.cards import in_play

        kept = in_play(count)
        assert Counter(CARDS[c]["value"] for c in kept if CARDS[c]["kind"] == "gold") == dict.fromkeys(
            (1, 2, 3), gold_each
        )
        assert any(CARDS[c]["colour"] == "pink" for c in kept) == (count == 5)

    def test_three_players_remove_cards_marked_four_or_five(self):
        """'Setup' step 4 example: in a 3-player game, remove all cards with a 4 or 5 at the bottom."""
        state = dealt(3)
        assert all(CARDS[c]["mark"] in (None, 2, 3) for c in state["deck"])
        marked = [c for c in CARD_IDS if CARDS[c]["mark"] in (4, 5)]
        assert set(marked) <= set(state["box"])

    def test_deal_is_seeded_and_picks_a_first_adviser(self):
        """'Setup' step 7: randomly choose the first player; they will be the first Adviser."""
        one, two = dealt(4, seed=3), dealt(4, seed=3)
        assert one == two
        assert one["adviser"] in range(4)
        assert one["phase"] == "distribute"
        # 'Distribute Cards': the first Adviser's compulsory draw is part of the deal (no tap).
        assert one["drawn"] is not None and one["drawn"] not in one["deck"]
        advisers = {dealt(4, seed=s)["adviser"] for s in range(20)}
        assert len(advisers) > 1
        decks = {tuple(dealt(4, seed=s)["deck"]) for s in range(5)}
        assert len(decks) == 5

    def test_only_the_table_deals(self):
        with pytest.raises(RuleError) as error:
            act(new_game(3), "deal", 0)
        assert error.value.message == msg.TABLE_ONLY.format(what="deal the cards")

    def test_the_table_cannot_take_a_player_s_turn(self):
        with pytest.raises(RuleError) as error:
            act(dealt(3), "place", None, area="middle")
        assert error.value.message == msg.SEAT_ONLY.format(what="place a card")

    def test_cards_are_dealt_once(self):
        with pytest.raises(RuleError) as error:
            act(dealt(3), "deal", None)
        assert error.value.message == msg.NOT_NOW.format(what="deal the cards")

    def test_no_such_seat(self):
        state = dealt(3)
        for seat in (3, -1, "0", True):
            with pytest.raises(RuleError) as error:
                act(state, "place", seat, area="middle")
            assert error.value.message == msg.NO_SUCH_SEAT


class MessageCoverageTests:
    def test_every_rule_error_message_is_asserted_by_a_test(self):
        """STYLE: messages are module constants and every RuleError path has a test asserting it."""
        from pathlib import Path

        tests = "".join(p.read_text() for p in Path(__file__).parent.glob("test_*.py"))
        constants = [n for n in dir(msg) if n.isupper()]
        missing = [n for n in constants if f"msg.{n}" not in tests]
        assert constants and not missing
