"""The Council of Four presenter alone, without a database (issue 28, item 7): views recorded from
seeded games at each phase, for the table and a seat, turned into what the templates draw; every
price is the engine's own (payments.permit_payment_cost, queen_cost, payment_offers, board.py)."""

import ast
import random
from pathlib import Path

import pytest

from games.engines.council_of_four.board import (
    ADDITIONAL_MAIN_SERVANTS,
    CHANGE_PERMITS_SERVANTS,
    CITIES,
    COUNCILOR_COLOURS,
    ELECT_COINS,
    ENGAGE_COINS,
    SEND_SERVANT_SERVANTS,
)
from games.engines.council_of_four.payments import payment_offers, permit_payment_cost, queen_cost
from games.engines.council_of_four.rules import RULES
from games.engines.kernel.choices import draw_action
from games.presenters.council_of_four import (
    CITY_XY,
    DOING_PENDING,
    GAME_OVER,
    PRESENTER,
    PROMPT_PENDING,
    SETTING_UP,
    _c4_label,
)
from games.presenters.council_of_four_steps import _menu_cost
from games.presenters.council_of_four_words import coins, servants
from tests.unit.council_of_four.builders import act, dealt, give_permit, new_game, playing
from tests.unit.presenters.shown import shown_controls

NAMES = {0: {"index": 0, "name": "Anna", "hex": "#aa0000"}, 1: {"index": 1, "name": "Ben", "hex": "#00aa00"}}
PRESENTERS = Path(__file__).resolve().parents[3] / "games" / "presenters"


def rich(seed: int = 4) -> dict:
    """Anna's turn in a two-player game, with Coins enough for every Main action."""
    state = dealt(2, seed)
    state["seats"][0]["coins"] = 40
    return state


def pending() -> dict:
    """Anna must choose a Permit bonus (Nobility space 14, reached by a City token of a build)."""
    state = playing(3)
    give_permit(state, 0, "C15")
    state["city_tokens"] = {"A": 1}
    state["seats"][0]["nobility"] = 13
    state = act(state, "build", 0, permit="C15", city="A")
    assert state["pending"]
    return state


def over() -> dict:
    """A whole seeded game, played by the bots' random choices to its end."""
    state = dealt(2, 7)
    rng = random.Random(7)
    while not state["over"]:
        seat = RULES.to_act(state)[0]
        choice = rng.choice(RULES.legal_actions(state, seat))
        preferred = [c for c in RULES.legal_actions(state, seat) if c["type"] in ("build", "queen_build")]
        state = RULES.apply(
            state, draw_action(RULES, state, rng.choice(preferred) if preferred else choice, rng)
        )
    return state


def shown(state: dict, seat: int | None) -> dict:
    view = RULES.view(state, seat)
    return PRESENTER.present(view, NAMES, view["result"])


class BoardTests:
    def test_before_the_deal_the_table_sets_up(self):
        present = shown(new_game(2), None)
        assert present["doing"] == SETTING_UP
        assert [b["name"] for b in present["balconies"]] == [
            "Coast Balcony", "Hills Balcony", "Mountains Balcony", "Queen's Balcony",
        ]  # fmt: skip
        assert all(b["councilors"] == [] for b in present["balconies"])
        assert sum(r["count"] for r in present["reserve"]) == 24
        assert present["permits"] == [{"region": r, "tiles": []} for r in ("Coast", "Hills", "Mountains")]

    def test_the_table_draws_the_map_the_councils_and_the_tracks(self):
        state = dealt(2, 4)
        present = shown(state, None)
        assert present["queen"] == "Juvelar" and present["phase"]
        assert len(present["map"]["cities"]) == 15 and len(present["map"]["roads"]) == 18
        juvelar = next(c for c in present["map"]["cities"] if c["letter"] == "J")
        assert juvelar["queen"] and (juvelar["x"], juvelar["y"]) == CITY_XY["J"] and juvelar["token"] == ""
        neutral = [c for c in present["map"]["cities"] if c["markers"]]
        assert {c["letter"] for c in neutral} == set(state["neutral"])
        assert all(m["name"] == "Neutral Merchant" for c in neutral for m in c["markers"])
        assert [b["councilors"] for b in present["balconies"]][0] == [
            {"colour": c, "hex": present["balconies"][0]["councilors"][i]["hex"]}
            for i, c in enumerate(state["balconies"]["coast"])
        ]
        assert [r["colour"] for r in present["reserve"]] == [
            c for c in COUNCILOR_COLOURS if state["councilors"][c]
        ]
        assert all(len(region["tiles"]) == 2 for region in present["permits"])
        anna, ben = present["players"]
        assert (anna["name"], anna["acting"], anna["cards"], anna["coins"]) == ("Anna", True, 7, 10)
        assert (ben["acting"], ben["cards"], ben["merchants_left"], ben["permits"]) == (False, 6, 10, 0)
        assert present["doing"] == "Anna's turn: 1 Main action and a Quick action left."
        assert present["deck_count"] == len(state["deck"])

    def test_a_merchant_shows_in_its_owners_colour(self):
        state = playing(2)
        state["neutral"] = []
        state["merchants"]["A"] = [1]
        city = next(c for c in shown(state, 0)["map"]["cities"] if c["letter"] == "A")
        assert [(m["name"], m["hex"]) for m in city["markers"]] == [("Ben", "#00aa00")]

    def test_a_pending_bonus_says_who_chooses_what(self):
        state = pending()
        view = RULES.view(state, 0)
        assert view["pending"]["kind"] == "permit_bonus"
        names = {**NAMES, 2: {"index": 2, "name": "Chloe", "hex": "#0000aa"}}
        present = PRESENTER.present(view, names, None)
        assert present["doing"] == str(DOING_PENDING["permit_bonus"]).format(name="Anna")
        assert present["prompt"] == PROMPT_PENDING["permit_bonus"]

    def test_the_result_ranks_the_seats(self):
        state = over()
        present = shown(state, None)
        result = state["result"]
        assert present["doing"] == GAME_OVER
        assert [row["index"] for row in present["result"]["rows"]] == result["ranking"]
        assert [row["total"] for row in present["result"]["rows"]] == [
            result["scores"][i] for i in result["ranking"]
        ]
        assert present["result"]["winners"] == [NAMES[i]["name"] for i in result["winners"]]

    def test_the_standard_board_places_every_city(self):
        assert set(CITY_XY) == set(CITIES)


