"""Council of Four: the map, Balconies, Permits and tracks, and its buttons' labels.

Reads only the keys the engine's ``player_view.py`` declares (``CouncilOfFourTableView`` and, for a
seat, ``CouncilOfFourSeatView`` with its ``private`` hand); prices come from the engine's
``payments.permit_payment_cost`` and ``queen_cost``, costs from its board constants."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, cast

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

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
from games.presenters.base import (
    Presenter,
    Words,
    and_join,
    generic_label,
    key_words,
    labelled_actions,
    offered,
    seat_name,
)
from games.presenters.council_of_four_steps import c4_controls
from games.presenters.council_of_four_words import (
    REGION_FILL,
    a_councilor,
    balcony_name,
    bonus_text,
    city_colour_word,
    city_hex,
    city_name,
    coins,
    colour_word,
    councilor_hex,
    permit_cities,
    permit_text,
    region_word,
    servants,
)
from games.translation import say_to_reader

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
NEUTRAL = {"hex": "#ffffff", "name": gettext_lazy("Neutral Merchant")}
UNKNOWN_SEAT_HEX = "#555"

# ---- The board -------------------------------------------------------------------------------


def _markers(city: Mapping[str, Any], names: dict[int, dict]) -> list[dict]:
    """The Merchants in a city, in the order placed, under it."""
    owners = [names.get(s, NEUTRAL) for s in city["merchants"]]
    if city["neutral"]:
        owners.append(NEUTRAL)
    x, y = CITY_XY[city["letter"]]
    return [
        {
            "hex": owner["hex"],
            "name": str(owner["name"]),
            "x": x - 9 * (len(owners) - 1) + 18 * k,
            "y": y + 30,
        }
        for k, owner in enumerate(owners)
    ]


def _city(city: Mapping[str, Any], names: dict[int, dict]) -> dict:
    x, y = CITY_XY[city["letter"]]
    token = city["token"]
    return {
        "letter": city["letter"],
        "name": city["name"],
        "region": city["region"],
        "colour": city_colour_word(city["colour"]),
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
        {"name": region_word(r), "x": band * i, "w": band, "fill": REGION_FILL.get(r, "#eee")}
        for i, r in enumerate(REGIONS)
    ]
    cities = [_city(city, names) for city in view["cities"]]
    return {"w": MAP_W, "h": MAP_H, "regions": regions, "roads": roads, "cities": cities}


def _balconies(view: CouncilOfFourTableView) -> list[dict]:
    """The four Balconies, the Queen's last, their Councilors the newest first."""
    return [
        {
            "name": balcony_name(balcony),
            "councilors": [{"colour": colour_word(c), "hex": councilor_hex(c)} for c in councilors],
        }
        for balcony, councilors in view["balconies"].items()
    ]


