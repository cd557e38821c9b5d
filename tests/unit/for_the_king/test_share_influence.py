"""The Share Influence phase ('Gameplay' 1 in the rulebook)."""

import pytest

from games.engines.for_the_king import messages as msg
from games.engines.for_the_king.rules import RULES
from games.engines.kernel.choices import choice, pick
from games.engines.kernel.errors import RuleError
from games.engines.kernel.rules import UNKNOWN_ACTION
from tests.unit.for_the_king.builders import act, adviser_turn, gold, gov, king

DECK = [
    gov("military", "E"),
    gov("diplomacy", "A"),
    gold(3)[0],
    gov("livestock", "B"),
    gold(2)[0],
    gov("architecture", "H"),
    gold(1)[0],
    gold(1)[1],
    gold(1)[2],
    gold(1)[3],
]


def place(state, seat, area):
    return act(state, "place", seat, area=area)


class DistributeTests:
    def test_rulebook_example_four_players(self):
        """'Share Influence Phase' example: keep the first card, the second to the middle, the third
        on the Favor deck (a card is already kept), the next 2 must go to the middle; the opponents
        then choose the 3 middle cards from the Adviser's left."""
        state = adviser_turn(4, DECK, adviser=1)
        state = place(state, 1, "personal")
        state = place(state, 1, "middle")
        assert RULES.choices(state, 1) == [choice("place", 1, area=pick(["middle", "favor"]))]
        state = act(state, "place", 1, area="favor")
        assert RULES.choices(state, 1) == [choice("place", 1, area=pick(["middle"]))]
        state = act(state, "place", 1, area="middle")
        state = place(state, 1, "middle")
        assert state["seats"][1]["personal_deck"] == [DECK[0]]
        assert state["favor_deck"] == [DECK[2]]
        assert state["middle"] == [DECK[1], DECK[3], DECK[4]]
        assert state["phase"] == "choose"
        assert state["choosers"] == [2, 3, 0]
        assert RULES.choices(state, 1) == []
        state = act(state, "choose", 2, card=DECK[3])
        state = act(state, "choose", 3, card=DECK[1])
        assert RULES.choices(state, 0) == [choice("choose", 0, card=pick([DECK[4]]))]
        state = act(state, "choose", 0, card=DECK[4])
        assert [s["personal_deck"] for s in state["seats"]] == [[DECK[4]], [DECK[0]], [DECK[3]], [DECK[1]]]
        assert state["middle"] == []
        assert state["phase"] == "distribute"
        assert state["adviser"] == 2  # 'Change Adviser': the player to your left
        assert state["placed"] == {"personal": 0, "middle": 0, "favor": 0}
        # The new Adviser's first draw is part of the last choice ('Distribute Cards').
        assert state["drawn"] == DECK[5] and state["deck"] == DECK[6:]

    def test_adviser_distributes_one_card_per_player_plus_one(self):
        """'Distribute Cards': in total, one card per player plus one."""
        state = adviser_turn(2, DECK, adviser=0)
        state = place(state, 0, "middle")
        state = place(state, 0, "favor")
        state = place(state, 0, "personal")
        assert state["phase"] == "choose"
        assert len(state["deck"]) == len(DECK) - 3

    def test_the_next_card_is_drawn_by_itself_once_the_card_is_placed(self):
        """'Distribute Cards': "draw the top card ... then place it ... Then, draw the next card":
        a compulsory draw with no choice, so it is no tap of the Adviser's (issue 26)."""
        state = adviser_turn(3, DECK)
        assert state["drawn"] == DECK[0]
        assert RULES.choices(state, 0) == [choice("place", 0, area=pick(["personal", "middle", "favor"]))]
        state = place(state, 0, "middle")
        assert state["drawn"] == DECK[1] and state["deck"] == DECK[2:]
        assert [c["type"] for c in RULES.choices(state, 0)] == ["place"]

    def test_there_is_no_draw_to_tap(self):
        """The draw is part of the placement: an action asking for it is refused."""
        with pytest.raises(RuleError) as error:
            act(adviser_turn(3, DECK), "draw", 0)
        assert error.value.message == UNKNOWN_ACTION.format(type="draw")

    def test_unknown_area(self):
        state = adviser_turn(3, DECK)
        with pytest.raises(RuleError) as error:
            act(state, "place", 0, area="pocket")
        assert error.value.message == msg.UNKNOWN_AREA

    def test_one_card_for_yourself(self):
        """'In front of yourself': limit per turn 1 card."""
        state = place(adviser_turn(3, DECK), 0, "personal")
        with pytest.raises(RuleError) as error:
            act(state, "place", 0, area="personal")
        assert error.value.message == msg.PERSONAL_FULL

    def test_one_card_per_opponent_in_the_middle(self):
        """'In the middle of the table': limit per turn 1 card per opponent."""
        state = place(place(adviser_turn(3, DECK), 0, "middle"), 0, "middle")
        with pytest.raises(RuleError) as error:
            act(state, "place", 0, area="middle")
        assert error.value.message == msg.MIDDLE_FULL

    def test_one_card_on_the_favor_deck(self):
        """'Next to the Government board': limit per turn 1 card, on top of the Favor deck."""
        state = adviser_turn(3, DECK)
        state["favor_deck"] = [gold(3)[5]]
        state = place(state, 0, "favor")
        assert state["favor_deck"] == [DECK[0], gold(3)[5]]
        with pytest.raises(RuleError) as error:
            act(state, "place", 0, area="favor")
        assert error.value.message == msg.FAVOR_FULL

    def test_only_the_adviser_distributes(self):
        state = adviser_turn(3, DECK, adviser=0)
        with pytest.raises(RuleError) as error:
            act(state, "place", 1, area="middle")
        assert error.value.message == msg.NOT_YOUR_TURN.format(name="Anna", what="place a card")
        assert RULES.choices(state, 1) == []

    def test_placing_is_not_allowed_while_opponents_choose(self):
        state = adviser_turn(2, DECK)
        for area in ("middle", "favor", "personal"):
            state = place(state, 0, area)
        assert state["drawn"] is None  # the Adviser's turn is over: nothing more is drawn
        with pytest.raises(RuleError) as error:
            act(state, "place", 0, area="middle")
        assert error.value.message == msg.NOT_NOW.format(what="place a card")

    def test_the_next_adviser_draws_by_itself_once_the_middle_is_chosen(self):
        """'Change Adviser': the player to your left "begin[s] a new turn with the Distribute Cards
        step": its first draw is part of the last choice."""
        state = adviser_turn(2, DECK)
        for area in ("middle", "favor", "personal"):
            state = place(state, 0, area)
        state = act(state, "choose", 1, card=DECK[0])
        assert state["adviser"] == 1 and state["drawn"] == DECK[3] and state["deck"] == DECK[4:]


