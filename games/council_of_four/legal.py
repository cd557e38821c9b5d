"""Every complete, concrete action a seat may take now (the UI builds its buttons from these; a bot
or a property test picks one at random). Each applies without RuleError."""

from collections import Counter
from itertools import combinations, product

from games.council_of_four.board import (
    ADDITIONAL_MAIN_SERVANTS,
    BALCONIES,
    CARDS,
    CHANGE_PERMITS_SERVANTS,
    CITY_LETTERS,
    COUNCILORS_PER_BALCONY,
    DISTANCES,
    ENGAGE_COINS,
    JOKER,
    PERMITS,
    QUEEN,
    REGIONS,
    ROAD_COINS,
    SATISFY_COINS,
    SEND_SERVANT_SERVANTS,
)
from games.council_of_four.flow import (
    CITY_TOKEN,
    PERMIT_BONUS,
    city_token_options,
    free_permit_options,
    permit_bonus_options,
    placing_problem,
)


def payments(state: dict, seat: int, balcony: str) -> list[tuple[list[str], int]]:
    """Every distinct way to satisfy a Balcony (by card colours, not card ids) with its Coin cost.
    The card ids are picked deterministically: the lowest ids of each colour in the hand."""
    by_colour: dict[str, list[str]] = {}
    for card in sorted(state["seats"][seat]["hand"]):
        by_colour.setdefault(CARDS[card], []).append(card)
    council = Counter(state["balconies"][balcony])
    colours = sorted(council)
    ranges = [range(min(council[c], len(by_colour.get(c, []))) + 1) for c in colours]
    jokers = by_colour.get(JOKER, [])
    found = []
    for counts in product(*ranges, range(min(len(jokers), COUNCILORS_PER_BALCONY) + 1)):
        total = sum(counts)
        if not 1 <= total <= COUNCILORS_PER_BALCONY:
            continue
        cards = [
            card for colour, n in zip(colours, counts, strict=False) for card in by_colour.get(colour, [])[:n]
        ]
        cards += jokers[: counts[-1]]
        found.append((cards, SATISFY_COINS[total] + counts[-1]))
    return found


def legal(state: dict, seat: int | None) -> list[dict]:
    if state["over"]:
        return []
    if state["phase"] == "deal":
        return [{"type": "deal", "seat": None}] if seat is None else []
    if seat != state["current"]:
        return []
    if state["phase"] == "draw":
        return [{"type": "draw", "seat": seat}]
    if state["pending"]:
        return _choices(state, seat, state["pending"][0])
    actions: list[dict] = []
    if state["turn"]["main_left"] > 0:
        actions += _main(state, seat)
    if state["turn"]["quick_left"] > 0:
        actions += _quick(state, seat)
    if state["turn"]["mains_done"] > 0:
        actions.append({"type": "end_turn", "seat": seat})
    return actions


def _choices(state: dict, seat: int, pending: dict) -> list[dict]:
    if pending["kind"] == CITY_TOKEN:
        options = city_token_options(state, seat)
        count = min(pending["count"], len(options))
        return [
            {"type": "choose_city_bonus", "seat": seat, "cities": list(pick)}
            for pick in combinations(options, count)
        ]
    if pending["kind"] == PERMIT_BONUS:
        return [
            {"type": "choose_permit_bonus", "seat": seat, "permit": p}
            for p in permit_bonus_options(state, seat)
        ]
    return [{"type": "take_free_permit", "seat": seat, "permit": p} for p in free_permit_options(state)]


def _elections(state: dict, seat: int, type_: str) -> list[dict]:
    return [
        {"type": type_, "seat": seat, "colour": colour, "balcony": balcony}
        for balcony in BALCONIES
        for colour, n in state["councilors"].items()
        if n > 0
    ]


def _main(state: dict, seat: int) -> list[dict]:
    player = state["seats"][seat]
    actions = _elections(state, seat, "elect")
    for region in REGIONS:
        for cards, cost in payments(state, seat, region):
            if cost > player["coins"]:
                continue
            for permit in state["face_up"][region]:
                actions.append(
                    {
                        "type": "acquire_permit",
                        "seat": seat,
                        "balcony": region,
                        "cards": cards,
                        "permit": permit,
                    }
                )
    for owned in player["permits"]:
        if owned["face_up"]:
            for city in PERMITS[owned["id"]]["cities"]:
                if placing_problem(state, seat, city) is None:
                    actions.append({"type": "build", "seat": seat, "permit": owned["id"], "city": city})
    places = [c for c in CITY_LETTERS if placing_problem(state, seat, c) is None]
    if places:
        for cards, cost in payments(state, seat, QUEEN):
            for city in places:
                if cost + ROAD_COINS * DISTANCES[state["queen"]][city] <= player["coins"]:
                    actions.append({"type": "queen_build", "seat": seat, "cards": cards, "city": city})
    return actions


def _quick(state: dict, seat: int) -> list[dict]:
    player = state["seats"][seat]
    actions = []
    if player["coins"] >= ENGAGE_COINS:
        actions.append({"type": "engage_servant", "seat": seat})
    if player["servants"] >= CHANGE_PERMITS_SERVANTS:
        actions += [
            {"type": "change_permits", "seat": seat, "region": r} for r in REGIONS if state["face_up"][r]
        ]
    if player["servants"] >= SEND_SERVANT_SERVANTS:
        actions += _elections(state, seat, "send_servant")
    if player["servants"] >= ADDITIONAL_MAIN_SERVANTS:
        actions.append({"type": "additional_main", "seat": seat})
    return actions
