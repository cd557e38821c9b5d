"""Phase 1 (drawing the card) and phase 5 (Dilemma Resolution: Resources, Momentum, Stability, stickers,
envelopes, the Time Counter, the King's death), and the host's hand-applied effects."""

import pytest

from games.engines.kernel.errors import RuleError
from games.engines.kings_dilemma import messages as msg
from games.engines.kings_dilemma.board import move_resource
from games.engines.kings_dilemma.rules import RULES
from tests.unit.contract import described
from tests.unit.kings_dilemma.builders import (
    act,
    card,
    config,
    drafted,
    draw,
    front,
    outcome,
    resolve,
    voting,
)


def error(state, type_, seat, **fields) -> str:
    with pytest.raises(RuleError) as raised:
        act(state, type_, seat, **fields)
    return raised.value.message


def board(**markers) -> dict:
    """A drafted state whose markers are set: board(morale=(9, "down", True), ...)."""
    state = drafted()
    for row, (position, momentum, marker) in markers.items():
        state["resources"][row] = {"position": position, "momentum": momentum, "marker": marker}
    return state


def win(state: dict, side: str) -> dict:
    """The first seat with Power votes ``side`` with 1 Power, the others pass: ``side`` wins (the
    Moderator decides it when nobody had Power)."""
    voted = False
    while state["phase"] == "voting":
        seat = state["vote"]["turn"]
        if state["vote"]["choice"][seat] is not None:
            state = act(state, "stay", seat)
        elif not voted and state["seats"][seat]["power"] > 0:
            state = act(state, "vote", seat, side=side, power=1)
            voted = True
        else:
            state = act(state, "pass_gather", seat)
    if state["phase"] == "tie_break":
        state = act(state, "break_tie", state["moderator"], side=side)
    return resolve(state)


class MomentumExampleTests:
    """Rulebook 'Moving Resources and Stability and updating Momentum', the three Momentum examples."""

    def test_influence_up_against_its_momentum_flips_and_loses_the_marker(self):
        state = board(influence=(9, "down", True))
        move_resource(state, "influence", 1)
        assert state["resources"]["influence"] == {"position": 10, "momentum": "up", "marker": False}
        assert state["stability"] == 10

    def test_morale_down_with_its_momentum_moves_one_more_and_takes_a_marker(self):
        state = board(morale=(9, "down", False))
        move_resource(state, "morale", -1)
        assert state["resources"]["morale"] == {"position": 7, "momentum": "down", "marker": True}
        assert state["stability"] == 7

    def test_both_moves_of_the_first_example_one_after_the_other(self):
        state = board(influence=(9, "down", True), morale=(9, "down", False))
        the_card = card(aye=outcome(("influence", 1), ("morale", -1)))
        state = win(draw(state, the_card), "aye")
        assert state["resources"]["influence"]["position"] == 10
        assert state["resources"]["morale"]["position"] == 7
        assert state["stability"] == 9 + 1 - 2

    def test_morale_down_four_takes_stability_to_the_bottom_and_knowledge_still_moves(self):
        state = board(morale=(9, "down", True), knowledge=(9, "up", False))
        state["stability"] = 5
        the_card = card(aye=outcome(("morale", -2), ("knowledge", 1)))
        state = win(draw(state, the_card), "aye")
        assert state["resources"]["morale"]["position"] == 5
        assert state["stability"] == 1
        assert state["abdicated"] == "bottom"
        # Knowledge still moves (with its Momentum: 1 + 1), the Stability marker no longer does.
        assert state["resources"]["knowledge"] == {"position": 11, "momentum": "up", "marker": True}
        assert state["phase"] == "resolution"
        state = act(state, "to_time_counter", None)
        assert state["phase"] == "end"
        assert state["end"] == "abdicated_bottom"


