"""Council of Four: the map, Balconies, Permits and tracks, and its buttons' labels."""

from __future__ import annotations

from functools import lru_cache
from typing import cast

from games.engines.council_of_four.sentences import bonus_words, permit_words
from games.engines.kernel.words import with_article
from games.presenters.base import Presenter
from games.presenters.common import generic_label, key_words, phrase, render_value, seat_name

# ---- Council of Four ---------------------------------------------------------------------

CITY_HEX = {
    "gold": "#d4a72c",
    "silver": "#a9adb3",
    "bronze": "#b0723a",
    "iron": "#5b6775",
    "grey": "#8c7f9a",
}
COUNCILOR_HEX = {
    "black": "#1d1d1d",
    "white": "#f5f3ee",
    "orange": "#e07b1a",
    "pink": "#e07aa5",
    "purple": "#7a3f9d",
    "blue": "#2b67b9",
    "joker": "conic-gradient(#e07b1a, #e07aa5, #7a3f9d, #2b67b9, #1d1d1d, #f5f3ee, #e07b1a)",
}
REGION_FILL = {"coast": "#dbe9ef", "hills": "#e6ecd5", "mountains": "#ece2d6"}
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


def _bonus_words(bonus) -> str:
    if not bonus:
        return ""
    if not isinstance(bonus, dict):
        return phrase(bonus)
    return bonus_words({key: n for key, n in bonus.items() if key != "note"})


@lru_cache(maxsize=1)
def _c4_board() -> dict:
    """The map data the engine ships (read-only): cities, roads, the Queen's city."""
    try:
        from games.engines.council_of_four import board
    except ImportError:  # pragma: no cover
        return {"cities": {}, "roads": [], "queen_city": None, "regions": []}
    return {
        "cities": {k: dict(v) for k, v in board.CITIES.items()},
        "roads": [list(r) for r in board.ROADS],
        "queen_city": board.QUEEN_CITY,
        "regions": list(board.REGIONS),
    }


def _first(d: dict, *keys, default=None):
    for key in keys:
        if isinstance(d, dict) and d.get(key) is not None:
            return d[key]
    return default


def _layout(cities: list[dict], regions: list[str]) -> None:
    """x/y for each city: the engine's when given, the standard board's, or one column of
    zig-zagging cities per region, regions left to right."""
    columns = max(len(regions), 1)
    band = MAP_W / columns
    by_region: dict[str, list[dict]] = {}
    for city in cities:
        by_region.setdefault(city["region"], []).append(city)
    for r, region in enumerate(regions):
        group = by_region.get(region, [])
        for k, city in enumerate(group):
            if city.get("x") is not None and city.get("y") is not None:
                continue
            if city["letter"] in CITY_XY and len(cities) == len(CITY_XY):
                city["x"], city["y"] = CITY_XY[city["letter"]]
                continue
            step = (MAP_H - 120) / max(len(group) - 1, 1)
            city["x"] = band * r + band * (0.3 if k % 2 == 0 else 0.7)
            city["y"] = 70 + step * k


