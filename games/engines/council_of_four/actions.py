"""The moves (MAIN ACTIONS, QUICK ACTIONS and the bonus choices): ``fn(state, action, rng)`` mutates the
private copy the kernel made, or raises RuleError with a sentence a player understands. Each is
declared in ``rules.py`` with its guard (the phase and the seat that acts), which the kernel checks
before the body runs: a body checks only what is its own (a Main action left, a bonus waiting...)."""

import random
from typing import Any

from games.engines.council_of_four import messages as msg
from games.engines.council_of_four import turn
from games.engines.council_of_four.board import (
    ADDITIONAL_MAIN_SERVANTS,
    BALCONIES,
    BALCONY_WORDS,
    CARDS,
    CHANGE_PERMITS_SERVANTS,
    CITIES,
    CITY_LETTERS,
    CITY_TOKENS,
    COLOUR_WORDS,
    COUNCILOR_COLOURS,
    COUNCILORS_PER_BALCONY,
    DISTANCES,
    ELECT_COINS,
    ENGAGE_COINS,
    FACE_UP_PERMITS,
    HAND_SIZE,
    PERMITS,
    QUEEN,
    REGIONS,
    ROAD_COINS,
    SEND_SERVANT_SERVANTS,
)
from games.engines.council_of_four.bonuses import (
    CITY_TOKEN,
    FREE_PERMIT,
    PERMIT_BONUS,
    city_token_options,
    gain,
    permit_bonus_options,
    take_permit,
)
from games.engines.council_of_four.merchants import place_merchant
from games.engines.council_of_four.payments import payment_cost
from games.engines.council_of_four.pieces import draw_card, insert_councilor, refill
from games.engines.council_of_four.turn import (
    expect_main_left,
    expect_no_bonus_waiting,
    expect_quick_left,
    settle,
    start_turn,
    use_main,
    use_quick,
)
from games.engines.kernel.errors import RuleError

# The table's first action


def deal(state: dict, action: dict, rng: random.Random) -> None:
    """The random part of the setup: Politics deck and hands, Balconies, Permit decks and the
    face-up Permits, City tokens, and with two players the neutral Merchants."""
    # City tokens: one face up on every city but the grey one.
    tokens = sorted(CITY_TOKENS)
    rng.shuffle(tokens)
    plain = [c for c in CITY_LETTERS if c != state["queen"]]
    state["city_tokens"] = dict(zip(plain, tokens, strict=True))
    # Permit decks, two face up per region.
    for region in REGIONS:
        deck = sorted(state["permit_decks"][region])
        rng.shuffle(deck)
        state["permit_decks"][region] = deck
        state["face_up"][region] = []
        for slot in range(FACE_UP_PERMITS):
            refill(state, region, slot)
    # Councilors: 4 at random in each Balcony, the rest beside the board.
    pool = [c for c in COUNCILOR_COLOURS for _ in range(state["councilors"][c])]
    rng.shuffle(pool)
    for balcony in BALCONIES:
        line = [pool.pop() for _ in range(COUNCILORS_PER_BALCONY)]
        state["balconies"][balcony] = line
        for colour in line:
            state["councilors"][colour] -= 1
    # Two players: one random Permit per region places a neutral Merchant on each of its cities,
    # then goes back and the deck is shuffled again.
    if len(state["seats"]) == 2:
        neutral = set()
        for region in REGIONS:
            deck = state["permit_decks"][region]
            neutral.update(PERMITS[rng.choice(deck)]["cities"])
            rng.shuffle(deck)
        state["neutral"] = sorted(neutral)
    # Politics cards: shuffle, 6 to each player.
    deck = sorted(CARDS)
    rng.shuffle(deck)
    state["deck"] = deck
    for _ in range(HAND_SIZE):
        for seat in range(len(state["seats"])):
            draw_card(state, seat, rng)
    start_turn(state, 0, rng)


