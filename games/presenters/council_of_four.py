"""Council of Four: the map, Balconies, Permits and tracks, and its buttons' labels.

Reads only the keys the engine's ``player_view.py`` declares (``CouncilOfFourTableView`` and, for a
seat, ``CouncilOfFourSeatView`` with its ``private`` hand); prices come from the engine's
``payments.permit_payment_cost`` and ``queen_cost``, costs from its board constants."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, cast

from games.engines.council_of_four.board import (
    ADDITIONAL_MAIN_SERVANTS,
    CARDS,
    CHANGE_PERMITS_SERVANTS,
    DISTANCES,
    ENGAGE_COINS,
    HAND_SIZE,
    REGIONS,
)
from games.engines.council_of_four.merchants import servants_to_place
from games.engines.council_of_four.payments import permit_payment_cost, queen_cost
from games.engines.council_of_four.player_view import CouncilOfFourSeatView, CouncilOfFourTableView
from games.engines.council_of_four.sentences import CHOICE_TITLES
from games.engines.kernel.choices import Choice
from games.engines.kernel.words import count, with_article
from games.presenters.base import (
    Presenter,
    Words,
    generic_label,
    key_words,
    labelled_actions,
    offered,
    seat_name,
)
from games.presenters.council_of_four_steps import c4_controls
from games.presenters.council_of_four_words import (
    REGION_FILL,
    balcony_name,
    bonus_text,
    city_hex,
    city_name,
    coins,
    councilor_hex,
    permit_cities,
    permit_text,
    servants,
)

MAP_W, MAP_H = 1000, 600
# The standard board (board.json, Juvelar as the Queen's city), placed so the 18 roads do not cross.
CITY_XY = {
    "C": (205, 95),
    "A": (80, 215),
    "D": (250, 300),
    "B": (105, 420),
    "E": (230, 520),
    "F": (415, 95),
    "I": (585, 150),
    "G": (420, 290),
    "J": (560, 345),
    "H": (435, 505),
    "K": (760, 95),
    "N": (915, 210),
    "L": (735, 330),
    "O": (900, 430),
    "M": (745, 520),
}
NEUTRAL = {"hex": "#ffffff", "name": "Neutral Merchant"}
UNKNOWN_SEAT_HEX = "#555"

# ---- The board -------------------------------------------------------------------------------


def _markers(city: Mapping[str, Any], names: dict[int, dict]) -> list[dict]:
    """The Merchants in a city, in the order placed, under it."""
    owners = [names.get(s, NEUTRAL) for s in city["merchants"]]
    if city["neutral"]:
        owners.append(NEUTRAL)
    x, y = CITY_XY[city["letter"]]
    return [
        {"hex": owner["hex"], "name": owner["name"], "x": x - 9 * (len(owners) - 1) + 18 * k, "y": y + 30}
        for k, owner in enumerate(owners)
    ]


def _city(city: Mapping[str, Any], names: dict[int, dict]) -> dict:
    x, y = CITY_XY[city["letter"]]
    token = city["token"]
    return {
        "letter": city["letter"],
        "name": city["name"],
        "region": city["region"],
        "colour": city["colour"],
        "hex": city_hex(city["letter"]),
        "x": x,
        "y": y,
        "token": bonus_text(token["bonus"]) if token else "",
        "markers": _markers(city, names),
        "queen": city["queen"],
    }


def _map(view: CouncilOfFourTableView, names: dict[int, dict]) -> dict:
    band = MAP_W / len(REGIONS)
    roads = [
        {"x1": CITY_XY[a][0], "y1": CITY_XY[a][1], "x2": CITY_XY[b][0], "y2": CITY_XY[b][1]}
        for a, b in view["roads"]
    ]
    regions = [
        {"name": r.capitalize(), "x": band * i, "w": band, "fill": REGION_FILL.get(r, "#eee")}
        for i, r in enumerate(REGIONS)
    ]
    cities = [_city(city, names) for city in view["cities"]]
    return {"w": MAP_W, "h": MAP_H, "regions": regions, "roads": roads, "cities": cities}


def _balconies(view: CouncilOfFourTableView) -> list[dict]:
    """The four Balconies, the Queen's last, their Councilors the newest first."""
    return [
        {
            "name": balcony_name(balcony),
            "councilors": [{"colour": c, "hex": councilor_hex(c)} for c in councilors],
        }
        for balcony, councilors in view["balconies"].items()
    ]


