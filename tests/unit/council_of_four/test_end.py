"""END OF THE GAME: the 10th Merchant, one last turn for every other player, and the final scoring."""

import pytest

from games.engines.council_of_four.rules import RULES
from games.engines.council_of_four.scoring import finish, nobility_points, permit_points
from tests.unit.council_of_four.builders import act, give_permit, place, playing


def tenth(count=3, seat=0):
    """``seat`` holds 9 Merchants and builds the 10th in Arkon."""
    state = playing(count, seat=seat)
    state["neutral"] = []
    state["city_tokens"] = {}
    place(state, seat, *"CDFGIJKLN")
    give_permit(state, seat, "C02")
    return act(state, "build", seat, permit="C02", city="A")


def elect_and_end(state, seat):
    state = act(
        state, "elect", seat, colour=next(c for c, n in state["councilors"].items() if n), balcony="hills"
    )
    return act(state, "end_turn", seat)


class LastTurnTests:
    def test_the_first_tenth_merchant_earns_3_vp_and_the_others_play_once_more(self):
        """ "The first player to place their 10th Merchant immediately earn 3 VPs. All other players
        take one last turn, then the game ends.\""""
        state = tenth(3, seat=1)
        assert state["seats"][1]["victory"] == 3 and state["final"] == {"by": 1}
        assert state["current"] == 1  # the Quick action is still there
        state = act(state, "engage_servant", 1)
        assert (state["current"], state["phase"]) == (2, "actions")
        state = elect_and_end(state, 2)
        assert (state["current"], state["over"]) == (0, False)
        state = elect_and_end(state, 0)
        assert state["over"] is True and state["phase"] == "over"
        assert all(RULES.legal_actions(state, s) == [] for s in (None, 0, 1, 2))
        assert set(state["result"]) >= {"winners", "scores", "ranking", "positions"}

    def test_a_later_tenth_merchant_earns_nothing(self):
        state = tenth(2, seat=0)
        state = act(state, "end_turn", 0)
        place(state, 1, *"CDFGIJKLN")
        give_permit(state, 1, "C15")
        state["seats"][1]["servants"] = 5
        victory = state["seats"][1]["victory"]
        state = act(state, "build", 1, permit="C15", city="A")
        assert state["seats"][1]["victory"] == victory and state["final"] == {"by": 0}
        state = act(state, "end_turn", 1)
        assert state["over"] is True


class NobilityScoringTests:
    @pytest.mark.parametrize(
        ("positions", "points"),
        [
            ([7, 3, 1], [5, 2, 0]),
            ([7, 7, 1], [5, 5, 0]),  # tied first: no second place
            ([7, 3, 3, 0], [5, 2, 2, 0]),  # tied second: 2 each
            ([4, 0], [5, 2]),
            ([0, 0, 0], [5, 5, 5]),
        ],
    )
    def test_five_and_two_with_the_rulebooks_ties(self, positions, points):
        """End of the game: 5 VP to the furthest ahead, 2 VP to the second; tied first places all
        earn 5 and nobody scores second; tied second places all earn 2."""
        assert nobility_points(positions) == points


class PermitScoringTests:
    @pytest.mark.parametrize(
        ("counts", "points"), [([3, 2, 1], [3, 0, 0]), ([2, 2, 1], [3, 3, 0]), ([0, 0], [0, 0])]
    )
    def test_three_for_the_most_permits(self, counts, points):
        """The player with the most Permit tiles earns 3 VP (our decision: all tied players do,
        and nobody with no Permit)."""
        assert permit_points(counts) == points


class FinalScoreTests:
    def scored(self, victory, nobility, permits, rewards, servants, hands):
        state = playing(len(victory))
        for i, seat in enumerate(state["seats"]):
            seat["victory"], seat["nobility"], seat["servants"] = victory[i], nobility[i], servants[i]
            seat["permits"] = [{"id": p, "face_up": False} for p in permits[i]]
            seat["rewards"] = [{"kind": "queen", "name": "1", "victory_points": v} for v in rewards[i]]
            state["deck"] += seat["hand"][hands[i] :]
            del seat["hand"][hands[i] :]
        finish(state)
        return state["result"]

    def test_every_part_adds_up(self):
        result = self.scored(
            victory=[10, 20, 5],
            nobility=[6, 2, 0],
            permits=[["C01", "C02"], ["C03"], []],
            rewards=[[25, 5], [], [18]],
            servants=[1, 1, 1],
            hands=[1, 1, 1],
        )
        assert result["breakdown"][0] == {
            "track": 10,
            "rewards": 30,
            "nobility": 5,
            "permits": 3,
            "total": 48,
        }
        assert result["scores"] == [48, 22, 23]
        assert result["ranking"] == [0, 2, 1] and result["winners"] == [0]
        assert result["positions"] == [1, 3, 2]

    def test_a_tie_goes_to_the_most_servants_and_politics_cards(self):
        """ "In the event of a tie, the player with the most Servants and Politics cards wins."""
        result = self.scored(
            victory=[20, 20, 5],
            nobility=[0, 0, 0],
            permits=[[], [], []],
            rewards=[[], [], []],
            servants=[3, 1, 0],
            hands=[1, 4, 0],
        )
        assert result["tiebreak"] == [4, 5, 0]
        assert result["winners"] == [1] and result["ranking"] == [1, 0, 2]

    def test_a_complete_tie_shares_the_win(self):
        result = self.scored(
            victory=[20, 20, 5],
            nobility=[0, 0, 0],
            permits=[[], [], []],
            rewards=[[], [], []],
            servants=[3, 1, 0],
            hands=[2, 4, 0],
        )
        assert result["winners"] == [0, 1] and result["positions"] == [1, 1, 3]