class TrackEndTests:
    def test_a_marker_stops_at_the_end_of_its_track_while_stability_moves_the_full_amount(self):
        state = board(wealth=(16, "down", False))
        move_resource(state, "wealth", 3)
        assert state["resources"]["wealth"]["position"] == 17
        assert state["stability"] == 12

    def test_stability_reaching_the_top_makes_the_king_abdicate(self):
        state = board(wealth=(9, "up", True))
        state["stability"] = 14
        move_resource(state, "wealth", 1)  # 1 + 2
        assert state["stability"] == 17
        assert state["abdicated"] == "top"

    def test_legacy_offsets_place_the_markers_and_stop_at_the_ends(self):
        state = RULES.setup(config(resources={"wealth": 2, "morale": -3, "welfare": 17}), 1)
        positions = {r: m["position"] for r, m in state["resources"].items()}
        assert positions == {"influence": 9, "wealth": 11, "morale": 6, "welfare": 17, "knowledge": 9}
        assert state["stability"] == 9


class StickerAndEnvelopeTests:
    def test_the_leader_signs_the_sticker_and_opens_the_envelope(self):
        sticker = {"number": 88, "row": "morale", "positive": False}
        state = voting(
            config(leader=1, moderator=0), card(7, nay=outcome(("morale", -1), sticker=sticker, envelope=5))
        )
        state = win(state, "nay")
        assert state["stickers"] == [{**sticker, "signer": 1, "dilemma": 7}]
        assert state["envelopes"] == [{"number": 5, "opened_by": 1, "dilemma": 7}]


class TimeCounterTests:
    """Rulebook 'Place the Dilemma card on the Time Counter' and 'Triggering the end of the game'."""

    def round_(self, state: dict, number: int, lightning: bool = False) -> dict:
        the_card = card(
            number,
            aye=outcome(("wealth", 1), lightning=lightning),
            nay=outcome(("wealth", -1), lightning=lightning),
        )
        state = win(draw(state, the_card), "aye" if number % 2 else "nay")
        return act(state, "to_time_counter", None)

    def test_nine_cards_fill_the_counter_then_the_lightning_on_the_back_kills_the_king(self):
        state = drafted()
        for number in range(1, 10):
            state = self.round_(state, number, lightning=True)  # not yet on the lightning space
            assert state["phase"] == "draw"
        alive = self.round_(state, 10, lightning=False)
        assert alive["phase"] == "draw" and not alive["king_dead"]
        dead = self.round_(state, 10, lightning=True)
        assert dead["phase"] == "end" and dead["end"] == "king_died"

    def test_the_fifth_card_on_the_lightning_space_kills_the_king(self):
        state = drafted()
        for number in range(1, 14):
            state = self.round_(state, number)
        assert len(state["time_counter"]) == 13 and state["phase"] == "draw"
        state = self.round_(state, 14)
        assert state["phase"] == "end"
        assert state["end"] == "king_died"

    def test_the_log_counts_a_card_past_the_last_space_on_the_lightning_space(self):
        # The eleventh card lies on the lightning space with the tenth: the log says "(10/10)" (the
        # board says the same: tests/unit/presenters/test_kings_dilemma.py).
        state = drafted()
        for number in range(1, 12):
            state = self.round_(state, number)
        assert len(state["time_counter"]) == 11 and state["tracks"]["time_counter"]["spaces"] == 10
        assert msg.NEWS_TIME_COUNTER.format(number=11, count=10, spaces=10) in state["news"]

    def test_an_event_card_goes_to_the_event_area_instead(self):
        state = win(voting(), "aye")
        state = act(state, "to_event_area", None, label="Trigger card")
        assert state["event_cards"] == [12]
        assert state["time_counter"] == []
        assert state["phase"] == "draw"

    def test_placing_the_card_is_the_table_s(self):
        state = win(voting(), "aye")
        assert error(state, "to_time_counter", 0) == msg.TABLE_ONLY.format(
            what="place the card on the Time Counter"
        )


