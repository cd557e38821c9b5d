"""For the King (and Me) and Council of Four in each reader's language: bot games' log labels, choice
titles and refusals said through the real catalogues (``games.translation.say_to_reader`` under
``translation.override``), each different from its English and holding no English message left;
English readers read the engines' own words; a label stored as data says itself again."""

import json
import re
from pathlib import Path

import pytest
from django.utils import translation

from games.engines import council_of_four, for_the_king
from games.engines.kernel.messages import to_data
from games.engines.kernel.registry import get_game
from games.translation import say_stored, say_to_reader
from tests.unit.engine_words import literal_ids, play

ENGINES = {
    "for_the_king": Path(for_the_king.__file__).parent,
    "council_of_four": Path(council_of_four.__file__).parent,
}
GAMES = [(3, 11), (4, 29)]  # (seats, seed)
PLACEHOLDER = re.compile(r"\{[^{}]*\}")


def said_in_game(slug):
    """The labels, choice titles and refusals of the bot games of one engine (no payment labels:
    "Gold 3: 3 Gold" reads the same in German)."""
    rules = get_game(slug)
    return [
        (where, text)
        for seats, seed in GAMES
        for where, text in play(rules, seats, seed, probe_every=7)
        if not where.startswith("payment")
    ]


def english_phrases(slug):
    """The English of every message of the engine, cut at its placeholders: each piece of two
    words or more (a translation must not keep one)."""
    pieces = set()
    for message_id in literal_ids(ENGINES[slug]):
        for piece in PLACEHOLDER.split(message_id):
            piece = piece.strip(" ;:,.()")
            if len(piece.split()) >= 2:
                pieces.add(piece)
    return pieces


@pytest.fixture(scope="module", params=sorted(ENGINES))
def game(request):
    return request.param, said_in_game(request.param), english_phrases(request.param)


class EngineMessagesInTheReadersLanguageTests:
    @pytest.mark.parametrize("language", ["de", "it"])
    def test_every_label_title_and_refusal_is_translated(self, game, language):
        slug, said, phrases = game
        with translation.override(language):
            untranslated = [
                (where, say_to_reader(text)) for where, text in said if say_to_reader(text) == text
            ]
            left = [
                (say_to_reader(text), phrase)
                for _, text in said
                for phrase in phrases
                if phrase in say_to_reader(text)
            ]
        assert {where.split(" of ")[0] for where, _ in said} == {"label", "title", "refusal"}
        assert not untranslated, untranslated[:5]
        assert not left, left[:5]

    def test_an_english_reader_reads_the_engine_s_own_words(self, game):
        slug, said, _ = game
        with translation.override("en"):
            assert all(say_to_reader(text) == str(text) for _, text in said)

    def test_a_stored_label_says_itself_again_in_each_language(self, game):
        slug, said, _ = game
        label = next(text for where, text in said if where.startswith("label") and ";" in text)
        stored = json.loads(json.dumps(to_data(label)))
        with translation.override("de"):
            german = say_to_reader(label)
            assert say_stored(stored, english=str(label)) == german != str(label)
        with translation.override("it"):
            assert say_stored(stored, english=str(label)) == say_to_reader(label) != german


class KnownSentenceTests:
    def test_a_for_the_king_label_reads_in_german_and_italian(self):
        from games.engines.for_the_king.cards import label
        from games.engines.for_the_king.sentences import DREW_NEXT, PLACED_IN_MIDDLE

        placed = PLACED_IN_MIDDLE.format(who="Anna", card=label("c001"))
        said = DREW_NEXT.format(label=placed, adviser="Anna")
        with translation.override("de"):
            assert say_to_reader(said) == (
                "Anna hat Diplomatie 2 (A) in die Tischmitte gelegt; Anna hat die nächste Karte gezogen"
            )
        with translation.override("it"):
            assert say_to_reader(said) == (
                "Anna ha messo Diplomazia 2 (A) al centro del tavolo; Anna ha pescato la carta successiva"
            )

    def test_a_council_of_four_refusal_counts_in_the_reader_s_plural(self):
        from games.engines.council_of_four import messages as msg

        with translation.override("de"):
            assert (
                say_to_reader(msg.NOT_ENOUGH_COINS.format(cost=1, coins=0))
                == "Du brauchst 1 Münze und hast 0."
            )
            assert (
                say_to_reader(msg.NOT_ENOUGH_COINS.format(cost=4, coins=2))
                == "Du brauchst 4 Münzen und hast 2."
            )
        with translation.override("it"):
            assert (
                say_to_reader(msg.UNKNOWN_CITY.format(city="Z")) == "Sulla mappa non c'è nessuna città 'Z'."
            )

    def test_the_final_scoring_s_ties_read_in_the_reader_s_language(self):
        from games.engines.for_the_king.player_view import view
        from tests.unit.for_the_king.builders import ended, gold, gov

        state = ended(3, [[gov("military", "A"), gold(1)[0]], [gov("diplomacy", "A"), gold(2)[0]], []])
        notes = view(state, None)["result"]["tie_notes"]
        with translation.override("de"):
            german = [say_to_reader(note) for note in notes]
        assert notes and all(" gleichauf bei " in note for note in german)
        assert state["result"]["tie_notes"] == [str(note) for note in notes]
