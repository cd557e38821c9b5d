"""Council of Four on a phone, step by step: a decision never asks more than one screen.

The seat page reads the step from its query (``?step=acquire_permit&balcony=coast&permit=C03&n=3``):
links carry the values chosen so far (plain links without JavaScript, htmx swaps the panel with it),
and the last step posts the concrete action like any control group (``choice`` and ``p_<name>``).

- The menu: the Main and Quick actions as links or buttons; *Acquire a Permit* lists the Councils the
  seat can satisfy, each Balcony drawn.
- Acquire a Permit: the Council, then one of its face-up Permits (cities and bonus), then the
  payment: only what the hand and the Coins can pay, the cheapest first, each with its price; with
  many ways to pay, tabs by number of Politics cards.
- Place a Merchant with the help of the Queen: the city (grouped by region, with the roads' Coins
  from where the Queen stands and the Servants to return), then the payment (roads included).
- Elect a Councilor, send a Servant, change the Permits and place a Merchant with a Permit: the
  choice's own form on a screen of its own.

What can be paid and its price come from the engine: the payments its choices offer (each priced,
the Queen's roads included), ``road_coins``, ``merchants.servants_to_place``; nothing here decides a
rule, and the engine validates what is posted."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import cast

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games.engines.council_of_four.board import (
    ADDITIONAL_MAIN_SERVANTS,
    CHANGE_PERMITS_SERVANTS,
    CITIES,
    ELECT_COINS,
    ENGAGE_COINS,
    PERMITS,
    QUEEN,
    REGIONS,
    ROAD_COINS,
    SATISFY_COINS,
    SEND_SERVANT_SERVANTS,
)
from games.engines.council_of_four.merchants import servants_to_place
from games.engines.council_of_four.payments import road_coins
from games.engines.council_of_four.player_view import CouncilOfFourSeatView, CouncilOfFourTableView
from games.engines.council_of_four.sentences import shape_words
from games.engines.kernel.choices import Choice
from games.presenters.base import Words, build_controls
from games.presenters.base import step_back as _back
from games.presenters.base import step_links as _links
from games.presenters.base import step_note as _note
from games.presenters.base import step_query as _query
from games.presenters.base import step_summary as _summary
from games.presenters.council_of_four_words import (
    CITY_HEX,
    COUNCILOR_HEX,
    balcony_name,
    bonus_text,
    coins,
    colour_word,
    region_word,
    servants,
)
from games.translation import say_to_reader

MAX_OFFERS = 8  # more ways to pay than this: tabs by number of cards, so the list fits one screen
QUICK_BUTTONS = ("engage_servant", "additional_main")  # in the Quick action list, one tap each
STEPS = ("acquire_permit", "queen_build", "elect", "send_servant", "build", "change_permits")

STEP_GONE = gettext_lazy("That choice is not offered any more: choose again.")
CANNOT_PAY = gettext_lazy("Your Politics cards and Coins cannot satisfy this Council now.")
PRICE_TABLE = gettext_lazy("Coins: 4 cards {c4} · 3 cards {c3} · 2 cards {c2} · 1 card {c1} · +1 per Joker.")
_coins, _servants = coins, servants


def _roads(coins: int) -> str:
    n = coins // ROAD_COINS
    return ngettext("{n} road", "{n} roads", n).format(n=n)


class Step:
    """The seat's view and choices, read once for every step."""

    def __init__(self, choices: list[Choice], view: CouncilOfFourSeatView, words: Words) -> None:
        self.choices, self.view, self.words = choices, view, words
        self.councilor_hex, self.city_hex = COUNCILOR_HEX, CITY_HEX
        self.seat: int = cast(int, view["you"])  # a seat's own view names it
        self.coins: int = view["seats"][self.seat]["coins"]
        self.hand = [card["id"] for card in view["private"]["hand"]]
        self.cities = {city["letter"]: city for city in view["cities"]}

    def of(self, kind: str) -> list[Choice]:
        return [c for c in self.choices if c["type"] == kind]

    def title(self, kind: str) -> str:
        """The engine's title of a kind of choice the seat has (a menu item)."""
        return say_to_reader(self.of(kind)[0].get("title") or "") or kind.replace("_", " ").capitalize()

    # ---- words and pictures ----------------------------------------------------------------

    def balcony_chips(self, balcony: str) -> list[str]:
        return [self.councilor_hex.get(c, "#999") for c in self.view["balconies"][balcony]]

    def balcony_row(self, balcony: str) -> dict:
        colours = self.view["balconies"][balcony]
        return {
            "chips": self.balcony_chips(balcony),
            "text": f"{balcony_name(balcony)}: {', '.join(colour_word(c) for c in colours)}",
        }

    def offers(self, choice: Choice) -> list[dict]:
        """The payments the choice offers (cheapest first), with their colours by the hand's cards."""
        colours = {card["id"]: card["colour"] for card in self.view["private"]["hand"]}
        offers = []
        for option in choice["params"]["cards"]["options"]:
            shape: dict[str, int] = {}
            for card in option["cards"]:
                shape[colours[card]] = shape.get(colours[card], 0) + 1
            offers.append(
                {
                    "cards": option["cards"],
                    "shape": shape,
                    "size": len(option["cards"]),
                    "coins": option["coins"],
                }
            )
        return offers

    def servants(self, city: str) -> int:
        here = self.cities[city]
        return servants_to_place(here["merchants"], here["neutral"], self.seat)

    def permit_words(self, permit: str) -> tuple[str, str, list[str]]:
        tile = PERMITS[permit]
        names = ", ".join(CITIES[c]["name"] for c in tile["cities"])
        chips = [self.city_hex.get(CITIES[c]["colour"], "#999") for c in tile["cities"]]
        bonus = bonus_text(tile["bonus"])
        return names, bonus, chips

    def offer_group(
        self, choice: Choice, fields: list[tuple[str, str]], offers: list[dict], step: dict, extra: int = 0
    ) -> dict:
        """The payments as one button each (cheapest first), tabs by number of cards when many."""
        cheapest: dict[int, int] = {}
        for o in offers:  # sorted cheapest first: the first offer of each size is its cheapest
            cheapest.setdefault(o["size"], o["coins"])
        tabs = []
        if len(offers) > MAX_OFFERS:
            size = int(step["n"]) if str(step.get("n") or "").isdigit() else 0
            size = size if size in cheapest else next(iter(cheapest))
            tabs = [
                {
                    "query": _query(**{**step, "n": n}),
                    "label": ngettext("{n} card", "{n} cards", n).format(n=n),
                    "detail": _("from {coins}").format(coins=_coins(coins)),
                    "current": n == size,
                }
                for n, coins in cheapest.items()
            ]
            offers = [o for o in offers if o["size"] == size]
        return {
            "kind": "offers",
            "type": choice["type"],
            "title": _("Pay with your Politics cards"),
            "tabs": tabs,
            "offers": [self.offer(o, fields, extra) for o in offers],
            "footnote": str(PRICE_TABLE).format(
                c4=SATISFY_COINS[4], c3=SATISFY_COINS[3], c2=SATISFY_COINS[2], c1=SATISFY_COINS[1]
            ),
            "bargaining": False,
        }

    def offer(self, offer: dict, fields: list[tuple[str, str]], extra: int) -> dict:
        coins = _coins(offer["coins"])
        if extra:
            coins += " " + _("({n} for the roads)").format(n=extra)
        return {
            "fields": [*fields, *(("p_cards", json.dumps(card)) for card in offer["cards"])],
            "chips": [self.councilor_hex.get(c, "#999") for c, n in offer["shape"].items() for _ in range(n)],
            "label": say_to_reader(shape_words(offer["shape"])),
            "coins": coins,
        }


