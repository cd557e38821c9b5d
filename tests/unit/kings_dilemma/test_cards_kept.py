"""What the table typed of a card is kept: a card met before keeps its title, its remembered back never
re-adds what is on the board, and whether a card can be drawn is known before its front is typed
(docs/rules-decisions.md "A remembered back never re-adds what is on the board" and "Whether a card can
be drawn is known at its number")."""

import pytest

from games.engines.kernel.errors import RuleError
from games.engines.kings_dilemma import messages as msg
from games.engines.kings_dilemma.rules import RULES
from tests.unit.contract import described
from tests.unit.kings_dilemma.builders import act, config, drafted, outcome

STICKER = {"number": 31, "row": "wealth", "positive": False}


def remembered(aye: dict, title: str = "The Bread Tax") -> dict:
    """Card 7 as the campaign stores it after a night (its front, and the back of the side that won)."""
    return {
        "number": 7,
        "title": title,
        "front": {
            "aye": {"resources": [], "sticker": "negative"},
            "nay": {"resources": [["wealth", "up"]], "sticker": None},
        },
        "back": {"aye": aye, "nay": None},
    }


def to_outcome(state: dict, side: str = "aye") -> dict:
    """Every seat passes and the Moderator decides for ``side``: the back is read next."""
    while state["phase"] == "voting":
        seat = state["vote"]["turn"]
        state = act(state, "pass_gather" if state["vote"]["choice"][seat] is None else "stay", seat)
    state = act(state, "break_tie", state["moderator"], side=side)
    assert state["phase"] == "outcome"
    return state


def drawn_again(aye: dict, **campaign) -> dict:
    state = drafted(config(known_cards={"7": remembered(aye)}, **campaign))
    return to_outcome(act(state, "draw_dilemma", None, card={"number": 7}))


class TitleKeptTests:
    def test_a_card_met_before_is_drawn_under_its_typed_title(self):
        """Rulebook '1. Draw and Read a Card': the title typed in an earlier night, on every view."""
        state = drafted(config(known_cards={"7": remembered(None)}))
        assert [c["title"] for c in RULES.view(state, None)["known_fronts"]] == ["The Bread Tax"]
        state = act(state, "draw_dilemma", None, card={"number": 7})
        for viewer in (None, 0, 1, 2):
            assert RULES.view(state, viewer)["card"]["title"] == "The Bread Tax"
        assert described(
            RULES,
            drafted(config(known_cards={"7": remembered(None)})),
            {
                "type": "draw_dilemma",
                "seat": None,
                "card": {"number": 7},
            },
        ).startswith("The table drew Dilemma card 7: The Bread Tax.")


class RememberedBackTests:
    """Rulebook 'Chronicle stickers' and 'Open Envelope': each sticker and Envelope exists once."""

    def test_a_sticker_already_on_the_board_is_not_offered_again(self):
        state = drawn_again(outcome(("wealth", -1), sticker=STICKER), stickers_attached=[31])
        offered = RULES.view(state, None)["known_outcome"]
        assert offered["sticker"] is None and offered["resources"] == [["wealth", -1]]
        state = act(state, "read_outcome", None, outcome=offered, place="time_counter")
        assert state["stickers"] == []  # nothing refused, nothing attached twice
        assert msg.NEWS_STICKER_NOT_AGAIN.format(number=31) in state["news"]
        assert state["cards_met"]["7"]["back"]["aye"]["sticker"] == STICKER  # the card still says it

    def test_an_envelope_already_opened_is_not_offered_again(self):
        state = drawn_again(outcome(("wealth", -1), envelope=12), envelopes_opened=[0, 12])
        offered = RULES.view(state, None)["known_outcome"]
        assert offered["envelope"] is None
        state = act(state, "read_outcome", None, outcome=offered, place="time_counter")
        assert state["envelopes"] == []
        assert msg.NEWS_ENVELOPE_NOT_AGAIN.format(number=12) in state["news"]

    def test_a_sticker_attached_earlier_tonight_is_not_offered_again(self):
        state = drawn_again(outcome(("wealth", -1), sticker=STICKER))
        state["stickers"].append({**STICKER, "signer": 0, "dilemma": 3})  # card 3 attached it tonight
        assert RULES.view(state, None)["known_outcome"]["sticker"] is None

    def test_a_back_whose_every_part_is_on_the_board_applies_nothing_in_one_submit(self):
        state = drawn_again(
            {"resources": [], "sticker": STICKER, "envelope": None, "lightning": True, "note": ""},
            stickers_attached=[31],
        )
        offered = RULES.view(state, None)["known_outcome"]
        assert offered == {"resources": [], "sticker": None, "envelope": None, "lightning": True, "note": ""}
        state = act(state, "read_outcome", None, outcome=offered, place="time_counter")
        assert state["time_counter"] == [7] and state["stickers"] == []

    def test_an_empty_back_typed_over_a_remembered_one_is_still_refused(self):
        state = drawn_again(outcome(("wealth", -1), sticker=STICKER), stickers_attached=[31])
        empty = {"resources": [], "sticker": None, "envelope": None, "lightning": False, "note": ""}
        with pytest.raises(RuleError) as raised:
            act(state, "read_outcome", None, outcome=empty)
        assert raised.value.message == msg.OUTCOME_EMPTY

    def test_the_sticker_typed_again_by_hand_is_still_refused(self):
        """The refusal stays as it was: only what is offered changes."""
        state = drawn_again(outcome(("wealth", -1), sticker=STICKER), stickers_attached=[31])
        with pytest.raises(RuleError) as raised:
            act(state, "read_outcome", None, outcome=outcome(("wealth", -1), sticker=STICKER))
        assert raised.value.message == msg.STICKER_ON_BOARD.format(number=31)

    def test_a_back_with_nothing_on_the_board_is_offered_whole(self):
        whole = outcome(("wealth", -1), sticker=STICKER, envelope=12)
        assert RULES.view(drawn_again(whole), None)["known_outcome"] == whole


