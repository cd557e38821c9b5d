"""Server-rendered table companion pages: the host's table screen and each player's phone.

The host (logged in) sees the table view, the join links (with QR codes) and the log; a phone opens
its seat with the secret join token and sees only that seat's view and its legal actions as
buttons. Both pages poll a cheap version endpoint; when the table moved on, the endpoint fires the
``session-changed`` event and the page fetches its own panel again (``#table-panel`` /
``#seat-panel``) and swaps it in place. Everything also works without JavaScript.

Each game gets a small presenter (``_ftk_*``, ``_c4_*``) that turns the engine's view dict into
what the templates draw, in the game's own words; any other game falls back to a tidy generic
rendering of its view dict.
"""

from __future__ import annotations

import json
import secrets
from functools import lru_cache

import segno
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseStopPolling, trigger_client_event

from games import nudges, selectors, services
from games.engine.errors import RuleError
from games.forms import ActionForm, CardEffectForm, DilemmaCardForm, SessionCreateForm
from games.models import GameSession, Seat

RULE_BROKEN = "{message}"
ACTION_APPLIED = "Done: {label}."
UNDONE = "Undone: {label}."
ABANDONED = "The session was abandoned."
GAME_OVER = "The game is over."
SESSION_CHANGED_EVENT = "session-changed"

REFUSED = 422  # a refused action, rendered in place (base.html lets htmx swap 422)

# ---- A small generic renderer of view dicts (definition lists and tables) ----------------


def _words(key) -> str:
    return str(key).replace("_", " ").capitalize()


def _scalar(value) -> str:
    if value is None:
        return "—"
    if value is True:
        return "yes"
    if value is False:
        return "no"
    return str(value)


def render_value(value) -> SafeString:
    """Any JSON value as readable HTML: dicts as definition lists, lists of dicts as tables."""
    if isinstance(value, dict):
        if not value:
            return mark_safe('<span class="muted">—</span>')
        rows = format_html_join(
            "", "<dt>{}</dt><dd>{}</dd>", ((_words(k), render_value(v)) for k, v in value.items())
        )
        return format_html('<dl class="view">{}</dl>', rows)
    if isinstance(value, list):
        if not value:
            return mark_safe('<span class="muted">none</span>')
        if all(isinstance(item, dict) for item in value):
            keys: list[str] = []
            for item in value:
                keys += [k for k in item if k not in keys]
            head = format_html_join("", "<th>{}</th>", ((_words(k),) for k in keys))
            body = format_html_join(
                "",
                "<tr>{}</tr>",
                (
                    (format_html_join("", "<td>{}</td>", ((render_value(item.get(k)),) for k in keys)),)
                    for item in value
                ),
            )
            return format_html(
                '<div class="scroll"><table><thead><tr>{}</tr></thead><tbody>{}</tbody></table></div>',
                head,
                body,
            )
        return format_html_join(", ", "{}", ((render_value(item),) for item in value))
    return format_html("{}", _scalar(value))


def _phrase(value) -> str:
    """A parameter of an action in words (never JSON)."""
    if isinstance(value, dict):
        return ", ".join(f"{_words(k).lower()} {_phrase(v)}" for k, v in value.items())
    if isinstance(value, list):
        return " + ".join(_phrase(v) for v in value) or "nothing"
    if isinstance(value, str):
        return value.replace("_", " ")
    return _scalar(value)


def _generic_label(action: dict) -> str:
    """'Vote aye: power 3' from {'type': 'vote_aye', 'power': 3}: words, never raw JSON."""
    label = _words(action.get("type", "?"))
    params = [f"{_words(k).lower()} {_phrase(v)}" for k, v in action.items() if k not in ("type", "seat")]
    return f"{label}: {', '.join(params)}" if params else label


# ---- Colours -----------------------------------------------------------------------------

# Seat colours (services.SEAT_COLOURS) as inks that read on paper (yellow is a dark mustard).
SEAT_HEX = {
    "red": "#b3261e",
    "blue": "#1f5fa8",
    "green": "#2e7d32",
    "yellow": "#a67c00",
    "purple": "#6a3d9a",
    "orange": "#c45d12",
    "teal": "#00796b",
    "grey": "#5f5f5f",
}


def _seat_hex(colour: str) -> str:
    return SEAT_HEX.get(colour or "", "#5f5f5f")


def _seat_infos(session: GameSession) -> dict[int, dict]:
    return {
        s.index: {"index": s.index, "name": s.name, "hex": _seat_hex(s.colour), "is_bot": s.is_bot}
        for s in selectors.session_seats(session=session)
    }


# ---- For the King (and Me) ---------------------------------------------------------------

