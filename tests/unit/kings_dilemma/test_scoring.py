"""End of the Game: Secret Agendas, Open Agendas, majority of Power, the Realm Chronicles ranking and
the Prestige/Crave table, the heir chosen by the Moderator, and the result the campaign records."""

import pytest

from games.engines.kernel.errors import RuleError
from games.engines.kings_dilemma import messages as msg
from games.engines.kings_dilemma.data import DEFAULT_TRACKS
from games.engines.kings_dilemma.rules import RULES
from games.engines.kings_dilemma.scoring import (
    money_ranking_points,
    open_agenda_points,
    power_majority_points,
    prestige_crave_for,
    rank,
    resource_goal_points,
)
from tests.unit.kings_dilemma.builders import act, config, drafted

AGENDAS = DEFAULT_TRACKS["secret_agendas"]


class SecretAgendaTests:
    """Rulebook 'Secret Agenda cards' and the card examples (docs/data/kings-dilemma.md section 1)."""

    def test_moderate_with_three_markers_and_third_in_coins(self):
        """Rulebook p.31 worked example: Moderate, 3 markers in rows 5-13 = 10; 3rd in Coins = 1."""
        positions = [5, 13, 9, 14, 2]
        assert resource_goal_points(AGENDAS["moderate"], positions) == 10
        assert money_ranking_points(AGENDAS["moderate"], [12, 10, 8, 3], 2) == 1

    def test_extremist_counts_both_end_rows(self):
        """The Extremist card's example: markers on rows 15 and 2 score 14."""
        assert resource_goal_points(AGENDAS["extremist"], [15, 2, 9, 9, 9]) == 14
        assert resource_goal_points(AGENDAS["extremist"], [9, 9, 9, 9, 9]) == 1

    def test_boundary_rows_count_for_both_zones(self):
        assert resource_goal_points(AGENDAS["opulent"], [9, 9, 1, 1, 1]) == 7
        assert resource_goal_points(AGENDAS["opportunist"], [9, 9, 1, 1, 1]) == 15
        assert resource_goal_points(AGENDAS["rebel"], [5, 13, 1, 17, 9]) == 19
        assert resource_goal_points(AGENDAS["greedy"], [9, 9, 9, 9, 9]) == 4
        assert resource_goal_points(AGENDAS["greedy"], [1, 1, 17, 17, 5]) == 0
        assert resource_goal_points(AGENDAS["moderate"], [1, 1, 17, 17, 14]) == 0

    def test_tied_coins_share_a_position(self):
        """'In case of a tie, all tied players share the same position' (competition ranking)."""
        coins = [9, 9, 5, 2]
        greedy = AGENDAS["greedy"]
        assert [money_ranking_points(greedy, coins, i) for i in range(4)] == [8, 8, 4, 0]


class OpenAgendaExampleTests:
    """Rulebook 'Open Agenda tokens' example: Influence highest, Morale and Knowledge tied second,
    Welfare and Wealth tied last."""

    heights = {"influence": 15, "morale": 12, "knowledge": 12, "welfare": 4, "wealth": 4}

    def points(self, row: str, positive: bool) -> int:
        return open_agenda_points([{"row": row, "positive": positive}], self.heights, DEFAULT_TRACKS)

    def test_positive_tokens(self):
        assert self.points("influence", True) == 3
        assert self.points("morale", True) == 1
        assert self.points("knowledge", True) == 1
        assert self.points("wealth", True) == 0

    def test_negative_tokens(self):
        assert self.points("knowledge", False) == -1  # second highest, and also second lowest
        assert self.points("welfare", False) == -3
        assert self.points("wealth", False) == -3
        assert self.points("influence", False) == 0

    def test_a_house_adds_its_tokens(self):
        tokens = [{"row": "influence", "positive": True}, {"row": "wealth", "positive": False}]
        assert open_agenda_points(tokens, self.heights, DEFAULT_TRACKS) == 0


class PowerMajorityTests:
    def test_valentine_armin_and_theodore(self):
        """Rulebook 'Majority of Power tokens': Valentine most (+2), Armin and Theodore tied second (+1)."""
        power = [6, 2, 4, 0, 4]  # Valentine, Martina, Armin, Charles, Theodore
        assert power_majority_points(power, DEFAULT_TRACKS) == [2, 0, 1, 0, 1]

    def test_tied_for_most_both_take_two_and_the_next_amount_is_second(self):
        """Decision: 'second most Power' is the next amount below the most (docs/rules-decisions)."""
        assert power_majority_points([5, 5, 3, 1], DEFAULT_TRACKS) == [2, 2, 1, 0]


