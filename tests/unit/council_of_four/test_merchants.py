"""MAIN ACTIONS 3 and 4 (place a Merchant with a Permit or with the Queen's help), RULES FOR PLACING
A MERCHANT, GENERAL AND QUEEN'S REWARD TILES."""

import pytest

from games.engines.council_of_four import messages as msg
from games.engines.council_of_four.payments import queen_cost
from games.engines.council_of_four.rules import RULES
from games.engines.kernel.errors import RuleError
from tests.unit.council_of_four.builders import (
    act,
    cards,
    choices_of,
    give_permit,
    jokers,
    offered,
    options,
    place,
    playing,
    set_balcony,
    set_hand,
)

# Token ids of board.json: 4 = 1 Coin, 6 = 2 Coins, 12 = 3 Coins, 9 = 1 VP, 11 = 2 VP, 7 = 3 VP.
COIN1, COIN2, COIN3, VP1, VP2, VP3 = 4, 6, 12, 9, 11, 7


def refused(state, type_, seat, message, **fields):
    with pytest.raises(RuleError) as error:
        act(state, type_, seat, **fields)
    assert error.value.message == message


def board(count=3, tokens=None):
    """Anna to act, 10 Coins and 1 Servant, no Merchant anywhere, only the given City tokens."""
    state = playing(count)
    state["neutral"] = []
    state["city_tokens"] = dict(tokens or {})
    return state


def build(state, permit, city, seat=0):
    give_permit(state, seat, permit)
    return act(state, "build", seat, permit=permit, city=city)


class PermitBuildTests:
    def test_a_permit_places_a_merchant_and_turns_face_down(self):
        """Main action 3: place a Merchant in a city shown on the tile, then turn it face down."""
        state = build(board(tokens={"A": VP2}), "C02", "A")
        assert state["merchants"]["A"] == [0]
        assert state["seats"][0]["permits"] == [{"id": "C02", "face_up": False}]
        assert state["seats"][0]["victory"] == 2
        refused(state, "build", 0, msg.NO_MAIN_ACTION_LEFT, permit="C02", city="B")

    def test_only_your_face_up_permits(self):
        state = board()
        refused(state, "build", 0, msg.PERMIT_NOT_YOURS.format(permit="C02"), permit="C02", city="A")
        give_permit(state, 0, "C02", face_up=False)
        refused(state, "build", 0, msg.PERMIT_NOT_YOURS.format(permit="C02"), permit="C02", city="A")
        assert not any(a["type"] == "build" for a in RULES.choices(state, 0))

    def test_only_a_city_on_the_permit(self):
        state = board()
        give_permit(state, 0, "C02")
        refused(state, "build", 0, msg.CITY_NOT_ON_PERMIT, permit="C02", city="C")
        refused(state, "build", 0, msg.UNKNOWN_CITY.format(city="Z"), permit="C02", city="Z")
        assert choices_of(state, 0, "build") == [
            {
                "type": "build",
                "seat": 0,
                "params": {
                    "permit": {"kind": "pick", "options": ["C02"]},
                    "city": {"kind": "pick", "options": ["A", "B", "E"]},
                },
            }
        ]

    def test_one_merchant_per_city(self):
        """ "You may only place 1 Merchant per city."""
        state = board()
        place(state, 0, "A")
        give_permit(state, 0, "C02")
        refused(state, "build", 0, msg.ALREADY_IN_CITY.format(city="Arkon"), permit="C02", city="A")
        assert {a["city"] for a in offered(state, 0, "build")} == {"B", "E"}

    def test_ten_merchants_at_most(self):
        state = board()
        place(state, 0, *"BCDEFGHIJK")
        give_permit(state, 0, "C02")
        refused(state, "build", 0, msg.NO_MERCHANTS_LEFT, permit="C02", city="A")
        assert not any(a["type"] in ("build", "queen_build") for a in RULES.choices(state, 0))