OFFICE_HEX = {
    "blue": "#2a5ea8",
    "red": "#b3261e",
    "orange": "#c8661a",
    "green": "#3b7d3a",
    "violet": "#7b4fa0",
    "pink": "#c2477f",
}
GOLD_HEX = "#b8860b"
KING_HEX = "#4a3b2a"
FTK_PHASES = {
    "setup": "Setup",
    "share_influence": "Share Influence Phase",
    "gain_esteem": "Gain Esteem Phase",
    "end": "End of the Game",
}
FTK_AREAS = {
    "personal": "Keep it in front of yourself",
    "middle": "Place in the middle",
    "favor": "Place on the Favor deck",
}
FTK_AREA_NAMES = {
    "personal": "In front of the Adviser",
    "middle": "Middle of the table",
    "favor": "Favor deck",
}


@lru_cache(maxsize=1)
def _ftk_effect_words() -> dict[str, str]:
    try:
        from games.for_the_king.cards import KING_EFFECT_WORDS
    except ImportError:  # pragma: no cover - the engine is always there with this view
        return {}
    return dict(KING_EFFECT_WORDS)


def _ftk_card(face: dict | None) -> dict | None:
    """A face-up card as the templates draw it: title, value, letter, colour, and a label."""
    if not face:
        return None
    kind = face.get("kind")
    if kind == "government":
        office = (face.get("office") or "").capitalize()
        return {
            "id": face["id"],
            "kind": kind,
            "title": office,
            "value": face.get("value"),
            "letter": face.get("letter"),
            "hex": OFFICE_HEX.get(face.get("colour") or "", "#555"),
            "label": f"{office} {face.get('value')} ({face.get('letter')})",
        }
    if kind == "gold":
        return {
            "id": face["id"],
            "kind": kind,
            "title": "Gold",
            "value": face.get("value"),
            "letter": None,
            "hex": GOLD_HEX,
            "label": f"Gold {face.get('value')}",
        }
    words = _ftk_effect_words().get(face.get("effect") or "", face.get("effect") or "")
    return {
        "id": face["id"],
        "kind": "king",
        "title": "King card",
        "value": "♛",
        "letter": None,
        "effect": words,
        "hex": KING_HEX,
        "label": f"King card ({words})",
    }


def _name(names: dict[int, dict], index) -> str:
    if index is None:
        return "the table"
    info = names.get(index)
    return info["name"] if info else f"Seat {index}"


def _ftk_doing(view: dict, names: dict[int, dict]) -> str:
    """Whose turn it is and what they do, in the rulebook's words."""
    stage = view.get("stage")
    actor = view["to_act"][0] if view.get("to_act") else None
    who = _name(names, actor)
    if view.get("over"):
        return "The game is over: the offices are scored."
    if stage == "deal":
        return "The table shuffles the cards and deals the deck."
    if stage == "distribute":
        placed = sum((view.get("placed") or {}).values())
        total = sum((view.get("limits") or {}).values())
        holding = " and holds a card" if view.get("adviser_holds_card") else ""
        return f"{who} is the Adviser: Distribute Cards ({placed} of {total} placed){holding}."
    if stage == "choose":
        return f"Choose Central Cards: {who} takes a card from the middle of the table."
    if stage == "king_card":
        king = view.get("king_card") or {}
        return f"{who} reveals a King card: {king.get('effect', 'change the Primary Duty tiles')}."
    if stage == "reveal":
        return f"{who}, the first player, reveals the top card of the Favor deck."
    if stage == "bidding":
        bidding = view.get("bidding") or {}
        high = bidding.get("high_bid") or 0
        if high:
            return f"{who}: Raise or Pass. {_name(names, bidding.get('high_bidder'))} bid {high}."
        return f"{who}: bid 1 or more, or Pass."
    if stage == "pay_gold":
        payment = view.get("payment") or {}
        return f"{who} won the card and pays {payment.get('owed')} Gold."
    if stage == "discard":
        payment = view.get("payment") or {}
        owed, paid = payment.get("owed") or 0, payment.get("paid") or 0
        return f"{who} won the Gold card and discards {owed - paid} more card(s) face down."
    if stage == "cannot_pay":
        payment = view.get("payment") or {}
        return (
            f"{_name(names, payment.get('seat'))} cannot pay: {who} draws a random card "
            "from their hand and discards it face down."
        )
    return f"{who} acts."


def _ftk_prompt(view: dict, names: dict[int, dict]) -> str:
    """What the seat that must act does now, said to that player."""
    stage = view.get("stage")
    payment = view.get("payment") or {}
    if stage == "distribute":
        placed = sum((view.get("placed") or {}).values())
        total = sum((view.get("limits") or {}).values())
        if view.get("adviser_holds_card"):
            return f"You are the Adviser: place the card you drew ({placed} of {total} placed)."
        return f"You are the Adviser: draw the next card ({placed} of {total} placed)."
    if stage == "choose":
        return "Choose Central Cards: take one card from the middle of the table."
    if stage == "king_card":
        return f"Use your King card: {(view.get('king_card') or {}).get('effect', '')}."
    if stage == "reveal":
        return "You are the first player: reveal the top card of the Favor deck."
    if stage == "bidding":
        bidding = view.get("bidding") or {}
        high = bidding.get("high_bid") or 0
        if high:
            return f"Raise or Pass: {_name(names, bidding.get('high_bidder'))} bid {high}."
        return "Bid 1 or more, or Pass."
    if stage == "pay_gold":
        return f"You won the card: pay {payment.get('owed')} Gold with your Gold cards."
    if stage == "discard":
        return f"You won the Gold card: discard {(payment.get('owed') or 0) - (payment.get('paid') or 0)} card(s) face down."
    if stage == "cannot_pay":
        return f"{_name(names, payment.get('seat'))} cannot pay: draw a random card from their hand."
    return ""