def _reserve(view: CouncilOfFourTableView) -> list[dict]:
    """The Councilors beside the board, in the board's colour order."""
    return [
        {"colour": c, "count": view["councilors"][c], "hex": councilor_hex(c)}
        for c in view["councilor_colours"]
        if view["councilors"].get(c)
    ]


def _permit(tile: Mapping[str, Any]) -> dict:
    return {
        "id": tile["id"],
        "letters": " ".join(tile["cities"]),
        "cities": permit_cities(tile["id"]),
        "bonus": bonus_text(tile["bonus"]),
    }


def _permits(view: CouncilOfFourTableView) -> list[dict]:
    return [
        {"region": region.capitalize(), "tiles": [_permit(t) for t in shown["face_up"]]}
        for region, shown in view["permits"].items()
    ]


def _players(view: CouncilOfFourTableView, names: dict[int, dict]) -> list[dict]:
    return [
        {
            **names.get(p["index"], {"name": p["name"], "hex": UNKNOWN_SEAT_HEX}),
            "acting": p["index"] in view["to_act"],
            "victory": p["victory"],
            "coins": p["coins"],
            "nobility": p["nobility"],
            "servants": p["servants"],
            "merchants_left": p["merchants_left"],
            "permits": len(p["permits"]),
            "cards": p["hand_count"],
        }
        for p in view["seats"]
    ]


def _result(result: Mapping[str, Any], names: dict[int, dict]) -> dict:
    rows = []
    for i in result["ranking"]:
        parts = result["breakdown"][i]
        rows.append(
            {
                **names.get(i, {"name": f"Seat {i}", "hex": UNKNOWN_SEAT_HEX}),
                "position": result["positions"][i],
                "winner": i in result["winners"],
                **{k: parts[k] for k in ("track", "rewards", "nobility", "permits", "total")},
            }
        )
    return {"rows": rows, "winners": [seat_name(names, i) for i in result["winners"]]}


def present(view: CouncilOfFourTableView, names: dict[int, dict], result: Mapping[str, Any] | None) -> dict:
    """Map, Balconies, face-up Permits and tracks from a Council of Four view (table or seat)."""
    return {
        "doing": doing(view, names),
        "prompt": prompt(view),
        "phase": key_words(view["phase"]),
        "map": _map(view, names),
        "queen": city_name(view["queen"]),
        "balconies": _balconies(view),
        "reserve": _reserve(view),
        "permits": _permits(view),
        "players": _players(view, names),
        "result": _result(result, names) if result else None,
        "deck_count": view["politics"]["deck_count"],
    }


# ---- Who does what now -----------------------------------------------------------------------

GAME_OVER = "The game is over."
SETTING_UP = "The table sets up the game."
DOING_PENDING = {
    "city_token": "chooses which City token bonus to take again",
    "permit_bonus": "chooses which Permit bonus to take again",
    "free_permit": "chooses a free face-up Permit",
}
PROMPT_PENDING = {
    "city_token": "Choose which City token bonus to take again.",
    "permit_bonus": "Choose which Permit bonus to take again.",
    "free_permit": "Choose a face-up Permit to take for free.",
}
LAST_TURNS = " {name} placed their last Merchant: everyone else plays one last turn."


def _mains(n: int) -> str:
    return count(n, "Main action")


def doing(view: CouncilOfFourTableView, names: dict[int, dict]) -> str:
    """What the table waits for, in a sentence."""
    turn = view["turn"]
    if view["over"]:
        return GAME_OVER
    if turn is None:
        return SETTING_UP
    pending = view["pending"]
    if pending:
        return f"{turn['name']} {DOING_PENDING[pending['kind']]}."
    final = view["final"]
    last = LAST_TURNS.format(name=final["name"]) if final else ""
    left = [_mains(turn["main_left"])] if turn["main_left"] else []
    if turn["quick_left"]:
        left.append("a Quick action")
    todo = " and ".join(left) if left else "nothing but ending the turn"
    return f"{turn['name']}'s turn: {todo} left.{last}"