class CardFlowTests:
    """docs/rules-decisions.md 'The Dilemma card as the rulebook plays it': the front at the draw
    ("always make sure you look at it with the front side face up, and that you don't accidentally
    show the back"), the back of the winning side after the vote ("Turn the Dilemma card over ...
    then read the Outcome")."""

    def test_the_vote_ends_with_the_table_reading_the_winning_side_from_the_back(self):
        the_card = card(7, aye=outcome(("knowledge", 2)), nay=outcome(("morale", -1)))
        state = draw(drafted(), the_card)
        assert state["card"]["back"] == {"aye": None, "nay": None}
        state = act(resolve(state), "stay", None) if False else state
        while state["phase"] == "voting":
            seat = state["vote"]["turn"]
            if state["vote"]["choice"][seat] is None and state["seats"][seat]["power"]:
                state = act(state, "vote", seat, side="nay", power=1)
            elif state["vote"]["choice"][seat] is None:
                state = act(state, "pass_gather", seat)
            else:
                state = act(state, "stay", seat)
        assert state["phase"] == "outcome"
        assert RULES.choices(state, None) == [
            {
                "type": "read_outcome",
                "seat": None,
                "params": {
                    "outcome": {"kind": "typed", "schema": "dilemma_outcome"},
                    "place": {"kind": "pick", "options": ["time_counter", "resolution"]},
                },
            }
        ]
        morale = state["resources"]["morale"]["position"]
        state = resolve(state, the_card)
        assert state["phase"] == "resolution"
        assert state["resources"]["morale"]["position"] < morale
        assert state["cards_met"]["7"]["back"] == {"aye": None, "nay": the_card["nay"]}

    def test_nothing_of_the_back_is_in_any_view_before_the_vote_ends(self):
        known = card(31, aye=outcome(("knowledge", 2), envelope=44), title="The library")
        stored = {"title": known["title"], "aye": known["aye"], "nay": known["nay"]}
        state = drafted(config(known_cards={"31": stored}))
        state = act(state, "draw_dilemma", None, card={"number": 31})
        assert state["card"]["back"]["aye"]["envelope"] == 44  # known to the engine...
        for viewer in (None, 0, 1, 2):
            view = RULES.view(state, viewer)
            assert "back" not in view["card"] and "44" not in str(view)  # ...never shown before its time
            assert view.get("known_outcome") is None
        state = win(state, "aye") if False else state
        while state["phase"] == "voting":
            seat = state["vote"]["turn"]
            state = act(state, "pass_gather" if state["vote"]["choice"][seat] is None else "stay", seat)
        state = act(state, "break_tie", state["moderator"], side="aye")
        assert state["phase"] == "outcome"
        assert RULES.view(state, None)["known_outcome"] == known["aye"]  # offered back at resolution

    def test_a_card_met_before_shows_its_front_again(self):
        known = card(31, aye=outcome(("knowledge", 2)), nay=outcome(("wealth", -1)), title="The library")
        stored = {"title": known["title"], "aye": known["aye"], "nay": known["nay"]}
        state = act(drafted(config(known_cards={"31": stored})), "draw_dilemma", None, card={"number": 31})
        assert RULES.view(state, 0)["card"] == {
            "number": 31,
            "title": "The library",
            "question": "",
            "front": {
                "aye": {"resources": [["knowledge", "up"]], "sticker": None},
                "nay": {"resources": [["wealth", "down"]], "sticker": None},
            },
        }

    def test_the_table_types_any_card_as_one_choice(self):
        state = drafted(config(dilemma_deck=[31, 40]))
        assert RULES.choices(state, None) == [
            {
                "type": "draw_dilemma",
                "seat": None,
                "params": {"card": {"kind": "typed", "schema": "dilemma_front"}},
            }
        ]
        assert RULES.choices(state, 0) == []

    def test_the_deck_loses_the_drawn_card(self):
        state = draw(drafted(config(dilemma_deck=[12, 31])), card(12))
        assert state["dilemma_deck"] == [31]

    @pytest.mark.parametrize(
        ("typed", "message"),
        [
            ("card 12", msg.CARD_FORMAT),
            ({"number": 0, "title": "x"}, msg.CARD_NUMBER.format(top=999)),
            ({"number": 1000, "title": "x"}, msg.CARD_NUMBER.format(top=999)),
            ({"number": 99}, msg.CARD_TITLE_MISSING.format(number=99)),
            ({"number": 99, "title": "  "}, msg.CARD_TITLE_MISSING.format(number=99)),
            ({"number": 9, "title": 5}, msg.CARD_TITLE),
            ({"number": 9, "title": "x" * 121}, msg.CARD_TITLE),
            ({"number": 9, "title": "Bread\ntaxes"}, msg.CARD_TITLE),  # the campaign keeps it as a name
            ({"number": 9, "title": "x", "question": "?" * 301}, msg.CARD_QUESTION),
            ({"number": 9, "title": "x", "aye": "up"}, msg.FRONT_FORMAT.format(side="AYE")),
            (
                {"number": 9, "title": "x", "nay": {"resources": [["gold", "up"]]}},
                msg.RESOURCE_ROW.format(row="gold"),
            ),
            ({"number": 9, "title": "x", "aye": {"resources": [["wealth", 2]]}}, msg.FRONT_DIRECTION),
            (
                {"number": 9, "title": "x", "aye": {"resources": [["wealth", "up"], ["wealth", "down"]]}},
                msg.FRONT_ROW_TWICE.format(row="Wealth", side="AYE"),
            ),
            ({"number": 9, "title": "x", "aye": {"sticker": "maybe"}}, msg.FRONT_STICKER),
        ],
    )
    def test_typed_fronts_are_validated(self, typed, message):
        assert error(drafted(), "draw_dilemma", None, card=typed) == message

    @pytest.mark.parametrize(
        ("typed", "message"),
        [
            ("up", msg.OUTCOME_FORMAT),
            ({}, msg.OUTCOME_EMPTY),
            ({"resources": [], "sticker": None, "envelope": None, "note": "  "}, msg.OUTCOME_EMPTY),
            ({"resources": "up"}, msg.OUTCOME_FORMAT),
            ({"resources": [["gold", 1]]}, msg.RESOURCE_ROW.format(row="gold")),
            ({"resources": [["gold"]]}, msg.RESOURCE_MOVE.format(top=17)),
            ({"resources": [["wealth", 0]]}, msg.RESOURCE_MOVE.format(top=17)),
            ({"resources": [["wealth", 18]]}, msg.RESOURCE_MOVE.format(top=17)),
            (
                {"sticker": {"number": 500, "row": "wealth", "positive": True}},
                msg.STICKER_FORMAT.format(count=177),
            ),
            ({"envelope": 75}, msg.ENVELOPE_NUMBER.format(top=74)),
            ({"note": "x", "lightning": "yes"}, msg.LIGHTNING_FORMAT),
            ({"note": "x" * 201}, msg.OUTCOME_NOTE),
        ],
    )
    def test_typed_outcomes_are_validated_and_an_empty_one_is_refused(self, typed, message):
        state = win(voting(), "aye") if False else voting()
        while state["phase"] == "voting":
            seat = state["vote"]["turn"]
            state = act(state, "pass_gather" if state["vote"]["choice"][seat] is None else "stay", seat)
        state = act(state, "break_tie", state["moderator"], side="aye")
        assert error(state, "read_outcome", None, outcome=typed) == message

    def test_the_outcome_is_read_only_after_the_vote(self):
        assert error(voting(), "read_outcome", None, outcome=outcome(("wealth", 1))) == msg.NOT_NOW.format(
            what="read the outcome"
        )

    def test_a_card_cannot_be_drawn_twice_in_a_game(self):
        state = act(win(voting(), "aye"), "to_time_counter", None)
        assert error(state, "draw_dilemma", None, card=front(card(12))) == msg.CARD_ALREADY.format(number=12)
        assert error(state, "draw_dilemma", None, card={"number": 12}) == msg.CARD_ALREADY.format(number=12)

    def test_only_the_table_draws(self):
        assert error(drafted(), "draw_dilemma", 0, card=front(card())) == msg.TABLE_ONLY.format(
            what="draw a Dilemma card"
        )


