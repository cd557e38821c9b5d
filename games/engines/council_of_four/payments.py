"""Paying a Council with Politics cards, and the Coins it costs (MAIN ACTION 2 and 4).

"Choose and satisfy the council of a region by discarding 1-4 Politics Cards corresponding to the
Councilors present in that Balcony. The Joker (multi-coloured card) can be any colour." 1 card costs
10 Coins, 2 cost 7, 3 cost 4, 4 cost 0, plus 1 Coin per multi-coloured card. The Queen's Balcony is
paid the same way, plus 2 Coins per road the Queen travels.

Pure functions of the state. The engine validates with :func:`payment_cost` (raises RuleError); the
choices offer the payments of :func:`payment_offers` (only what the hand and the Coins can pay, the
cheapest first, each with its price; the Queen's roads from :func:`road_coins`), and the pages price
a set of cards from a seat's view with :func:`permit_payment_cost` and :func:`queen_cost` (``None``:
those cards cannot pay there, or the seat lacks the Coins). Nothing here changes the state.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from itertools import product
from typing import Any

from games.engines.council_of_four import messages as msg
from games.engines.council_of_four.board import (
    BALCONY_WORDS,
    CARDS,
    CITIES,
    COUNCILORS_PER_BALCONY,
    DISTANCES,
    JOKER,
    QUEEN,
    REGIONS,
    ROAD_COINS,
    SATISFY_COINS,
)
from games.engines.council_of_four.merchants import placing_problem
from games.engines.council_of_four.turn import ACTIONS
from games.engines.kernel.errors import RuleError

# A payment by colours: {"black": 2, "joker": 1}; the cards are picked from the hand afterwards.
Shape = dict[str, int]


def payment_cost(state: dict, seat: int, balcony: str, cards: Any) -> int:
    """The Coins ``seat`` pays to satisfy a Balcony with these cards (:func:`satisfy_coins` with the
    seat's hand and the Balcony's Councilors). Raises RuleError when they cannot."""
    return satisfy_coins(state["seats"][seat]["hand"], state["balconies"][balcony], balcony, cards)


def satisfy_coins(hand: list[str], council: list[str], balcony: str, cards: Any) -> int:
    """The Coins to satisfy a Balcony of ``council`` (its Councilors' colours) with these cards of
    ``hand``: 10/7/4/0 for 1-4 cards, +1 per Joker. Each coloured card matches a different Councilor
    of its colour; a Joker matches any. Raises RuleError when the cards cannot satisfy it (the
    Coins the seat has are not checked here)."""
    if (
        not isinstance(cards, list)
        or not 1 <= len(cards) <= COUNCILORS_PER_BALCONY
        or not all(isinstance(c, str) for c in cards)
    ):
        raise RuleError(msg.CARDS_FORMAT)
    if len(set(cards)) != len(cards):
        raise RuleError(msg.CARD_TWICE)
    if any(c not in hand for c in cards):
        raise RuleError(msg.CARD_NOT_IN_HAND)
    wanted = Counter(CARDS[c] for c in cards if CARDS[c] != JOKER)
    seated = Counter(council)
    if any(n > seated[colour] for colour, n in wanted.items()):
        raise RuleError(msg.CARDS_DO_NOT_MATCH.format(balcony=BALCONY_WORDS[balcony]))
    jokers = sum(1 for c in cards if CARDS[c] == JOKER)
    return SATISFY_COINS[len(cards)] + jokers


def road_cost(state: dict, city: str) -> int | None:
    """Coins to move the Queen to ``city`` along roads (None: no road leads there)."""
    return road_coins(state["queen"], city)


def road_coins(start: str, city: str) -> int | None:
    """Coins to move the Queen from ``start`` to ``city``: 2 per road along the shortest way (0 to
    stay; None: no road leads there)."""
    roads = DISTANCES.get(start, {}).get(city)
    return None if roads is None else ROAD_COINS * roads


def shape_cost(shape: Shape) -> int:
    return SATISFY_COINS[sum(shape.values())] + shape.get(JOKER, 0)


def payment_shapes(state: dict, seat: int, balcony: str) -> list[Shape]:
    """Every distinct way, by colours, the seat's hand can satisfy the Balcony (1 to 4 cards). At
    most a few dozen, whatever the hand holds."""
    return _shapes(
        Counter(CARDS[c] for c in state["seats"][seat]["hand"]), Counter(state["balconies"][balcony])
    )


def _shapes(hand: Counter, council: Counter) -> list[Shape]:
    colours = [*sorted(council), JOKER]
    ranges = [range(min(council[c], hand[c]) + 1) for c in colours[:-1]]
    ranges.append(range(min(hand[JOKER], COUNCILORS_PER_BALCONY) + 1))
    shapes = []
    for counts in product(*ranges):
        if 1 <= sum(counts) <= COUNCILORS_PER_BALCONY:
            shapes.append({c: n for c, n in zip(colours, counts, strict=True) if n})
    return shapes


def payment_offers(hand: list[str], council: list[str], coins: int, extra: int = 0) -> list[dict]:
    """The payments a phone offers for a Council: each distinct way, by colours, these Politics
    cards (ids) can satisfy a Balcony of ``council`` (its Councilors' colours) with 1 to 4 cards,
    that ``coins`` can pay with ``extra`` Coins on top (the Queen's roads). Cheapest first, then
    the fewest cards. Each offer: ``cards`` (the lowest ids of each colour), ``shape`` (colour ->
    count, Jokers last), ``size`` (cards played) and ``coins`` (the whole price, ``extra``
    included). At most a few dozen, whatever the hand holds."""
    by_colour: dict[str, list[str]] = {}
    for card in sorted(hand):
        by_colour.setdefault(CARDS[card], []).append(card)
    counts = Counter({colour: len(ids) for colour, ids in by_colour.items()})
    offers: list[dict[str, Any]] = []
    for shape in _shapes(counts, Counter(council)):
        price = shape_cost(shape) + extra
        if price <= coins:
            ordered = {c: n for c, n in shape.items() if c != JOKER} | (
                {JOKER: shape[JOKER]} if JOKER in shape else {}
            )
            chosen = [card for colour, n in ordered.items() for card in by_colour[colour][:n]]
            offers.append({"cards": chosen, "shape": ordered, "size": len(chosen), "coins": price})
    offers.sort(key=lambda o: (o["coins"], o["size"], list(o["shape"].items())))
    return offers


def cards_of(state: dict, seat: int, shape: Shape) -> list[str]:
    """Card ids of the seat's hand for a payment shape: the lowest ids of each colour."""
    chosen = []
    for colour, n in shape.items():
        chosen += sorted(c for c in state["seats"][seat]["hand"] if CARDS[c] == colour)[:n]
    return chosen


def cheapest_shape(state: dict, seat: int, balcony: str) -> Shape | None:
    """The cheapest payment: every Councilor a coloured card can match, then Jokers up to 4 cards
    (one more card always saves more than the Joker's extra Coin). None: no card can serve."""
    hand = Counter(CARDS[c] for c in state["seats"][seat]["hand"])
    council = Counter(state["balconies"][balcony])
    shape = {c: min(n, hand[c]) for c, n in sorted(council.items()) if min(n, hand[c])}
    jokers = min(hand[JOKER], COUNCILORS_PER_BALCONY - sum(shape.values()))
    if jokers:
        shape[JOKER] = jokers
    return shape or None


def cheapest_cost(state: dict, seat: int, balcony: str) -> int | None:
    shape = cheapest_shape(state, seat, balcony)
    return None if shape is None else shape_cost(shape)


def queen_cities(state: dict, seat: int) -> list[str]:
    """Cities the seat may place a Merchant in with the Queen's help and can pay for: reachable by
    road, open to the seat's Merchant, and the cheapest payment plus the roads within its Coins."""
    cheapest = cheapest_cost(state, seat, QUEEN)
    if cheapest is None:
        return []
    coins = state["seats"][seat]["coins"]
    found = []
    for city in CITIES:
        roads = road_cost(state, city)
        if roads is not None and cheapest + roads <= coins and placing_problem(state, seat, city) is None:
            found.append(city)
    return found


# ---- For the pages: prices from a seat's view (player_view.CouncilOfFourSeatView) ---------------


def _view_price(view: Mapping[str, Any], balcony: str, cards: Any) -> int | None:
    if view["you"] is None or view["phase"] != ACTIONS:
        return None
    hand = [card["id"] for card in view["private"]["hand"]]
    try:
        return satisfy_coins(hand, view["balconies"][balcony], balcony, cards)
    except RuleError:
        return None


def _coins(view: Mapping[str, Any]) -> int:
    coins: int = view["seats"][view["you"]]["coins"]
    return coins


def permit_payment_cost(view: Mapping[str, Any], balcony: str, cards: list[str]) -> int | None:
    """The Coins the viewing seat pays to satisfy a region's Council with ``cards`` when acquiring a
    Permit; None when those cards cannot satisfy it or the seat has fewer Coins."""
    if balcony not in REGIONS:
        return None
    cost = _view_price(view, balcony, cards)
    if cost is None or cost > _coins(view):
        return None
    return cost


def queen_cost(view: Mapping[str, Any], city: str, cards: list[str]) -> int | None:
    """The Coins the viewing seat pays to satisfy the Queen's Council with ``cards`` and move the
    Queen to ``city`` (2 per road); None when those cards cannot satisfy it, no road leads there, or
    the seat has fewer Coins. The Servants for other Merchants in the city are not Coins: see
    ``merchants.servants_to_place``."""
    if not isinstance(city, str) or city not in CITIES:
        return None
    cost = _view_price(view, QUEEN, cards)
    roads = road_coins(view["queen"], city)
    if cost is None or roads is None or cost + roads > _coins(view):
        return None
    return cost + roads
