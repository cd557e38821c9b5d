"""For the King (and Me): the engine view in the game's own words, and its buttons' labels."""

from __future__ import annotations

from functools import lru_cache
from typing import cast

from games.engines.kernel.choices import Choice
from games.presenters.base import Presenter
from games.presenters.common import generic_label, key_words, seat_name

# ---- For the King (and Me) ---------------------------------------------------------------

OFFICE_HEX = {
    "blue": "#2a5ea8",
    "red": "#b3261e",
    "orange": "#a4500f",
    "green": "#3b7d3a",
    "violet": "#7b4fa0",
    "pink": "#c2477f",
}
GOLD_HEX = "#8a6508"  # dark enough for white titles (WCAG AA)
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
        from games.engines.for_the_king.cards import KING_EFFECT_WORDS
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


def _ftk_doing(view: dict, names: dict[int, dict]) -> str:
    """Whose turn it is and what they do, in the rulebook's words."""
    stage = view.get("stage")
    actor = view["to_act"][0] if view.get("to_act") else None
    who = seat_name(names, actor)
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
            return f"{who}: Raise or Pass. {seat_name(names, bidding.get('high_bidder'))} bid {high}."
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
            f"{seat_name(names, payment.get('seat'))} cannot pay: {who} draws a random card "
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
        return f"You are the Adviser: place the card you drew ({placed} of {total} placed)."
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
            return f"Raise or Pass: {seat_name(names, bidding.get('high_bidder'))} bid {high}."
        return "Bid 1 or more, or Pass."
    if stage == "pay_gold":
        return f"You won the card: pay {payment.get('owed')} Gold with your Gold cards."
    if stage == "discard":
        return f"You won the Gold card: discard {(payment.get('owed') or 0) - (payment.get('paid') or 0)} card(s) face down."
    if stage == "cannot_pay":
        return f"{seat_name(names, payment.get('seat'))} cannot pay: draw a random card from their hand."
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
        "phase": FTK_PHASES.get(view.get("phase") or "", key_words(view.get("phase", ""))),
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
        "high_bidder": seat_name(names, bidding.get("high_bidder"))
        if bidding.get("high_bidder") is not None
        else "",
        "payment": view.get("payment"),
        "king_card": {
            "who": seat_name(names, king.get("seat")),
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
        "winners": [seat_name(names, i) for i in result.get("winners") or []],
        "offices": offices,
        "tie_notes": result.get("tie_notes") or [],
        "seat_names": [seat_name(names, i) for i in range(len(scores))],
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
    cards = [card for f in faces if (card := _ftk_card(f))]
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
    return {f["id"]: card for f in faces if f and (card := _ftk_card(f))}


def _ftk_label(action: dict, view: dict, names: dict[int, dict]) -> tuple[str, str]:
    """A button's words and its group ('bid' buttons sit in a compact grid)."""
    kind = action.get("type")
    cards = _ftk_cards_by_id(view)

    def card_label(card_id) -> str:
        card = cards.get(card_id)
        return card["label"] if card else "a card"

    if kind == "deal":
        return "Shuffle and deal the cards", "main"
    if kind == "place":
        return FTK_AREAS.get(action.get("area") or "", generic_label(action)), "main"
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
        return f"Draw a random card from {seat_name(names, payment.get('seat'))}'s hand", "main"
    return generic_label(action), "main"


KING_AT_ONCE = 6  # more ways to use a King card than this: the Duty tile first, then the others
KING_TILE_GONE = "That Primary Duty tile is not offered: choose again."


def _ftk_king_steps(choices: list, view: dict, words, step) -> list[dict] | None:
    """A King card with many ways to use it (two tiles: up to 30), asked in two screens: one of
    its Primary Duty tiles, then the ways to use the card that change that tile. None: no need."""
    from games.presenters.controls import build_controls, step_back, step_links, step_note, step_query

    king = next((c for c in choices if c["type"] == "king_card"), None)
    if king is None or len(king["params"]["changes"]["options"]) <= KING_AT_ONCE:
        return None
    options = king["params"]["changes"]["options"]
    duties = {g["office"]: g for g in view.get("government") or []}
    offices = [o for o in duties if any(ch["office"] == o for option in options for ch in option)]
    office = (step or {}).get("office")
    if office in offices:
        narrowed = {
            **king,
            "params": {
                "changes": {
                    **king["params"]["changes"],
                    "options": [option for option in options if any(ch["office"] == office for ch in option)],
                }
            },
        }
        return [step_back("?", "Another Primary Duty tile"), *build_controls([cast(Choice, narrowed)], words)]
    links = [
        {
            "query": step_query(office=o),
            "label": o.capitalize(),
            "detail": f"Primary Duty {duties[o].get('primary')}",
            "chips": [OFFICE_HEX.get(duties[o].get("colour") or "", "#555")],
            "data": o,
        }
        for o in offices
    ]
    effect = (view.get("king_card") or {}).get("effect") or "change the Primary Duty tiles"
    groups = [step_links("king_card", f"King card: {effect}. Choose one of the tiles:", links, grid=2)]
    return ([step_note(KING_TILE_GONE, "error")] if office else []) + groups


class ForTheKingPresenter(Presenter):
    template_folder = "games/ftk"
    TITLES = {"bid": "Bid", "pay_gold": "Pay with Gold cards"}

    def present(self, view: dict, names: dict[int, dict], result: dict | None) -> dict:
        return _ftk_present(view, names, result)

    def private(self, view: dict) -> dict | None:
        return _ftk_private(view)

    def words(self, view: dict, names: dict[int, dict]):
        from games.presenters import LabellerWords

        class ForTheKingWords(LabellerWords):
            """A payment is one submit of ticked Gold cards: each named by its value, their total
            shown as they are ticked (the engine checks it reaches the bid without overpaying)."""

            def _gold(self, value):
                card = _ftk_cards_by_id(self.view).get(value)
                return card if card and card["kind"] == "gold" else None

            def title(self, choice):
                if choice["type"] == "discard":
                    return "Discard a card face down"
                if choice["type"] == "pay_gold":
                    owed = (self.view.get("payment") or {}).get("owed")
                    return f"Pay {owed} Gold" if owed else super().title(choice)
                return super().title(choice)

            def param_label(self, choice, name):
                if choice["type"] == "pay_gold":
                    return "Tick the Gold cards you pay with"
                return super().param_label(choice, name)

            def option(self, choice, name, value):
                if choice["type"] == "discard":  # the title says what happens to it
                    card = _ftk_cards_by_id(self.view).get(value)
                    return card["label"] if card else "a card"
                if choice["type"] == "pay_gold":
                    card = self._gold(value)
                    return card["label"] if card else "a Gold card"
                return super().option(choice, name, value)

            def worth(self, choice, name, value):
                card = self._gold(value) if choice["type"] == "pay_gold" else None
                return card["value"] if card else None

            def total_label(self, choice, name):
                owed = (self.view.get("payment") or {}).get("owed")
                return f"Gold ticked (the bid is {owed})" if owed else "Gold ticked"

        return ForTheKingWords(_ftk_label, view, names, self.TITLES)

    def controls(self, choices: list, view: dict, names: dict[int, dict], step) -> list[dict]:
        """The phone's controls: a payment in one submit; a King card with many uses in two steps."""
        from games.presenters.controls import build_controls

        words = self.words(view, names)
        return _ftk_king_steps(choices, view, words, step) or build_controls(choices, words)


PRESENTER = ForTheKingPresenter()
