"""The words of every log sentence the engines produce (issue 26: "a orange Councilor", "paid 1 Coins",
"Undone: ... .."): random games of every engine of the registry are played by their bots, and every
action's label (the session log's sentence) and, for the court games, its button on the phone is
checked for "a" before a vowel, "1" before a plural, and two full stops."""

import random
import re

import pytest

from games.engines.kernel.bots import bot_choose_action
from games.engines.kernel.choices import draw_action
from games.engines.kernel.registry import games
from games.engines.kernel.rules import TABLE
from tests.unit.contract import property_examples

A_BEFORE_VOWEL = re.compile(r"\b[Aa] (?=[AEIOUaeiou])")
# "1" (never "-1" or "11") before a plural noun; "Politics" is one card's name, not a plural, and a
# verb after a number ("card 1 goes on the Time Counter") is not a noun.
ONE_PLURAL = re.compile(
    r"(?<![\d\-−])\b1 (?!Politics\b|goes\b|moves\b|turns\b|stays\b)(?:[A-Z][a-z]+ )?[A-Za-z]*[a-z]s\b"
)
STEP_CAP = 3000


def problems(sentence: str) -> list[str]:
    found = [f"a before a vowel: {m.group(0)!r}" for m in A_BEFORE_VOWEL.finditer(sentence)]
    found += [f"1 before a plural: {m.group(0)!r}" for m in ONE_PLURAL.finditer(sentence)]
    if ".." in sentence.replace("...", ""):
        found.append("two full stops")
    return found


def buttons(slug: str):
    """The presenter's words for a phone button of this game (None: no label function)."""
    if slug == "council_of_four":
        from games.presenters.council_of_four import _c4_label

        return _c4_label
    if slug == "for_the_king":
        from games.presenters.for_the_king import _ftk_label

        return _ftk_label
    return None


def sentences_of_a_game(rules, seats: int, seed: int) -> list[str]:
    """Every label of a bot game (table actions drawn at random), and its buttons' words."""
    state = rules.setup(
        {"seats": [{"name": name} for name in ["Anna", "Ben", "Cora", "Dan", "Eve"][:seats]]}, seed
    )
    names = {i: {"index": i, "name": s["name"]} for i, s in enumerate(state["seats"])}
    button = buttons(rules.slug)
    said = []
    for step in range(STEP_CAP):
        if rules.is_over(state):
            return said
        rng = random.Random(f"{seed}:{step}")
        table = rules.legal_actions(state, TABLE)
        if table:
            action = draw_action(rules, state, rng.choice(table), rng)
        else:
            seat = rules.view(state, None)["to_act"][0]  # who the game waits for (not a gift of Coins)
            action = bot_choose_action(rules, state, seat, rng)
        after = rules.apply(state, action)
        said.append(rules.describe(state, action, after))
        if button is not None and action["seat"] is not None:
            said.append(button(action, rules.view(state, action["seat"]), names)[0])
        state = after
    raise AssertionError(f"the game did not end within {STEP_CAP} steps")


class SentenceSelfTests:
    def test_the_checks_can_fail(self):
        assert problems("Anna elected a orange Councilor")
        assert problems("Anna paid 1 Coins")
        assert problems("Anna gained 1 Victory Points")
        assert problems("Undone: Anna stayed..")
        assert not problems("Anna elected an orange Councilor, paid 1 Coin and drew 1 Politics card")
        assert not problems("Anna paid 11 Coins, lost -1 points and gained 21 Servants")


class SentenceTests:
    @pytest.mark.parametrize("slug", [rules.slug for rules in games()])
    def test_every_sentence_of_random_games_reads_right(self, slug):
        rules = next(r for r in games() if r.slug == slug)
        wrong = {}
        for seed in range(property_examples(6)):
            seats = rules.min_seats + seed % (rules.max_seats - rules.min_seats + 1)
            for sentence in sentences_of_a_game(rules, seats, seed):
                for problem in problems(sentence):
                    wrong.setdefault(problem, sentence)
        assert wrong == {}