class RealmChroniclesTests:
    """Rulebook 'Mark scores on the Realm Chronicles', the King Harald V table."""

    totals = [7, 11, 7, 9, 10]  # Valentine, Martina, Armin, Charles, Theodore

    def test_positions_are_shared_and_both_fourth_places_are_last(self):
        assert rank(self.totals) == [(4, True), (1, False), (4, True), (3, False), (2, False)]

    def test_prestige_and_crave_when_the_king_died(self):
        positions = [p for p, _ in rank(self.totals)]
        assert prestige_crave_for(positions, 5) == [(0, 2), (3, 0), (0, 2), (2, 1), (2, 0)]

    def test_prestige_and_crave_when_the_king_abdicated(self):
        positions = [p for p, _ in rank(self.totals)]
        assert prestige_crave_for(positions, 5, "abdicated_top") == [(0, 2), (2, 0), (0, 2), (1, 0), (2, 0)]
        assert prestige_crave_for(positions, 5, "abdicated_bottom") == [
            (2, 0),
            (0, 2),
            (2, 0),
            (0, 1),
            (0, 2),
        ]

    def test_everyone_equal_takes_the_first_row(self):
        assert rank([8, 8, 8]) == [(1, False)] * 3
        assert prestige_crave_for([1, 1, 1], 3) == [(3, 0)] * 3

    def test_three_players_use_first_second_and_last(self):
        assert prestige_crave_for([1, 2, 3], 3) == [(3, 0), (2, 0), (0, 2)]
        assert prestige_crave_for([1, 1, 3], 3) == [(3, 0), (3, 0), (0, 2)]


def ended(cfg=None, agendas=None, coins=None, power=None, heights=None, end="king_died") -> dict:
    """A drafted game moved straight to the end phase with chosen final numbers."""
    state = drafted(cfg or config())
    for i, seat in enumerate(state["seats"]):
        if agendas:
            seat["secret_agenda"] = agendas[i]
        if coins:
            state["pool"]["coins"] -= coins[i] - seat["coins"]
            seat["coins"] = coins[i]
        if power:
            state["pool"]["power"] -= power[i] - seat["power"]
            seat["power"] = power[i]
    for row, height in (heights or {}).items():
        state["resources"][row]["position"] = height
    state["end"] = end
    state["phase"] = "end"
    return state


class EndOfGameTests:
    def test_scoring_reveals_the_agendas_and_records_the_result(self):
        cfg = config()
        cfg["seats"][0]["open_agendas"] = [{"sticker": 43, "row": "influence", "positive": True}]
        state = ended(
            cfg,
            agendas=["moderate", "extremist", "greedy"],
            coins=[12, 10, 8],
            power=[3, 5, 5],
            heights={"influence": 15, "wealth": 2, "morale": 9, "welfare": 9, "knowledge": 9},
            end="abdicated_top",
        )
        assert RULES.choices(state, None) == [{"type": "score", "seat": None, "params": {}}]
        before, state = state, act(state, "score", None)
        assert not RULES.undoable(before, {"type": "score", "seat": None}, state)
        assert state["over"]
        seats = state["result"]["seats"]
        # Anna: Moderate, 3 markers in 5-13 = 10, most Coins = 5, Influence highest = 3, second most Power = 1.
        assert {
            k: seats[0][k] for k in ("agenda_points", "coins_points", "open_agenda_points", "power_points")
        } == {
            "agenda_points": 10,
            "coins_points": 5,
            "open_agenda_points": 3,
            "power_points": 1,
        }
        # Ben: Extremist 15 - 2 + 1 = 14, second in Coins = 2, tied most Power = 2.
        assert seats[1]["total"] == 14 + 2 + 2
        # Chloe: Greedy, 2 markers in the extremes = 11, third in Coins = 4, tied most Power = 2.
        assert seats[2]["total"] == 11 + 4 + 2
        assert [s["position"] for s in seats] == [1, 2, 3]
        assert [s["last"] for s in seats] == [False, False, True]
        assert state["result"]["winners"] == [0]
        assert state["result"]["heir"] == 0
        assert state["result"]["end"] == "abdicated_top"
        assert [(s["prestige_award"], s["crave_award"]) for s in seats] == [(2, 0), (2, 0), (0, 2)]
        assert seats[0]["secret_agenda"] == "moderate" and seats[0]["house"] == 100
        assert state["result"]["resources_final"]["wealth"] == 2

    def test_the_rebel_marks_one_crave_when_the_king_abdicated(self):
        state = ended(agendas=["rebel", "extremist", "greedy"], end="abdicated_bottom")
        state = act(state, "score", None)
        assert [s["rebel_crave"] for s in state["result"]["seats"]] == [1, 0, 0]
        died = act(ended(agendas=["rebel", "extremist", "greedy"]), "score", None)
        assert died["result"]["seats"][0]["rebel_crave"] == 0

    def test_tied_winners_share_the_victory_and_the_moderator_chooses_the_heir(self):
        state = ended(
            config(moderator=2, leader=0),
            agendas=["opulent", "opportunist", "greedy"],
            coins=[10, 10, 0],
            power=[4, 4, 0],
        )
        state = act(state, "score", None)
        assert state["phase"] == "heir"
        assert state["scores"]["winners"] == [0, 1]
        with pytest.raises(RuleError) as error:
            act(state, "choose_heir", 2, heir=2)
        assert error.value.message == msg.HEIR_CANDIDATE.format(names="Anna, Ben")
        assert RULES.choices(state, 2) == [
            {"type": "choose_heir", "seat": 2, "params": {"heir": {"kind": "pick", "options": [0, 1]}}}
        ]
        state = act(state, "choose_heir", 2, heir=1)
        assert state["over"]
        assert state["result"]["winners"] == [0, 1]
        assert state["result"]["heir"] == 1
        assert RULES.choices(state, None) == []
