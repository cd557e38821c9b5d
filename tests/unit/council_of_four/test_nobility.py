"""THE NOBILITY TRACK: each space with a bonus pays when reached; a City-token choice offers only your
tokens that do not move you on the track, a Permit-bonus choice (space 14) every Permit you bought,
face up or face down (docs/rules-decisions.md, revised 2026-11-23)."""

import pytest

from games.engines.council_of_four import messages as msg
from games.engines.council_of_four.rules import RULES
from games.engines.kernel.errors import RuleError
from tests.unit.council_of_four.builders import (
    act,
    cards,
    give_permit,
    place,
    playing,
    set_balcony,
    set_face_up,
    set_hand,
)

# Token ids of board.json: 1 and 13 = 1 Nobility step, 4 = 1 Coin, 6 = 2 Coins, 9 = 1 VP, 10 = 1 Politics card.
NOB, NOB2, COIN1, COIN2, VP1, CARD = 1, 13, 4, 6, 9, 10


def refused(state, type_, seat, message, **fields):
    with pytest.raises(RuleError) as error:
        act(state, type_, seat, **fields)
    assert error.value.message == message


def city_choice(cities, count):
    return {
        "type": "choose_city_bonus",
        "seat": 0,
        "params": {"cities": {"kind": "cards", "options": cities, "min": count, "max": count}},
    }


def step_to(space, tokens=None, merchants=()):
    """Anna at ``space - 1`` builds in Arkon, whose token moves her one step to ``space``."""
    state = playing(3)
    state["neutral"] = []
    state["city_tokens"] = {"A": NOB, **(tokens or {})}
    place(state, 0, *merchants)
    state["seats"][0]["nobility"] = space - 1
    give_permit(state, 0, "C15")
    return act(state, "build", 0, permit="C15", city="A")


class TrackTests:
    def test_space_2_pays_2_vp_and_2_coins_on_the_way(self):
        """Permit C05 gives 2 Nobility steps: passing space 2 pays its bonus."""
        state = playing(3)
        set_face_up(state, "coast", ["C05", "C01"])
        set_balcony(state, "coast", ["black", "white", "orange", "pink"])
        set_hand(state, 0, cards("black", 1))
        state = act(state, "acquire_permit", 0, balcony="coast", cards=cards("black", 1), permit="C05")
        seat = state["seats"][0]
        assert (seat["nobility"], seat["victory"], seat["coins"]) == (2, 2, 10 - 10 + 2)

    @pytest.mark.parametrize(
        ("space", "victory", "coins", "servants", "cards"),
        # 6 dealt, 1 drawn to begin the turn (Phase 1), and the bonus card of space 8
        [(8, 3, 10, 1, 8), (12, 5, 10, 2, 7), (18, 8, 10, 1, 7), (19, 2, 10, 1, 7), (20, 3, 10, 1, 7)],
    )
    def test_plain_bonuses(self, space, victory, coins, servants, cards):
        """8: 3 VP and a Politics card; 12: 5 VP and a Servant; 18: 8 VP; 19: 2 VP; 20: 3 VP."""
        state = step_to(space)
        seat = state["seats"][0]
        assert seat["nobility"] == space
        assert (seat["victory"], seat["coins"], seat["servants"], len(seat["hand"])) == (
            victory,
            coins,
            servants,
            cards,
        )

    def test_the_track_ends_at_20(self):
        state = step_to(21)
        assert state["seats"][0]["nobility"] == 20

    def test_space_6_gives_an_additional_main_action(self):
        state = step_to(6)
        assert state["turn"]["main_left"] == 1 and state["turn"]["mains_done"] == 1
        assert any(a["type"] == "elect" for a in RULES.choices(state, 0))
        assert any(a["type"] == "end_turn" for a in RULES.choices(state, 0))


