"""Phases 3 and 4: the Vote of the Council, Bargaining, Vote Resolution and its cleanup."""

import pytest

from games.engines.kernel.errors import RuleError
from games.engines.kings_dilemma import messages as msg
from games.engines.kings_dilemma.rules import RULES
from tests.unit.kings_dilemma.builders import (
    act,
    card,
    coins_total,
    config,
    outcome,
    power_total,
    resolve,
    voting,
)

THEODORE, JULIUS, ARMIN, DIANA, FRANCES = range(5)


def council(**fields) -> dict:
    cfg = config(
        names=["Theodore", "Julius", "Armin", "Diana", "Frances"],
        power=[8, 8, 2, 2, 8],
        leader=THEODORE,
        moderator=JULIUS,
        **fields,
    )
    sticker = {"number": 43, "row": "influence", "positive": True}
    return voting(cfg, card(aye=outcome(("wealth", 1), sticker=sticker), nay=outcome(("wealth", -1))))


class TheodoreExampleTests:
    """Rulebook 'Vote of the Council' (the Theodore, Julius, Armin, Diana and Frances example) and
    'Vote Resolution' (the tie broken for 5 Coins, the Leader token to Julius)."""

    def play_the_voting(self) -> dict:
        state = council()
        state = act(state, "pass_moderator", THEODORE)
        assert state["moderator"] == THEODORE
        state = act(state, "vote", JULIUS, side="aye", power=1)
        assert state["leader"] == JULIUS
        state = act(state, "vote", ARMIN, side="nay", power=1)
        assert state["leader"] == JULIUS
        state = act(state, "vote", DIANA, side="aye", power=1)
        state = act(state, "vote", FRANCES, side="nay", power=4)
        assert state["leader"] == FRANCES
        # Theodore passed: he is skipped, Julius plays next.
        assert state["vote"]["turn"] == JULIUS
        state = act(state, "add_power", JULIUS, power=3)
        assert state["leader"] == FRANCES  # 4 equals Frances's 4: not enough
        state = act(state, "add_power", ARMIN, power=1)
        state = act(state, "add_power", DIANA, power=1)
        return state

    def test_the_voting_phase_ends_after_diana_on_a_tie(self):
        state = self.play_the_voting()
        assert state["phase"] == "tie_break"
        assert state["vote"]["undecided"] == "tie"
        assert state["vote"]["committed"] == [0, 4, 2, 2, 4]

    def test_the_tie_is_bought_for_five_coins_and_julius_takes_the_leader_token(self):
        state = self.play_the_voting()
        coins = [s["coins"] for s in state["seats"]]
        state = act(state, "give_coins", DIANA, to=THEODORE, coins=3)
        state = act(state, "give_coins", JULIUS, to=THEODORE, coins=2)
        state = act(state, "break_tie", THEODORE, side="aye")
        assert state["phase"] == "outcome"  # the card is turned over: the table reads the AYE outcome
        state = resolve(state)
        assert state["winning_side"] == "aye"
        assert state["leader"] == JULIUS
        # Theodore: +5 Coins of the deal and the Coin of his PASS card.
        assert state["seats"][THEODORE]["coins"] == coins[THEODORE] + 5 + 1
        assert state["seats"][DIANA]["coins"] == coins[DIANA] - 3
        # The winners' Power goes to the Balance (3 + 6); the losers' back behind their screens.
        assert state["balance"] == 9
        assert [s["power"] for s in state["seats"]] == [8, 4, 2, 0, 8]
        # Julius, the Leader, signs the sticker.
        assert state["stickers"] == [
            {"number": 43, "row": "influence", "positive": True, "signer": JULIUS, "dilemma": 12}
        ]
        assert state["phase"] == "resolution"


