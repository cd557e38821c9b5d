"""Every sentence The King's Dilemma says is a message id with parameters (games/engines/kernel/messages.py),
so the edge says it again in each reader's language: bot games of several seeds are walked, and every
log label, every news line, every choice title and the refusals of actions that break a rule are said
by a translator that replaces each message's own words. What is left must be what a player typed or a
number, never an English word outside a message."""

import json
import random
import re
from string import Formatter

import pytest

from games.engines.kernel.bots import bot_choose_action
from games.engines.kernel.choices import draw_action
from games.engines.kernel.errors import RuleError
from games.engines.kernel.messages import Message, Translators, say, to_data
from games.engines.kernel.rules import TABLE
from games.engines.kings_dilemma import messages as msg
from games.engines.kings_dilemma.rules import RULES
from games.engines.kings_dilemma.scoring import open_agenda_words
from games.engines.kings_dilemma.sentences import CHOICE_TITLES, news_lines

NAMES = ["Anna", "Ben", "Cora", "Dan", "Eve"]
# What a walk may leave outside a message: names, the titles and labels the bots type, numbers.
TYPED = {*NAMES, "Dilemma", "card", "effect", "zzz", "None"}
STEP_CAP = 3000


def _marked(text: str) -> str:
    """``text`` with its own words replaced by "§" and its placeholders kept."""
    out = []
    for literal, field, spec, conversion in Formatter().parse(text):
        out.append("§" if literal else "")
        if field is not None:
            out.append(
                "{" + field + (f"!{conversion}" if conversion else "") + (f":{spec}" if spec else "") + "}"
            )
    return "".join(out)


MARK = Translators(
    gettext=_marked,
    ngettext=lambda one, many, n: _marked(one if n == 1 else many),
    pgettext=lambda context, text: _marked(text),
    npgettext=lambda context, one, many, n: _marked(one if n == 1 else many),
)


def english_left(text) -> list[str]:
    """The words of ``text`` said by MARK that no message holds (numbers and typed words set aside)."""
    said = say(text, MARK)
    # A single capital is a Mystery sticker's letter.
    return [w for w in re.findall(r"[^\W\d_]+", said) if w not in TYPED and not re.fullmatch("[A-Z]", w)]


def _bad_actions(state: dict, rng: random.Random) -> list[dict]:
    """Actions that look legal but break a rule: another seat's turn, values out of bounds."""
    seats = len(state["seats"])
    bad = [
        {"type": "vote", "seat": rng.randrange(seats), "side": "maybe", "power": 1},
        {"type": "vote", "seat": rng.randrange(seats), "side": "aye", "power": 99},
        {"type": "add_power", "seat": rng.randrange(seats), "power": 0},
        {"type": "stay", "seat": None},
        {"type": "give_coins", "seat": 0, "to": 0, "coins": 1},
        {"type": "give_coins", "seat": 0, "to": 1, "coins": 999},
        {"type": "draw_dilemma", "seat": None, "card": {"number": 0}},
        {"type": "draw_dilemma", "seat": None, "card": {"number": 3, "aye": {"resources": [["zzz", "up"]]}}},
        {"type": "read_outcome", "seat": None, "outcome": {"resources": [["wealth", 0]]}},
        {"type": "move_resource", "seat": None, "row": "zzz", "amount": 1, "label": "card effect"},
        {
            "type": "adjust",
            "seat": None,
            "target": [0, 0],
            "what": "coins",
            "amount": 1,
            "label": "card effect",
        },
        {"type": "mystery_sticker", "seat": None, "letter": "Z", "label": "card effect"},
        {"type": "break_tie", "seat": state["moderator"], "side": "maybe"},
        {"type": "give_leader", "seat": state["moderator"], "to": 99},
        {"type": "choose_heir", "seat": state["moderator"], "heir": 99},
        {"type": "score", "seat": 0},
        {"type": "zzz", "seat": None},
    ]
    return bad