def _reserve(view: CouncilOfFourTableView) -> list[dict]:
    """The Councilors beside the board, in the board's colour order."""
    return [
        {"colour": colour_word(c), "count": view["councilors"][c], "hex": councilor_hex(c)}
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
        {"region": region_word(region), "tiles": [_permit(t) for t in shown["face_up"]]}
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
                **names.get(i, {"name": seat_name(names, i), "hex": UNKNOWN_SEAT_HEX}),
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
        "phase": str(PHASES.get(view["phase"]) or key_words(view["phase"])),
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

PHASES = {
    "deal": gettext_lazy("Setting up"),
    "actions": gettext_lazy("Actions"),
    "over": gettext_lazy("The game is over"),
}
GAME_OVER = gettext_lazy("The game is over.")
SETTING_UP = gettext_lazy("The table sets up the game.")
DOING_PENDING = {
    "city_token": gettext_lazy("{name} chooses which City token bonus to take again."),
    "permit_bonus": gettext_lazy("{name} chooses which Permit bonus to take again."),
    "free_permit": gettext_lazy("{name} chooses a free face-up Permit."),
}
PROMPT_PENDING = {
    "city_token": gettext_lazy("Choose which City token bonus to take again."),
    "permit_bonus": gettext_lazy("Choose which Permit bonus to take again."),
    "free_permit": gettext_lazy("Choose a face-up Permit to take for free."),
}
LAST_TURNS = gettext_lazy("{name} placed their last Merchant: everyone else plays one last turn.")


def _turn_left(main: int, quick: bool) -> str:
    """What is left of a turn: "2 Main actions and a Quick action"."""
    if main and quick:
        return ngettext(
            "{n} Main action and a Quick action", "{n} Main actions and a Quick action", main
        ).format(n=main)
    if main:
        return ngettext("{n} Main action", "{n} Main actions", main).format(n=main)
    if quick:
        return _("a Quick action")
    return _("nothing but ending the turn")


def doing(view: CouncilOfFourTableView, names: dict[int, dict]) -> str:
    """What the table waits for, in a sentence."""
    turn = view["turn"]
    if view["over"]:
        return str(GAME_OVER)
    if turn is None:
        return str(SETTING_UP)
    pending = view["pending"]
    if pending:
        return str(DOING_PENDING[pending["kind"]]).format(name=turn["name"])
    final = view["final"]
    last = " " + str(LAST_TURNS).format(name=final["name"]) if final else ""
    todo = _turn_left(turn["main_left"], bool(turn["quick_left"]))
    return _("{name}'s turn: {todo} left.").format(name=turn["name"], todo=todo) + last


def prompt(view: CouncilOfFourTableView) -> str:
    """What the seat whose turn it is may do now."""
    if view["pending"]:
        return str(PROMPT_PENDING[view["pending"]["kind"]])
    turn = view["turn"]
    if turn is None:
        return ""
    main, quick = turn["main_left"], turn["quick_left"]
    if main and quick:
        return ngettext(
            "{n} Main action and a Quick action left, in any order.",
            "{n} Main actions and a Quick action left, in any order.",
            main,
        ).format(n=main)
    if main:
        return ngettext("{n} Main action left.", "{n} Main actions left.", main).format(n=main)
    if quick:
        return _("A Quick action left, or end your turn.")
    return _("End your turn.")


# ---- The buttons' words ----------------------------------------------------------------------


def _priced(colours: str, cost: int | None) -> str:
    return _("{cards}, {coins}").format(cards=colours, coins=coins(cost)) if cost is not None else colours


def _card_colours(view: CouncilOfFourTableView, cards: list[str]) -> str:
    """The colours of cards of the viewing seat's hand ("black + joker")."""
    if view["you"] is None:
        return " + ".join("?" for _ in cards)
    hand = {card["id"]: card["colour"] for card in cast(CouncilOfFourSeatView, view)["private"]["hand"]}
    return " + ".join(colour_word(hand[c]) if c in hand else "?" for c in cards)


def _acquire_label(action: Mapping[str, Any], view: CouncilOfFourTableView) -> str:
    cards = action.get("cards") or []
    cost = permit_payment_cost(view, action["balcony"], cards)
    return _("{permit} from the {balcony}: pay {price}").format(
        permit=permit_text(action.get("permit")),
        balcony=balcony_name(action["balcony"]),
        price=_priced(_card_colours(view, cards), cost),
    )


def _queen_label(action: Mapping[str, Any], view: CouncilOfFourTableView) -> str:
    cards = action.get("cards") or []
    roads = DISTANCES[view["queen"]].get(action["city"], 0)
    move = ngettext("{n} road", "{n} roads", roads).format(n=roads) if roads else _("the Queen stays")
    cost = queen_cost(view, action["city"], cards)
    return _("Place a Merchant in {city} ({move}): pay {price}").format(
        city=city_name(action["city"]), move=move, price=_priced(_card_colours(view, cards), cost)
    )


def _election_label(action: Mapping[str, Any]) -> str:
    return _("{councilor} in the {balcony}").format(
        councilor=a_councilor(str(action.get("colour"))), balcony=balcony_name(str(action.get("balcony")))
    )


def _fixed_label(kind: Any) -> tuple[str, str] | None:
    """Buttons whose words never change: their label and group."""
    if kind == "deal":
        return _("Set up the board and deal {n} Politics cards each").format(n=HAND_SIZE), "main"
    if kind == "engage_servant":
        return _("Engage a Servant for {coins}").format(coins=coins(ENGAGE_COINS)), "quick"
    if kind == "additional_main":
        cost = servants(ADDITIONAL_MAIN_SERVANTS)
        return _("Perform an additional Main action ({servants})").format(servants=cost), "quick"
    if kind == "end_turn":
        return say_to_reader(CHOICE_TITLES["end_turn"]), "main"
    return None


def _c4_label(action: dict, view: CouncilOfFourTableView, names: dict[int, dict]) -> tuple[str, str]:
    """Council of Four buttons in the rulebook's words, with what they cost (the engine's prices)."""
    kind = action.get("type")
    fixed = _fixed_label(kind)
    if fixed is not None:
        return fixed
    if kind == "elect":
        return _("Elect {councilor}").format(councilor=_election_label(action)), "elect"
    if kind == "send_servant":
        return _("Send a Servant to elect {councilor}").format(councilor=_election_label(action)), "quick"
    if kind == "acquire_permit":
        return _acquire_label(action, view), "acquire"
    if kind == "build":
        permit = permit_text(action["permit"], bonus=False)
        return _("Place a Merchant in {city} with {permit}").format(
            city=city_name(action["city"]), permit=permit
        ), "build"
    if kind == "queen_build":
        return _queen_label(action, view), "queen"
    return _choice_label(action)


def _choice_label(action: dict) -> tuple[str, str]:
    kind = action.get("type")
    if kind == "change_permits":
        region = region_word(str(action.get("region")))
        return _("Change the face-up {region} Permits ({servants})").format(
            region=region, servants=servants(CHANGE_PERMITS_SERVANTS)
        ), "quick"
    if kind == "choose_city_bonus":
        cities = and_join([city_name(c) for c in action.get("cities") or []])
        return _("Take again the City token bonus of {cities}").format(cities=cities), "main"
    if kind == "choose_permit_bonus":
        return _("Take again the bonus of {permit}").format(permit=permit_text(action.get("permit"))), "main"
    if kind == "take_free_permit":
        return _("Take {permit} for free").format(permit=permit_text(action.get("permit"))), "main"
    return generic_label(action), "main"


def _c4_private(view: CouncilOfFourTableView) -> dict | None:
    """The viewing seat's Politics cards (None at the table)."""
    if view["you"] is None:
        return None
    hand = [
        {"id": card["id"], "colour": colour_word(card["colour"]), "hex": councilor_hex(card["colour"])}
        for card in cast(CouncilOfFourSeatView, view)["private"]["hand"]
    ]
    return {"hand": hand}


def city_with_servants(letter: str, view: CouncilOfFourTableView) -> str:
    """A city to place a Merchant in, with the Servants it costs (RULES FOR PLACING A MERCHANT)."""
    city = next(c for c in view["cities"] if c["letter"] == letter)
    cost = servants_to_place(city["merchants"], city["neutral"], cast(int, view["you"]))  # a seat builds
    if not cost:
        return city_name(letter)
    return _("{city} (return {servants})").format(city=city_name(letter), servants=servants(cost))


def _upper_first(text: str) -> str:
    """ "Black Councilor" from "black Councilor" (never lowering the rest, as str.capitalize does)."""
    return text[:1].upper() + text[1:]


# The words of one option of a choice with several parameters, by parameter.
OPTION_WORDS: dict[str, Callable[[Any], str]] = {
    "cards": lambda v: _upper_first(colour_word(CARDS[v])) if v in CARDS else _("a card"),
    "permit": permit_text,
    "city": city_name,
    "balcony": balcony_name,
    "colour": lambda v: _upper_first(_("{colour} Councilor").format(colour=colour_word(str(v)))),
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
            words.title_is(choice, _("With the Permit of {cities}").format(cities=permit_cities(permit[0])))
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