class ChooseCentralCardsTests:
    def _choosing(self):
        state = adviser_turn(3, DECK, adviser=2)
        for area in ("middle", "middle", "favor", "personal"):
            state = place(state, 2, area)
        return state

    def test_opponents_choose_from_the_advisers_left(self):
        """'Choose Central Cards': starting with the player to your left and going clockwise."""
        state = self._choosing()
        assert state["choosers"] == [0, 1]
        with pytest.raises(RuleError) as error:
            act(state, "choose", 1, card=DECK[0])
        assert error.value.message == msg.NOT_YOUR_TURN.format(
            name="Anna", what="choose a card from the middle"
        )

    def test_the_card_must_be_in_the_middle(self):
        with pytest.raises(RuleError) as error:
            act(self._choosing(), "choose", 0, card=DECK[3])
        assert error.value.message == msg.NOT_IN_MIDDLE

    def test_a_half_change_is_never_left_behind(self):
        state = self._choosing()
        with pytest.raises(RuleError):
            act(state, "choose", 0, card="c999")
        assert state["middle"] == [DECK[0], DECK[1]] and state["choosers"] == [0, 1]


class KingCardsInShareInfluenceTests:
    def test_king_card_chosen_from_the_middle_is_used_at_once(self):
        """'Receiving King cards': reveal it instead of adding it to your personal deck, modify the
        Primary Duty tiles, put the card back in the box."""
        card = king("plus1")
        state = adviser_turn(3, [card, *DECK], adviser=0)
        for area in ("middle", "middle", "favor", "personal"):
            state = place(state, 0, area)
        state = act(state, "choose", 1, card=card)
        assert state["phase"] == "king_card"
        assert state["king_card"] == {"seat": 1, "card": card, "then": "choose"}
        assert RULES.choices(state, 1) == [
            choice(
                "king_card",
                1,
                changes=pick(
                    [
                        [{"office": o, "change": 1}]
                        for o in ["diplomacy", "military", "architecture", "livestock", "entertainment"]
                    ]
                ),
            )
        ]
        state = act(state, "king_card", 1, changes=[{"office": "military", "change": 1}])
        assert state["duties"]["military"] == {"primary": 4, "secondary": 2}
        assert state["king_cards_used"] == [card]
        assert state["seats"][1]["personal_deck"] == []
        assert state["choosers"] == [2] and state["phase"] == "choose"

    def test_king_card_kept_by_the_adviser_is_used_at_once(self):
        """DESIGN 8 'King card kept by the Adviser': revealed and applied like one from the middle."""
        card = king("minus1")
        state = place(adviser_turn(3, [card, *DECK], adviser=0), 0, "personal")
        assert state["phase"] == "king_card" and state["king_card"]["seat"] == 0
        assert RULES.choices(state, 0)[0]["type"] == "king_card"
        state = act(state, "king_card", 0, changes=[{"office": "diplomacy", "change": -1}])
        assert state["duties"]["diplomacy"] == {"primary": 2, "secondary": 1}
        assert state["seats"][0]["personal_deck"] == []
        assert state["phase"] == "distribute" and state["placed"]["personal"] == 1
        assert state["drawn"] == DECK[0]  # the next card, drawn by itself
        assert RULES.choices(state, 0)[0]["type"] == "place"


