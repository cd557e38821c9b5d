"""The guard of every move is declared in rules.py and checked by the kernel, in this game's words,
before the move's body runs (issue 28; TURN STRUCTURE: the player whose turn it is plays; SETUP: the
table deals)."""

import dataclasses

import pytest

from games.engines.council_of_four import messages as msg
from games.engines.council_of_four.rules import RULES
from games.engines.kernel.errors import RuleError
from games.engines.kernel.rules import TABLE, Move
from tests.unit.council_of_four.builders import dealt, new_game

BODY_RAN = "the body ran"
NEW, DEALT = new_game(3), dealt(3)  # made before any body is replaced


def _body(state, action, rng):
    raise AssertionError(BODY_RAN)


@pytest.fixture
def bodiless(monkeypatch):
    """Every move's body replaced by one that fails the test if it runs."""
    moves = {kind: dataclasses.replace(move, run=_body) for kind, move in RULES.moves.items()}
    monkeypatch.setattr(RULES, "moves", moves)


def refusal(state, kind, seat) -> str:
    with pytest.raises(RuleError) as error:
        RULES.apply(state, {"type": kind, "seat": seat})
    return error.value.message


class DeclaredTests:
    def test_every_move_is_declared_with_its_guard(self):
        assert all(isinstance(move, Move) for move in RULES.moves.values())
        assert RULES.words is msg

    def test_the_table_deals_and_the_seat_whose_turn_it_is_plays(self):
        assert RULES.moves["deal"].acting is TABLE and RULES.moves["deal"].phases == ("deal",)
        turn = {kind: move for kind, move in RULES.moves.items() if kind != "deal"}
        state = dealt(3)
        state["current"] = 2
        assert all(move.phases == ("actions",) and move.acting(state) == 2 for move in turn.values())


@pytest.mark.usefixtures("bodiless")
class RefusedBeforeTheBodyTests:
    @pytest.mark.parametrize("kind", sorted(set(RULES.moves) - {"deal"}))
    def test_no_move_of_a_turn_before_the_deal(self, kind):
        what = RULES.moves[kind].what
        assert refusal(NEW, kind, 0) == msg.NOT_NOW.format(what=what)

    def test_the_deal_only_once(self):
        assert refusal(DEALT, "deal", TABLE) == msg.NOT_NOW.format(what="deal the game")

    def test_only_the_table_deals(self):
        assert refusal(NEW, "deal", 1) == msg.TABLE_ONLY

    @pytest.mark.parametrize("kind", sorted(set(RULES.moves) - {"deal"}))
    def test_only_the_seat_whose_turn_it_is(self, kind):
        state = DEALT
        assert refusal(state, kind, 1) == msg.NOT_YOUR_TURN.format(name="Anna")
        assert refusal(state, kind, TABLE) == msg.SEAT_ONLY.format(what=RULES.moves[kind].what)
        assert refusal(state, kind, 5) == msg.NO_SUCH_SEAT

    def test_the_right_seat_reaches_the_body(self):
        with pytest.raises(AssertionError, match=BODY_RAN):
            RULES.apply(DEALT, {"type": "elect", "seat": 0})
        with pytest.raises(AssertionError, match=BODY_RAN):
            RULES.apply(NEW, {"type": "deal", "seat": TABLE})