class PowerSharingTests:
    """Rulebook 'Perform cleanup after the vote' (the Rita and David example)."""

    def test_rita_and_david_take_two_power_each_and_one_stays_on_the_balance(self):
        cfg = config(names=["Rita", "David", "Eve"], leader=0, moderator=2)
        state = voting(cfg, balance=5)
        state["pool"]["power"] -= 2  # the Balance holds 5 instead of 3
        state = act(state, "pass_gather", 0)
        state = act(state, "pass_gather", 1)
        state = act(state, "vote", 2, side="aye", power=3)
        # Eve became Leader; the seat to her right (David) passed: his skipped turn ends the phase.
        assert state["phase"] == "outcome"
        assert state["seats"][0]["power"] == 8 + 2
        assert state["seats"][1]["power"] == 8 + 2
        assert state["seats"][0]["coins"] == 11
        # 1 left over, then Eve's winning 3 Power are put on the Balance, not shared this round.
        assert state["balance"] == 1 + 3
        assert state["last_vote"]["shared"] == 2


class VotingTurnTests:
    def test_the_voting_phase_starts_with_the_leader(self):
        state = voting(config(leader=1, moderator=0))
        assert state["vote"]["turn"] == 1

    def test_the_leader_token_moves_only_to_a_strictly_bigger_vote(self):
        state = voting(config(leader=0, moderator=2))
        state = act(state, "vote", 0, side="aye", power=2)
        state = act(state, "vote", 1, side="nay", power=2)
        assert state["leader"] == 0
        state = act(state, "vote", 2, side="nay", power=3)
        assert state["leader"] == 2

    def test_a_later_turn_may_stay_and_still_add_power_afterwards(self):
        state = voting(config(leader=0, moderator=2))
        state = act(state, "vote", 0, side="aye", power=1)
        state = act(state, "vote", 1, side="nay", power=3)  # Ben leads: the phase ends after Anna
        state = act(state, "vote", 2, side="aye", power=1)
        state = act(state, "stay", 0)
        assert state["phase"] == "outcome"
        assert state["winning_side"] == "nay"

    def test_everybody_passing_lets_the_moderator_decide_and_take_the_leader_token(self):
        state = voting(config(leader=0, moderator=2))
        state = act(state, "pass_gather", 0)
        state = act(state, "pass_gather", 1)
        state = act(state, "pass_gather", 2)
        assert state["phase"] == "tie_break"
        assert state["vote"]["undecided"] == "all_pass"
        assert RULES.choices(state, 2)[0] == {
            "type": "break_tie",
            "seat": 2,
            "params": {"side": {"kind": "pick", "options": ["aye", "nay"]}},
        }
        state = act(state, "break_tie", 2, side="nay")
        assert state["leader"] == 2
        assert state["winning_side"] == "nay"
        assert [s["power"] for s in state["seats"]] == [9, 9, 9]  # the 3 Power of the Balance shared

    def test_the_moderator_chooses_the_leader_among_tied_biggest_winners(self):
        state = voting(config(4, leader=0, moderator=3))
        state = act(state, "vote", 0, side="nay", power=3)
        state = act(state, "vote", 1, side="aye", power=2)
        state = act(state, "vote", 2, side="aye", power=2)
        state = act(state, "pass_gather", 3)  # right of Anna (the Leader): the phase ends
        assert state["phase"] == "leader_choice"
        assert state["leader_candidates"] == [1, 2]
        with pytest.raises(RuleError) as error:
            act(state, "give_leader", 3, to=0)
        assert error.value.message == msg.LEADER_CANDIDATE.format(names="Ben, Chloe")
        with pytest.raises(RuleError) as error:
            act(state, "give_leader", 1, to=1)
        assert error.value.message == msg.MODERATOR_ONLY.format(name="David", what="give the Leader token")
        state = act(state, "give_leader", 3, to=2)
        assert state["leader"] == 2
        assert state["phase"] == "outcome"

    def test_a_leader_on_the_winning_side_keeps_the_token(self):
        state = voting(config(leader=0, moderator=2))
        state = act(state, "vote", 0, side="aye", power=3)
        state = act(state, "vote", 1, side="aye", power=3)
        state = act(state, "vote", 2, side="nay", power=1)
        assert state["leader"] == 0

    def test_power_and_coins_are_conserved_through_a_vote(self):
        state = voting(config(leader=0, moderator=2))
        before = power_total(state), coins_total(state)
        state = act(state, "pass_moderator", 0)
        assert (power_total(state), coins_total(state)) == before
        state = act(state, "vote", 1, side="aye", power=4)
        state = act(state, "vote", 2, side="nay", power=5)  # Chloe leads: the phase ends after Ben
        state = act(state, "add_power", 1, power=1)
        assert state["phase"] == "tie_break"
        assert (power_total(state), coins_total(state)) == before
        state = act(state, "break_tie", 0, side="aye")
        assert (power_total(state), coins_total(state)) == before

    def test_a_vote_is_one_choice_of_a_side_and_an_amount_up_to_the_house_s_power(self):
        state = voting(config(leader=0, moderator=2, power=[3, 8, 8]))
        mine = [a for a in RULES.choices(state, 0) if a["type"] != "give_coins"]
        assert mine == [
            {
                "type": "vote",
                "seat": 0,
                "params": {
                    "side": {"kind": "pick", "options": ["aye", "nay"]},
                    "power": {"kind": "amount", "min": 1, "max": 3},
                },
            },
            {"type": "pass_gather", "seat": 0, "params": {}},
            {"type": "pass_moderator", "seat": 0, "params": {}},
        ]

    def test_the_choices_do_not_grow_with_power_or_coins(self):
        """Bounds from the rules: the most Power and Coins a House can hold (the whole box)."""
        small = voting(config(leader=0, moderator=2, power=[1, 8, 8], coins=[1, 1, 1]))
        large = voting(config(leader=0, moderator=2, power=[65, 0, 0], coins=[72, 0, 0]))
        assert len(str(RULES.choices(large, 0))) <= len(str(RULES.choices(small, 0))) + 4
        vote = RULES.choices(large, 0)[0]
        assert vote["params"]["power"] == {"kind": "amount", "min": 1, "max": 65}

    def test_a_seat_without_power_can_only_pass(self):
        state = voting(config(leader=0, moderator=2, power=[0, 8, 8]))
        mine = [a["type"] for a in RULES.choices(state, 0) if a["type"] != "give_coins"]
        assert mine == ["pass_gather", "pass_moderator"]