class DeckRunsOutTests:
    def test_the_adviser_places_what_remains_then_gain_esteem_starts(self):
        """DESIGN 8 'Deck running out during an Adviser's turn': the Adviser places the cards that
        remain, the opponents choose while cards remain, then the Gain Esteem phase starts."""
        state = adviser_turn(3, DECK[:2], adviser=1)
        state["favor_deck"] = [gold(3)[6]]
        state = place(state, 1, "middle")
        state = place(state, 1, "personal")
        assert state["phase"] == "choose" and state["choosers"] == [2, 0]
        state = act(state, "choose", 2, card=DECK[0])
        # Anna (seat 0) gets nothing: the middle is empty.
        assert state["part"] == "gain_esteem"
        assert state["phase"] == "reveal"
        assert state["first_player"] == 2  # 'the player to the left of the last Adviser'
        assert state["seats"][1]["hand"] == [DECK[1]]
        assert state["seats"][2]["hand"] == [DECK[0]]
        assert state["seats"][0]["hand"] == []

    def test_a_last_turn_without_middle_cards_goes_straight_to_gain_esteem(self):
        state = adviser_turn(2, DECK[:1], adviser=0)
        state["favor_deck"] = [gold(3)[6]]
        state = place(state, 0, "favor")
        assert state["part"] == "gain_esteem"
        assert sorted(state["favor_deck"]) == sorted([DECK[0], gold(3)[6]])
        assert state["first_player"] == 1

    def test_an_empty_favor_deck_ends_the_game_at_once(self):
        """Decision 'Empty Favor deck': nothing to bid on, so the game is scored."""
        state = adviser_turn(2, DECK[:1], adviser=0)
        state = place(state, 0, "personal")
        assert state["over"] is True
        assert state["result"]["scores"] == [3, 0]  # Anna holds the only (Military) card
        assert RULES.choices(state, 0) == RULES.choices(state, 1) == []