def _ftk_present(view: dict, names: dict[int, dict], result: dict | None) -> dict:
    """The public part of a For the King view (the same on the table screen and on a phone)."""
    actor = view["to_act"][0] if view.get("to_act") else None
    bidding = view.get("bidding") or {}
    last_bids = bidding.get("last_bids") or []
    seats = []
    for s in view.get("seats", []):
        i = s["index"]
        last = last_bids[i] if i < len(last_bids) else None
        seats.append(
            {
                **names.get(i, {"name": s["name"], "hex": "#555"}),
                "index": i,
                "hand_count": s.get("hand_count", 0),
                "personal_deck_count": s.get("personal_deck_count", 0),
                "is_adviser": s.get("is_adviser"),
                "is_first_player": s.get("is_first_player"),
                "acting": i == actor,
                "last_bid": last,
                "passed": i in (bidding.get("passed") or []),
                "excluded": i in (bidding.get("excluded") or []),
                "high": bidding and bidding.get("high_bidder") == i and bidding.get("high_bid"),
            }
        )
    placed, limits = view.get("placed") or {}, view.get("limits") or {}
    areas = [
        {"name": FTK_AREA_NAMES[a], "placed": placed.get(a, 0), "limit": limits.get(a, 0)}
        for a in ("personal", "middle", "favor")
        if a in limits
    ]
    king = view.get("king_card")
    discards = len(view.get("discard") or []) + (view.get("discard_face_down_count") or 0)
    return {
        "phase": FTK_PHASES.get(view.get("phase"), _words(view.get("phase", ""))),
        "doing": _ftk_doing(view, names),
        "prompt": _ftk_prompt(view, names),
        "actor": actor,
        "government": [
            {
                "office": g["office"].capitalize(),
                "hex": OFFICE_HEX.get(g.get("colour") or "", "#555"),
                "primary": g.get("primary"),
                "secondary": g.get("secondary"),
            }
            for g in view.get("government", [])
        ],
        "middle": [_ftk_card(c) for c in view.get("middle") or []],
        "offer": _ftk_card(view.get("offer")),
        "counts": [
            ("Deck", view.get("deck_count", 0)),
            ("Favor deck", view.get("favor_deck_count", 0)),
            ("Discards", discards),
        ],
        "areas": areas if view.get("phase") == "share_influence" else [],
        "seats": seats,
        "bidding": bool(bidding) and view.get("phase") == "gain_esteem",
        "high_bid": bidding.get("high_bid") or 0,
        "high_bidder": _name(names, bidding.get("high_bidder"))
        if bidding.get("high_bidder") is not None
        else "",
        "payment": view.get("payment"),
        "king_card": {
            "who": _name(names, king.get("seat")),
            "card": _ftk_card(king.get("card")),
            "effect": king.get("effect"),
        }
        if king
        else None,
        "result": _ftk_result(result, names, view) if result else None,
    }


def _ftk_result(result: dict, names: dict[int, dict], view: dict) -> dict:
    scores = result.get("scores") or []
    golds = result.get("gold") or []
    positions = result.get("positions") or []
    tiles = result.get("tiles") or []
    winners = set(result.get("winners") or [])
    order = result.get("ranking") or list(range(len(scores)))
    rows = []
    for i in order:
        rows.append(
            {
                **names.get(i, {"name": f"Seat {i}", "hex": "#555"}),
                "position": positions[i] if i < len(positions) else "",
                "score": scores[i] if i < len(scores) else "",
                "gold": golds[i] if i < len(golds) else "",
                "winner": i in winners,
                "tiles": [
                    f"{t['office'].capitalize()} {t['duty']} ({t['value']})"
                    for t in (tiles[i] if i < len(tiles) else [])
                ],
            }
        )
    offices = []
    for office, sums in (result.get("office_sums") or {}).items():
        duty = (result.get("duties") or {}).get(office) or {}
        offices.append(
            {
                "office": office.capitalize(),
                "sums": sums,
                "primary": duty.get("primary"),
                "secondary": duty.get("secondary"),
            }
        )
    return {
        "rows": rows,
        "winners": [_name(names, i) for i in result.get("winners") or []],
        "offices": offices,
        "seat_names": [_name(names, i) for i in range(len(scores))],
    }