def prompt(view: CouncilOfFourTableView) -> str:
    """What the seat whose turn it is may do now."""
    if view["pending"]:
        return PROMPT_PENDING[view["pending"]["kind"]]
    turn = view["turn"]
    if turn is None:
        return ""
    main, quick = turn["main_left"], turn["quick_left"]
    if main and quick:
        return f"{_mains(main)} and a Quick action left, in any order."
    if main:
        return f"{_mains(main)} left."
    if quick:
        return "A Quick action left, or end your turn."
    return "End your turn."


# ---- The buttons' words ----------------------------------------------------------------------


def _priced(colours: str, cost: int | None) -> str:
    return f"{colours}, {coins(cost)}" if cost is not None else colours


def _card_colours(view: CouncilOfFourTableView, cards: list[str]) -> str:
    """The colours of cards of the viewing seat's hand ("black + joker")."""
    if view["you"] is None:
        return " + ".join("?" for _ in cards)
    hand = {card["id"]: card["colour"] for card in cast(CouncilOfFourSeatView, view)["private"]["hand"]}
    return " + ".join(hand.get(c, "?") for c in cards)


def _acquire_label(action: Mapping[str, Any], view: CouncilOfFourTableView) -> str:
    cards = action.get("cards") or []
    cost = permit_payment_cost(view, action["balcony"], cards)
    return (
        f"{permit_text(action.get('permit'))} from the {balcony_name(action['balcony'])}: "
        f"pay {_priced(_card_colours(view, cards), cost)}"
    )


def _queen_label(action: Mapping[str, Any], view: CouncilOfFourTableView) -> str:
    cards = action.get("cards") or []
    roads = DISTANCES[view["queen"]].get(action["city"], 0)
    move = count(roads, "road") if roads else "the Queen stays"
    cost = queen_cost(view, action["city"], cards)
    return (
        f"Place a Merchant in {city_name(action['city'])} ({move}): "
        f"pay {_priced(_card_colours(view, cards), cost)}"
    )


def _election_label(action: Mapping[str, Any]) -> str:
    councilor = with_article(f"{action.get('colour')} Councilor")
    return f"{councilor} in the {balcony_name(str(action.get('balcony')))}"


# Buttons whose words never change: action type -> (label, group).
FIXED_LABELS = {
    "deal": (f"Set up the board and deal {HAND_SIZE} Politics cards each", "main"),
    "engage_servant": (f"Engage a Servant for {coins(ENGAGE_COINS)}", "quick"),
    "additional_main": (f"Perform an additional Main action ({servants(ADDITIONAL_MAIN_SERVANTS)})", "quick"),
    "end_turn": (CHOICE_TITLES["end_turn"], "main"),
}


def _c4_label(action: dict, view: CouncilOfFourTableView, names: dict[int, dict]) -> tuple[str, str]:
    """Council of Four buttons in the rulebook's words, with what they cost (the engine's prices)."""
    kind = action.get("type")
    if kind in FIXED_LABELS:
        return FIXED_LABELS[kind]
    if kind == "elect":
        return f"Elect {_election_label(action)}", "elect"
    if kind == "send_servant":
        return f"Send a Servant to elect {_election_label(action)}", "quick"
    if kind == "acquire_permit":
        return _acquire_label(action, view), "acquire"
    if kind == "build":
        return (
            f"Place a Merchant in {city_name(action['city'])} with {permit_text(action['permit'], bonus=False)}",
            "build",
        )
    if kind == "queen_build":
        return _queen_label(action, view), "queen"
    return _choice_label(action)


