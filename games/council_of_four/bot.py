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
"""

from __future__ import annotations

from collections import Counter

from games.council_of_four.board import (
    CARDS,
    CITY_TOKENS,
    DISTANCES,
    JOKER,
    NEIGHBOURS,
    PERMITS,
    REGIONS,
    ROAD_COINS,
    SATISFY_COINS,
)
from games.council_of_four.flow import others_in, placing_problem

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


def _build_key(state: dict, seat: int, action: dict) -> tuple:
    city = action["city"]
    mine = _merchants(state, seat)
    linked = sum(1 for n in NEIGHBOURS[city] if n in mine)
    token = state["city_tokens"].get(city)
    token_worth = bonus_worth(CITY_TOKENS[token]) if token is not None else 0.0
    return (-others_in(state, city, seat), linked, token_worth, city, action["permit"])


def _permit_cost(action: dict) -> int:
    cards = action["cards"]
    jokers = sum(1 for c in cards if CARDS[c] == JOKER)
    return SATISFY_COINS[len(cards)] + jokers


def _permit_key(action: dict) -> tuple:
    permit = PERMITS[action["permit"]]
    return (-_permit_cost(action), len(permit["cities"]), bonus_worth(permit["bonus"]), action["permit"])


def _elect_key(state: dict, seat: int, action: dict) -> tuple:
    """Elect the colour it holds most cards of, where that colour is scarce among the Councilors."""
    hand = Counter(CARDS[c] for c in state["seats"][seat]["hand"])
    colour, balcony = action["colour"], action["balcony"]
    in_balcony = Counter(state["balconies"][balcony])[colour]
    return (balcony in REGIONS, hand[colour] - in_balcony, hand[colour], colour, balcony)


def _main(state: dict, seat: int, by_type: dict[str, list[dict]]) -> dict | None:
    if "build" in by_type:
        return max(by_type["build"], key=lambda a: _build_key(state, seat, a))
    permits = [a for a in by_type.get("acquire_permit", []) if _permit_cost(a) <= MAX_PERMIT_COST]
    if permits:
        return max(permits, key=_permit_key)
    no_permits = not any(state["face_up"].values()) and not _face_up_permits(state, seat)
    if no_permits and "queen_build" in by_type:
        # Every Permit is taken: the Queen is the only way left to place Merchants.
        return min(by_type["queen_build"], key=lambda a: (_queen_cost(state, a), a["city"]))
    if "elect" in by_type:
        return max(by_type["elect"], key=lambda a: _elect_key(state, seat, a))
    return None


def _face_up_permits(state: dict, seat: int) -> list[str]:
    return [p["id"] for p in state["seats"][seat]["permits"] if p["face_up"]]


def _queen_cost(state: dict, action: dict) -> int:
    return _permit_cost(action) + ROAD_COINS * DISTANCES[state["queen"]][action["city"]]


def _quick(state: dict, seat: int, by_type: dict[str, list[dict]]) -> dict | None:
    player = state["seats"][seat]
    held = _face_up_permits(state, seat)
    useful_main = bool(held) or player["coins"] >= SPARE_COINS
    if "additional_main" in by_type and player["servants"] >= SPARE_SERVANTS and useful_main:
        return by_type["additional_main"][0]
    # A Servant when it has none, or when its Permits lead only to cities it cannot pay for.
    blocked = bool(held) and all(
        placing_problem(state, seat, city) is not None for p in held for city in PERMITS[p]["cities"]
    )
    if (
        "engage_servant" in by_type
        and player["coins"] >= SPARE_COINS
        and (player["servants"] == 0 or blocked)
    ):
        return by_type["engage_servant"][0]
    return None


def _pending_choice(actions: list[dict]) -> dict:
    def worth(action: dict) -> float:
        permit = PERMITS[action["permit"]]
        if action["type"] == "take_free_permit":
            return len(permit["cities"]) + bonus_worth(permit["bonus"])
        return bonus_worth(permit["bonus"])

    return max(actions, key=worth)


def choose(state: dict, seat: int | None, actions: list[dict], rng) -> dict | None:
    """The policy the engine's ``bot_policy`` hook calls (deterministic: ``rng`` unused)."""
    if seat is None or not actions:
        return None
    by_type: dict[str, list[dict]] = {}
    for action in actions:
        by_type.setdefault(action["type"], []).append(action)
    if "draw" in by_type:
        return by_type["draw"][0]
    if "choose_city_bonus" in by_type:
        tokens = state["city_tokens"]
        return max(
            by_type["choose_city_bonus"],
            key=lambda a: sum(bonus_worth(CITY_TOKENS[tokens[c]]) for c in a["cities"]),
        )
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
        return by_type["end_turn"][0]
    return actions[0]
