"""Placing a Merchant (RULES FOR PLACING A MERCHANT): the Servants it costs, the chain of City
tokens it collects, and the Reward tiles of a region or a colour completed."""

from collections import deque
from typing import Any

from games.engines.council_of_four import messages as msg
from games.engines.council_of_four.board import (
    CITIES,
    CITY_TOKENS,
    COLOUR_REWARDS,
    GREY,
    LAST_MERCHANT_VP,
    MERCHANTS,
    NEIGHBOURS,
    QUEEN_REWARDS,
    REGION_REWARDS,
    colour_cities,
    region_cities,
)
from games.engines.council_of_four.bonuses import gain
from games.engines.kernel.errors import RuleError


def merchants_of(state: dict, seat: int) -> list[str]:
    return [c for c, seats in state["merchants"].items() if seat in seats]


def others_in(state: dict, city: str, seat: int) -> int:
    """Merchants of other players (the neutral colour included) already in the city."""
    return servants_to_place(state["merchants"][city], city in state["neutral"], seat)


def servants_to_place(merchants: list[int], neutral: bool, seat: int) -> int:
    """Servants ``seat`` returns to place a Merchant in a city holding these Merchants (seat
    indexes) and, in a two-player game, maybe a Neutral one: 1 per Merchant of another player."""
    return sum(1 for s in merchants if s != seat) + bool(neutral)


def placing_problem(state: dict, seat: int, city: str) -> str | None:
    """Why the seat cannot place a Merchant in the city now, or None."""
    player = state["seats"][seat]
    if seat in state["merchants"][city]:
        return msg.ALREADY_IN_CITY.format(city=CITIES[city]["name"])
    if len(merchants_of(state, seat)) >= MERCHANTS:
        return msg.NO_MERCHANTS_LEFT
    cost = others_in(state, city, seat)
    if player["servants"] < cost:
        return msg.NOT_ENOUGH_SERVANTS.format(cost=cost, servants=player["servants"])
    return None


def chain(state: dict, seat: int, city: str) -> list[str]:
    """The city and every city linked to it by roads through cities holding the seat's Merchants
    (neutral Merchants never link), in the order they are reached."""
    seen = [city]
    queue = deque([city])
    while queue:
        here = queue.popleft()
        for there in NEIGHBOURS[here]:
            if there not in seen and seat in state["merchants"][there]:
                seen.append(there)
                queue.append(there)
    return seen


def place_merchant(state: dict, seat: int, city: str, rng: Any) -> None:
    problem = placing_problem(state, seat, city)
    if problem:
        raise RuleError(problem)
    player = state["seats"][seat]
    player["servants"] -= others_in(state, city, seat)
    state["merchants"][city].append(seat)
    for letter in chain(state, seat, city):
        token = state["city_tokens"].get(letter)
        if token is not None:
            gain(state, seat, CITY_TOKENS[token], rng)
    claim_rewards(state, seat, city)
    if len(merchants_of(state, seat)) == MERCHANTS and state["final"] is None:
        player["victory"] += LAST_MERCHANT_VP
        state["final"] = {"by": seat}


def claim_rewards(state: dict, seat: int, city: str) -> None:
    """The first to have a Merchant in every city of a region or of a colour takes its Reward tile
    and the top Queen's Reward tile (while any is left)."""
    player = state["seats"][seat]
    mine = set(merchants_of(state, seat))
    region = CITIES[city]["region"]
    if region in state["region_rewards"] and set(region_cities(region)) <= mine:
        state["region_rewards"].remove(region)
        player["rewards"].append({"kind": "region", "name": region, "victory_points": REGION_REWARDS[region]})
        _queen_reward(state, seat)
    colour = CITIES[city]["colour"]
    if colour != GREY and colour in state["colour_rewards"] and set(colour_cities(colour)) <= mine:
        state["colour_rewards"].remove(colour)
        player["rewards"].append({"kind": "colour", "name": colour, "victory_points": COLOUR_REWARDS[colour]})
        _queen_reward(state, seat)


def _queen_reward(state: dict, seat: int) -> None:
    if state["queen_rewards"]:
        order = len(QUEEN_REWARDS) - len(state["queen_rewards"]) + 1
        points = state["queen_rewards"].pop(0)
        state["seats"][seat]["rewards"].append(
            {"kind": "queen", "name": str(order), "victory_points": points}
        )