def _ftk_private(view: dict) -> dict | None:
    private = view.get("private")
    if not private:
        return None
    return {
        "drawn": _ftk_card(private.get("drawn")),
        "hand": _ftk_sorted(private.get("hand") or []),
        "personal_deck": _ftk_sorted(private.get("personal_deck") or []),
        "gold": private.get("gold", 0),
    }


FTK_KIND_ORDER = {"government": 0, "king": 1, "gold": 2}


def _ftk_sorted(faces: list[dict]) -> list[dict]:
    """A hand as a player sorts it: Government cards by office, then Gold by value."""
    offices = list(OFFICE_HEX.values())
    cards = [_ftk_card(f) for f in faces]
    return sorted(
        cards,
        key=lambda c: (
            FTK_KIND_ORDER.get(c["kind"], 3),
            offices.index(c["hex"]) if c["hex"] in offices else 0,
            c["title"],
            str(c["value"]),
            c["letter"] or "",
        ),
    )


def _ftk_cards_by_id(view: dict) -> dict[str, dict]:
    """Every card this viewer can see, by id (to name the cards in a button)."""
    private = view.get("private") or {}
    faces = [*(view.get("middle") or []), view.get("offer"), *(private.get("hand") or [])]
    faces += [*(private.get("personal_deck") or []), private.get("drawn")]
    return {f["id"]: _ftk_card(f) for f in faces if f}


def _ftk_label(action: dict, view: dict, names: dict[int, dict]) -> tuple[str, str]:
    """A button's words and its group ('bid' buttons sit in a compact grid)."""
    kind = action.get("type")
    cards = _ftk_cards_by_id(view)

    def card_label(card_id) -> str:
        card = cards.get(card_id)
        return card["label"] if card else "a card"

    if kind == "deal":
        return "Shuffle and deal the cards", "main"
    if kind == "draw":
        return "Draw the top card of the deck", "main"
    if kind == "place":
        return FTK_AREAS.get(action.get("area"), _generic_label(action)), "main"
    if kind == "choose":
        return f"Take {card_label(action.get('card'))}", "main"
    if kind == "king_card":
        duties = {g["office"]: g.get("primary") for g in view.get("government", [])}
        parts = []
        for change in action.get("changes") or []:
            office, step = change.get("office"), change.get("change", 0)
            now = duties.get(office)
            if isinstance(now, int):
                parts.append(f"{str(office).capitalize()} {now} → {now + step}")
            else:
                parts.append(f"{str(office).capitalize()} {step:+d}")
        return ("Change " + ", ".join(parts)) if parts else "Use the King card", "main"
    if kind == "reveal":
        return "Reveal the top card of the Favor deck", "main"
    if kind == "bid":
        return f"Bid {action.get('amount')}", "bid"
    if kind == "pass":
        return "Pass", "main"
    if kind == "pay_gold":
        return "Pay with " + " + ".join(card_label(c) for c in action.get("cards") or []), "main"
    if kind == "discard":
        return f"Discard {card_label(action.get('card'))} face down", "main"
    if kind == "draw_random_card":
        payment = view.get("payment") or {}
        return f"Draw a random card from {_name(names, payment.get('seat'))}'s hand", "main"
    return _generic_label(action), "main"


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
BONUS_WORDS = {
    "victory_points": ("{n} Victory Point", "{n} Victory Points"),
    "coins": ("{n} Coin", "{n} Coins"),
    "servants": ("{n} Servant", "{n} Servants"),
    "politics_cards": ("{n} Politics card", "{n} Politics cards"),
    "nobility_steps": ("{n} Nobility step", "{n} Nobility steps"),
    "additional_main_action": ("an additional Main action", "{n} additional Main actions"),
    "city_token_bonus": ("the bonus of a City token", "the bonus of {n} City tokens"),
    "free_permit_tile": ("a free Permit", "{n} free Permits"),
    "permit_tile_bonus_again": ("a Permit's bonus again", "{n} Permit bonuses again"),
}
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
        return _phrase(bonus)
    parts = []
    for key, n in bonus.items():
        if key == "note":
            continue
        one, many = BONUS_WORDS.get(key, (f"{{n}} {_words(key).lower()}",) * 2)
        parts.append((one if n in (1, True) else many).format(n=n))
    return ", ".join(parts)


