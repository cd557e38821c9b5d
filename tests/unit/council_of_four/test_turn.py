"""PHASES OF PLAY: draw a card, then one Main action and at most one Quick action in either order."""

import pytest

from games.engines.council_of_four import messages as msg
from games.engines.council_of_four.rules import RULES
from games.engines.kernel.errors import RuleError
from games.engines.kernel.rules import UNKNOWN_ACTION
from tests.unit.council_of_four.builders import act, dealt, playing


def refused(state, type_, seat, message, **fields):
    with pytest.raises(RuleError) as error:
        act(state, type_, seat, **fields)
    assert error.value.message == message


def elect(state, seat=0, colour=None, balcony="coast", type_="elect"):
    colour = colour or next(c for c, n in state["councilors"].items() if n)
    return act(state, type_, seat, colour=colour, balcony=balcony)


class DrawTests:
    def test_a_turn_begins_with_a_draw_made_by_itself(self):
        """Phase 1: Draw a Card: compulsory and without a choice, so no tap (issue 26): the first
        player's draw is part of the deal, the next player's part of the action ending a turn."""
        state = dealt(3)
        assert len(state["seats"][0]["hand"]) == 7 and len(state["seats"][1]["hand"]) == 6
        assert state["phase"] == "actions"
        assert "draw" not in {c["type"] for c in RULES.legal_actions(state, 0)}
        top = state["deck"][0]
        state = act(elect(state), "end_turn", 0)
        assert state["current"] == 1 and state["seats"][1]["hand"][-1] == top
        assert len(state["seats"][1]["hand"]) == 7 and state["phase"] == "actions"

    def test_there_is_no_draw_to_tap(self):
        state = dealt(3)
        refused(state, "draw", 0, UNKNOWN_ACTION.format(type="draw"))
        refused(state, "elect", 1, msg.NOT_YOUR_TURN.format(name="Anna"), colour="black", balcony="coast")
        refused(state, "elect", 7, msg.NO_SUCH_SEAT, colour="black", balcony="coast")
        refused(
            state,
            "elect",
            None,
            msg.SEAT_ONLY.format(what="elect a Councilor"),
            colour="black",
            balcony="coast",
        )

    def test_an_empty_deck_is_rebuilt_from_the_discards(self):
        """ "If the deck finishes at any point during the game, reshuffle the discarded cards."""
        state = playing(3)
        state["discard"], state["deck"] = state["deck"], []
        pile = set(state["discard"])
        state = act(elect(state), "end_turn", 0)
        assert state["seats"][1]["hand"][-1] in pile
        assert state["discard"] == [] and len(state["deck"]) == len(pile) - 1

    def test_the_draw_is_skipped_when_no_card_is_left(self):
        """docs/rules-decisions.md: with both the deck and the discards empty the draw is skipped."""
        state = playing(3)
        state["seats"][0]["hand"] += state["deck"]
        state["deck"] = []
        state = elect(state)
        state = act(state, "end_turn", 0)
        assert state["current"] == 1 and state["phase"] == "actions"
        assert RULES.legal_actions(state, 1)[0]["type"] == "elect"


class ActionOrderTests:
    def test_the_quick_action_may_come_first(self):
        state = playing(3)
        state = act(state, "engage_servant", 0)
        assert state["turn"] == {"main_left": 1, "quick_left": 0, "mains_done": 0}
        assert not any(a["type"] == "end_turn" for a in RULES.legal_actions(state, 0))
        refused(state, "engage_servant", 0, msg.NO_QUICK_ACTION_LEFT)
        state = elect(state)
        # Both used: the turn ends by itself and the next player draws.
        assert state["current"] == 1 and state["phase"] == "actions" and len(state["seats"][1]["hand"]) == 7

    def test_after_the_main_action_the_quick_action_is_optional(self):
        state = elect(playing(3))
        assert state["current"] == 0
        refused(state, "elect", 0, msg.NO_MAIN_ACTION_LEFT, colour="black", balcony="coast")
        types = {a["type"] for a in RULES.legal_actions(state, 0)}
        assert "end_turn" in types and "engage_servant" in types and "elect" not in types
        state = act(state, "end_turn", 0)
        assert state["current"] == 1 and state["phase"] == "actions" and len(state["seats"][1]["hand"]) == 7

    def test_a_main_action_is_required(self):
        """ "You must perform a single Main Action"."""
        refused(playing(3), "end_turn", 0, msg.MAIN_ACTION_FIRST)

    def test_turns_go_round_the_table(self):
        state = elect(playing(2, seat=1), seat=1)
        state = act(state, "end_turn", 1)
        assert state["current"] == 0 and state["turn"]["main_left"] == 1

    def test_an_additional_main_action_costs_3_servants(self):
        """Quick action 4: return 3 Servants and perform two Main actions (the same one twice)."""
        state = playing(3)
        state["seats"][0]["servants"] = 3
        state = act(state, "additional_main", 0)
        assert state["seats"][0]["servants"] == 0 and state["turn"]["main_left"] == 2
        state = elect(state)
        coins = state["seats"][0]["coins"]
        state = elect(state)
        assert state["seats"][0]["coins"] == coins + 4
        assert state["current"] == 1

    def test_the_additional_main_action_needs_3_servants(self):
        state = playing(3)
        state["seats"][0]["servants"] = 2
        refused(state, "additional_main", 0, msg.NOT_ENOUGH_SERVANTS.format(cost=3, servants=2, s="s"))
        assert not any(a["type"] == "additional_main" for a in RULES.legal_actions(state, 0))

    def test_engaging_a_servant_costs_3_coins(self):
        """Quick action 1: pay 3 Coins, take 1 Servant; impossible with fewer than 3 Coins."""
        state = playing(3)
        state = act(state, "engage_servant", 0)
        assert (state["seats"][0]["coins"], state["seats"][0]["servants"]) == (7, 2)
        state = playing(3)
        state["seats"][0]["coins"] = 2
        refused(state, "engage_servant", 0, msg.NOT_ENOUGH_COINS.format(cost=3, coins=2, s="s"))
        assert not any(a["type"] == "engage_servant" for a in RULES.legal_actions(state, 0))

    def test_unknown_actions_are_refused(self):
        with pytest.raises(RuleError):
            act(playing(3), "steal", 0)
