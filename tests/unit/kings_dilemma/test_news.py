"""Every consequence in words, at once (issue 26): each action leaves one sentence per consequence in
``news`` (the table's banner) and in its log label; the Houses' Prestige and a phone's Coins show the
state after it. And the outcome read at the resolution may place the card on the Time Counter in the same
action (rulebook "5. Dilemma Resolution", steps E and F; docs/rules-decisions.md)."""

import pytest

from games.engines.kernel.errors import RuleError
from games.engines.kings_dilemma import messages as msg
from games.engines.kings_dilemma.rules import RULES
from tests.unit.contract import described
from tests.unit.kings_dilemma.builders import act, card, config, drafted, outcome, voting


def to_outcome(state: dict, side: str = "aye") -> dict:
    """Everybody passes; the Moderator decides for ``side``: the table reads the outcome next."""
    while state["phase"] == "voting":
        state = act(state, "pass_gather", state["vote"]["turn"])
    state = act(state, "break_tie", state["moderator"], side=side)
    assert state["phase"] == "outcome"
    return state


def markers(state: dict, **rows) -> dict:
    for row, (position, momentum, marker) in rows.items():
        state["resources"][row] = {"position": position, "momentum": momentum, "marker": marker}
    return state


class MomentumNewsTests:
    """Rulebook 'Moving Resources and Stability and updating Momentum'."""

    def test_a_move_with_momentum_says_why_the_marker_moved_further(self):
        state = markers(to_outcome(voting()), wealth=(9, "up", False))
        stability = state["stability"]
        state = act(state, "read_outcome", None, outcome=outcome(("wealth", 1)))
        line = msg.NEWS_MOMENTUM.format(
            row="Wealth",
            amount=1,
            before=9,
            after=11,
            stability=msg.NEWS_STABILITY.format(before=stability, after=stability + 2),
        )
        assert state["news"] == [line]
        assert RULES.view(state, None)["news"] == [line]

    def test_a_move_against_momentum_says_the_marker_turns(self):
        state = markers(to_outcome(voting()), morale=(9, "up", True))
        stability = state["stability"]
        state = act(state, "read_outcome", None, outcome=outcome(("morale", -1)))
        assert state["news"][0] == msg.NEWS_AGAINST.format(
            row="Morale",
            amount=-1,
            before=9,
            after=8,
            arrow="▼",
            stability=msg.NEWS_STABILITY.format(before=stability, after=stability - 1),
        )

    def test_a_marker_without_momentum_just_moves(self):
        state = markers(to_outcome(voting()), welfare=(9, None, False))
        state["abdicated"] = "top"  # Stability no longer moves: the line names no Stability
        state = act(state, "read_outcome", None, outcome=outcome(("welfare", -2)))
        assert state["news"][0] == msg.NEWS_MOVE.format(
            row="Welfare", amount=-2, before=9, after=7, stability=""
        )

    def test_stability_at_the_end_of_its_track_says_the_king_abdicates(self):
        """'If the Stability marker reaches either end of the Stability Track... the King Abdicates
        and the end of the game is triggered at the end of the round.'"""
        state = markers(to_outcome(voting()), wealth=(14, "up", True), knowledge=(8, "down", False))
        top = state["tracks"]["stability_track"]["spaces"]
        rows = state["tracks"]["resource_track"]["rows"]
        state["stability"] = top - 2
        state = act(
            state,
            "read_outcome",
            None,
            outcome=outcome(("wealth", 2), ("knowledge", 1)),
            place="time_counter",
        )
        assert msg.NEWS_TRACK_END.format(row="Wealth", at=rows, top=rows) in state["news"]
        assert msg.NEWS_ABDICATES.format(at=top, top=top) in state["news"]
        # Knowledge still moves, Stability no more: its line names no Stability.
        assert (
            msg.NEWS_AGAINST.format(row="Knowledge", amount=1, before=8, after=9, arrow="▲", stability="")
            in state["news"]
        )
        assert state["news"][-1] == msg.NEWS_GAME_ENDS and state["phase"] == "end"

    def test_the_sticker_and_the_envelope_name_the_leader(self):
        state = to_outcome(voting())
        leader = state["seats"][state["leader"]]["name"]
        sticker = {"number": 43, "row": "welfare", "positive": False}
        state = act(state, "read_outcome", None, outcome=outcome(("wealth", 1), sticker=sticker, envelope=5))
        assert (
            msg.NEWS_STICKER.format(kind="Negative", number=43, row="Welfare", leader=leader) in state["news"]
        )
        assert msg.NEWS_ENVELOPE.format(number=5, leader=leader) in state["news"]