class VotingErrorTests:
    def error(self, state, type_, seat, **fields) -> str:
        with pytest.raises(RuleError) as error:
            act(state, type_, seat, **fields)
        return error.value.message

    def test_voting_with_zero_power(self):
        state = voting(config(leader=0, moderator=2, power=[0, 8, 8]))
        assert self.error(state, "vote", 0, side="aye", power=1) == msg.VOTE_NO_POWER

    def test_voting_with_no_power_placed(self):
        state = voting(config(leader=0, moderator=2))
        assert self.error(state, "vote", 0, side="aye", power=0) == msg.POWER_AMOUNT
        assert self.error(state, "vote", 0, side="aye", power=True) == msg.POWER_AMOUNT

    def test_voting_with_more_power_than_held(self):
        state = voting(config(leader=0, moderator=2))
        assert self.error(state, "vote", 0, side="aye", power=9) == msg.POWER_TOO_MUCH.format(have=8)

    def test_voting_for_neither_side(self):
        state = voting(config(leader=0, moderator=2))
        assert self.error(state, "vote", 0, side="maybe", power=1) == msg.VOTE_SIDE

    def test_voting_out_of_turn(self):
        state = voting(config(leader=0, moderator=2))
        assert self.error(state, "vote", 1, side="aye", power=1) == msg.NOT_YOUR_VOTE.format(name="Anna")
        assert self.error(state, "stay", 2) == msg.NOT_YOUR_VOTE.format(name="Anna")

    def test_changing_a_vote(self):
        state = voting(config(leader=0, moderator=2))
        state = act(state, "vote", 0, side="aye", power=1)
        state = act(state, "vote", 1, side="nay", power=2)
        state = act(state, "vote", 2, side="nay", power=1)
        assert self.error(state, "vote", 0, side="nay", power=1) == msg.VOTE_CHANGE
        assert self.error(state, "pass_gather", 0) == msg.VOTE_CHANGE
        assert self.error(state, "pass_moderator", 0) == msg.VOTE_CHANGE

    def test_adding_power_or_staying_before_voting(self):
        state = voting(config(leader=0, moderator=2))
        assert self.error(state, "add_power", 0, power=1) == msg.NOT_VOTED
        assert self.error(state, "stay", 0) == msg.NOT_VOTED

    def test_becoming_moderator_twice_in_a_voting_phase(self):
        state = voting(config(leader=0, moderator=2))
        state = act(state, "pass_moderator", 0)
        assert self.error(state, "pass_moderator", 1) == msg.MODERATOR_TAKEN.format(name="Anna")
        assert "pass_moderator" not in [a["type"] for a in RULES.choices(state, 1)]

    def test_breaking_a_tie_for_no_side_or_by_someone_else(self):
        state = voting(config(leader=0, moderator=2))
        for seat in range(3):
            state = act(state, "pass_gather", seat)
        assert self.error(state, "break_tie", 2, side="both") == msg.TIE_SIDE
        assert self.error(state, "break_tie", 0, side="aye") == msg.MODERATOR_ONLY.format(
            name="Chloe", what="decide the winning side"
        )
        assert self.error(state, "break_tie", None, side="aye") == msg.SEAT_ONLY.format(
            what="decide the winning side"
        )

    def test_voting_outside_the_voting_phase(self):
        state = voting(config(leader=0, moderator=2))
        for seat in range(3):
            state = act(state, "pass_gather", seat)
        assert self.error(state, "vote", 0, side="aye", power=1) == msg.NOT_NOW.format(what="vote")

    def test_a_seat_that_does_not_exist(self):
        state = voting(config(leader=0, moderator=2))
        assert self.error(state, "vote", 7, side="aye", power=1) == msg.NO_SUCH_SEAT


