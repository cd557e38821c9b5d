"""The engines' sentences as message ids with parameters (games/engines/kernel/messages.py): English
as before, and every part of a message said again by another language's translators."""

import copy
import json
import pickle

from games.engines.kernel.messages import (
    Message,
    Translators,
    field_names,
    from_data,
    gettext_noop,
    join,
    ngettext,
    ngettext_lazy,
    pgettext_lazy,
    pgettext_noop,
    say,
    to_data,
)

STICKER = gettext_noop("Sticker {number} is already on the board.")
AYE = gettext_noop("AYE")
VOTED = gettext_noop("{who} voted {side}.")

SHOUT = Translators(
    gettext=lambda text: (
        text.upper().replace("{NUMBER}", "{number}").replace("{WHO}", "{who}").replace("{SIDE}", "{side}")
    ),
    ngettext=lambda one, many, n: ("ONE:" + one) if n == 1 else ("MANY:" + many),
    pgettext=lambda context, text: f"{context}|{text}",
    npgettext=lambda context, one, many, n: f"{context}|{one if n == 1 else many}",
)


def test_a_message_reads_its_english_words_as_a_str():
    message = STICKER.format(number=43)
    assert message == "Sticker 43 is already on the board."
    assert isinstance(message, str)
    assert message.id == "Sticker {number} is already on the board."
    assert message.params == {"number": 43}


def test_a_constant_without_parameters_is_its_own_words():
    assert STICKER == "Sticker {number} is already on the board."
    assert say(STICKER, SHOUT) == "STICKER {number} IS ALREADY ON THE BOARD."


def test_another_language_translates_the_message_and_its_message_parameters():
    message = VOTED.format(who="Anna", side=AYE)
    assert message == "Anna voted AYE."
    # The name is written as it is; the side is a message, translated too.
    assert say(message, SHOUT) == "Anna VOTED AYE."


def test_a_count_takes_the_plural_form_of_the_language():
    assert ngettext("{n} Coin", "{n} Coins", 1) == "1 Coin"
    assert ngettext("{n} Coin", "{n} Coins", 3) == "3 Coins"
    assert ngettext("{n} Coin", "{n} Coins", -1) == "-1 Coin"
    assert say(ngettext("{n} Coin", "{n} Coins", 3), SHOUT) == "MANY:3 Coins"


def test_a_context_reaches_the_translator():
    dark = pgettext_noop("theme", "Dark")
    assert dark == "Dark"
    assert say(dark, SHOUT) == "theme|Dark"


def test_joined_sentences_are_each_translated():
    lines = join([VOTED.format(who="Anna", side=AYE), ngettext("{n} Coin", "{n} Coins", 2)])
    assert lines == "Anna voted AYE.\n2 Coins"
    assert say(lines, SHOUT) == "Anna VOTED AYE.\nMANY:2 Coins"


def test_a_message_survives_storage_as_json():
    message = join([VOTED.format(who="Anna", side=AYE), ngettext("{n} Coin", "{n} Coins", 2)])
    back = from_data(json.loads(json.dumps(to_data(message))))
    assert back == message
    assert say(back, SHOUT) == say(message, SHOUT)


def test_a_missing_parameter_reads_a_question_mark_and_a_broken_translation_never_crashes():
    assert Message("{who} stayed.", {"other": 1}) == "? stayed."
    broken = Translators(lambda t: "{oops", SHOUT.ngettext, SHOUT.pgettext, SHOUT.npgettext)
    assert say(VOTED.format(who="Anna", side=AYE), broken) == "{oops"


def test_stored_values_that_are_not_messages_come_back_as_they_are():
    assert from_data("plain") == "plain"
    assert from_data({"no": "id"}) == {"no": "id"}
    assert to_data(3) == 3
    assert say(3) == "3"


def test_a_message_is_kept_by_copy_and_pickle():
    message = VOTED.format(who="Anna", side=AYE)
    assert copy.deepcopy(message) is message
    again = pickle.loads(pickle.dumps(message))
    assert again == message and again.params["side"].id == "AYE"


def test_parameters_are_named():
    try:
        STICKER.format(43)
    except TypeError as error:
        assert "named" in str(error)
    else:
        raise AssertionError("a positional parameter was accepted")


def test_a_stored_message_reaches_no_attribute_of_its_parameters():
    crafted = from_data({"id": "{who.__class__} and {who[0]}", "params": {"who": "Anna"}})
    assert say(crafted, SHOUT) == "{WHO.__CLASS__} AND {WHO[0]}"
    assert crafted == "{who.__class__} and {who[0]}"


def test_a_number_keeps_its_format_and_a_count_named_by_a_parameter_takes_its_plural_form():
    assert gettext_noop("Envelope {number:02d} {amount:+d}").format(number=5, amount=2) == "Envelope 05 +2"
    coins = ngettext_lazy("{have} Coin left", "{have} Coins left", "have")
    assert coins.format(have=1) == "1 Coin left" and coins.format(have=3) == "3 Coins left"
    assert say(coins.format(have=3), SHOUT) == "MANY:3 Coins left"
    assert from_data(json.loads(json.dumps(to_data(coins.format(have=1))))) == "1 Coin left"


def test_the_names_a_message_fills_in_are_read_from_its_words():
    assert field_names("{who} voted {side} with {power:d} and {row!r}") == {"who", "side", "power", "row"}


def test_a_context_marked_under_makemessages_name_says_the_same_as_pgettext_noop():
    assert to_data(pgettext_lazy("theme", "Dark")) == to_data(pgettext_noop("theme", "Dark"))
    assert say(pgettext_lazy("theme", "Dark"), SHOUT) == "theme|Dark"