# ---- The menu --------------------------------------------------------------------------------


def _council_links(s: Step) -> dict:
    links = []
    for choice in s.of("acquire_permit"):
        balcony = choice["params"]["balcony"]["options"][0]
        offers = s.offers(choice)
        detail = _("from {coins}").format(coins=_coins(offers[0]["coins"])) if offers else ""
        links.append(
            {
                "query": _query(step="acquire_permit", balcony=balcony),
                "label": balcony_name(balcony),
                "detail": detail,
                "chips": s.balcony_chips(balcony),
                "data": balcony,
            }
        )
    title = _("{action}: satisfy a Council").format(action=s.title("acquire_permit"))
    return _links("acquire_permit", title, links)


def _menu(s: Step) -> list[dict]:
    main, quick, rest = [], [], []
    for kind in ("elect", "build", "queen_build"):
        if s.of(kind):
            main.append(
                {
                    "query": _query(step=kind),
                    "label": s.title(kind),
                    "detail": _menu_detail(s, kind),
                    "data": kind,
                }
            )
    for kind in ("engage_servant", "send_servant", "change_permits", "additional_main"):
        if not s.of(kind):
            continue
        item = {"label": s.title(kind), "detail": _menu_detail(s, kind), "data": kind}
        if kind in QUICK_BUTTONS:  # nothing to choose: the item is the button itself
            quick.append({**item, "post": kind})
        else:
            quick.append({**item, "query": _query(step=kind)})
    others = [c for c in s.choices if c["type"] not in STEPS and c["type"] not in QUICK_BUTTONS]
    groups = []
    if main:
        groups.append(_links("main", _("Main action"), main))
    if s.of("acquire_permit"):
        groups.append(_council_links(s))
    if quick:
        groups.append(_links("quick", _("Quick action"), quick))
    rest = build_controls(others, s.words)
    return groups + rest