def _c4_present(view: dict, names: dict[int, dict], result: dict | None) -> dict:
    """Map, Balconies, face-up Permits and tracks from a Council of Four view, tolerant of the
    key names (see the keys listed in the report) and falling back on the board data."""
    board = _c4_board()
    regions = list(_first(view, "regions", default=None) or board["regions"])
    if regions and isinstance(regions[0], dict):
        regions = [r.get("region") or r.get("name") for r in regions]
    raw_cities = _first(view, "cities", "map", default=None) or board["cities"]
    if isinstance(raw_cities, dict):
        raw_cities = [{"letter": k, **(v if isinstance(v, dict) else {})} for k, v in raw_cities.items()]
    queen = _first(view, "queen", "king", "queen_city", "king_city", default=board["queen_city"])
    if isinstance(queen, dict):
        queen = _first(queen, "city", "letter")
    cities = []
    for raw in raw_cities:
        letter = raw.get("letter") or raw.get("id")
        base = board["cities"].get(letter, {})
        merchants = _first(raw, "merchants", "emporiums", "emporia", default=[]) or []
        token = _first(raw, "token", "bonus", "city_token", default=None)
        if isinstance(token, dict) and "bonus" in token:
            token = token["bonus"]
        markers = []
        for m in merchants:
            owner = m.get("seat") if isinstance(m, dict) else m
            if isinstance(owner, int) and owner in names:
                markers.append({"hex": names[owner]["hex"], "name": names[owner]["name"]})
            else:
                markers.append({"hex": "#ffffff", "name": "Neutral Merchant"})
        if raw.get("neutral"):
            markers.append({"hex": "#ffffff", "name": "Neutral Merchant"})
        colour = raw.get("colour") or base.get("colour") or "grey"
        cities.append(
            {
                "letter": letter,
                "name": raw.get("name") or base.get("name") or letter,
                "region": raw.get("region") or base.get("region") or (regions[0] if regions else ""),
                "colour": colour,
                "hex": CITY_HEX.get(colour, "#999"),
                "x": raw.get("x"),
                "y": raw.get("y"),
                "token": _bonus_words(token),
                "markers": markers,
                "queen": letter == queen or bool(raw.get("queen")),
            }
        )
    regions = regions or sorted({c["region"] for c in cities})
    _layout(cities, regions)
    for city in cities:
        n = len(city["markers"])
        for k, marker in enumerate(city["markers"]):
            marker["x"] = city["x"] - 9 * (n - 1) + 18 * k
            marker["y"] = city["y"] + 30
    xy = {c["letter"]: (c["x"], c["y"]) for c in cities}
    roads = []
    for road in _first(view, "roads", default=None) or board["roads"]:
        a, b = (road.get("from"), road.get("to")) if isinstance(road, dict) else road
        if a in xy and b in xy:
            roads.append({"x1": xy[a][0], "y1": xy[a][1], "x2": xy[b][0], "y2": xy[b][1]})
    band = MAP_W / max(len(regions), 1)
    region_bands = [
        {"name": r.capitalize(), "x": band * i, "w": band, "fill": REGION_FILL.get(r, "#eee")}
        for i, r in enumerate(regions)
    ]
    # Balconies: {region: [colours]} or [{balcony/region, councilors}], the Queen's last.
    raw_balconies = _first(view, "balconies", "councils", default={}) or {}
    if isinstance(raw_balconies, list):
        raw_balconies = {
            (b.get("balcony") or b.get("region") or b.get("name")): (
                b.get("councilors") or b.get("colours") or []
            )
            for b in raw_balconies
        }
    balconies = [
        {
            "name": "Queen's Balcony" if key in ("queen", "king") else f"{str(key).capitalize()} Balcony",
            "councilors": [{"colour": c, "hex": COUNCILOR_HEX.get(c, "#999")} for c in members],
        }
        for key, members in raw_balconies.items()
    ]
    reserve = _first(view, "councilors", "reserve", "councilor_pool", "pool", default=None)
    if isinstance(reserve, list):
        counted: dict[str, int] = {}
        for colour in reserve:
            counted[colour] = counted.get(colour, 0) + 1
        reserve = counted
    reserve_list = [
        {"colour": c, "count": n, "hex": COUNCILOR_HEX.get(c, "#999")}
        for c, n in (reserve or {}).items()
        if n
    ]
    raw_permits = _first(view, "permits", "face_up_permits", default={}) or {}
    if isinstance(raw_permits, list):
        grouped: dict[str, list] = {}
        for tile in raw_permits:
            grouped.setdefault(tile.get("region", ""), []).append(tile)
        raw_permits = grouped
    city_names = {c["letter"]: c["name"] for c in cities}
    permits = []
    for region, tiles in raw_permits.items():
        if isinstance(tiles, dict):
            tiles = _first(tiles, "face_up", "tiles", default=[])
        permits.append(
            {"region": str(region).capitalize(), "tiles": [_c4_permit(t, city_names) for t in tiles or []]}
        )
    players = []
    actor = (view.get("to_act") or [None])[0]
    for k, p in enumerate(_first(view, "players", "seats", default=[]) or []):
        i = p.get("index", p.get("seat", k))
        players.append(
            {
                **names.get(i, {"name": p.get("name", f"Seat {i}"), "hex": "#555"}),
                "acting": i == actor or bool(p.get("is_current")),
                "victory": _first(p, "victory_points", "victory", "vp", "score", default=0),
                "coins": _first(p, "coins", default=0),
                "nobility": _first(p, "nobility", "nobility_track", "nobility_steps", default=0),
                "servants": _first(p, "servants", default=0),
                "merchants_left": _first(p, "merchants_left", "merchants", default=""),
                "permits": _c4_count(_first(p, "permits", "permit_count", "permits_count", default=None)),
                "cards": _c4_count(_first(p, "hand_count", "politics_cards", "cards", default=None)),
            }
        )
    for player in players:
        if isinstance(player["merchants_left"], list):
            player["merchants_left"] = len(player["merchants_left"])
    return {
        "doing": _c4_doing(view, names),
        "prompt": _c4_prompt(view),
        "phase": key_words(_first(view, "phase", "stage", default="")),
        "map": {"w": MAP_W, "h": MAP_H, "regions": region_bands, "roads": roads, "cities": cities},
        "queen": city_names.get(queen, queen),
        "balconies": balconies,
        "reserve": reserve_list,
        "permits": permits,
        "players": players,
        "result": _c4_result(result, names) if result else None,
        "deck_count": _first(view.get("politics") or {}, "deck_count", default=view.get("deck_count")),
    }