class HostEffectTests:
    """docs/rules-decisions.md 'Card effects the app cannot know'."""

    def test_a_resource_moved_by_hand_follows_momentum_and_stability(self):
        state = win(voting(), "aye")
        state["resources"]["welfare"] = {"position": 9, "momentum": "up", "marker": False}
        stability = state["stability"]
        state = act(state, "move_resource", None, row="welfare", amount=2, label="Famine relief")
        assert state["resources"]["welfare"] == {"position": 12, "momentum": "up", "marker": True}
        assert state["stability"] == stability + 3

    def test_coins_and_power_come_from_and_go_to_the_pool(self):
        state = win(voting(), "aye")
        pool = dict(state["pool"])
        state = act(state, "adjust", None, target=1, what="coins", amount=2, label="Tax")
        state = act(state, "adjust", None, target=2, what="power", amount=-3, label="Purge")
        assert state["pool"] == {"coins": pool["coins"] - 2, "power": pool["power"] + 3}

    def test_taking_more_than_a_house_holds_takes_all_it_holds(self):
        # docs/rules-decisions.md "Taking from behind a House screen": the table cannot see how much
        # there is, so the take is never refused; the House gives up what it holds.
        state = win(voting(), "aye")
        pool, have = dict(state["pool"]), state["seats"][2]["power"]
        taking = {
            "type": "adjust",
            "seat": None,
            "target": 2,
            "what": "power",
            "amount": -have - 3,
            "label": "Purge",
        }
        assert f"took {have} Power" in described(RULES, state, taking)  # the log says what it gave up
        state = act(state, "adjust", None, target=2, what="power", amount=-have - 3, label="Purge")
        assert state["seats"][2]["power"] == 0
        assert state["pool"]["power"] == pool["power"] + have
        assert state["news"][-1] == msg.NEWS_POWER_TAKEN.format(
            name="Chloe", amount=have, s="" if have == 1 else "s"
        )

    def test_an_amount_of_nothing_is_neither_offered_nor_taken(self):
        state = win(voting(), "aye")
        adjust = next(c for c in RULES.legal_actions(state, None) if c["type"] == "adjust")
        assert adjust["params"]["amount"]["nonzero"] is True
        assert error(
            state, "adjust", None, target=2, what="power", amount=0, label="x"
        ) == msg.HOST_AMOUNT.format(most=state["tracks"]["limits"]["hand_adjust"])

    def test_prestige_and_crave_are_recorded_for_the_campaign(self):
        state = act(drafted(), "adjust", None, target=0, what="crave", amount=2, label="Story card")
        assert state["prestige_crave_effects"] == [
            {"seat": 0, "prestige": 0, "crave": 2, "label": "Story card"}
        ]

    def test_mystery_stickers_are_attached_once(self):
        state = drafted(config(mystery_stickers=["A"]))
        state = act(state, "mystery_sticker", None, letter="C", label="Door")
        assert state["mystery_stickers"] == [{"letter": "C", "dilemma": None, "label": "Door"}]
        assert error(state, "mystery_sticker", None, letter="C", label="x") == msg.MYSTERY_TWICE.format(
            letter="C"
        )
        assert error(state, "mystery_sticker", None, letter="A", label="x") == msg.MYSTERY_TWICE.format(
            letter="A"
        )
        assert error(state, "mystery_sticker", None, letter="Z", label="x") == msg.MYSTERY_LETTER

    def test_the_sixth_mystery_sticker_opens_envelope_70_after_the_card(self):
        """Rulebook 'Triggering the end of the campaign': "after you complete the resolution of the
        Dilemma card that made you attach that sticker, you must immediately open Envelope 70"."""
        state = voting(config(mystery_stickers=["A", "B", "C", "D", "E"], leader=0, moderator=1))
        state = act(state, "mystery_sticker", None, letter="F", label="Door F")
        state = win(state, "aye")
        assert state["envelopes"] == []  # not before the resolution is complete
        state = act(state, "to_time_counter", None)
        assert state["envelopes"] == [{"number": 70, "opened_by": 0, "dilemma": 12, "grand_finale": True}]
        assert state["news"][-1] == msg.NEWS_GRAND_FINALE.format(leader="Anna", number=70)
        assert RULES.view(state, None)["news"][-1] == state["news"][-1]  # the host reads it

    def test_a_seventh_mystery_sticker_is_refused_and_never_offered(self):
        """Rulebook 'Triggering the end of the campaign': "You will attach exactly 6 Mystery stickers
        during your campaign" (the campaign's earlier ones and tonight's)."""
        all_six = msg.MYSTERY_ALL.format(count=6, envelope=70)
        state = win(voting(config(mystery_stickers=["A", "B", "C", "D", "E"])), "aye")
        offered = [c for c in RULES.legal_actions(state, None) if c["type"] == "mystery_sticker"]
        assert offered[0]["params"]["letter"]["options"] == list("FGHIJKL")
        state = act(state, "mystery_sticker", None, letter="F", label="Door F")
        assert "mystery_sticker" not in {c["type"] for c in RULES.legal_actions(state, None)}
        assert error(state, "mystery_sticker", None, letter="G", label="Door G") == all_six
        before = win(voting(config(mystery_stickers=list("ABCDEF"))), "aye")
        assert "mystery_sticker" not in {c["type"] for c in RULES.legal_actions(before, None)}
        assert error(before, "mystery_sticker", None, letter="L", label="Door L") == all_six

    def test_host_effect_errors(self):
        state = win(voting(), "aye")
        assert error(state, "adjust", None, target=0, what="coins", amount=1, label="") == msg.LABEL
        assert error(state, "adjust", None, target=0, what="coins", amount=1, label="x" * 81) == msg.LABEL
        # A label becomes a ledger entry's reason, which the campaign's archive holds to one line.
        assert error(state, "adjust", None, target=0, what="coins", amount=1, label="a\nb") == msg.LABEL
        assert error(state, "adjust", None, target=0, what="gold", amount=1, label="x") == msg.HOST_WHAT
        assert error(
            state, "adjust", None, target=0, what="coins", amount=0, label="x"
        ) == msg.HOST_AMOUNT.format(most=20)
        assert error(
            state, "adjust", None, target=0, what="crave", amount=10**6, label="x"
        ) == msg.HOST_AMOUNT.format(most=20)
        assert error(state, "adjust", None, target=5, what="coins", amount=1, label="x") == msg.NO_SUCH_SEAT
        assert error(
            state, "move_resource", None, row="gold", amount=1, label="x"
        ) == msg.RESOURCE_ROW.format(row="gold")
        assert error(
            state, "move_resource", None, row="wealth", amount=0, label="x"
        ) == msg.RESOURCE_MOVE.format(top=17)
        assert error(
            drafted(), "move_resource", None, row="wealth", amount=1, label="x"
        ) == msg.NOT_NOW.format(what="move a Resource by hand")

    def test_one_effect_applies_to_each_house_named_in_one_log_line(self):
        # DESIGN "Card effects the app cannot know": "each House that voted NAY pays 1 Coin" is one
        # effect on several Houses, one logged action (one undo, one line naming the Houses).
        state = win(voting(), "aye")
        pool = dict(state["pool"])
        coins = [s["coins"] for s in state["seats"]]
        paying = {
            "type": "adjust",
            "seat": None,
            "target": [1, 2],
            "what": "coins",
            "amount": -1,
            "label": "NAY pays",
        }
        assert described(RULES, state, paying).splitlines()[0] == (
            "The table took 1 Coin from each of Ben and Chloe (NAY pays)."
        )
        state = RULES.apply(state, paying)
        assert [s["coins"] for s in state["seats"]] == [coins[0], coins[1] - 1, coins[2] - 1]
        assert state["pool"]["coins"] == pool["coins"] + 2
        assert state["news"] == [
            msg.NEWS_COINS_TAKEN.format(name="Ben", amount=1, s=""),
            msg.NEWS_COINS_TAKEN.format(name="Chloe", amount=1, s=""),
        ]

    def test_prestige_for_several_houses_is_recorded_house_by_house(self):
        state = act(drafted(), "adjust", None, target=[2, 0], what="prestige", amount=2, label="Feast")
        assert state["prestige_crave_effects"] == [
            {"seat": 2, "prestige": 2, "crave": 0, "label": "Feast"},
            {"seat": 0, "prestige": 2, "crave": 0, "label": "Feast"},
        ]

    def test_a_list_of_one_house_is_that_house(self):
        state = win(voting(), "aye")
        one = act(state, "adjust", None, target=[1], what="power", amount=2, label="Gift")
        same = act(state, "adjust", None, target=1, what="power", amount=2, label="Gift")
        assert one["seats"] == same["seats"] and one["pool"] == same["pool"]
        said = described(
            RULES,
            state,
            {"type": "adjust", "seat": None, "target": [1], "what": "coins", "amount": 1, "label": "x"},
        )
        assert said.startswith("The table gave 1 Coin to Ben (x).")

    def test_the_houses_named_are_checked(self):
        state = win(voting(), "aye")
        fields = {"what": "coins", "amount": -1, "label": "x"}
        assert error(state, "adjust", None, target=[], **fields) == msg.HOST_TARGETS
        assert error(state, "adjust", None, target=[1, 1], **fields) == msg.HOST_TARGETS_TWICE
        assert error(state, "adjust", None, target=[0, 7], **fields) == msg.NO_SUCH_SEAT
        assert error(state, "adjust", None, target=[0, "1"], **fields) == msg.NO_SUCH_SEAT
        assert error(state, "adjust", None, target=[True], **fields) == msg.NO_SUCH_SEAT

    def test_the_choice_offers_any_set_of_houses(self):
        state = win(voting(), "aye")
        adjust = next(c for c in RULES.legal_actions(state, None) if c["type"] == "adjust")
        assert adjust["params"]["target"] == {"kind": "cards", "options": [0, 1, 2], "min": 1, "max": 3}

    def test_every_drawn_host_effect_applies(self):
        import random

        from games.engines.kernel.choices import draw_action

        state = win(voting(), "aye")
        rng = random.Random(4)
        for choice in RULES.choices(state, None):
            for _ in range(20):
                RULES.apply(state, draw_action(RULES, state, choice, rng))