@lru_cache(maxsize=1)
def _c4_board() -> dict:
    """The map data the engine ships (read-only): cities, roads, the Queen's city."""
    try:
        from games.council_of_four import board
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
        "phase": _words(_first(view, "phase", "stage", default="")),
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
    return {"rows": rows, "winners": [_name(names, i) for i in result.get("winners") or []]}


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
    who = turn.get("name") or _name(names, actor)
    pending = view.get("pending")
    if pending:
        return f"{who} {C4_PENDING.get(pending.get('kind'), 'chooses a bonus')}."
    if view.get("phase") == "draw":
        return f"{who} draws a Politics card."
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
    if view.get("phase") == "draw":
        return "Draw a Politics card to begin your turn."
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
    from games.council_of_four import board

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
    if kind == "draw":
        return "Draw a Politics card", "main"
    if kind == "elect":
        return f"Elect a {action.get('colour')} Councilor in the {balcony(action.get('balcony'))}", "elect"
    if kind == "send_servant":
        return (
            f"Send a Servant to elect a {action.get('colour')} Councilor in the {balcony(action.get('balcony'))}",
            "quick",
        )
    if kind == "acquire_permit":
        return (
            f"{_c4_tile(action.get('permit'), data)} from the {balcony(action.get('balcony'))}: "
            f"pay {cards_and_cost(action.get('cards') or [])}",
            "acquire",
        )
    if kind == "build":
        return f"Place a Merchant in {city(action.get('city'))} with Permit {action.get('permit')}", "build"
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
    return _generic_label(action), "main"


def _c4_tile(permit_id, data: dict) -> str:
    tile = data["permits"].get(permit_id)
    if not tile:
        return f"Permit {permit_id}"
    cities = ", ".join(data["cities"].get(c, {}).get("name", c) for c in tile["cities"])
    bonus = _bonus_words(tile.get("bonus"))
    return f"Permit {permit_id} ({cities}{': ' + bonus if bonus else ''})"


def _c4_private(view: dict) -> dict | None:
    private = view.get("private") or {}
    raw_hand = view.get("hand") if view.get("hand") is not None else _first(private, "hand", "politics_cards")
    if raw_hand is None:
        return None
    try:
        from games.council_of_four.board import CARDS
    except ImportError:  # pragma: no cover
        CARDS = {}
    hand = []
    for card in raw_hand or []:
        card_id = card.get("id") if isinstance(card, dict) else card
        colour = card.get("colour") if isinstance(card, dict) else CARDS.get(card, card)
        hand.append({"id": card_id, "colour": colour, "hex": COUNCILOR_HEX.get(colour, "#999")})
    rest = {k: v for k, v in private.items() if k not in ("hand", "politics_cards", "cards")}
    return {"hand": hand, "rest": render_value(rest) if rest else ""}


# ---- The King's Dilemma (a readable summary; the full view dict below it) ----------------

MOMENTUM = {"up": "▲", "down": "▼"}


def _kd_present(view: dict, names: dict[int, dict], result: dict | None) -> dict:
    board = view.get("board") or {}
    vote = view.get("vote") or {}
    houses = []
    for s in view.get("seats") or []:
        i = s.get("seat")
        choice = (vote.get("choice") or [None] * (i + 1))[i] if vote and i is not None else None
        committed = (vote.get("committed") or [0] * (i + 1))[i] if vote and i is not None else 0
        houses.append(
            {
                **names.get(i, {"name": s.get("name"), "hex": "#555"}),
                "house": s.get("house_name") or "",
                "prestige": s.get("prestige", 0),
                "leader": s.get("leader"),
                "moderator": s.get("moderator"),
                "acting": i in (view.get("to_act") or []),
                "vote": f"{str(choice).upper()} {committed}" if choice in ("aye", "nay") else (choice or ""),
            }
        )
    rows = board.get("resource_rows") or 0
    return {
        "phase": _words(view.get("phase", "")),
        "doing": f"Round {view.get('round', 0)}: {_words(view.get('phase', '')).lower()}."
        + (f" King {view['king_name']}." if view.get("king_name") else ""),
        "resources": [
            {
                "name": _words(r),
                "position": v.get("position"),
                "rows": rows,
                "momentum": MOMENTUM.get(v.get("momentum"), ""),
                "percent": int(100 * (v.get("position") or 0) / rows) if rows else 0,
            }
            for r, v in (board.get("resources") or {}).items()
        ],
        "stability": board.get("stability"),
        "stability_spaces": board.get("stability_spaces"),
        "balance": board.get("balance"),
        "pool": view.get("pool") or {},
        "houses": houses,
        "vote": {"aye": vote.get("aye", 0), "nay": vote.get("nay", 0)} if vote else None,
        "card_html": render_value(view.get("card")) if view.get("card") else "",
    }


def _kd_private(view: dict) -> dict | None:
    you = view.get("you")
    return {"html": render_value({k: v for k, v in you.items() if k != "seat"})} if you else None


# ---- Choosing the presenter --------------------------------------------------------------

PRESENTERS = {"for_the_king": _ftk_present, "council_of_four": _c4_present, "kings_dilemma": _kd_present}
LABELLERS = {"for_the_king": _ftk_label, "council_of_four": _c4_label}
PRIVATE = {"for_the_king": _ftk_private, "council_of_four": _c4_private, "kings_dilemma": _kd_private}