class ServantCostTests:
    def test_one_servant_per_merchant_of_another_player(self):
        """Return 1 Servant for each Merchant already placed by other players in that city."""
        state = board(4)
        place(state, 1, "A")
        place(state, 2, "A")
        state["seats"][0]["servants"] = 3
        state = build(state, "C02", "A")
        assert state["seats"][0]["servants"] == 1
        assert state["merchants"]["A"] == [1, 2, 0]

    def test_an_empty_city_costs_nothing(self):
        state = build(board(), "C02", "A")
        assert state["seats"][0]["servants"] == 1

    def test_a_neutral_merchant_counts_as_another_players(self):
        """docs/rules-decisions.md: neutral Merchants count for the Servant cost."""
        state = board(2)
        state["neutral"] = ["A"]
        place(state, 1, "A")
        state["seats"][0]["servants"] = 2
        state = build(state, "C02", "A")
        assert state["seats"][0]["servants"] == 0

    def test_without_the_servants_you_cannot_place(self):
        state = board(4)
        place(state, 1, "A")
        place(state, 2, "A")
        give_permit(state, 0, "C02")
        refused(
            state,
            "build",
            0,
            msg.NOT_ENOUGH_SERVANTS.format(cost=2, servants=1, s="s"),
            permit="C02",
            city="A",
        )
        assert {a["city"] for a in offered(state, 0, "build")} == {"B", "E"}


class UndoableBuildTests:
    """Undo never drops an action that revealed a card (docs/api.md "Undo"): a build shows one only
    when a City token's bonus draws a Politics card."""

    def test_a_build_that_draws_no_card_may_be_undone(self):
        before = board(tokens={"A": VP2})
        give_permit(before, 0, "C02")
        action = {"type": "build", "seat": 0, "permit": "C02", "city": "A"}
        assert RULES.undoable(before, action, RULES.apply(before, action))

    def test_a_build_whose_city_token_draws_a_politics_card_cannot_be_undone(self):
        """City token 10: 'politics_cards': 1 ('DRAW A POLITICS CARD': its owner sees it)."""
        before = board(tokens={"A": 10})
        give_permit(before, 0, "C02")
        action = {"type": "build", "seat": 0, "permit": "C02", "city": "A"}
        after = RULES.apply(before, action)
        assert len(after["seats"][0]["hand"]) == len(before["seats"][0]["hand"]) + 1
        assert RULES.reveals(before, action, after) and not RULES.undoable(before, action, after)

    def test_changing_permits_turns_new_ones_face_up_unless_the_deck_is_empty(self):
        """QUICK ACTION 2: the two face-up tiles go under the deck and two new ones are drawn."""
        before = board()
        before["seats"][0]["servants"] = 1
        action = {"type": "change_permits", "seat": 0, "region": "coast"}
        assert not RULES.undoable(before, action, RULES.apply(before, action))
        before["permit_decks"]["coast"] = []
        after = RULES.apply(before, action)
        assert after["face_up"]["coast"] == before["face_up"]["coast"]
        assert RULES.undoable(before, action, after)


class ConnectedCitiesTests:
    def test_the_bonus_of_every_city_linked_by_your_merchants(self):
        """Obtain the token of the city and of every city connected through roads by a chain of
        your own Merchants (A-C and A-B are roads; D is linked to B but holds no Merchant of Anna)."""
        state = board(tokens={"A": COIN1, "B": COIN2, "C": COIN3, "D": VP3, "E": VP1})
        place(state, 0, "A", "C")
        place(state, 1, "D")
        state = build(state, "C02", "B")
        seat = state["seats"][0]
        assert (seat["coins"], seat["victory"]) == (10 + 1 + 2 + 3, 0)

    def test_a_chain_runs_over_several_roads(self):
        """F-C-A-B: placing in F links C, A and B (the grey city J holds no token)."""
        state = board(tokens={"A": COIN1, "B": COIN2, "C": COIN3, "F": VP2, "I": VP3})
        place(state, 0, "A", "B", "C", "J")
        state = build(state, "H03", "F")
        seat = state["seats"][0]
        assert (seat["coins"], seat["victory"]) == (16, 2)

    def test_an_unlinked_placement_takes_its_own_token_only(self):
        state = board(tokens={"A": COIN1, "O": VP3})
        place(state, 0, "O")
        state = build(state, "C02", "A")
        assert (state["seats"][0]["coins"], state["seats"][0]["victory"]) == (11, 0)

    def test_neutral_merchants_never_link_a_chain(self):
        """docs/rules-decisions.md: neutral Merchants never join anyone's chain of connected cities."""
        state = board(2, tokens={"A": COIN1, "B": COIN2, "D": COIN3})
        state["neutral"] = ["B"]
        place(state, 0, "D")
        state["seats"][0]["servants"] = 0
        state = build(state, "C02", "A")
        assert state["seats"][0]["coins"] == 11