class PlacedWithTheOutcomeTests:
    """Step E folded into the outcome when nothing else is open."""

    def test_place_time_counter_ends_the_round_in_the_same_action(self):
        state = to_outcome(voting(the_card=card(12)))
        state = act(state, "read_outcome", None, outcome=outcome(("wealth", 1)), place="time_counter")
        assert state["phase"] == "draw" and state["time_counter"] == [12]
        spaces = state["tracks"]["time_counter"]["spaces"]
        assert msg.NEWS_TIME_COUNTER.format(number=12, count=1, spaces=spaces) in state["news"]
        label = described(
            RULES,
            to_outcome(voting(the_card=card(12))),
            {
                "type": "read_outcome",
                "seat": None,
                "outcome": outcome(("wealth", 1)),
                "place": "time_counter",
            },
        )
        assert label.splitlines()[-1] == msg.NEWS_TIME_COUNTER.format(number=12, count=1, spaces=spaces)

    def test_without_place_the_resolution_stays_open_as_before(self):
        state = act(to_outcome(voting()), "read_outcome", None, outcome=outcome(("wealth", 1)))
        assert state["phase"] == "resolution" and state["time_counter"] == []
        state = act(state, "to_time_counter", None)
        assert state["phase"] == "draw"

    def test_the_lightning_space_says_whether_the_king_dies(self):
        state = to_outcome(voting())
        state["time_counter"] = list(range(100, 100 + state["tracks"]["time_counter"]["spaces"] - 1))
        state = act(
            state, "read_outcome", None, outcome=outcome(("wealth", 1), lightning=True), place="time_counter"
        )
        assert msg.NEWS_LIGHTNING_DEAD in state["news"] and state["end"] == "king_died"

    def test_the_card_on_the_lightning_space_may_leave_the_king_alive(self):
        state = to_outcome(voting())
        state["time_counter"] = list(range(100, 100 + state["tracks"]["time_counter"]["spaces"] - 1))
        state = act(state, "read_outcome", None, outcome=outcome(("wealth", 1)), place="time_counter")
        assert msg.NEWS_LIGHTNING_LIVES in state["news"] and state["phase"] == "draw"

    @pytest.mark.parametrize("place", ["event_area", "", 1, None])
    def test_another_place_is_refused_and_nothing_changes(self, place):
        state = to_outcome(voting())
        with pytest.raises(RuleError) as raised:
            act(state, "read_outcome", None, outcome=outcome(("wealth", 1)), place=place)
        assert raised.value.message == msg.OUTCOME_PLACE

    def test_the_choice_offers_both_places(self):
        state = to_outcome(voting())
        (offered,) = RULES.legal_actions(state, None)
        assert offered["params"]["place"] == {"kind": "pick", "options": ["time_counter", "resolution"]}


class HandEffectNewsTests:
    """docs/rules-decisions.md 'Card effects the app cannot know': each is said, and the chips follow."""

    def resolution(self) -> dict:
        return act(to_outcome(voting()), "read_outcome", None, outcome=outcome(("wealth", 1)))

    def test_prestige_given_by_hand_shows_on_the_house_at_once(self):
        state = self.resolution()
        before = RULES.view(state, None)["seats"][1]["prestige"]
        state = act(state, "adjust", None, target=1, what="prestige", amount=1, label="A feast")
        name = state["seats"][1]["name"]
        assert state["news"] == [msg.NEWS_PRESTIGE.format(name=name, before=before, after=before + 1)]
        for viewer in (None, 0, 1):
            assert RULES.view(state, viewer)["seats"][1]["prestige"] == before + 1

    def test_crave_is_said_for_the_campaign(self):
        state = act(self.resolution(), "adjust", None, target=0, what="crave", amount=2, label="Greed")
        assert state["news"] == [msg.NEWS_CRAVE.format(name=state["seats"][0]["name"], amount=2)]

    @pytest.mark.parametrize(
        ("what", "amount", "words"),
        [
            ("coins", 2, msg.NEWS_COINS_GIVEN),
            ("coins", -1, msg.NEWS_COINS_TAKEN),
            ("power", 1, msg.NEWS_POWER_GIVEN),
            ("power", -2, msg.NEWS_POWER_TAKEN),
        ],
    )
    def test_coins_and_power_say_what_moved_never_what_is_held(self, what, amount, words):
        state = self.resolution()
        held = state["seats"][2][what]
        state = act(state, "adjust", None, target=2, what=what, amount=amount, label="Tax")
        name = state["seats"][2]["name"]
        line = words.format(name=name, amount=abs(amount), s="" if abs(amount) == 1 else "s")
        assert state["news"] == [line] and str(held + amount) not in line
        assert RULES.view(state, 2)["private"][what] == held + amount


class PassNewsTests:
    """Rulebook 'PASS AND BECOME MODERATOR': take the Moderator token and 1 Coin onto the PASS card."""

    def test_the_moderators_coin_is_said_and_counted_on_the_phone(self):
        state = voting()
        seat = state["vote"]["turn"]
        coins = state["seats"][seat]["coins"]
        state = act(state, "pass_moderator", seat)
        assert state["news"] == [msg.NEWS_MODERATOR.format(name=state["seats"][seat]["name"])]
        you = RULES.view(state, seat)["private"]
        assert (you["coins"], you["pass_coin"]) == (coins, 1)  # behind the screen when the vote ends

    def test_a_gatherers_coin_is_said(self):
        state = voting()
        seat = state["vote"]["turn"]
        state = act(state, "pass_gather", seat)
        assert state["news"] == [msg.NEWS_GATHER.format(name=state["seats"][seat]["name"])]

    def test_the_next_action_starts_with_no_news(self):
        state = voting()
        state = act(state, "pass_gather", state["vote"]["turn"])
        seat = state["vote"]["turn"]
        state = act(state, "vote", seat, side="aye", power=1)
        assert state["news"] == []


class KnownFrontsTests:
    def test_the_table_sees_the_fronts_of_cards_met_before_never_their_backs(self):
        known = card(31, aye=outcome(("knowledge", 2), envelope=44), title="The library")
        stored = {"title": known["title"], "aye": known["aye"], "nay": known["nay"]}
        state = drafted(config(known_cards={"31": stored}))
        fronts = RULES.view(state, None)["known_fronts"]
        assert [f["number"] for f in fronts] == [31] and "44" not in str(fronts)
        assert fronts[0]["front"]["aye"] == {"resources": [["knowledge", "up"]], "sticker": None}
        assert "known_fronts" not in RULES.view(state, 0)
        state = act(state, "draw_dilemma", None, card={"number": 31})
        assert RULES.view(state, None)["known_fronts"] == []