def _choice_label(action: dict) -> tuple[str, str]:
    kind = action.get("type")
    if kind == "change_permits":
        region = str(action.get("region")).capitalize()
        return f"Change the face-up {region} Permits ({servants(CHANGE_PERMITS_SERVANTS)})", "quick"
    if kind == "choose_city_bonus":
        return "Take again the City token bonus of " + " and ".join(
            city_name(c) for c in action.get("cities") or []
        ), "main"
    if kind == "choose_permit_bonus":
        return f"Take again the bonus of {permit_text(action.get('permit'))}", "main"
    if kind == "take_free_permit":
        return f"Take {permit_text(action.get('permit'))} for free", "main"
    return generic_label(action), "main"


def _c4_private(view: CouncilOfFourTableView) -> dict | None:
    """The viewing seat's Politics cards (None at the table)."""
    if view["you"] is None:
        return None
    hand = [
        {"id": card["id"], "colour": card["colour"], "hex": councilor_hex(card["colour"])}
        for card in cast(CouncilOfFourSeatView, view)["private"]["hand"]
    ]
    return {"hand": hand}


def city_with_servants(letter: str, view: CouncilOfFourTableView) -> str:
    """A city to place a Merchant in, with the Servants it costs (RULES FOR PLACING A MERCHANT)."""
    city = next(c for c in view["cities"] if c["letter"] == letter)
    cost = servants_to_place(city["merchants"], city["neutral"], cast(int, view["you"]))  # a seat builds
    return f"{city_name(letter)} (return {servants(cost)})" if cost else city_name(letter)


# The words of one option of a choice with several parameters, by parameter.
OPTION_WORDS: dict[str, Callable[[Any], str]] = {
    "cards": lambda v: str(CARDS.get(v, "a card")).capitalize(),
    "permit": permit_text,
    "city": city_name,
    "balcony": balcony_name,
    "colour": lambda v: f"{str(v).capitalize()} Councilor",
}


def _c4_words(view: CouncilOfFourTableView, names: dict[int, dict], choices: list[Choice]) -> Words:
    """The buttons in the labeller's words; a build titled by its Permit when it has one (the
    Council is in the step: a single option is not asked); the options of a choice with several
    parameters in their own words, a Balcony's and a Councilor's colours beside them."""
    words = Words(names, hide_fixed=True)
    for choice, name, value, action in labelled_actions(choices):
        text = _c4_label(action, view, names)[0]
        words.title_is(choice, text) if name is None else words.option_is(choice, name, value, text)
    for choice, name, value in offered(choices):
        if choice["type"] == "build" and name == "city":
            words.option_is(choice, name, value, city_with_servants(value, view))
        elif len(choice["params"]) > 1 and name in OPTION_WORDS:
            words.option_is(choice, name, value, OPTION_WORDS[name](value))
        if name == "balcony" and choice["type"] in ("elect", "send_servant"):
            words.chips_are(choice, name, value, [councilor_hex(c) for c in view["balconies"].get(value, [])])
        elif name == "colour":
            words.chips_are(choice, name, value, [councilor_hex(value)])
    for choice in choices:
        if choice["type"] == "build" and len(permit := choice["params"]["permit"]["options"]) == 1:
            words.title_is(choice, f"With the Permit of {permit_cities(permit[0])}")
    return words


class CouncilOfFourPresenter(Presenter[CouncilOfFourTableView]):
    template_folder = "games/council_of_four"

    def present(self, view: CouncilOfFourTableView, names: dict[int, dict], result: dict | None) -> dict:
        return present(view, names, result)

    def private(self, view: CouncilOfFourTableView) -> dict | None:
        return _c4_private(view)

    def words(
        self, view: CouncilOfFourTableView, names: dict[int, dict], choices: Sequence[Mapping[str, Any]]
    ) -> Words:
        return _c4_words(view, names, cast(list[Choice], choices))

    def controls(
        self, choices: list, view: CouncilOfFourTableView, words: Words, step: Mapping[str, str] | None
    ) -> list[dict]:
        """The phone's controls, asked step by step (games/presenters/council_of_four_steps.py)."""
        return c4_controls(choices, view, words, step or {})


PRESENTER = CouncilOfFourPresenter()