class RewardTileTests:
    def test_the_first_to_fill_a_region_takes_its_tile_and_the_top_queens_tile(self):
        """Reward tiles: a Merchant in every city of a region gives the Region tile and the topmost
        Queen's Reward tile."""
        state = board()
        place(state, 0, "A", "B", "C", "D")
        state = build(state, "C02", "E")
        assert state["seats"][0]["rewards"] == [
            {"kind": "region", "name": "coast", "victory_points": 5},
            {"kind": "queen", "name": "1", "victory_points": 25},
        ]
        assert state["region_rewards"] == ["hills", "mountains"]
        assert state["queen_rewards"] == [18, 12, 7, 3]

    def test_nobody_else_takes_a_claimed_tile(self):
        state = board()
        state["region_rewards"].remove("coast")
        place(state, 0, "A", "B", "C", "D")
        state = build(state, "C02", "E")
        assert state["seats"][0]["rewards"] == [] and state["queen_rewards"] == [25, 18, 12, 7, 3]

    def test_one_merchant_may_complete_a_region_and_a_colour(self):
        """Bronze is E, I and N: completing the coast with E also completes bronze; each tile
        brings a Queen's tile, in order."""
        state = board()
        place(state, 0, "A", "B", "C", "D", "I", "N")
        state = build(state, "C02", "E")
        assert state["seats"][0]["rewards"] == [
            {"kind": "region", "name": "coast", "victory_points": 5},
            {"kind": "queen", "name": "1", "victory_points": 25},
            {"kind": "colour", "name": "bronze", "victory_points": 8},
            {"kind": "queen", "name": "2", "victory_points": 18},
        ]
        assert state["colour_rewards"] == ["gold", "silver", "iron"]

    def test_when_the_queens_tiles_are_gone_only_the_general_tile(self):
        state = board()
        state["queen_rewards"] = []
        place(state, 0, "M")
        state = build(state, "C02", "A")
        assert state["seats"][0]["rewards"] == [{"kind": "colour", "name": "iron", "victory_points": 5}]

    def test_the_grey_city_counts_for_its_region_and_for_no_colour(self):
        """docs/rules-decisions.md: the hills Region tile needs Juvelar too; Juvelar counts for no colour."""
        state = board()
        place(state, 0, "F", "G", "H", "I")
        state = build(state, "H14", "J")
        kinds = [(r["kind"], r["name"]) for r in state["seats"][0]["rewards"]]
        assert kinds == [("region", "hills"), ("queen", "1")]
        assert state["colour_rewards"] == ["gold", "silver", "bronze", "iron"]


class QueenTests:
    def queen(self, coins=30):
        state = board()
        set_balcony(state, "queen", ["black", "white", "orange", "pink"])
        set_hand(
            state,
            0,
            cards("black", 1) + cards("white", 1) + cards("orange", 1) + cards("pink", 1) + jokers(1),
        )
        state["seats"][0]["coins"] = coins
        return state

    @pytest.mark.parametrize(("city", "roads"), [("J", 0), ("G", 1), ("M", 2), ("A", 4), ("N", 3)])
    def test_two_coins_per_road(self, city, roads):
        """Main action 4: satisfy the Queen's Balcony, move the Queen along roads for 2 Coins a road
        (or leave her, for free), then place a Merchant where she stops."""
        state = self.queen()
        hand = cards("black", 1) + cards("white", 1)
        state = act(state, "queen_build", 0, cards=hand, city=city)
        assert state["seats"][0]["coins"] == 30 - 7 - 2 * roads
        assert state["queen"] == city and state["merchants"][city] == [0]

    def test_the_road_costs_add_to_the_balcony(self):
        state = self.queen(coins=10)
        hand = cards("black", 1) + cards("white", 1)
        refused(
            state,
            "queen_build",
            0,
            msg.NOT_ENOUGH_COINS.format(cost=11, coins=10, s="s"),
            cards=hand,
            city="M",
        )
        assert queen_cost(RULES.view(state, 0), "M", hand) is None
        assert queen_cost(RULES.view(state, 0), "G", hand) == 9
        four = cards("black", 1) + cards("white", 1) + cards("orange", 1) + cards("pink", 1)
        assert queen_cost(RULES.view(state, 0), "A", four) == 8
        # With all four Councilors matched (0 Coins) every city up to 5 roads away is affordable.
        assert options(state, 0, "queen_build", "city") == list("ABCDEFGHIJKLMNO")

    def test_the_queen_needs_a_city_you_may_build_in(self):
        state = self.queen()
        place(state, 0, "G")
        refused(
            state,
            "queen_build",
            0,
            msg.ALREADY_IN_CITY.format(city="Graden"),
            cards=cards("black", 1),
            city="G",
        )
        refused(state, "queen_build", 0, msg.UNKNOWN_CITY.format(city=None), cards=cards("black", 1))
        set_hand(state, 0, cards("blue", 1))
        refused(
            state,
            "queen_build",
            0,
            msg.CARDS_DO_NOT_MATCH.format(balcony="Queen's Balcony"),
            cards=cards("blue", 1),
            city="J",
        )


