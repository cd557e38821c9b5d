"""The guards declared with the moves (rules.py), checked by the kernel before a body runs: the
refusal is the game's sentence (messages.py), whatever the action's own parameters say."""

from dataclasses import replace

import pytest

from games.engines.for_the_king import messages as msg
from games.engines.for_the_king.rules import RULES
from games.engines.kernel.errors import RuleError
from games.engines.kernel.turns import Move
from tests.unit.for_the_king.builders import act, adviser_turn, esteem, gold, gov, new_game

NOT_A_BID = {"amount": "a lot"}  # the body would refuse it with BID_NOT_A_NUMBER


def refusal(state: dict, type_: str, seat, **fields) -> str:
    with pytest.raises(RuleError) as refused:
        RULES.apply(state, {"type": type_, "seat": seat, **fields})
    return str(refused.value)


class GuardTests:
    def test_every_move_is_declared_with_its_guard(self):
        assert RULES.moves and all(isinstance(move, Move) for move in RULES.moves.values())

    def test_a_move_of_another_phase_is_refused_before_its_body(self):
        """'Distribute Cards' is no time to bid: the guard speaks, not the bid's own check."""
        state = adviser_turn(3, [gov("military", "E"), gov("diplomacy", "A")], adviser=0)
        assert refusal(state, "bid", 0, **NOT_A_BID) == msg.NOT_NOW.format(what="bid")

    def test_only_the_table_deals(self):
        """'Setup': the table (acting=TABLE) deals, never a seat."""
        assert refusal(new_game(3), "deal", 1) == msg.TABLE_ONLY.format(what="deal the cards")

    def test_the_table_cannot_play_a_seats_move(self):
        state = adviser_turn(3, [gov("military", "E"), gov("diplomacy", "A")], adviser=0)
        assert refusal(state, "place", None, area="middle") == msg.SEAT_ONLY.format(what="place a card")

    def test_only_the_adviser_places(self):
        """'Distribute Cards': the Adviser (acting=turn.adviser) places the card drawn."""
        state = adviser_turn(3, [gov("military", "E"), gov("diplomacy", "A")], adviser=1)
        assert refusal(state, "place", 2, area="nowhere") == msg.NOT_YOUR_TURN.format(
            name="Ben", what="place a card"
        )

    def test_only_the_bidder_whose_turn_it_is_bids(self):
        """'Bid': in turn from the first player (acting=turn.bidder)."""
        state = act(esteem(3, [[gold(3)[0]], [], []], [gov("military", "H")]), "reveal", 0)
        assert refusal(state, "bid", 2, **NOT_A_BID) == msg.NOT_YOUR_TURN.format(name="Anna", what="bid")

    def test_the_kernel_guards_a_body_that_checks_nothing(self, monkeypatch):
        """A body without a check of its own runs only for the seat and phase its Move declares."""
        ran = []
        monkeypatch.setitem(RULES.moves, "bid", replace(RULES.moves["bid"], run=lambda *_: ran.append(1)))
        state = act(esteem(3, [[gold(3)[0]], [], []], [gov("military", "H")]), "reveal", 0)
        assert refusal(state, "bid", 1, amount=1) == msg.NOT_YOUR_TURN.format(name="Anna", what="bid")
        assert refusal(esteem(3, [[], [], []], [gov("military", "H")]), "bid", 0, amount=1) == (
            msg.NOT_NOW.format(what="bid")
        )
        assert ran == []
        RULES.apply(state, {"type": "bid", "seat": 0, "amount": 1})
        assert ran == [1]

    def test_no_such_seat(self):
        assert refusal(new_game(2), "deal", 7) == msg.NO_SUCH_SEAT

    def test_a_refusal_leaves_the_state_as_it_was(self):
        state = adviser_turn(3, [gov("military", "E"), gov("diplomacy", "A")], adviser=0)
        before = repr(state)
        refusal(state, "pass", 0)
        assert repr(state) == before
