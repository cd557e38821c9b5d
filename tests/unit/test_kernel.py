"""The kernel every engine speaks (games/engines/kernel/): the one turn guard and the opening action."""

import re
from pathlib import Path
from typing import get_type_hints

import pytest

from games.engines.kernel.describe import sentence
from games.engines.kernel.errors import RuleError
from games.engines.kernel.registry import games
from games.engines.kernel.rules import TABLE, GameRules, Rules, plain_copy
from games.engines.kernel.turns import ANY_SEAT, WORDS, expect_turn, turn_guard

STATE = {"phase": "voting", "seats": [{"name": "Anna"}, {"name": "Bruno"}]}


def refusal(action, **kwargs) -> str:
    with pytest.raises(RuleError) as error:
        expect_turn(STATE, action, **{"phases": ("voting",), "what": "vote", **kwargs})
    return error.value.message


class ExpectTurnTests:
    def test_the_seat_that_acts_passes_and_is_returned(self):
        assert expect_turn(STATE, {"seat": 1}, phases=("voting",), acting=1, what="vote") == 1
        assert expect_turn(STATE, {"seat": 0}, phases=None, acting=ANY_SEAT, what="vote") == 0
        assert expect_turn(STATE, {"seat": None}, phases=None, acting=TABLE, what="deal") is None

    def test_each_refusal_says_why(self):
        assert refusal({"seat": 0}, acting=0, phases=("draw",)) == WORDS.NOT_NOW.format(what="vote")
        assert refusal({"seat": 2}, acting=ANY_SEAT) == WORDS.NO_SUCH_SEAT
        assert refusal({"seat": True}, acting=ANY_SEAT) == WORDS.NO_SUCH_SEAT
        assert refusal({"seat": 0}, acting=TABLE) == WORDS.TABLE_ONLY.format(what="vote")
        assert refusal({"seat": None}, acting=1) == WORDS.SEAT_ONLY.format(what="vote")
        assert refusal({"seat": 0}, acting=1) == WORDS.NOT_YOUR_TURN.format(name="Bruno", what="vote")
        assert refusal({"seat": 0}, acting=1, not_yours="Only {name} may {what}.") == "Only Bruno may vote."

    def test_a_function_of_the_state_names_who_acts_once_the_phase_is_right(self):
        def nobody(state):
            raise AssertionError("asked who acts in the wrong phase")

        assert refusal({"seat": 0}, acting=nobody, phases=("draw",)) == WORDS.NOT_NOW.format(what="vote")
        assert expect_turn(STATE, {"seat": 1}, phases=None, acting=lambda s: 1, what="vote") == 1

    def test_an_engine_s_words_replace_the_kernel_s_and_the_rest_stay(self):
        class Words:
            NOT_YOUR_TURN = "Wait for {name}."

        guard = turn_guard(Words, phase_key="stage")
        with pytest.raises(RuleError, match="Wait for Bruno."):
            guard({"stage": "bid", **STATE}, {"seat": 0}, phases=("bid",), acting=1, what="bid")
        with pytest.raises(RuleError, match=WORDS.NO_SUCH_SEAT):
            guard({"stage": "bid", **STATE}, {"seat": 5}, phases=("bid",), acting=1, what="bid")


@pytest.mark.parametrize("rules", games(), ids=lambda r: r.slug)
class OpeningActionTests:
    def test_the_opening_action_is_the_table_s_only_choice_after_setup_and_applies(self, rules):
        seats = [{"name": n} for n in ["Anna", "Bruno", "Chiara"]]
        state = rules.setup({"seats": seats}, 3)
        opening = rules.opening_action
        assert opening is not None and opening["seat"] is TABLE
        assert [c["type"] for c in rules.legal_actions(state, TABLE)] == [opening["type"]]
        assert all(rules.legal_actions(state, seat) == [] for seat in range(3))
        after = rules.apply(state, dict(opening))
        assert after["step"] == state["step"] + 1 and not rules.undoable(state, opening, after)


class SentenceTests:
    def test_a_fixed_sentence_is_filled_with_the_action_and_the_words_given(self):
        sentences = {"bid": "{who} bid {amount}", "pass": "{who} passed"}
        assert sentence(sentences, {"type": "bid", "amount": 3}, who="Anna") == "Anna bid 3"
        assert sentence(sentences, {"type": "bid"}, who="Anna") == "Anna bid ?"

    def test_an_action_type_without_a_fixed_sentence_is_left_to_the_engine(self):
        assert sentence({"pass": "{who} passed"}, {"type": "place"}, who="Anna") is None
        assert sentence({"pass": "{who} passed"}, {"type": 3}, who="Anna") is None


HOOKS = ("sample", "bot_policy", "bot_excluded", "settings_type")


class DeclaredHooksTests:
    """The rules protocol declares every hook the web half and the kernel read, with a default on the
    engines' base class, so a hook is read as an attribute (mypy checks it), never by ``getattr``."""

    @pytest.mark.parametrize("hook", HOOKS)
    def test_each_hook_is_declared_with_a_default(self, hook):
        assert hook in get_type_hints(GameRules)
        assert hook in vars(Rules)

    @pytest.mark.parametrize("rules", games(), ids=lambda r: r.slug)
    def test_every_engine_has_each_hook(self, rules):
        for hook in HOOKS:
            getattr(rules, hook)  # an attribute of every engine: never missing

    def test_no_application_module_reads_a_hook_by_getattr(self):
        root = Path(__file__).resolve().parents[2]
        read = re.compile(r"getattr\([^,]+,\s*[\"'](?:" + "|".join(HOOKS) + r")[\"']")
        found = [
            f"{path.relative_to(root)}: {match.group(0)}"
            for folder in ("games", "api", "campaign")
            for path in (root / folder).rglob("*.py")
            for match in read.finditer(path.read_text())
        ]
        assert found == []


class PlainCopyTests:
    def test_a_copy_equals_its_original_and_shares_nothing_with_it(self):
        shared = {"cards": [1, 2]}
        state = {
            "seed": 1,
            "seats": [{"name": "Anna", "hand": ["c1"]}],
            "a": shared,
            "b": shared,
            "t": (1, [2]),
        }
        copied = plain_copy(state)
        assert copied == state
        copied["seats"][0]["hand"].append("c2")
        copied["a"]["cards"].append(3)
        copied["t"][1].append(3)
        assert state["seats"][0]["hand"] == ["c1"] and shared == {"cards": [1, 2]} and state["t"] == (1, [2])
        assert copied["b"] == {"cards": [1, 2]}  # two parts of the copy share nothing either