class QueenChoiceTests:
    """Main action 4 as one choice: the city on the map, then the cards (docs/architecture.md section 3)."""

    def test_the_queen_offers_the_cities_she_can_reach_and_the_cards_that_can_serve(self):
        """The cheapest payment is a black card and a Joker (7 + 1 Coins); Anna already has a
        Merchant in Juvelar, where the Queen stands, and each road costs 2 Coins."""
        state = board()
        set_balcony(state, "queen", ["black", "white", "orange", "pink"])
        set_hand(state, 0, cards("black", 2) + jokers(1) + cards("blue", 2))
        place(state, 0, "J")
        state["seats"][0]["coins"] = 9
        assert choices_of(state, 0, "queen_build") == []
        state["seats"][0]["coins"] = 10
        paid = [cards("black", 1)[0], jokers(1)[0]]
        label = "Black + Joker: 10 Coins (2 Coins for the roads)"
        assert choices_of(state, 0, "queen_build") == [
            {
                "type": "queen_build",
                "seat": 0,
                "params": {
                    "city": {"kind": "pick", "options": [city]},
                    "cards": {"kind": "payment", "options": [{"cards": paid, "coins": 10, "label": label}]},
                },
            }
            for city in ("G", "H", "I", "L")
        ]

    def test_the_queen_cost_counts_roads_and_the_balcony(self):
        state = board()
        set_balcony(state, "queen", ["black", "white", "orange", "pink"])
        set_hand(state, 0, cards("black", 1) + jokers(1))
        assert queen_cost(RULES.view(state, 0), "J", cards("black", 1)) == 10
        assert queen_cost(RULES.view(state, 0), "G", cards("black", 1) + jokers(1)) == 10
        assert queen_cost(RULES.view(state, 0), "M", cards("black", 1) + jokers(1)) is None  # 12 > 10 Coins
        assert queen_cost(RULES.view(state, 0), "Z", cards("black", 1)) is None
        assert queen_cost(RULES.view(state, 0), "J", cards("blue", 1)) is None


class RulebookExampleTests:
    def test_the_first_in_all_four_cities_of_a_colour_takes_its_tile(self):
        """GENERAL AND QUEEN'S REWARD TILES, the example: the first player with Merchants in all 4
        cities of one colour gains that colour's tile (silver: Castrum, Dorful, Graden, Lyram)."""
        state = board()
        place(state, 1, "C", "D", "G")
        place(state, 0, "C", "D", "G", "L")
        state["colour_rewards"].remove("silver")  # Anna got there first
        state["current"] = 1
        state["seats"][1]["servants"] = 1
        give_permit(state, 1, "M14")
        state = act(state, "build", 1, permit="M14", city="L")
        assert state["seats"][1]["rewards"] == []

        state = board()
        place(state, 0, "C", "D", "G")
        state = build(state, "M14", "L")
        assert state["seats"][0]["rewards"][0] == {"kind": "colour", "name": "silver", "victory_points": 12}
