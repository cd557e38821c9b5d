"""Every sentence For the King (and Me) says is a message id with its values (the kernel's
``messages``), so each reader reads it in their language: the labels, choice titles, payments and
refusals of bot games, and the words its views carry (a King card's effect, the ties of the final
scoring)."""

from pathlib import Path

import pytest

from games.engines import for_the_king
from games.engines.for_the_king.rules import RULES
from tests.unit.engine_words import NAMES, literal_ids, message_ids, plain_words, play

ENGINE = Path(for_the_king.__file__).parent
GAMES = [(2, 3), (3, 11), (4, 29), (5, 7)]  # (seats, seed)


def view_words(view):
    if view["king_card"]:
        yield view["king_card"]["effect"]
    if view["result"]:
        yield from view["result"]["tie_notes"]


@pytest.fixture(scope="module")
def said():
    return [item for seats, seed in GAMES for item in play(RULES, seats, seed, view_words=view_words)]


class EngineMessageTests:
    def test_every_sentence_of_bot_games_is_a_message_with_no_plain_words(self, said):
        problems = [(where, words) for where, text in said if (words := plain_words(text, NAMES))]
        assert not problems, problems[:5]

    def test_the_games_said_labels_titles_payments_refusals_and_view_words(self, said):
        kinds = {where.split(" of ")[0] for where, _ in said}
        assert kinds == {"label", "title", "payment", "refusal", "view"}

    def test_the_refusals_said_include_the_turn_guards_and_the_moves_own(self, said):
        refusals = {text.id for where, text in said if where.startswith("refusal")}
        assert {
            "It is {name}'s turn to {what}.",
            "You cannot {what} now.",
            "A bid is a whole number.",
        } <= refusals

    def test_every_message_id_is_a_literal_makemessages_finds(self, said):
        ids = set().union(*(message_ids(text) for _, text in said))
        assert len(ids) > 40
        assert ids <= literal_ids(ENGINE)

    def test_a_plain_sentence_or_an_english_value_is_found(self):
        from games.engines.for_the_king.sentences import SENTENCES

        assert plain_words("Anna bid 3", NAMES) == ["'Anna bid 3'"]
        assert plain_words(SENTENCES["bid"].format(who="Anna", amount=3), NAMES) == []
        assert plain_words(SENTENCES["bid"].format(who="the winner", amount=3), NAMES) == ["the winner"]


class DataWordsTests:
    def test_every_office_and_king_card_effect_of_the_data_file_has_its_message(self):
        from games.engines.for_the_king.cards import CARDS, KING_EFFECT_WORDS, OFFICE_COLOURS, OFFICE_WORDS

        assert set(OFFICE_COLOURS) == set(OFFICE_WORDS)
        assert {c["effect"] for c in CARDS.values() if c["effect"]} == set(KING_EFFECT_WORDS)