def _menu_detail(s: Step, kind: str) -> str:
    if kind == "build":
        count = len(s.of("build"))
        return ngettext("{n} Permit to use", "{n} Permits to use", count).format(n=count)
    return _menu_cost(kind)


def _menu_cost(kind: str) -> str:
    """What a menu item costs or gives, in the engine's numbers."""
    if kind == "elect":
        return _("receive {coins}").format(coins=_coins(ELECT_COINS))
    costs = {
        "send_servant": lambda: _servants(SEND_SERVANT_SERVANTS),
        "change_permits": lambda: _servants(CHANGE_PERMITS_SERVANTS),
        "engage_servant": lambda: _coins(ENGAGE_COINS),
        "additional_main": lambda: _servants(ADDITIONAL_MAIN_SERVANTS),
    }
    return costs[kind]() if kind in costs else ""


# ---- The steps -------------------------------------------------------------------------------


def _form_step(s: Step, kind: str, step: dict) -> list[dict] | None:
    """Elect, send a Servant, change the Permits, build with a Permit: the choice's own form."""
    return build_controls(s.of(kind), s.words)


def _acquire_step(s: Step, step: dict) -> list[dict] | None:
    balcony = step.get("balcony")
    if balcony is None:
        return [_council_links(s)]
    choice = next((c for c in s.of("acquire_permit") if c["params"]["balcony"]["options"] == [balcony]), None)
    if choice is None:
        return None
    council = _summary([s.balcony_row(balcony)], _("The Council you satisfy"))
    permit = step.get("permit")
    if permit is None:
        links = []
        for tile in choice["params"]["permit"]["options"]:
            names, bonus, chips = s.permit_words(tile)
            links.append(
                {
                    "query": _query(step="acquire_permit", balcony=balcony, permit=tile),
                    "label": names,
                    "detail": bonus,
                    "chips": chips,
                    "data": tile,
                }
            )
        return [council, _links("acquire_permit", _("Choose a face-up Permit"), links)]
    if permit not in choice["params"]["permit"]["options"]:
        return None
    names, bonus, chips = s.permit_words(permit)
    said = _("Permit: {cities}").format(cities=names) + (f" ({bonus})" if bonus else "")
    council["rows"].append({"chips": chips, "text": said})
    offers = s.offers(choice)
    if not offers:
        return [council, _note(str(CANNOT_PAY), "error")]
    fields = [("p_balcony", json.dumps(balcony)), ("p_permit", json.dumps(permit))]
    here = {"step": "acquire_permit", "balcony": balcony, "permit": permit}
    return [
        _back(_query(step="acquire_permit", balcony=balcony), _("Another Permit")),
        council,
        s.offer_group(choice, fields, offers, {**here, "n": step.get("n")}),
    ]