# Checks shared by several actions


def _balcony(value: Any, *, regions_only: bool = False) -> str:
    allowed = REGIONS if regions_only else BALCONIES
    if not isinstance(value, str) or value not in allowed:
        if regions_only:
            raise RuleError(msg.UNKNOWN_REGION.format(region=value))
        raise RuleError(msg.UNKNOWN_BALCONY.format(balcony=value))
    return value


def _colour(state: dict, value: Any) -> str:
    if not isinstance(value, str) or state["councilors"].get(value, 0) < 1:
        known = COLOUR_WORDS.get(value) if isinstance(value, str) else None
        raise RuleError(msg.NO_SUCH_COUNCILOR.format(colour=known or value))
    return value


def _city(value: Any) -> str:
    if not isinstance(value, str) or value not in CITIES:
        raise RuleError(msg.UNKNOWN_CITY.format(city=value))
    return value


def _pay(state: dict, seat: int, cards: list[str], coins: int) -> None:
    player = state["seats"][seat]
    if player["coins"] < coins:
        raise RuleError(msg.NOT_ENOUGH_COINS.format(cost=coins, coins=player["coins"]))
    player["coins"] -= coins
    for card in cards:
        player["hand"].remove(card)
        state["discard"].append(card)


# Main actions


def elect(state: dict, action: dict, rng: random.Random) -> None:
    seat = action["seat"]
    expect_main_left(state)
    balcony = _balcony(action.get("balcony"))
    colour = _colour(state, action.get("colour"))
    use_main(state)
    insert_councilor(state, balcony, colour)
    state["seats"][seat]["coins"] += ELECT_COINS
    settle(state, rng)


def acquire_permit(state: dict, action: dict, rng: random.Random) -> None:
    seat = action["seat"]
    expect_main_left(state)
    region = _balcony(action.get("balcony"), regions_only=True)
    permit = action.get("permit")
    if not isinstance(permit, str) or permit not in state["face_up"][region]:
        raise RuleError(msg.PERMIT_NOT_FACE_UP.format(balcony=BALCONY_WORDS[region]))
    cards: Any = action.get("cards")
    cost = payment_cost(state, seat, region, cards)
    use_main(state)
    _pay(state, seat, cards, cost)
    take_permit(state, seat, permit, rng)
    settle(state, rng)


def build(state: dict, action: dict, rng: random.Random) -> None:
    seat = action["seat"]
    expect_main_left(state)
    permit = action.get("permit")
    owned = next(
        (p for p in state["seats"][seat]["permits"] if p["id"] == permit and p["face_up"]),
        None,
    )
    if owned is None:
        raise RuleError(msg.PERMIT_NOT_YOURS.format(permit=permit))
    city = _city(action.get("city"))
    if city not in PERMITS[str(permit)]["cities"]:
        raise RuleError(msg.CITY_NOT_ON_PERMIT)
    use_main(state)
    owned["face_up"] = False
    place_merchant(state, seat, city, rng)
    settle(state, rng)


def queen_build(state: dict, action: dict, rng: random.Random) -> None:
    seat = action["seat"]
    expect_main_left(state)
    city = _city(action.get("city"))
    cards: Any = action.get("cards")
    cost = payment_cost(state, seat, QUEEN, cards) + ROAD_COINS * DISTANCES[state["queen"]][city]
    use_main(state)
    _pay(state, seat, cards, cost)
    state["queen"] = city
    place_merchant(state, seat, city, rng)
    settle(state, rng)


# Quick actions


def engage_servant(state: dict, action: dict, rng: random.Random) -> None:
    seat = action["seat"]
    expect_quick_left(state)
    player = state["seats"][seat]
    if player["coins"] < ENGAGE_COINS:
        raise RuleError(msg.NOT_ENOUGH_COINS.format(cost=ENGAGE_COINS, coins=player["coins"]))
    use_quick(state)
    player["coins"] -= ENGAGE_COINS
    player["servants"] += 1
    settle(state, rng)