class DecisionTests:
    """Decisions of docs/rules-decisions.md (The King.s Dilemma: one game night) not covered elsewhere."""

    def test_a_known_card_typed_again_replaces_its_front_and_keeps_its_back(self):
        stored = card(31)
        state = drafted(config(known_cards={"31": {k: v for k, v in stored.items() if k != "number"}}))
        corrected = front(card(31, aye=outcome(("influence", 2)), title="The library, corrected"))
        state = act(state, "draw_dilemma", None, card=corrected)
        met = state["cards_met"]["31"]
        assert met["title"] == "The library, corrected"
        assert met["front"]["aye"] == {"resources": [["influence", "up"]], "sticker": None}
        assert met["back"] == {"aye": stored["aye"], "nay": stored["nay"]}

    def test_a_card_not_in_the_save_slot_may_be_drawn(self):
        state = drafted(config(dilemma_deck=[12]))
        state = draw(state, card(55))
        assert state["dilemma_deck"] == [12]

    def test_abdication_on_the_lightning_space_ends_the_game_without_asking_for_the_lightning(self):
        state = drafted()
        state["time_counter"] = list(range(101, 110))
        state["stability"] = 2
        state["resources"]["wealth"] = {"position": 9, "momentum": "up", "marker": False}
        state = win(draw(state, card(12, aye=outcome(("wealth", -1), lightning=True))), "aye")
        assert state["abdicated"] == "bottom"
        state = act(state, "to_time_counter", None)
        assert state["phase"] == "end"
        assert state["end"] == "abdicated_bottom"
        assert state["king_dead"] is False

    def test_an_empty_pool_still_pays_and_logs_the_shortfall(self):
        """docs/rules-decisions.md 'General pool'."""
        state = voting(config(leader=0, moderator=2, coins=[24, 24, 24]))
        assert state["pool"]["coins"] == 0
        state = act(state, "pass_gather", 0)
        assert state["pool"]["coins"] == -1
        assert state["shortfalls"] == [{"what": "coins", "amount": 1, "step": state["step"] - 1}]