def _queen_step(s: Step, step: dict) -> list[dict] | None:
    """The city (one choice per city the seat can reach and pay for), then its payments."""
    by_city = {c["params"]["city"]["options"][0]: c for c in s.of("queen_build")}
    queen: str = s.view["queen"]
    city = step.get("city")
    options = list(by_city)
    if city is None:
        columns = []
        for region in REGIONS:
            links = []
            for letter in [c for c in options if CITIES[c]["region"] == region]:
                roads = road_coins(queen, letter) or 0
                detail = _("the Queen stays") if roads == 0 else f"{_roads(roads)}: {_coins(roads)}"
                servants = s.servants(letter)
                if servants:
                    detail += f" · {_servants(servants)}"
                links.append(
                    {
                        "query": _query(step="queen_build", city=letter),
                        "label": CITIES[letter]["name"],
                        "detail": detail,
                        "chips": [s.city_hex.get(CITIES[letter]["colour"], "#999")],
                        "data": letter,
                    }
                )
            columns.append({"title": region_word(region), "links": links})
        groups = [
            _note(
                _("The Queen is in {city}. Choose the city of your Merchant:").format(
                    city=CITIES[queen]["name"]
                )
            ),
            {"kind": "columns", "type": "queen_build", "columns": columns, "bargaining": False},
        ]
        return groups
    if city not in options:
        return None
    roads = road_coins(queen, city) or 0
    rows = [s.balcony_row(QUEEN)]
    move = (
        _("The Queen stays in {city}: no roads to pay.").format(city=CITIES[city]["name"])
        if roads == 0
        else _("The Queen travels {roads} from {start} to {city}: {coins}.").format(
            roads=_roads(roads), start=CITIES[queen]["name"], city=CITIES[city]["name"], coins=_coins(roads)
        )
    )
    rows.append({"chips": [s.city_hex.get(CITIES[city]["colour"], "#999")], "text": move})
    servants = s.servants(city)
    if servants:
        said = _("You return {servants} for the other Merchants there.").format(servants=_servants(servants))
        rows.append({"chips": [], "text": said})
    summary = _summary(rows, _("A Merchant in {city}").format(city=CITIES[city]["name"]))
    choice = by_city[city]
    offers = s.offers(choice)
    if not offers:
        return [summary, _note(str(CANNOT_PAY), "error")]
    fields = [("p_city", json.dumps(city))]
    return [
        _back(_query(step="queen_build"), _("Another city")),
        summary,
        s.offer_group(
            choice, fields, offers, {"step": "queen_build", "city": city, "n": step.get("n")}, roads
        ),
    ]


def c4_controls(
    choices: list[Choice], view: CouncilOfFourTableView, words: Words, step: Mapping[str, str]
) -> list[dict]:
    """The groups the phone shows now: the menu, or the step the query asks for."""
    if not any(c["type"] in STEPS or c["type"] in QUICK_BUTTONS for c in choices):
        return build_controls(choices, words)
    s = Step(choices, cast(CouncilOfFourSeatView, view), words)  # a seat's screen: its own view
    wanted = {k: str(step[k]) for k in ("step", "balcony", "permit", "city", "n") if step.get(k)}
    kind = wanted.get("step")
    if kind is None:
        return _menu(s)
    groups = None
    if s.of(kind):
        if kind == "acquire_permit":
            groups = _acquire_step(s, wanted)
        elif kind == "queen_build":
            groups = _queen_step(s, wanted)
        elif kind in STEPS:
            groups = _form_step(s, kind, wanted)
    if groups is None:
        return [_note(str(STEP_GONE), "error"), *_menu(s)]
    if groups and groups[0]["kind"] != "back":
        groups.insert(0, _back())
    return groups
