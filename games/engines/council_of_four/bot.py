"""A simple Council of Four bot: legal, sensible moves, no look at other hands.

- Main action, in this order of preference: place a Merchant with a Permit it holds (the city that
  costs the fewest Servants, then the one that links most of its Merchants and takes the best City
  token bonuses); else acquire the cheapest Permit it can afford (the one with most cities and the
  best bonus); else elect a Councilor for 4 Coins, of the colour it holds most cards of, into the
  Balcony of a region where that helps it satisfy the Council.
- Quick action only when cheap and useful: an additional Main action when it has Servants to spare
  and a Merchant or a Permit to get with it; a Servant for 3 Coins when it has none and Coins to
  spare. Then it ends its turn.
- Bonus choices: the bonus worth most (Victory Points first).

It receives choices with parameters (``legal.py``) and answers one concrete action: for a Permit or
the Queen it pays with its cheapest cards (every Councilor a coloured card matches, then Jokers).
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

from games.engines.council_of_four.board import CARDS, CITY_TOKENS, NEIGHBOURS, PERMITS, REGIONS
from games.engines.council_of_four.merchants import others_in, placing_problem
from games.engines.council_of_four.payments import cards_of, cheapest_shape, shape_cost
from games.engines.kernel.choices import Choice, enumerate_choice

SPARE_SERVANTS = 4  # an additional Main action (3 Servants) only with at least this many
SPARE_COINS = 7  # a Servant for 3 Coins only with at least this many Coins
MAX_PERMIT_COST = 10

# What a bonus is worth to the bot, per unit.
BONUS_WORTH = {
    "victory_points": 1.0,
    "coins": 0.3,
    "servants": 0.5,
    "politics_cards": 0.5,
    "nobility_steps": 0.7,
    "additional_main_action": 2.0,
    "city_token_bonus": 1.0,
    "free_permit_tile": 2.0,
    "permit_tile_bonus_again": 1.0,
}


def bonus_worth(bonus: dict) -> float:
    return sum(BONUS_WORTH.get(key, 0.5) * amount for key, amount in bonus.items() if isinstance(amount, int))


def _merchants(state: dict, seat: int) -> set[str]:
    return {c for c, seats in state["merchants"].items() if seat in seats}


def _concrete(choices: list[Choice]) -> list[dict]:
    """Every concrete action of these small choices (picks only)."""
    return [action for c in choices for action in enumerate_choice(c)]


def _build_key(state: dict, seat: int, action: dict) -> tuple:
    city = action["city"]
    mine = _merchants(state, seat)
    linked = sum(1 for n in NEIGHBOURS[city] if n in mine)
    token = state["city_tokens"].get(city)
    token_worth = bonus_worth(CITY_TOKENS[token]) if token is not None else 0.0
    return (-others_in(state, city, seat), linked, token_worth, city, action["permit"])


def _permit_key(action: dict, cost: int) -> tuple:
    permit = PERMITS[action["permit"]]
    return (-cost, len(permit["cities"]), bonus_worth(permit["bonus"]), action["permit"])


def _elect_key(state: dict, seat: int, action: dict) -> tuple:
    """Elect the colour it holds most cards of, where that colour is scarce among the Councilors."""
    hand = Counter(CARDS[c] for c in state["seats"][seat]["hand"])
    colour, balcony = action["colour"], action["balcony"]
    in_balcony = Counter(state["balconies"][balcony])[colour]
    return (balcony in REGIONS, hand[colour] - in_balcony, hand[colour], colour, balcony)


def _permits(state: dict, seat: int, choices: list[Choice]) -> list[tuple[dict, int]]:
    """Each Permit it could buy with its cheapest payment for that Council, and the Coins it costs."""
    found = []
    for c in choices:
        for region in c["params"]["balcony"]["options"]:
            shape = cheapest_shape(state, seat, region)
            if shape is None or shape_cost(shape) > state["seats"][seat]["coins"]:
                continue
            paid = cards_of(state, seat, shape)
            for permit in c["params"]["permit"]["options"]:
                action = {"type": "acquire_permit", "seat": seat, "balcony": region, "permit": permit}
                found.append(({**action, "cards": paid}, shape_cost(shape)))
    return found


def _queen(seat: int, choices: list[Choice]) -> dict:
    """The city the Queen reaches for the fewest Coins, paid with its cheapest payment (the
    payments offered are priced with the roads, cheapest first)."""
    city, paid = min(
        ((c["params"]["city"]["options"][0], c["params"]["cards"]["options"][0]) for c in choices),
        key=lambda found: (found[1]["coins"], found[0]),
    )
    return {"type": "queen_build", "seat": seat, "city": city, "cards": list(paid["cards"])}


def _main(state: dict, seat: int, by_type: dict[str, list[Choice]]) -> dict | None:
    if "build" in by_type:
        return max(_concrete(by_type["build"]), key=lambda a: _build_key(state, seat, a))
    permits = [
        (a, cost)
        for a, cost in _permits(state, seat, by_type.get("acquire_permit", []))
        if cost <= MAX_PERMIT_COST
    ]
    if permits:
        return max(permits, key=lambda found: _permit_key(*found))[0]
    no_permits = not any(state["face_up"].values()) and not _face_up_permits(state, seat)
    if no_permits and "queen_build" in by_type:
        # Every Permit is taken: the Queen is the only way left to place Merchants.
        return _queen(seat, by_type["queen_build"])
    if "elect" in by_type:
        return max(_concrete(by_type["elect"]), key=lambda a: _elect_key(state, seat, a))
    return None


def _face_up_permits(state: dict, seat: int) -> list[str]:
    return [p["id"] for p in state["seats"][seat]["permits"] if p["face_up"]]


def _plain(choice_: Choice) -> dict:
    return {"type": choice_["type"], "seat": choice_["seat"]}


def _quick(state: dict, seat: int, by_type: dict[str, list[Choice]]) -> dict | None:
    player = state["seats"][seat]
    held = _face_up_permits(state, seat)
    useful_main = bool(held) or player["coins"] >= SPARE_COINS
    if "additional_main" in by_type and player["servants"] >= SPARE_SERVANTS and useful_main:
        return _plain(by_type["additional_main"][0])
    # A Servant when it has none, or when its Permits lead only to cities it cannot pay for.
    blocked = bool(held) and all(
        placing_problem(state, seat, city) is not None for p in held for city in PERMITS[p]["cities"]
    )
    if (
        "engage_servant" in by_type
        and player["coins"] >= SPARE_COINS
        and (player["servants"] == 0 or blocked)
    ):
        return _plain(by_type["engage_servant"][0])
    return None


def _pending_choice(choices: list[Choice]) -> dict:
    def worth(action: dict) -> float:
        permit = PERMITS[action["permit"]]
        if action["type"] == "take_free_permit":
            return len(permit["cities"]) + bonus_worth(permit["bonus"])
        return bonus_worth(permit["bonus"])

    return max(_concrete(choices), key=worth)


def _city_bonus(state: dict, choice_: Choice) -> dict:
    param = choice_["params"]["cities"]
    tokens = state["city_tokens"]
    best = max(
        combinations(param["options"], param["min"]),
        key=lambda cities: sum(bonus_worth(CITY_TOKENS[tokens[c]]) for c in cities),
    )
    return {**_plain(choice_), "cities": list(best)}


def choose(state: dict, seat: int | None, choices: list[Choice], rng: random.Random) -> dict | None:
    """The policy the engine's ``bot_policy`` hook calls: a concrete action of one of ``choices``
    (deterministic: ``rng`` unused). None leaves the kernel to draw one at random."""
    if seat is None or not choices:
        return None
    by_type: dict[str, list[Choice]] = {}
    for c in choices:
        by_type.setdefault(c["type"], []).append(c)
    if "choose_city_bonus" in by_type:
        return _city_bonus(state, by_type["choose_city_bonus"][0])
    for kind in ("choose_permit_bonus", "take_free_permit"):
        if kind in by_type:
            return _pending_choice(by_type[kind])
    if state["turn"]["main_left"] > 0:
        chosen = _main(state, seat, by_type)
        if chosen is not None:
            return chosen
    chosen = _quick(state, seat, by_type) if state["turn"]["quick_left"] > 0 else None
    if chosen is not None:
        return chosen
    if "end_turn" in by_type:
        return _plain(by_type["end_turn"][0])
    return None