def _present(session: GameSession, view: dict, names: dict[int, dict], result: dict | None) -> dict | None:
    presenter = PRESENTERS.get(session.game)
    if presenter is None:
        return None
    try:
        return presenter(view, names, result)
    except Exception:  # a new view shape must never break the table: fall back to generic
        return None


def _choices(
    session: GameSession, legal_actions: list[dict], view: dict, names: dict[int, dict]
) -> list[dict]:
    """One button per legal action: its JSON, words of the game, and its group."""
    labeller = LABELLERS.get(session.game)
    choices = []
    for action in legal_actions:
        try:
            label, group = labeller(action, view, names) if labeller else (_generic_label(action), "main")
        except Exception:  # a label must never break the page
            label, group = _generic_label(action), "main"
        choices.append({"json": json.dumps(action), "label": label, "group": group})
    return choices


GROUP_TITLES = {**C4_GROUPS}


def _choice_context(choices: list[dict]) -> dict:
    """Single buttons first, bids in a compact grid, long families of options folded by kind."""
    groups: dict[str, list[dict]] = {}
    for c in choices:
        if c["group"] not in ("main", "bid"):
            groups.setdefault(c["group"], []).append(c)
    return {
        "choices": choices,
        "main_choices": [c for c in choices if c["group"] == "main"],
        "bid_choices": [c for c in choices if c["group"] == "bid"],
        "choice_groups": [
            {"title": GROUP_TITLES.get(g, _words(g)), "choices": cs, "open": len(choices) <= 6}
            for g, cs in groups.items()
        ],
    }


# ---- Helpers -----------------------------------------------------------------------------


def _host_session(request: HttpRequest, session_id: int) -> GameSession:
    """The session, for its host (or staff) only: the table page shows every join token."""
    session = GameSession.objects.filter(pk=session_id).first()
    if session is None:
        raise Http404
    user = request.user
    if not (user.is_authenticated and (session.host_id == user.pk or user.is_staff)):
        raise Http404
    return session


def _seat(token: str) -> Seat:
    seat = selectors.session_for_token(token=token)
    if seat is None:
        raise Http404
    return seat


def _error_text(exc: ValidationError) -> str:
    return " ".join(exc.messages)


def _poll_context(session: GameSession) -> dict:
    return {
        "polling": session.status == GameSession.Status.ACTIVE,
        "version_url": reverse("games:session_version", args=[session.pk]) + f"?v={session.version}",
    }


@lru_cache(maxsize=256)
def _qr_svg(link: str) -> SafeString:
    """A QR code of a join link as inline SVG (made here: no network)."""
    svg = segno.make(link, error="m").svg_inline(
        scale=1, border=2, omitsize=True, dark="#1f1a14", light="#ffffff", title="QR code of the join link"
    )
    return mark_safe(svg)  # noqa: S308 - segno's own SVG, made from our own link


def _names_of(active: list, names: dict[int, dict]) -> list[str]:
    return [_name(names, i) for i in active]


# ---- Pages -------------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def session_list(request: HttpRequest) -> HttpResponse:
    """Your sessions, and the form to start a new one."""
    form = SessionCreateForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            session = services.session_create(
                game=form.cleaned_data["game"],
                seat_names=form.cleaned_data["seat_names"],
                bot_seats=form.cleaned_data["bot_seats"],
                host=request.user,
            )
        except ValidationError as exc:
            form.add_error(None, exc)
        else:
            return redirect("games:session_table", session_id=session.pk)
    return render(
        request,
        "games/list.html",
        {"form": form, "sessions": _session_rows(selectors.session_list(host=request.user))},
        status=400 if request.method == "POST" else 200,
    )


def _session_rows(sessions) -> list[dict]:
    names = {g["slug"]: g["name"] for g in selectors.game_choices()}
    return [
        {
            "session": s,
            "game_name": names.get(s.game, _words(s.game)),
            "seats": [{"name": seat.name, "hex": _seat_hex(seat.colour)} for seat in s.seats.all()],
        }
        for s in sessions
    ]


def _generic_table_actions(session: GameSession, table: dict) -> list[dict]:
    """Table actions shown as buttons; the King's Dilemma's typed ones get their own forms."""
    if session.game != "kings_dilemma":
        return table["legal_actions"]
    return [a for a in table["legal_actions"] if a["type"] not in KD_TYPED_TABLE_ACTIONS]


def _table_context(request: HttpRequest, session: GameSession, notice: dict | None = None) -> dict:
    table = selectors.session_view_for_table(session=session)
    names = _seat_infos(session)
    page_url = reverse("games:session_table", args=[session.pk])
    return {
        "session": session,
        "game_name": services.session_rules(session).name,
        "table": table,
        "present": _present(session, table["view"], names, table["result"]),
        "table_html": render_value(table["view"]),
        "result_html": render_value(table["result"]) if table["over"] else "",
        "to_act": _names_of(table["active_seats"], names),
        "log": list(reversed(selectors.session_log(session=session)))[:30],
        "undoable": selectors.session_undoable_action(session=session),
        **_choice_context(_choices(session, _generic_table_actions(session, table), table["view"], names)),
        **(_kd_table_forms(session, table) if session.game == "kings_dilemma" else {}),
        "action_url": reverse("games:session_table_action", args=[session.pk]),
        "panel_url": page_url,
        "panel_id": "table-panel",
        "key": secrets.token_urlsafe(12),
        "notice": notice,
        **_poll_context(session),
    }