class CityTokenChoiceTests:
    def test_space_4_takes_again_one_of_your_tokens_but_not_a_nobility_one(self):
        """Space 4: the bonus of a token from a city where you have a Merchant, never one that
        advances you on the Nobility Track."""
        state = step_to(4, tokens={"D": COIN2, "E": NOB2, "G": VP1, "K": COIN1}, merchants=("D", "E"))
        assert state["pending"] == [{"kind": "city_token", "seat": 0, "count": 1}]
        assert RULES.choices(state, 0) == [city_choice(["D"], 1)]
        refused(state, "choose_city_bonus", 0, msg.CHOOSE_CITIES.format(count=1), cities=["A"])
        refused(state, "choose_city_bonus", 0, msg.CHOOSE_CITIES.format(count=1), cities=["G"])
        refused(state, "choose_city_bonus", 0, msg.CHOOSE_CITIES.format(count=1), cities="D")
        refused(
            state,
            "elect",
            0,
            msg.CHOOSE_FIRST.format(what="City token bonus"),
            colour="blue",
            balcony="coast",
        )
        refused(state, "end_turn", 0, msg.CHOOSE_FIRST.format(what="City token bonus"))
        refused(state, "choose_permit_bonus", 0, msg.NO_CHOICE_PENDING, permit="C15")
        coins = state["seats"][0]["coins"]
        state = act(state, "choose_city_bonus", 0, cities=["D"])
        assert state["pending"] == [] and state["seats"][0]["coins"] == coins + 2

    def test_space_16_takes_two_different_tokens(self):
        state = step_to(16, tokens={"D": COIN2, "E": VP1, "K": COIN1}, merchants=("D", "E", "K"))
        assert RULES.choices(state, 0) == [city_choice(["D", "E", "K"], 2)]
        refused(state, "choose_city_bonus", 0, msg.CHOOSE_CITIES.format(count=2), cities=["D", "D"])
        refused(state, "choose_city_bonus", 0, msg.CHOOSE_CITIES.format(count=2), cities=["D"])
        before = state["seats"][0]
        state = act(state, "choose_city_bonus", 0, cities=["D", "E"])
        seat = state["seats"][0]
        assert (seat["coins"], seat["victory"]) == (before["coins"] + 2, before["victory"] + 1)

    def test_with_one_token_to_choose_space_16_gives_one(self):
        state = step_to(16, tokens={"D": COIN2}, merchants=("D",))
        assert RULES.choices(state, 0) == [city_choice(["D"], 1)]

    def test_with_no_token_to_choose_the_bonus_is_lost(self):
        """docs/rules-decisions.md: if none qualifies, the bonus is lost."""
        state = step_to(4, tokens={"D": NOB2, "K": COIN1}, merchants=("D",))
        assert state["pending"] == [] and state["seats"][0]["nobility"] == 4
        assert state["current"] == 0 and state["turn"]["quick_left"] == 1

    def test_a_token_drawing_a_card_draws_it_when_chosen(self):
        state = step_to(4, tokens={"D": CARD}, merchants=("D",))
        hand = len(state["seats"][0]["hand"])
        state = act(state, "choose_city_bonus", 0, cities=["D"])
        assert len(state["seats"][0]["hand"]) == hand + 1