class BargainingTests:
    def error(self, state, seat, **fields) -> str:
        with pytest.raises(RuleError) as error:
            act(state, "give_coins", seat, **fields)
        return error.value.message

    def test_any_seat_gives_coins_during_the_voting_phase(self):
        before = voting(config(leader=0, moderator=2))
        state = act(before, "give_coins", 2, to=1, coins=4)
        assert [s["coins"] for s in state["seats"]] == [10, 14, 6]
        assert not RULES.undoable(before, {"type": "give_coins", "seat": 2, "to": 1, "coins": 4}, state)

    def test_any_house_with_coins_may_give_them_to_another_house_without_its_turn(self):
        state = voting(config(leader=0, moderator=2, coins=[10, 2, 0]))
        gifts = [a for a in RULES.choices(state, 1) if a["type"] == "give_coins"]
        assert gifts == [
            {
                "type": "give_coins",
                "seat": 1,
                "params": {
                    "to": {"kind": "pick", "options": [0, 2]},
                    "coins": {"kind": "amount", "min": 1, "max": 2},
                },
                "open": True,  # bargaining: open to any House, whoever must vote now
            }
        ]
        assert [a for a in RULES.choices(state, 2) if a["type"] == "give_coins"] == []

    def test_gift_errors(self):
        state = voting(config(leader=0, moderator=2))
        assert self.error(state, 1, to=1, coins=1) == msg.GIFT_SELF
        assert self.error(state, 1, to=0, coins=0) == msg.GIFT_AMOUNT
        assert self.error(state, 1, to=0, coins=11) == msg.GIFT_TOO_MUCH.format(have=10, s="s")
        # "1 Coin", never "1 Coins"
        state["seats"][1]["coins"] = 1
        assert self.error(state, 1, to=0, coins=2) == "You have only 1 Coin behind your screen."
        assert self.error(state, 1, to=9, coins=1) == msg.NO_SUCH_SEAT

    def test_no_gifts_outside_voting_and_vote_resolution(self):
        state = voting(config(leader=0, moderator=2))
        assert self.error(state, None, to=0, coins=1) == msg.SEAT_ONLY.format(what="give Coins")
        state = act(state, "vote", 0, side="aye", power=1)
        state = act(state, "pass_gather", 1)
        state = resolve(act(state, "pass_gather", 2))
        assert state["phase"] == "resolution"
        assert self.error(state, 1, to=0, coins=1) == msg.NOT_NOW.format(what="give Coins")
        assert self.error(state, None, to=0, coins=1) == msg.NOT_NOW.format(what="give Coins")