@login_required
@require_GET
def session_table(request: HttpRequest, session_id: int) -> HttpResponse:
    """The host's screen: the board in the game's words, the join links with QR codes, the log."""
    session = _host_session(request, session_id)
    context = _table_context(request, session)
    template = "games/table.html"
    if request.htmx:
        template += "#table-panel"
    else:
        context["seats"] = [
            {"seat": seat, "hex": _seat_hex(seat.colour), "link": link, "qr": _qr_svg(link)}
            for seat in selectors.session_seats(session=session)
            for link in [request.build_absolute_uri(reverse("games:seat_page", args=[seat.token]))]
        ]
    return render(request, template, context)


@login_required
@require_POST
def session_table_action(request: HttpRequest, session_id: int) -> HttpResponse:
    """An action of the table itself (the host's screen); htmx gets the panel back in place."""
    session = _host_session(request, session_id)
    notice, status = _submit(request, session, None)
    if not request.htmx:
        return redirect("games:session_table", session_id=session.pk)
    session.refresh_from_db()
    return render(
        request, "games/table.html#table-panel", _table_context(request, session, notice), status=status
    )


@login_required
@require_POST
def session_undo(request: HttpRequest, session_id: int) -> HttpResponse:
    session = _host_session(request, session_id)
    last = selectors.session_last_action(session=session)
    try:
        services.session_undo(session=session, by=request.user)
    except ValidationError as exc:
        messages.error(request, _error_text(exc))
    else:
        messages.success(request, UNDONE.format(label=last.label if last else ""))
    return redirect("games:session_table", session_id=session.pk)


@login_required
@require_POST
def session_abandon(request: HttpRequest, session_id: int) -> HttpResponse:
    session = _host_session(request, session_id)
    try:
        services.session_abandon(session=session)
    except ValidationError as exc:
        messages.error(request, _error_text(exc))
    else:
        messages.success(request, ABANDONED)
    return redirect("games:session_table", session_id=session.pk)


@require_GET
def session_version(request: HttpRequest, session_id: int) -> HttpResponse:
    """The cheap polling endpoint: 204 while the session is still at version ``v`` (from the
    cache, no query), 286 (stop polling) when it is over. When it moved on: for htmx, the
    ``session-changed`` event, on which the page fetches its own panel and swaps it in place;
    otherwise the new version as JSON."""
    try:
        seen = int(request.GET.get("v", ""))
    except ValueError:
        seen = -1
    if nudges.cached_version(session_id) == seen:
        return HttpResponse(status=204)
    row = selectors.session_current_version(session_id=session_id)
    if row is None:
        raise Http404
    version, status = row
    nudges.remember_version(session_id, version)
    if version == seen:
        if status != GameSession.Status.ACTIVE:
            return HttpResponseStopPolling()
        return HttpResponse(status=204)
    if request.htmx:
        response = HttpResponse(status=200)
        return trigger_client_event(response, SESSION_CHANGED_EVENT, {"version": version, "status": status})
    return JsonResponse({"session": session_id, "version": version, "status": status})


def _seat_context(request: HttpRequest, seat: Seat, notice: dict | None = None) -> dict:
    session = seat.session
    mine = selectors.session_view_for_seat(session=session, seat=seat)
    names = _seat_infos(session)
    view = mine["view"]
    private_maker = PRIVATE.get(session.game)
    try:
        private = private_maker(view) if private_maker else None
    except Exception:  # an unexpected shape falls back to the generic rendering
        private = None
    return {
        "session": session,
        "seat": seat,
        "seat_hex": _seat_hex(seat.colour),
        "game_name": services.session_rules(session).name,
        "mine": mine,
        "present": _present(session, view, names, mine["result"]),
        "private": private,
        # An engine view's "private" part (hand, own cards) first, then what everybody sees.
        "private_html": render_value(view["private"]) if view.get("private") else "",
        "view_html": render_value({k: v for k, v in view.items() if k not in ("private", "you")}),
        "result_html": render_value(mine["result"]) if mine["over"] else "",
        "to_act": _names_of(mine["active_seats"], names),
        **_choice_context([] if seat.is_bot else _choices(session, mine["legal_actions"], view, names)),
        "log": list(reversed(selectors.session_log(session=session)))[:8],
        "action_url": reverse("games:seat_page", args=[seat.token]),
        "panel_url": reverse("games:seat_page", args=[seat.token]),
        "panel_id": "seat-panel",
        "key": secrets.token_urlsafe(12),
        "notice": notice,
        **_poll_context(session),
    }