class DrawableTests:
    """'Final Cleanup' step 2 (the Trash "will never be used again!") and the Event area: the host
    knows it from the number, before the front is typed."""

    def test_the_table_knows_each_number_the_draw_refuses_with_the_draw_s_sentence(self):
        state = drafted(config(cards_out_of_deck={"2": "trash", "91": "event_area"}))
        state = act(state, "draw_dilemma", None, card={"number": 5, "title": "Plague"})
        state = to_outcome(state)
        state = act(state, "read_outcome", None, outcome=outcome(("wealth", 1)), place="time_counter")
        undrawable = RULES.view(state, None)["undrawable"]
        assert undrawable == {
            "2": msg.DILEMMA_NOT_IN_DECK.format(number=2, place=msg.OUT_OF_DECK_PLACES["trash"]),
            "5": msg.CARD_ALREADY.format(number=5),
            "91": msg.DILEMMA_NOT_IN_DECK.format(number=91, place=msg.OUT_OF_DECK_PLACES["event_area"]),
        }
        for number, sentence in undrawable.items():
            with pytest.raises(RuleError) as raised:  # a title typed or not, the same answer
                act(state, "draw_dilemma", None, card={"number": int(number)})
            assert raised.value.message == sentence

    def test_only_the_table_at_the_draw_is_told(self):
        state = drafted(config(cards_out_of_deck={"2": "trash"}))
        assert "undrawable" not in RULES.view(state, 0)
        state = act(state, "draw_dilemma", None, card={"number": 5, "title": "Plague"})
        assert RULES.view(state, None)["undrawable"] == {}


class PutIntoTheDeckTests:
    """A printed effect puts a card of the Trash, the Event area or the Story save slot into the
    Dilemma deck during the night (docs/rules-decisions.md "A card put into the Dilemma deck during a
    night"): from then on the draw and the host's form agree that it can be drawn."""

    def test_a_trashed_card_put_into_the_deck_is_drawn_by_its_number_under_its_title(self):
        state = drafted(config(known_cards={"7": remembered(None)}, cards_out_of_deck={"7": "trash"}))
        refusal = msg.DILEMMA_NOT_IN_DECK.format(number=7, place=msg.OUT_OF_DECK_PLACES["trash"])
        assert RULES.view(state, None)["undrawable"] == {"7": refusal}
        assert RULES.view(state, None)["known_fronts"] == []
        offered = [c for c in RULES.choices(state, None) if c["type"] == "to_dilemma_deck"]
        assert offered[0]["params"]["number"] == {"kind": "pick", "options": [7]}
        state = act(state, "to_dilemma_deck", None, number=7, label="The Exile returns")
        assert state["news"] == [msg.NEWS_TO_DECK.format(number=7, place=msg.PLACE_NAMES["trash"])]
        view = RULES.view(state, None)
        assert view["undrawable"] == {} and [c["title"] for c in view["known_fronts"]] == ["The Bread Tax"]
        assert not [c for c in RULES.choices(state, None) if c["type"] == "to_dilemma_deck"]
        state = act(state, "draw_dilemma", None, card={"number": 7})
        assert state["card"]["title"] == "The Bread Tax"

    def test_an_ongoing_event_card_put_into_the_deck_leaves_the_event_area(self):
        state = drafted(config(event_area=[91], cards_out_of_deck={"91": "event_area"}))
        state = act(state, "to_dilemma_deck", None, number=91, label="Shuffle it into the deck")
        assert state["event_cards"] == [] and 91 in state["dilemma_deck"]
        assert state["cards_to_deck"] == [91]

    def test_a_card_not_out_of_the_deck_is_refused(self):
        state = drafted(config(dilemma_deck=[12], cards_out_of_deck={"7": "trash"}))
        with pytest.raises(RuleError) as raised:
            act(state, "to_dilemma_deck", None, number=12, label="By mistake")
        assert raised.value.message == msg.CARD_NOT_OUT_OF_DECK.format(number=12)

    def test_the_result_tells_the_campaign(self):
        state = drafted(config(cards_out_of_deck={"7": "trash"}))
        state = act(state, "to_dilemma_deck", None, number=7, label="The Exile returns")
        state["time_counter"] = list(range(101, 110))  # the next card lands on the lightning space
        state = act(state, "draw_dilemma", None, card={"number": 7, "title": "The Bread Tax"})
        state = to_outcome(state)
        back = {**outcome(("wealth", 1)), "lightning": True}
        state = act(state, "read_outcome", None, outcome=back, place="time_counter")
        state = act(state, "score", None)
        if state["phase"] == "heir":
            state = act(state, "choose_heir", state["moderator"], heir=state["heir_candidates"][0])
        assert state["result"]["cards_to_deck"] == [7] and state["result"]["resolved_dilemmas"][-1] == 7
