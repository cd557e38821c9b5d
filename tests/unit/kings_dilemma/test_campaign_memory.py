"""The table knows the campaign while it plays (issue 23): an Envelope already opened, a Chronicle
sticker already on the board, a Dilemma card out of the Dilemma deck, and a number named twice the
same night are refused when the host types them, with a sentence saying why."""

import copy

import pytest

from games.engines.kernel.errors import RuleError
from games.engines.kings_dilemma import messages as msg
from games.engines.kings_dilemma.rules import RULES
from tests.unit.kings_dilemma.builders import act, card, config, drafted, draw, front, outcome, resolve

CAMPAIGN = {
    "envelopes_opened": [0, 5],
    "stickers_attached": [43],
    "cards_out_of_deck": {"7": "trash", "120": "event_area", "121": "story_slot"},
}


def at_table(**extra) -> dict:
    """A drafted night of a campaign that opened Envelopes 00 and 05, attached sticker 43 and trashed
    Dilemma card 7."""
    return drafted(config(**{**CAMPAIGN, **extra}))


def refused(state: dict, type_: str, **fields) -> RuleError:
    before = copy.deepcopy(state)
    with pytest.raises(RuleError) as raised:
        act(state, type_, None, **fields)
    assert state == before
    return raised.value


def voted(state: dict, number: int = 12) -> dict:
    """``number`` drawn and the vote decided: the table is about to read the back."""
    state = draw(state, card(number))
    while state["phase"] in ("voting", "tie_break"):
        if state["phase"] == "tie_break":
            state = act(state, "break_tie", state["moderator"], side="aye")
        else:
            state = act(state, "pass_gather", state["vote"]["turn"])
    assert state["phase"] == "outcome"
    return state


def read(state: dict, **back) -> dict:
    return act(state, "read_outcome", None, outcome=outcome(("wealth", 1), **back))


class DrawTests:
    """Rulebook 'Final Cleanup: Save Your Game!' step 2: the resolved Dilemmas are trashed, "These
    Dilemmas already 'happened' in the past of your Realm, and will never be used again!"."""

    def test_a_trashed_dilemma_is_refused_with_where_it_lies(self):
        state = at_table()
        error = refused(state, "draw_dilemma", card=front(card(7)))
        assert error.message == msg.DILEMMA_NOT_IN_DECK.format(
            number=7, place=msg.OUT_OF_DECK_PLACES["trash"]
        )
        assert "never be used again" in error.message and error.extra == {"field": "number"}

    def test_an_event_card_of_the_story_save_slot_or_event_area_is_not_drawn(self):
        """Rulebook 'Event cards': they "must be placed in the Event area" and are saved in the Story
        Save slot; they are never in the Dilemma deck."""
        state = at_table()
        for number, place in ((120, "event_area"), (121, "story_slot")):
            error = refused(state, "draw_dilemma", card={"number": number})
            assert error.message == msg.DILEMMA_NOT_IN_DECK.format(
                number=number, place=msg.OUT_OF_DECK_PLACES[place]
            )

    def test_a_card_new_to_the_campaign_is_drawn(self):
        """docs/rules-decisions.md 'Cards new to the campaign': it may come from an Envelope opened
        tonight (its contents are typed when the night is saved) or a deck never recorded."""
        state = act(at_table(dilemma_deck=[12, 13]), "draw_dilemma", None, card=front(card(90)))
        assert state["card"]["number"] == 90 and state["phase"] == "voting"

    def test_a_card_drawn_twice_the_same_night_is_refused(self):
        state = resolve(voted(at_table(), 12))
        state = act(state, "to_time_counter", None)
        assert refused(state, "draw_dilemma", card={"number": 12}).message == msg.CARD_ALREADY.format(
            number=12
        )