class PermitChoiceTests:
    def reach_14(self):
        """Anna owns C05 (2 Nobility steps), C12 (1 Politics card, 1 Nobility step) and C06
        (2 Servants, 3 Coins), all face down, and reaches space 14 by building with C15 in Arkon,
        whose token moves her one step."""
        state = playing(3)
        give_permit(state, 0, "C05", face_up=False)
        give_permit(state, 0, "C12", face_up=False)
        give_permit(state, 0, "C06", face_up=False)
        state["city_tokens"] = {"A": NOB}
        state["neutral"] = []
        state["seats"][0]["nobility"] = 13
        give_permit(state, 0, "C15")
        return act(state, "build", 0, permit="C15", city="A")

    def test_space_14_offers_every_permit_you_bought_face_up_or_down(self):
        """Space 14, the rulebook's words: "You receive the bonus of one of the permit tiles which
        you previously bought (also a face-down tile)". Unlike the City-token spaces ("You cannot
        choose one of the tokens which advance you along the nobility track"), nothing is left
        out: a Permit whose bonus moves you on the Nobility Track is offered too (docs/rules-decisions.md,
        revised 2026-11-23)."""
        state = self.reach_14()
        assert state["pending"] == [{"kind": "permit_bonus", "seat": 0}]
        [offered] = RULES.choices(state, 0)
        assert offered == {
            "type": "choose_permit_bonus",
            "seat": 0,
            "params": {"permit": {"kind": "pick", "options": ["C05", "C12", "C06", "C15"]}},
        }

    def test_a_permit_bonus_that_moves_you_on_the_track_is_taken_again(self):
        """C12 again: 1 Politics card and 1 step, from 14 to 15."""
        state = self.reach_14()
        hand = len(state["seats"][0]["hand"])
        state = act(state, "choose_permit_bonus", 0, permit="C12")
        seat = state["seats"][0]
        assert (seat["nobility"], len(seat["hand"]), state["pending"]) == (15, hand + 1, [])

    def test_the_steps_may_reach_another_bonus_space(self):
        """C05 again: 2 steps, from 14 to 16 (two City tokens); Anna's only token (Arkon) moves her
        on the track, so nothing qualifies and that bonus is lost (docs/rules-decisions.md). The track only
        moves forward: nothing loops."""
        state = self.reach_14()
        state = act(state, "choose_permit_bonus", 0, permit="C05")
        assert state["seats"][0]["nobility"] == 16 and state["pending"] == []
        assert state["current"] == 0 and state["turn"]["quick_left"] == 1

    def test_the_permit_that_brought_you_to_14_is_offered_too(self):
        """C05 (2 Nobility steps) bought at space 12 brings Anna to 14: it is a Permit she bought,
        so its bonus may be taken again, to 16."""
        state = playing(3)
        set_balcony(state, "coast", ["black", "white", "orange", "pink"])
        set_face_up(state, "coast", ["C05", "C01"])
        set_hand(state, 0, cards("black", 1) + cards("white", 1) + cards("orange", 1) + cards("pink", 1))
        state["seats"][0]["nobility"] = 12
        state = act(
            state, "acquire_permit", 0, balcony="coast", cards=state["seats"][0]["hand"][:4], permit="C05"
        )
        assert state["seats"][0]["nobility"] == 14
        assert RULES.choices(state, 0)[0]["params"]["permit"]["options"] == ["C05"]
        state = act(state, "choose_permit_bonus", 0, permit="C05")
        assert state["seats"][0]["nobility"] == 16

    def test_space_14_takes_again_a_face_down_permit_bonus(self):
        state = self.reach_14()
        refused(state, "choose_permit_bonus", 0, msg.CHOOSE_PERMIT, permit="H01")
        refused(state, "choose_permit_bonus", 0, msg.CHOOSE_PERMIT, permit=None)
        refused(state, "choose_city_bonus", 0, msg.NO_CHOICE_PENDING, cities=["A"])
        seat = state["seats"][0]
        state = act(state, "choose_permit_bonus", 0, permit="C06")
        assert state["seats"][0]["servants"] == seat["servants"] + 2
        assert state["seats"][0]["coins"] == seat["coins"] + 3
        assert state["pending"] == []

    def test_space_10_takes_a_face_up_permit_for_free(self):
        """Space 10: take a face-up Permit without paying; its bonus comes at once and its space is
        refilled from the deck."""
        state = step_to(10)
        set_face_up(state, "mountains", ["M12", "M03"])
        [offered] = RULES.choices(state, 0)
        assert offered["type"] == "take_free_permit"
        assert offered["params"]["permit"]["options"] == [p for r in state["face_up"].values() for p in r]
        refused(state, "take_free_permit", 0, msg.FREE_PERMIT_NOT_FACE_UP, permit="M01")
        coins = state["seats"][0]["coins"]
        top = state["permit_decks"]["mountains"][0]
        state = act(state, "take_free_permit", 0, permit="M12")
        assert state["seats"][0]["coins"] == coins + 7
        assert state["face_up"]["mountains"] == [top, "M03"]
        assert [p["id"] for p in state["seats"][0]["permits"]][-1] == "M12"

    def test_choices_belong_to_the_seat_whose_turn_it_is(self):
        state = step_to(10)
        refused(state, "take_free_permit", 1, msg.NOT_YOUR_TURN.format(name="Anna"), permit="M01")
        assert RULES.choices(state, 1) == []
