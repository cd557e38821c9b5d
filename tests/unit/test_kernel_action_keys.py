"""What the tap checks before the rules see an action (games/services/taps.py ``_action_checked``), from the
kernel: the keys the offered choices name (``choices.unknown_keys``) and the one text rule
(``text.has_control_characters``, ``text.json_text_refused``). Every action the kernel draws for a
bot, in random games of every registered engine, passes both: the check never refuses a legal tap."""

import pytest

from games.engines.kernel.choices import amount, choice, draw_action, pick, unknown_keys
from games.engines.kernel.registry import games
from games.engines.kernel.text import has_control_characters, json_text_refused
from tests.unit.contract import play_many_games, property_examples

VOTE = choice("vote", 2, side=pick(["aye", "nay"]), power=amount(1, 7))
GIFT = choice("give_coins", 2, to=pick([0, 1]), coins=amount(1, 3))


class UnknownKeysTests:
    def test_the_keys_of_the_offered_choice_pass(self):
        assert unknown_keys([VOTE, GIFT], {"type": "vote", "seat": 2, "side": "aye", "power": 3}) == []

    def test_other_keys_are_named_sorted(self):
        action = {"type": "vote", "seat": 2, "side": "aye", "power": 3, "note": "x", "coins": 1}
        assert unknown_keys([VOTE, GIFT], action) == ["coins", "note"]

    def test_an_action_of_no_offered_type_is_left_to_the_rules(self):
        assert unknown_keys([VOTE], {"type": "fly", "seat": 2, "wings": 2}) is None


class TextRuleTests:
    @pytest.mark.parametrize(
        "char", ["\x00", "\x1b", "\x7f", "\x85", "\u202e", "\u2066", "\u200f", "\ud800", "\udfff"]
    )
    def test_control_bidi_and_half_characters_are_refused_everywhere(self, char):
        assert has_control_characters(f"a{char}b") and has_control_characters(f"a{char}b", multiline=True)
        assert json_text_refused({"card": {"title": f"a{char}b"}}) == f"a{char}b"
        assert json_text_refused({f"k{char}": 1}) == f"k{char}"

    def test_line_breaks_pass_in_a_value_never_in_a_key_or_a_name(self):
        assert json_text_refused({"note": "two\nlines\tand a tab"}) is None
        assert json_text_refused({"a\nb": 1}) == "a\nb"
        assert has_control_characters("two\nlines")


@pytest.mark.parametrize("rules", games(), ids=lambda r: r.slug)
def test_every_drawn_action_names_only_its_choice_s_keys_and_passes_the_text_rule(rules):
    refused: list = []

    def pick_checked(state, options, rng):
        seat, described = rng.choice(options)
        action = draw_action(rules, state, described, rng)
        offered = [c for s, c in options if s == seat]
        if unknown_keys(offered, action) or json_text_refused(action) is not None:
            refused.append(action)
        return seat, action

    count = rules.min_seats
    configs = [
        ({"seats": [{"name": f"Player {i}"} for i in range(count)]}, seed)
        for seed in range(property_examples(3))
    ]
    play_many_games(rules, configs, pick=pick_checked, max_steps=600)
    assert refused == []