class PrivateTests:
    def test_a_seat_sees_its_politics_cards_and_the_table_none(self):
        state = dealt(2, 4)
        private = PRESENTER.private(RULES.view(state, 1))
        assert [card["id"] for card in private["hand"]] == sorted(state["seats"][1]["hand"])
        assert all(card["hex"].startswith(("#", "conic")) for card in private["hand"])
        assert PRESENTER.private(RULES.view(state, None)) is None


class PriceTests:
    """The buttons' prices are the engine's: MAIN ACTION 2 and 4, QUICK ACTIONS."""

    @pytest.mark.parametrize("seed", range(6))
    def test_a_permit_costs_what_the_engine_says(self, seed):
        state = rich(seed)
        view = RULES.view(state, 0)
        rng = random.Random(seed)
        for choice in [c for c in RULES.legal_actions(state, 0) if c["type"] == "acquire_permit"]:
            action = draw_action(RULES, state, choice, rng)
            cost = permit_payment_cost(view, action["balcony"], action["cards"])
            assert cost is not None
            assert _c4_label(action, view, NAMES)[0].endswith(f", {coins(cost)}")

    @pytest.mark.parametrize("seed", range(6))
    def test_the_queen_costs_what_the_engine_says(self, seed):
        state = rich(seed)
        view = RULES.view(state, 0)
        rng = random.Random(seed)
        for choice in [c for c in RULES.legal_actions(state, 0) if c["type"] == "queen_build"]:
            action = draw_action(RULES, state, choice, rng)
            cost = queen_cost(view, action["city"], action["cards"])
            assert cost is not None
            assert _c4_label(action, view, NAMES)[0].endswith(f", {coins(cost)}")

    def test_the_payment_offers_of_a_step_cost_what_the_engine_says(self):
        state = rich(2)
        view = RULES.view(state, 0)
        choices = RULES.legal_actions(state, 0)
        balcony = next(c for c in choices if c["type"] == "acquire_permit")["params"]["balcony"]["options"][0]
        permit = view["permits"][balcony]["face_up"][0]["id"]
        groups = shown_controls(
            PRESENTER, choices, view, NAMES, {"step": "acquire_permit", "balcony": balcony, "permit": permit}
        )
        offers = next(g for g in groups if g["kind"] == "offers")["offers"]
        hand = [card["id"] for card in view["private"]["hand"]]
        engine = payment_offers(hand, view["balconies"][balcony], 40)
        assert [o["coins"] for o in offers] == [coins(o["coins"]) for o in engine[: len(offers)]]

    def test_fixed_costs_are_the_boards(self):
        view = RULES.view(rich(), 0)
        assert _c4_label({"type": "engage_servant", "seat": 0}, view, NAMES)[0].endswith(coins(ENGAGE_COINS))
        assert (
            servants(ADDITIONAL_MAIN_SERVANTS)
            in _c4_label({"type": "additional_main", "seat": 0}, view, NAMES)[0]
        )
        assert {
            "elect": f"receive {coins(ELECT_COINS)}",
            "send_servant": servants(SEND_SERVANT_SERVANTS),
            "change_permits": servants(CHANGE_PERMITS_SERVANTS),
            "engage_servant": coins(ENGAGE_COINS),
            "additional_main": servants(ADDITIONAL_MAIN_SERVANTS),
        } == {
            kind: _menu_cost(kind)
            for kind in ("elect", "send_servant", "change_permits", "engage_servant", "additional_main")
        }


class MenuTests:
    def test_the_seat_whose_turn_it_is_gets_the_menu(self):
        state = rich()
        view = RULES.view(state, 0)
        groups = shown_controls(PRESENTER, RULES.legal_actions(state, 0), view, NAMES, {})
        assert [g["type"] for g in groups if g["kind"] == "links"][:2] == ["main", "acquire_permit"]

    def test_the_table_deals_with_one_button(self):
        state = new_game(2)
        groups = shown_controls(
            PRESENTER, RULES.legal_actions(state, None), RULES.view(state, None), NAMES, {}
        )
        assert [g["type"] for g in groups] == ["deal"]


class NoCircleTests:
    def test_the_steps_module_does_not_import_the_presenter(self):
        """The two presenter modules used to import each other (one import hidden in a function)."""
        tree = ast.parse((PRESENTERS / "council_of_four_steps.py").read_text())
        imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
        assert "games.presenters.council_of_four" not in imported
        words = ast.parse((PRESENTERS / "council_of_four_words.py").read_text())
        assert not any(
            (n.module or "").startswith("games.presenters")
            for n in ast.walk(words)
            if isinstance(n, ast.ImportFrom)
        )
