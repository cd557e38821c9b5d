"""Every sentence Council of Four says is a message id with its values (the kernel's ``messages``),
so each reader reads it in their language: the labels, choice titles, payments and refusals of bot
games, and the words of a bonus, a Permit and a payment the pages show."""

from pathlib import Path

import pytest

from games.engines import council_of_four
from games.engines.council_of_four import messages as msg
from games.engines.council_of_four.board import (
    A_COUNCILOR,
    BALCONY_WORDS,
    CITIES,
    CITY_COLOUR_WORDS,
    COLOUR_NAMES,
    PERMITS,
    REGION_WORDS,
)
from games.engines.council_of_four.rules import RULES
from games.engines.council_of_four.sentences import bonus_words, payment_label, permit_words, shape_words
from games.engines.kernel.messages import Translators, say
from tests.unit.engine_words import NAMES, literal_ids, message_ids, plain_words, play

ENGINE = Path(council_of_four.__file__).parent
GAMES = [(2, 3), (3, 11), (4, 29)]  # (seats, seed)
PROPER_NAMES = [*NAMES, *(city["name"] for city in CITIES.values())]


@pytest.fixture(scope="module")
def said():
    return [item for seats, seed in GAMES for item in play(RULES, seats, seed)]


def quoting():
    """A language that says every message id between « and », its values as they are."""
    return Translators(
        lambda text: f"«{text}»", lambda one, many, n: f"«{one if n == 1 else many}»", None, None
    )


class EngineMessageTests:
    def test_every_sentence_of_bot_games_is_a_message_with_no_plain_words(self, said):
        problems = [(where, words) for where, text in said if (words := plain_words(text, PROPER_NAMES))]
        assert not problems, problems[:5]

    def test_the_games_said_labels_titles_payments_and_refusals(self, said):
        kinds = {where.split(" of ")[0] for where, _ in said}
        assert kinds == {"label", "title", "payment", "refusal"}

    def test_the_refusals_said_include_the_turn_guards_and_the_moves_own(self, said):
        refusals = {text.id for where, text in said if where.startswith("refusal")}
        assert {
            "It is {name}'s turn.",
            "You cannot {what} now.",
            "There is no city {city} on the map.",
        } <= refusals

    def test_every_message_id_is_a_literal_makemessages_finds(self, said):
        ids = set().union(*(message_ids(text) for _, text in said))
        assert len(ids) > 50
        assert ids <= literal_ids(ENGINE)

    def test_the_words_the_pages_show_are_messages(self):
        words = [
            BALCONY_WORDS["queen"],
            bonus_words({"coins": 2, "additional_main_action": 1}),
            permit_words(next(iter(PERMITS))),
            shape_words({"black": 2, "joker": 1}),
            payment_label({"pink": 1, "joker": 2}, 12, roads=2),
            *REGION_WORDS.values(),
            *CITY_COLOUR_WORDS.values(),
            *COLOUR_NAMES.values(),
            *A_COUNCILOR.values(),
        ]
        assert all(not plain_words(text, PROPER_NAMES) for text in words)


class RefusalTests:
    def test_a_typed_value_is_quoted_as_before_and_stays_a_value(self):
        refusal = msg.UNKNOWN_CITY.format(city="Z")
        assert refusal == "There is no city 'Z' on the map."
        assert msg.UNKNOWN_CITY.format(city=None) == "There is no city None on the map."
        assert say(refusal, quoting()) == "«There is no city 'Z' on the map.»"

    def test_a_count_picks_its_plural_form_in_every_language(self):
        one = msg.NOT_ENOUGH_SERVANTS.format(cost=1, servants=0)
        many = msg.NOT_ENOUGH_COINS.format(cost=3, coins=2)
        assert (one, many) == ("You need 1 Servant and have 0.", "You need 3 Coins and have 2.")
        assert say(one, quoting()) == "«You need 1 Servant and have 0.»"
        assert (one.n, many.n) == (1, 3)


class DataWordsTests:
    def test_every_word_the_data_files_name_has_its_message(self):
        from games.engines.council_of_four.board import (
            BALCONIES,
            CITY_TOKENS,
            COUNCILOR_COLOURS,
            NOBILITY,
            REGIONS,
        )
        from games.engines.council_of_four.sentences import BONUS_WORDS

        bonuses = [*CITY_TOKENS.values(), *NOBILITY.values(), *(tile["bonus"] for tile in PERMITS.values())]
        assert {key for bonus in bonuses for key in bonus} <= set(BONUS_WORDS)
        assert set(REGIONS) == set(REGION_WORDS)
        assert all(not plain_words(BALCONY_WORDS[b], []) for b in BALCONIES)
        assert {city["colour"] for city in CITIES.values()} == set(CITY_COLOUR_WORDS)
        assert set(COUNCILOR_COLOURS) == set(A_COUNCILOR) == set(COLOUR_NAMES) - {"joker"}