class OutcomeTests:
    """Rulebook 'C. Apply Chronicle stickers' ("find the Chronicle sticker with the number indicated")
    and 'D. Open Envelope' ("search the box for the Envelope with the corresponding number"): each
    exists once in the box."""

    def test_a_sticker_already_on_the_board_is_refused(self):
        state = voted(at_table())
        error = refused(
            state, "read_outcome", outcome=outcome(sticker={"number": 43, "row": "wealth", "positive": True})
        )
        assert error.message == msg.STICKER_ON_BOARD.format(number=43) and error.extra == {"field": "sticker"}

    def test_a_sticker_attached_earlier_tonight_is_refused(self):
        state = read(voted(at_table(), 12), sticker={"number": 44, "row": "wealth", "positive": True})
        state = act(state, "to_time_counter", None)
        state = voted(state, 13)
        error = refused(
            state, "read_outcome", outcome=outcome(sticker={"number": 44, "row": "morale", "positive": False})
        )
        assert error.message == msg.STICKER_TONIGHT.format(number=44, dilemma=12)

    def test_an_envelope_opened_in_an_earlier_game_is_refused(self):
        state = voted(at_table())
        error = refused(state, "read_outcome", outcome=outcome(envelope=5))
        assert error.message == msg.ENVELOPE_OPENED.format(number=5) and error.extra == {"field": "envelope"}

    def test_an_envelope_opened_earlier_tonight_is_refused(self):
        state = act(read(voted(at_table(), 12), envelope=9), "to_time_counter", None)
        state = voted(state, 13)
        error = refused(state, "read_outcome", outcome=outcome(envelope=9))
        assert error.message == msg.ENVELOPE_TONIGHT.format(number=9, dilemma=12)

    def test_new_numbers_are_accepted_and_reported(self):
        state = read(voted(at_table()), sticker={"number": 44, "row": "wealth", "positive": True}, envelope=6)
        assert [s["number"] for s in state["stickers"]] == [44]
        assert [e["number"] for e in state["envelopes"]] == [6]

    def test_the_grand_finale_is_not_opened_twice(self):
        """Rulebook 'Triggering the end of the campaign': after the sixth Mystery sticker, Envelope 70
        is opened; if the table already opened it tonight, it is not opened again."""
        state = at_table(mystery_stickers=list("ABCDE"))
        state = read(voted(state), envelope=70)
        state = act(state, "mystery_sticker", None, letter="F", label="The dossier")
        state = act(state, "to_time_counter", None)
        assert [e["number"] for e in state["envelopes"]] == [70]


class SetupTests:
    def test_ongoing_event_cards_are_restored_in_the_event_area(self):
        """Rulebook 'Setup Story and Event Cards': "Take the Event cards ... stored in the Story Save
        slot ... Set up the Event cards following the rules described on the cards themselves"."""
        state = RULES.setup(config(event_area=[121, 120, 121]), 1)
        assert state["event_cards"] == [120, 121]
        assert RULES.view(state, None)["board"]["event_cards"] == [120, 121]

    @pytest.mark.parametrize(
        ("extra", "message"),
        [
            (
                {"envelopes_opened": [75]},
                msg.CAMPAIGN_NUMBERS.format(what="opened Envelopes", low=0, high=74),
            ),
            ({"envelopes_opened": "5"}, msg.CAMPAIGN_NUMBERS.format(what="opened Envelopes", low=0, high=74)),
            (
                {"stickers_attached": [0]},
                msg.CAMPAIGN_NUMBERS.format(what="Chronicle stickers", low=1, high=177),
            ),
            (
                {"event_area": [True]},
                msg.CAMPAIGN_NUMBERS.format(what="ongoing Event cards", low=1, high=999),
            ),
            ({"cards_out_of_deck": {"7": "bin"}}, msg.CAMPAIGN_PLACES),
            ({"cards_out_of_deck": {"x": "trash"}}, msg.CAMPAIGN_PLACES),
            ({"cards_out_of_deck": [7]}, msg.CAMPAIGN_PLACES),
        ],
    )
    def test_campaign_config_errors(self, extra, message):
        with pytest.raises(RuleError) as raised:
            RULES.setup(config(**extra), 1)
        assert raised.value.message == message

    def test_a_session_started_before_these_keys_still_plays(self):
        """An old session's cached state lacks the campaign's keys: it plays on as before."""
        state = drafted(config())
        for key in ("envelopes_before", "stickers_before", "cards_out_of_deck"):
            del state[key]
        state = read(voted(state), sticker={"number": 43, "row": "wealth", "positive": True}, envelope=5)
        assert state["phase"] == "resolution" and [e["number"] for e in state["envelopes"]] == [5]
        state = act(state, "to_time_counter", None)
        state = act(state, "draw_dilemma", None, card=front(card(7)))
        assert state["card"]["number"] == 7
