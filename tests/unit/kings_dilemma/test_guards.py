"""The guards declared with the moves (games/engines/kings_dilemma/rules.py): the kernel refuses a move
played in the wrong phase or by the wrong seat, in the game's words (messages.py), before the move's
body runs, and ``to_act`` names who must act now (rulebook "Vote of the Council": the Voting Phase goes
clockwise from the Leader; "Vote Resolution": the Moderator decides ties)."""

import copy

import pytest

from games.engines.kernel.errors import RuleError
from games.engines.kernel.rules import Move
from games.engines.kernel.turns import WORDS
from games.engines.kings_dilemma import messages as msg
from games.engines.kings_dilemma.rules import RULES
from tests.unit.kings_dilemma.builders import act, config, drafted, voting


def refusal(state: dict, type_: str, seat, **fields) -> str:
    before = copy.deepcopy(state)
    with pytest.raises(RuleError) as error:
        act(state, type_, seat, **fields)
    assert state == before
    return error.value.message


def tied() -> dict:
    """Everybody passed: the Moderator (Chloe) decides the winning side."""
    state = voting(config(leader=0, moderator=2))
    for seat in (0, 1, 2):
        state = act(state, "pass_gather", seat)
    assert state["phase"] == "tie_break"
    return state


class DeclaredMovesTests:
    def test_every_move_of_the_game_declares_its_guard(self):
        assert all(isinstance(move, Move) for move in RULES.moves.values())
        assert RULES.words is msg

    def test_a_refusal_is_in_the_game_s_words_not_the_kernel_s(self):
        """The King's Dilemma says "a House does" where the kernel says "a player does"."""
        said = refusal(voting(config(leader=0, moderator=2)), "give_coins", None, to=1, coins=1)
        assert said == msg.SEAT_ONLY.format(what="give Coins") != WORDS.SEAT_ONLY.format(what="give Coins")


class TableMovesTests:
    def test_the_table_s_move_in_the_wrong_phase_is_refused_before_its_body(self):
        # The body would refuse the missing card with CARD_FORMAT: the guard speaks first.
        assert refusal(voting(), "draw_dilemma", None) == msg.NOT_NOW.format(what="draw a Dilemma card")

    def test_a_seat_cannot_play_the_table_s_move(self):
        assert refusal(drafted(), "draw_dilemma", 0) == msg.TABLE_ONLY.format(what="draw a Dilemma card")


class AnySeatMovesTests:
    def test_any_house_gives_coins_out_of_turn_but_not_outside_the_vote(self):
        state = voting(config(leader=0, moderator=2))
        assert act(state, "give_coins", 2, to=0, coins=1)["seats"][0]["coins"] == 11
        # The body would refuse the gift to oneself (GIFT_SELF): the phase is checked first.
        assert refusal(drafted(), "give_coins", 1, to=1, coins=1) == msg.NOT_NOW.format(what="give Coins")

    def test_a_seat_that_does_not_exist_is_refused(self):
        assert refusal(voting(), "give_coins", 7, to=0, coins=1) == msg.NO_SUCH_SEAT


class SeatOfTheStateMovesTests:
    def test_only_the_voter_whose_turn_it_is_votes(self):
        state = voting(config(leader=0, moderator=2))
        # The body would refuse the side "maybe" (VOTE_SIDE): the turn is checked first.
        assert refusal(state, "vote", 1, side="maybe", power=1) == msg.NOT_YOUR_VOTE.format(name="Anna")
        assert refusal(state, "vote", None, side="aye", power=1) == msg.SEAT_ONLY.format(what="vote")

    def test_only_the_drafting_house_chooses_a_secret_agenda(self):
        state = act(RULES.setup(config(), 1), "deal", None)
        drafting = state["draft"]["order"][0]
        other = next(s for s in range(3) if s != drafting)
        name = state["seats"][drafting]["name"]
        said = refusal(state, "choose_secret_agenda", other, agenda="not offered")
        assert said == msg.NOT_YOUR_TURN.format(name=name, what="choose a Secret Agenda")

    def test_only_the_moderator_decides_a_tie(self):
        state = tied()
        said = refusal(state, "break_tie", 0, side="neither")
        assert said == msg.MODERATOR_ONLY.format(name="Chloe", what="decide the winning side")
        assert refusal(state, "give_leader", 2, to=0) == msg.NOT_NOW.format(what="give the Leader token")


class ToActTests:
    def test_the_vote_waits_for_the_voter_not_for_every_house_that_may_give_coins(self):
        state = voting(config(leader=1, moderator=2))
        assert RULES.to_act(state) == [1] == RULES.active_seats(state)
        assert {c["type"] for c in RULES.legal_actions(state, 0)} == {"give_coins"}

    def test_the_moderator_then_the_table_then_nobody(self):
        state = tied()
        assert RULES.to_act(state) == [2]
        state = act(state, "break_tie", 2, side="aye")
        assert (state["phase"], RULES.to_act(state)) == ("outcome", [None])
        assert RULES.to_act({**state, "over": True}) == []

    def test_the_draft_waits_for_the_drafting_house(self):
        state = act(RULES.setup(config(), 1), "deal", None)
        assert RULES.to_act(state) == [state["draft"]["order"][0]]
        assert RULES.view(state, None)["to_act"] == RULES.to_act(state)