@require_http_methods(["GET", "POST"])
def seat_page(request: HttpRequest, token: str) -> HttpResponse:
    """A player's phone: their own view and one button per legal action. With htmx a button swaps
    the panel in place (a refused action: its sentence, status 422)."""
    seat = _seat(token)
    session = seat.session
    if request.method == "POST":
        notice, status = _submit(request, session, seat)
        if not request.htmx:
            return redirect("games:seat_page", token=token)
        seat.session.refresh_from_db()
        return render(
            request, "games/seat.html#seat-panel", _seat_context(request, seat, notice), status=status
        )
    template = "games/seat.html"
    if request.htmx:
        template += "#seat-panel"
    return render(request, template, _seat_context(request, seat))


def _submit(request: HttpRequest, session: GameSession, seat: Seat | None) -> tuple[dict, int]:
    """Apply a posted action button (the action as JSON)."""
    form = ActionForm(request.POST)
    if not form.is_valid():
        return _notice(
            request, " ".join(e for errors in form.errors.values() for e in errors), "error", REFUSED
        )
    data = form.cleaned_data
    return _submit_action(request, session, seat, data["action"], data["version"], data["key"])


def _submit_action(request, session, seat, action: dict, version: int, key: str | None) -> tuple[dict, int]:
    """Apply an action and say what happened: (notice, status). A stale version shows the new state
    and a clear message (200); a refused action its sentence (422). Without htmx the notice also
    goes to the messages framework for the page after the redirect."""
    try:
        logged = services.session_submit_action(
            session=session, seat=seat, action=action, expected_version=version, idempotency_key=key or None
        )
    except services.StaleVersion as exc:
        return _notice(request, exc.message, "warning", 200)
    except RuleError as exc:
        return _notice(request, RULE_BROKEN.format(message=exc.message), "error", REFUSED)
    except ValidationError as exc:
        return _notice(request, _error_text(exc), "error", REFUSED)
    return _notice(request, ACTION_APPLIED.format(label=logged.label), "success", 200)


def _notice(request, text: str, level: str, status: int) -> tuple[dict, int]:
    if not request.htmx:
        messages.add_message(request, getattr(messages, level.upper()), text)
    return {"text": text, "level": level}, status


# ---- The King's Dilemma: the host types what the physical cards say -----------------------

KD_TYPED_TABLE_ACTIONS = {"draw_dilemma", "move_resource", "adjust", "mystery_sticker", "to_event_area"}


def _kd_table_forms(session: GameSession, table: dict, data=None) -> dict:
    types = {a["type"] for a in table["legal_actions"]}
    view = table["view"]
    known = {int(n) for n in (view.get("cards_met") or {})} | {
        int(n) for n in session.config.get("known_cards", {})
    }
    seats = [(s.index, s.name) for s in selectors.session_seats(session=session)]
    initial = {"version": session.version, "key": secrets.token_urlsafe(12)}
    context = {
        "kd_draw_form": DilemmaCardForm(data, known=known, initial=initial)
        if "draw_dilemma" in types
        else None,
        "kd_effect_form": CardEffectForm(data, seats=seats, initial=initial)
        if types & (KD_TYPED_TABLE_ACTIONS - {"draw_dilemma"})
        else None,
        "kd_known": sorted(known),
        "kd_compose_url": reverse("games:session_table_compose", args=[session.pk]),
    }
    game = session.chronicle_game
    if table["over"] and session.campaign_id and game is not None and not game.recorded:
        context["kd_save_url"] = reverse("kd-night-record", args=[session.campaign_id, session.pk])
    return context


@login_required
@require_POST
def session_table_compose(request: HttpRequest, session_id: int) -> HttpResponse:
    """A King's Dilemma table action typed by the host: the Dilemma card drawn, or a printed
    effect applied by hand. The engine validates it; a refusal shows its sentence in place."""
    session = _host_session(request, session_id)
    table = selectors.session_view_for_table(session=session)
    forms_ = _kd_table_forms(session, table, request.POST)
    form = forms_["kd_draw_form"] if request.POST.get("compose") == "draw" else forms_["kd_effect_form"]
    if form is None:
        notice, status = _notice(request, "That is not something the table does now.", "error", REFUSED)
    elif not form.is_valid():
        errors = "; ".join(
            f"{form.fields[k].label or k}: {' '.join(v)}" if k != "__all__" else " ".join(v)
            for k, v in form.errors.items()
        )
        notice, status = _notice(request, errors, "error", REFUSED)
    else:
        notice, status = _submit_action(
            request, session, None, form.action(), form.cleaned_data["version"], form.cleaned_data["key"]
        )
    if not request.htmx:
        return redirect("games:session_table", session_id=session.pk)
    session.refresh_from_db()
    return render(
        request, "games/table.html#table-panel", _table_context(request, session, notice), status=status
    )