def _spend_servants(state: dict, seat: int, cost: int) -> None:
    player = state["seats"][seat]
    if player["servants"] < cost:
        raise RuleError(msg.NOT_ENOUGH_SERVANTS.format(cost=cost, servants=player["servants"]))
    player["servants"] -= cost


def change_permits(state: dict, action: dict, rng: random.Random) -> None:
    seat = action["seat"]
    expect_quick_left(state)
    region = _balcony(action.get("region"), regions_only=True)
    if not state["face_up"][region]:
        raise RuleError(msg.NO_FACE_UP_PERMITS)
    _spend_servants(state, seat, CHANGE_PERMITS_SERVANTS)
    use_quick(state)
    state["permit_decks"][region].extend(state["face_up"][region])
    state["face_up"][region] = []
    for slot in range(FACE_UP_PERMITS):
        refill(state, region, slot)
    settle(state, rng)


def send_servant(state: dict, action: dict, rng: random.Random) -> None:
    seat = action["seat"]
    expect_quick_left(state)
    balcony = _balcony(action.get("balcony"))
    colour = _colour(state, action.get("colour"))
    _spend_servants(state, seat, SEND_SERVANT_SERVANTS)
    use_quick(state)
    insert_councilor(state, balcony, colour)
    settle(state, rng)


def additional_main(state: dict, action: dict, rng: random.Random) -> None:
    seat = action["seat"]
    expect_quick_left(state)
    _spend_servants(state, seat, ADDITIONAL_MAIN_SERVANTS)
    use_quick(state)
    state["turn"]["main_left"] += 1
    settle(state, rng)


def end_turn(state: dict, action: dict, rng: random.Random) -> None:
    expect_no_bonus_waiting(state)
    if state["turn"]["mains_done"] < 1:
        raise RuleError(msg.MAIN_ACTION_FIRST)
    turn.end_turn(state, rng)


# Bonus choices


def _pending(state: dict, action: dict, kind: str) -> dict:
    head = state["pending"][0] if state["pending"] else None
    if head is None or head["kind"] != kind or head["seat"] != action["seat"]:
        raise RuleError(msg.NO_CHOICE_PENDING)
    return head


def choose_city_bonus(state: dict, action: dict, rng: random.Random) -> None:
    head = _pending(state, action, CITY_TOKEN)
    seat = head["seat"]
    options = city_token_options(state, seat)
    count = min(head["count"], len(options))
    cities = action.get("cities")
    if (
        not isinstance(cities, list)
        or len(cities) != count
        or not all(isinstance(c, str) and c in options for c in cities)
        or len(set(cities)) != len(cities)
    ):
        raise RuleError(msg.CHOOSE_CITIES.format(count=count))
    state["pending"].pop(0)
    for city in cities:
        gain(state, seat, CITY_TOKENS[state["city_tokens"][city]], rng)
    settle(state, rng)


def choose_permit_bonus(state: dict, action: dict, rng: random.Random) -> None:
    head = _pending(state, action, PERMIT_BONUS)
    seat = head["seat"]
    permit = action.get("permit")
    if not isinstance(permit, str) or permit not in permit_bonus_options(state, seat):
        raise RuleError(msg.CHOOSE_PERMIT)
    state["pending"].pop(0)
    gain(state, seat, PERMITS[permit]["bonus"], rng)
    settle(state, rng)


def take_free_permit(state: dict, action: dict, rng: random.Random) -> None:
    head = _pending(state, action, FREE_PERMIT)
    permit = action.get("permit")
    if not isinstance(permit, str) or not any(permit in state["face_up"][r] for r in REGIONS):
        raise RuleError(msg.FREE_PERMIT_NOT_FACE_UP)
    state["pending"].pop(0)
    take_permit(state, head["seat"], permit, rng)
    settle(state, rng)