def _c4_result(result: dict, names: dict[int, dict]) -> dict:
    breakdown = result.get("breakdown") or []
    positions = result.get("positions") or []
    winners = set(result.get("winners") or [])
    rows = []
    for i in result.get("ranking") or range(len(breakdown)):
        parts = breakdown[i] if i < len(breakdown) else {}
        rows.append(
            {
                **names.get(i, {"name": f"Seat {i}", "hex": "#555"}),
                "position": positions[i] if i < len(positions) else "",
                "winner": i in winners,
                **{k: parts.get(k, "") for k in ("track", "rewards", "nobility", "permits", "total")},
            }
        )
    return {"rows": rows, "winners": [seat_name(names, i) for i in result.get("winners") or []]}


def _c4_count(value):
    if isinstance(value, list | dict):
        return len(value)
    return value if value is not None else ""


def _c4_permit(tile, city_names: dict[str, str]) -> dict:
    if not isinstance(tile, dict):
        return {"id": str(tile), "cities": "", "letters": "", "bonus": ""}
    letters = tile.get("cities") or []
    return {
        "id": tile.get("id", ""),
        "letters": " ".join(letters),
        "cities": ", ".join(city_names.get(c, c) for c in letters),
        "bonus": _bonus_words(tile.get("bonus")),
    }


C4_PENDING = {
    "city_token": "chooses which City token bonus to take again",
    "permit_bonus": "chooses which Permit bonus to take again",
    "free_permit": "chooses a free face-up Permit",
}


def _c4_doing(view: dict, names: dict[int, dict]) -> str:
    if view.get("over"):
        return "The game is over."
    turn = view.get("turn") or {}
    actor = (view.get("to_act") or [None])[0]
    if not turn and actor is None:
        return "The table sets up the game."
    who = turn.get("name") or seat_name(names, actor)
    pending = view.get("pending")
    if pending:
        return f"{who} {C4_PENDING.get(pending.get('kind'), 'chooses a bonus')}."
    final = view.get("final")
    last = f" {final['name']} placed their last Merchant: everyone else plays one last turn." if final else ""
    main, quick = turn.get("main_left", 0), turn.get("quick_left", 0)
    left = []
    if main:
        left.append(f"{main} Main action{'s' if main != 1 else ''}")
    if quick:
        left.append("a Quick action")
    todo = " and ".join(left) if left else "nothing but ending the turn"
    return f"{who}'s turn: {todo} left.{last}"


def _c4_prompt(view: dict) -> str:
    pending = view.get("pending")
    if pending:
        return {
            "city_token": "Choose which City token bonus to take again.",
            "permit_bonus": "Choose which Permit bonus to take again.",
            "free_permit": "Choose a face-up Permit to take for free.",
        }.get(pending.get("kind"), "Choose your bonus.")
    turn = view.get("turn") or {}
    main, quick = turn.get("main_left", 0), turn.get("quick_left", 0)
    if main and quick:
        return f"{main} Main action{'s' if main != 1 else ''} and a Quick action left, in any order."
    if main:
        return f"{main} Main action{'s' if main != 1 else ''} left."
    if quick:
        return "A Quick action left, or end your turn."
    return "End your turn."