def walk(seats: int, seed: int) -> list:
    """Everything a bot game says: labels, news, choice titles, refusals."""
    state = RULES.setup({"seats": [{"name": n} for n in NAMES[:seats]]}, seed)
    said: list = []
    for step in range(STEP_CAP):
        if RULES.is_over(state):
            return said
        rng = random.Random(f"{seed}:{step}")
        for seat in [TABLE, *range(seats)]:
            said += [choice["title"] for choice in RULES.legal_actions(state, seat) if "title" in choice]
        for bad in _bad_actions(state, rng):
            try:
                RULES.apply(state, bad)
            except RuleError as refusal:
                said.append(refusal.message)
        table = RULES.legal_actions(state, TABLE)
        if table:
            action = draw_action(RULES, state, rng.choice(table), rng)
        else:
            action = bot_choose_action(RULES, state, RULES.view(state, None)["to_act"][0], rng)
        after = RULES.apply(state, action)
        said.append(RULES.describe(state, action, after))
        said += RULES.view(after, None)["news"]
        state = after
    raise AssertionError(f"the game did not end within {STEP_CAP} steps")


@pytest.mark.parametrize(("seats", "seed"), [(3, 5), (4, 17), (5, 23)])
def test_every_sentence_of_a_bot_game_is_a_message_and_says_no_english_word_outside_one(seats, seed):
    said = walk(seats, seed)
    assert len(said) > 100
    not_messages = [text for text in said if not isinstance(text, Message)]
    assert not_messages == []
    leftover = {text: words for text in said if (words := english_left(text))}
    assert leftover == {}


def test_the_walk_s_check_finds_an_english_word_outside_a_message():
    assert english_left(msg.NEWS_CRAVE.format(name="Anna", amount=2)) == []
    assert english_left(msg.NEWS_CRAVE.format(name="the Wealth", amount=2)) == ["the", "Wealth"]


def test_the_log_s_news_lines_are_said_again_from_the_state_the_database_gives_back():
    state = RULES.setup({"seats": [{"name": n} for n in NAMES[:3]]}, 5)
    state = RULES.apply(state, {"type": "deal", "seat": None})
    while state["phase"] == "draft":
        seat = state["draft"]["order"][state["draft"]["index"]]
        state = RULES.apply(
            state, {"type": "choose_secret_agenda", "seat": seat, "agenda": state["draft"]["remaining"][0]}
        )
    state = RULES.apply(
        state, {"type": "draw_dilemma", "seat": None, "card": {"number": 4, "title": "Bread"}}
    )
    state = RULES.apply(state, {"type": "pass_moderator", "seat": state["vote"]["turn"]})
    stored = json.loads(json.dumps(state))
    assert not isinstance(stored["news"][0], Message)
    again = news_lines(stored)
    assert again == state["news"] and all(isinstance(line, Message) for line in again)
    assert to_data(again[0]) == to_data(state["news"][0])


def test_the_words_inside_sentences_are_messages_of_their_own():
    words = [
        msg.THE_TABLE,
        *msg.RESOURCE_NAMES.values(),
        *msg.SIDE_NAMES.values(),
        *msg.SIGNS.values(),
        *msg.TOKEN_NAMES.values(),
        *msg.SEAT_FIELDS.values(),
        *msg.CAMPAIGN_LISTS.values(),
        *msg.AGENDA_NAMES.values(),
        *msg.WHAT.values(),
        *CHOICE_TITLES.values(),
    ]
    assert all(isinstance(word, Message) and english_left(word) == [] for word in words)
    assert set(msg.AGENDA_NAMES) == set(
        RULES.setup({"seats": [{"name": n} for n in NAMES[:3]]}, 1)["tracks"]["secret_agendas"]
    )
    assert msg.resource_name("wealth") == "Wealth" and msg.side_name("nay") == "NAY"


def test_an_open_agenda_token_is_read_in_messages():
    words = open_agenda_words({"row": "wealth", "positive": True})
    assert words["short"] == "Positive Wealth (up to 3 points)"
    assert (
        words["rule"]
        == "gains 3 points if Wealth is the highest Resource at the end of the game, 1 point if it is the second highest"
    )
    assert all(english_left(words[key]) == [] for key in ("name", "short", "rule"))


def test_a_count_inside_a_refusal_takes_the_plural_form_of_its_number():
    assert msg.GIFT_TOO_MUCH.format(have=1) == "You have only 1 Coin behind your screen."
    assert msg.GIFT_TOO_MUCH.format(have=4) == "You have only 4 Coins behind your screen."
    assert msg.GIFT_TOO_MUCH.format(have=4).n == 4
    assert (
        msg.ENVELOPE_TONIGHT.format(number=5, dilemma=12)
        == "Envelope 05 was already opened tonight (Dilemma card 12)."
    )
