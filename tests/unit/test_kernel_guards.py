"""The kernel checks each move's declared guard before the move runs (STYLE.md 21, boardgame.io's
reducer), and compares every view with its declared shape key by key (games/engines/kernel/contract.py)."""

from types import SimpleNamespace
from typing import NotRequired, TypedDict

import pytest

from games.engines.kernel.contract import BaseView, check_view, required_keys, view_type_for
from games.engines.kernel.errors import RuleError
from games.engines.kernel.registry import games
from games.engines.kernel.rules import TABLE, Move, Rules
from games.engines.kernel.turns import ANY_SEAT, WORDS

GAME_WORDS = SimpleNamespace(NOT_NOW="Not during this part of the round: you cannot {what}.")


def _count(state, action, rng):
    state["count"] += 1


class TinyRules(Rules):
    slug = "tiny"
    words = GAME_WORDS
    moves = {
        "deal": Move(_count, phases=("deal",), acting=TABLE, what="deal"),
        "shout": Move(_count, phases=("play",), acting=ANY_SEAT, what="shout"),
        "play": Move(_count, phases=("play",), acting=lambda state: state["turn"], what="play a card"),
        "veto": Move(_count, phases=None, acting=0, what="veto", not_yours="Only {name} may {what}."),
    }


RULES = TinyRules()


def state(phase="play", turn=1) -> dict:
    return {
        "phase": phase,
        "turn": turn,
        "seats": [{"name": "Anna"}, {"name": "Ben"}],
        "count": 0,
        "seed": 1,
        "step": 0,
    }


def refusal(action, **kwargs) -> str:
    with pytest.raises(RuleError) as error:
        RULES.apply(state(**kwargs), action)
    return error.value.message


class DeclaredGuardTests:
    def test_a_move_that_passes_its_guard_runs_once(self):
        after = RULES.apply(state(), {"type": "play", "seat": 1})
        assert (after["count"], after["step"]) == (1, 1)

    def test_each_kind_of_acting_is_checked_before_the_body_in_the_game_s_words(self):
        assert refusal({"type": "shout", "seat": 0}, phase="deal") == GAME_WORDS.NOT_NOW.format(what="shout")
        assert refusal({"type": "deal", "seat": 0}, phase="deal") == WORDS.TABLE_ONLY.format(what="deal")
        assert refusal({"type": "shout", "seat": None}) == WORDS.SEAT_ONLY.format(what="shout")
        assert refusal({"type": "play", "seat": 0}) == WORDS.NOT_YOUR_TURN.format(
            name="Ben", what="play a card"
        )
        assert refusal({"type": "veto", "seat": 1}) == "Only Anna may veto."
        assert refusal({"type": "shout", "seat": 5}) == WORDS.NO_SUCH_SEAT

    def test_a_refused_move_leaves_the_state_untouched(self):
        before = state()
        with pytest.raises(RuleError):
            RULES.apply(before, {"type": "play", "seat": 0})
        assert before == state()

    def test_apply_in_place_checks_the_same_guard(self):
        owned = state()
        with pytest.raises(RuleError):
            RULES.apply_in_place(owned, {"type": "deal", "seat": None})
        RULES.apply_in_place(owned, {"type": "play", "seat": 1})
        assert owned == RULES.apply(state(), {"type": "play", "seat": 1})


class EveryGameDeclaresItsGuardsTests:
    @pytest.mark.parametrize("rules", games(), ids=lambda r: r.slug)
    def test_every_move_of_every_game_is_a_declared_move(self, rules):
        bare = sorted(kind for kind, move in rules.moves.items() if not isinstance(move, Move))
        assert bare == [], f"{rules.slug}: moves without a declared guard"

    @pytest.mark.parametrize("rules", games(), ids=lambda r: r.slug)
    def test_every_game_declares_its_table_and_seat_views(self, rules):
        assert rules.table_view_type is not BaseView and rules.seat_view_type is not BaseView
        assert "private" in required_keys(rules.seat_view_type)


class Card(TypedDict):
    number: int


class SeatEntry(TypedDict):
    index: int
    name: str
    cards: list[Card]


class TinyView(BaseView):
    seats: list[SeatEntry]  # type: ignore[misc]
    top: NotRequired[Card | None]


class ViewCheckTests:
    def good(self) -> dict:
        seats = [{"index": 0, "name": "Anna", "cards": [{"number": 3}]}]
        return {"phase": "play", "to_act": [0], "seats": seats, "you": None}

    def test_a_view_with_exactly_the_declared_keys_passes(self):
        assert check_view(TinyView, self.good()) == []
        assert check_view(TinyView, {**self.good(), "top": {"number": 1}}) == []
        assert check_view(TinyView, {**self.good(), "top": None}) == []

    def test_a_missing_or_undeclared_key_is_named_where_it_is(self):
        view = self.good()
        del view["you"]
        view["seats"][0]["cards"][0]["colour"] = "red"
        view["top"] = {}
        assert check_view(TinyView, view) == [
            "you: missing",
            "seats[0].cards[0].colour: not declared",
            "top.number: missing",
        ]

    def test_a_table_view_holding_a_seat_s_private_part_breaks_the_contract(self):
        assert check_view(TinyView, {**self.good(), "private": {"hand": [1]}}) == ["private: not declared"]

    def test_the_table_and_a_seat_have_their_own_declared_shape(self):
        class Both:
            table_view_type, seat_view_type = TinyView, BaseView

        assert view_type_for(Both, None) is TinyView and view_type_for(Both, 0) is BaseView