C4_GROUPS = {
    "elect": "Main action: Elect a Councilor (+4 Coins)",
    "acquire": "Main action: Acquire a Business Permit tile",
    "build": "Main action: Place a Merchant using a Permit tile",
    "queen": "Main action: Place a Merchant with the help of the Queen",
    "quick": "Quick action",
}


@lru_cache(maxsize=1)
def _c4_rules_data() -> dict:
    """Prices and names the engine ships (read-only), to say what a button costs."""
    from games.engines.council_of_four import board

    return {
        "cards": board.CARDS,
        "permits": board.PERMITS,
        "cities": board.CITIES,
        "balconies": board.BALCONY_WORDS,
        "satisfy": board.SATISFY_COINS,
        "road": board.ROAD_COINS,
        "distances": board.DISTANCES,
    }


def _c4_label(action: dict, view: dict, names: dict[int, dict]) -> tuple[str, str]:
    """Council of Four buttons in the rulebook's words, with what they cost."""
    data = _c4_rules_data()
    kind = action.get("type")

    def city(letter) -> str:
        return data["cities"].get(letter, {}).get("name", str(letter))

    def balcony(key) -> str:
        return data["balconies"].get(key, f"{str(key).capitalize()} Balcony")

    def cards_and_cost(cards, extra: int = 0) -> str:
        colours = [data["cards"].get(c, "?") for c in cards]
        cost = data["satisfy"].get(len(colours), 0) + colours.count("joker") + extra
        return f"{' + '.join(colours)}, {cost} Coin{'s' if cost != 1 else ''}"

    if kind == "deal":
        return "Set up the board and deal 6 Politics cards each", "main"
    if kind == "elect":
        councilor = with_article(f"{action.get('colour')} Councilor")
        return f"Elect {councilor} in the {balcony(action.get('balcony'))}", "elect"
    if kind == "send_servant":
        return (
            f"Send a Servant to elect {with_article(str(action.get('colour')) + ' Councilor')} "
            f"in the {balcony(action.get('balcony'))}",
            "quick",
        )
    if kind == "acquire_permit":
        return (
            f"{_c4_tile(action.get('permit'), data)} from the {balcony(action.get('balcony'))}: "
            f"pay {cards_and_cost(action.get('cards') or [])}",
            "acquire",
        )
    if kind == "build":
        tile = _c4_tile(action.get("permit"), data, bonus=False)
        return f"Place a Merchant in {city(action.get('city'))} with {tile}", "build"
    if kind == "queen_build":
        queen = view.get("queen")
        roads = data["distances"].get(queen, {}).get(action.get("city"), 0)
        move = f"{roads} road{'s' if roads != 1 else ''}" if roads else "the Queen stays"
        return (
            f"Place a Merchant in {city(action.get('city'))} ({move}): "
            f"pay {cards_and_cost(action.get('cards') or [], data['road'] * roads)}",
            "queen",
        )
    if kind == "engage_servant":
        return "Engage a Servant for 3 Coins", "quick"
    if kind == "change_permits":
        return f"Change the face-up {str(action.get('region')).capitalize()} Permits (1 Servant)", "quick"
    if kind == "additional_main":
        return "Perform an additional Main action (3 Servants)", "quick"
    if kind == "end_turn":
        return "End your turn", "main"
    if kind == "choose_city_bonus":
        return "Take again the City token bonus of " + " and ".join(
            city(c) for c in action.get("cities") or []
        ), "main"
    if kind == "choose_permit_bonus":
        return f"Take again the bonus of {_c4_tile(action.get('permit'), data)}", "main"
    if kind == "take_free_permit":
        return f"Take {_c4_tile(action.get('permit'), data)} for free", "main"
    return generic_label(action), "main"


def _c4_tile(permit_id, data: dict, *, bonus: bool = True) -> str:
    """A Permit by its cities and bonus, as the tile reads (the engine's ``permit_words``), never
    by the data file's id."""
    if permit_id not in data["permits"]:
        return "a Permit"
    return permit_words(permit_id, bonus=bonus)


