"""What a seat may do now, as choices with parameters (docs/architecture.md section 3, revised 2026-11-23;
``games.engines.kernel.choices``). One choice per decision, never one per combination: a phone asks step by
step (the Council, then the Permit, then the cards; the Queen: the city, then the cards) and the
size of a choice never grows with the ways to pay.

Parameters per action type:

- ``deal`` (the table), ``engage_servant``, ``additional_main``, ``end_turn``: none.
- ``elect`` / ``send_servant``: ``balcony`` (pick), ``colour`` (pick: a Councilor beside the board).
- ``acquire_permit``: one choice per region whose Council the seat can afford to satisfy:
  ``balcony`` (pick, that one region), ``permit`` (pick: its face-up Permits), ``cards`` (payment:
  each distinct way by colours, Jokers included, the hand can satisfy that Council and the Coins
  can pay, with its price).
- ``build``: one choice per face-up Permit the seat holds with a city open to it: ``permit`` (pick,
  that one Permit), ``city`` (pick: its cities the seat may build in).
- ``queen_build``: one choice per city reachable, open and affordable: ``city`` (pick, that one
  city), ``cards`` (payment: the ways to satisfy the Queen's Council that the Coins can pay with
  the roads to that city, each priced with them).
- ``change_permits``: ``region`` (pick: regions with face-up Permits).
- ``choose_city_bonus``: ``cities`` (cards: exactly the number of tokens due);
  ``choose_permit_bonus``, ``take_free_permit``: ``permit`` (pick).

The cards and the Coins constrain each other: the payments offered are priced and affordable, so
every combination of offered values is one ``apply`` accepts (``apply`` still validates each)."""

from __future__ import annotations

from collections.abc import Callable

from games.engines.council_of_four.board import (
    ADDITIONAL_MAIN_SERVANTS,
    BALCONIES,
    CHANGE_PERMITS_SERVANTS,
    COUNCILOR_COLOURS,
    ENGAGE_COINS,
    PERMITS,
    QUEEN,
    REGIONS,
    SEND_SERVANT_SERVANTS,
)
from games.engines.council_of_four.bonuses import (
    CITY_TOKEN,
    PERMIT_BONUS,
    city_token_options,
    free_permit_options,
    permit_bonus_options,
)
from games.engines.council_of_four.merchants import placing_problem
from games.engines.council_of_four.payments import payment_offers, queen_cities, road_cost
from games.engines.council_of_four.sentences import payment_label
from games.engines.council_of_four.turn import ACTIONS, DEAL
from games.engines.kernel.choices import Choice, Payment, cards, choice, payment, pick


def legal_actions(state: dict, seat: int | None) -> list[Choice]:
    """What ``seat`` (None: the table) may do now: nothing once the game is over, else the choices
    of the phase."""
    if state["over"]:
        return []
    return CHOICES_BY_PHASE[state["phase"]](state, seat)


def _deal(state: dict, seat: int | None) -> list[Choice]:
    return [choice("deal", None)] if seat is None else []


def _turn(state: dict, seat: int | None) -> list[Choice]:
    """The seat whose turn it is: a pending bonus choice first, else its Main and Quick actions and,
    after a Main action, ending the turn."""
    if seat is None or seat != state["current"]:
        return []
    if state["pending"]:
        return [_pending_choice(state, seat, state["pending"][0])]
    choices: list[Choice] = []
    if state["turn"]["main_left"] > 0:
        choices += _main(state, seat)
    if state["turn"]["quick_left"] > 0:
        choices += _quick(state, seat)
    if state["turn"]["mains_done"] > 0:
        choices.append(choice("end_turn", seat))
    return choices


CHOICES_BY_PHASE: dict[str, Callable[[dict, int | None], list[Choice]]] = {DEAL: _deal, ACTIONS: _turn}


def _pending_choice(state: dict, seat: int, pending: dict) -> Choice:
    if pending["kind"] == CITY_TOKEN:
        options = city_token_options(state, seat)
        count = min(pending["count"], len(options))
        return choice("choose_city_bonus", seat, cities=cards(options, count, count))
    if pending["kind"] == PERMIT_BONUS:
        return choice("choose_permit_bonus", seat, permit=pick(permit_bonus_options(state, seat)))
    return choice("take_free_permit", seat, permit=pick(free_permit_options(state)))


def _election(state: dict, seat: int, type_: str) -> Choice:
    # In the board's colour order, not the dict's: a state read back from PostgreSQL (jsonb) has
    # its keys in another order, and the phone's options must not change with a reload.
    colours = [colour for colour in COUNCILOR_COLOURS if state["councilors"].get(colour, 0) > 0]
    return choice(type_, seat, balcony=pick(list(BALCONIES)), colour=pick(colours))


def _main(state: dict, seat: int) -> list[Choice]:
    player = state["seats"][seat]
    choices = [_election(state, seat, "elect")]
    for region in REGIONS:
        offers = payments(state, seat, region)
        if state["face_up"][region] and offers:
            choices.append(
                choice(
                    "acquire_permit",
                    seat,
                    balcony=pick([region]),
                    permit=pick(state["face_up"][region]),
                    cards=payment(offers),
                )
            )
    for owned in player["permits"]:
        if owned["face_up"]:
            cities = [c for c in PERMITS[owned["id"]]["cities"] if placing_problem(state, seat, c) is None]
            if cities:
                choices.append(choice("build", seat, permit=pick([owned["id"]]), city=pick(cities)))
    for city in queen_cities(state, seat):
        offers = payments(state, seat, QUEEN, road_cost(state, city) or 0)
        if offers:
            choices.append(choice("queen_build", seat, city=pick([city]), cards=payment(offers)))
    return choices


def payments(state: dict, seat: int, balcony: str, roads: int = 0) -> list[Payment]:
    """The payments offered to satisfy a Balcony: one per distinct way by colours (Jokers
    included) that the hand can satisfy it and the Coins can pay with ``roads`` Coins on top (the
    Queen's), cheapest first, each with its whole price (``payments.payment_offers``)."""
    offers = payment_offers(
        state["seats"][seat]["hand"], state["balconies"][balcony], state["seats"][seat]["coins"], roads
    )
    return [
        {"cards": o["cards"], "coins": o["coins"], "label": payment_label(o["shape"], o["coins"], roads)}
        for o in offers
    ]


def _quick(state: dict, seat: int) -> list[Choice]:
    player = state["seats"][seat]
    choices = []
    if player["coins"] >= ENGAGE_COINS:
        choices.append(choice("engage_servant", seat))
    if player["servants"] >= CHANGE_PERMITS_SERVANTS:
        regions = [r for r in REGIONS if state["face_up"][r]]
        if regions:
            choices.append(choice("change_permits", seat, region=pick(regions)))
    if player["servants"] >= SEND_SERVANT_SERVANTS:
        choices.append(_election(state, seat, "send_servant"))
    if player["servants"] >= ADDITIONAL_MAIN_SERVANTS:
        choices.append(choice("additional_main", seat))
    return choices