def _c4_private(view: dict) -> dict | None:
    private = view.get("private") or {}
    raw_hand = view.get("hand") if view.get("hand") is not None else _first(private, "hand", "politics_cards")
    if raw_hand is None:
        return None
    try:
        from games.engines.council_of_four.board import CARDS
    except ImportError:  # pragma: no cover
        CARDS = {}
    hand = []
    for card in raw_hand or []:
        card_id = card.get("id") if isinstance(card, dict) else card
        colour = card.get("colour") if isinstance(card, dict) else CARDS.get(str(card), card)
        hand.append({"id": card_id, "colour": colour, "hex": COUNCILOR_HEX.get(str(colour), "#999")})
    rest = {k: v for k, v in private.items() if k not in ("hand", "politics_cards", "cards")}
    return {"hand": hand, "rest": render_value(rest) if rest else ""}


def _c4_city_with_servants(letter, view: dict) -> str:
    """A city to place a Merchant in, with the Servants it costs (RULES FOR PLACING A MERCHANT)."""
    from games.engines.council_of_four.merchants import servants_to_place

    name = _c4_rules_data()["cities"].get(letter, {}).get("name", str(letter))
    city: dict = next((c for c in view.get("cities") or [] if c.get("letter") == letter), {})
    seat = cast(int, view.get("you"))
    cost = servants_to_place(list(city.get("merchants") or []), bool(city.get("neutral")), seat)
    return f"{name} (return {cost} Servant{'s' if cost != 1 else ''})" if cost else name


class CouncilOfFourPresenter(Presenter):
    template_folder = "games/council_of_four"
    TITLES = {
        "elect": "Elect a Councilor (main action)",
        "send_servant": "Send a Servant to elect a Councilor (quick action)",
        "acquire_permit": "Acquire a Permit",
        "queen_build": "Build with the help of the Queen",
        "build": "Build an Emporium with a Permit",
        "choose_city_bonus": "Choose City bonuses",
    }

    def present(self, view: dict, names: dict[int, dict], result: dict | None) -> dict:
        return _c4_present(view, names, result)

    def private(self, view: dict) -> dict | None:
        return _c4_private(view)

    def words(self, view: dict, names: dict[int, dict]):
        from games.presenters import LabellerWords

        class CouncilOfFourWords(LabellerWords):
            hide_fixed = True  # the Permit of a build is in the title, the Council in the step

            def title(self, choice):
                if choice["type"] == "build":
                    permit = choice["params"]["permit"]["options"]
                    if len(permit) == 1:
                        data = _c4_rules_data()
                        tile = data["permits"].get(permit[0], {})
                        cities = ", ".join(
                            data["cities"].get(c, {}).get("name", c) for c in tile.get("cities", [])
                        )
                        return f"With the Permit of {cities}"
                return super().title(choice)

            def chips(self, choice, name, value):
                if name == "balcony" and choice["type"] in ("elect", "send_servant"):
                    return [
                        COUNCILOR_HEX.get(c, "#999")
                        for c in (self.view.get("balconies") or {}).get(value, [])
                    ]
                if name == "colour" and value in COUNCILOR_HEX:
                    return [COUNCILOR_HEX[value]]
                return []

            def option(self, choice, name, value):
                if choice["type"] == "build" and name == "city":
                    return _c4_city_with_servants(value, self.view)
                if len(choice["params"]) == 1:  # one button per option, in the labeller's words
                    return super().option(choice, name, value)
                data = _c4_rules_data()
                if name == "cards":
                    return str(data["cards"].get(value, "a card")).capitalize()
                if name == "permit":
                    return _c4_tile(value, data)
                if name == "city":
                    return data["cities"].get(value, {}).get("name", str(value))
                if name == "balcony":
                    return data["balconies"].get(value, f"{str(value).capitalize()} Balcony")
                if name == "colour":
                    return f"{str(value).capitalize()} Councilor"
                return super().option(choice, name, value)

        return CouncilOfFourWords(_c4_label, view, names, self.TITLES)

    def controls(self, choices: list, view: dict, names: dict[int, dict], step) -> list[dict]:
        """The phone's controls, asked step by step (games/presenters/council_of_four_steps.py)."""
        from games.presenters.council_of_four_steps import c4_controls

        return c4_controls(choices, view, self.words(view, names), step or {})


PRESENTER = CouncilOfFourPresenter()
