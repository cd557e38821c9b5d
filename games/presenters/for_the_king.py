"""For the King (and Me): the engine's view in the game's own words, and its buttons' labels.

It reads only the keys the engine declares (``games/engines/for_the_king/player_view.py``); a card's
words are the engine's (``cards.label``, ``KING_EFFECT_WORDS``), never re-derived. No I/O: it gets
views, seat names and plain facts."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext_lazy

from games.engines.for_the_king.cards import GOLD, GOVERNMENT, KING_EFFECT_WORDS, label
from games.engines.for_the_king.player_view import (
    CardFace,
    ForTheKingPrivate,
    ForTheKingResult,
    ForTheKingSeatView,
    ForTheKingTableView,
    Payment,
)
from games.engines.for_the_king.sentences import CHOICE_TITLES
from games.engines.kernel.choices import Choice
from games.engines.kernel.choices import Payment as PaymentOption
from games.presenters.base import (
    Presenter,
    Words,
    build_controls,
    generic_label,
    labelled_actions,
    offered,
    seat_name,
    step_back,
    step_links,
    step_note,
    step_query,
)
from games.translation import say_to_reader

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
# The rulebook's phases: the view's ``part``.
FTK_PARTS = {
    "setup": gettext_lazy("Setup"),
    "share_influence": gettext_lazy("Share Influence Phase"),
    "gain_esteem": gettext_lazy("Gain Esteem Phase"),
    "end": gettext_lazy("End of the Game"),
}
FTK_AREAS = {
    "personal": gettext_lazy("Keep it in front of yourself"),
    "middle": gettext_lazy("Place in the middle"),
    "favor": gettext_lazy("Place on the Favor deck"),
}
FTK_AREA_NAMES = {
    "personal": gettext_lazy("In front of the Adviser"),
    "middle": gettext_lazy("Middle of the table"),
    "favor": gettext_lazy("Favor deck"),
}
OFFICE_NAMES = {
    "diplomacy": pgettext_lazy("office", "Diplomacy"),
    "entertainment": pgettext_lazy("office", "Entertainment"),
    "livestock": pgettext_lazy("office", "Livestock"),
    "architecture": pgettext_lazy("office", "Architecture"),
    "military": pgettext_lazy("office", "Military"),
    "provisions": pgettext_lazy("office", "Provisions"),
}
DUTY_NAMES = {"primary": gettext_lazy("Primary"), "secondary": gettext_lazy("Secondary")}


def _office(office: Any) -> str:
    """An office's name in the reader's language."""
    return str(OFFICE_NAMES.get(str(office)) or str(office or "").capitalize())


def _label(card_id: str) -> str:
    """A card in the engine's words, said in the reader's language."""
    return say_to_reader(label(card_id))


def _ftk_card(face: CardFace | None) -> dict | None:
    """A face-up card as the templates draw it: title, value, letter, colour, and the engine's label."""
    if face is None:
        return None
    card = {
        "id": face["id"],
        "kind": face["kind"],
        "value": face["value"],
        "letter": face["letter"],
        "label": _label(face["id"]),
    }
    if face["kind"] == GOVERNMENT:
        return {
            **card,
            "title": _office(face["office"]),
            "hex": OFFICE_HEX.get(face["colour"] or "", "#555"),
        }
    if face["kind"] == GOLD:
        return {**card, "title": _("Gold"), "letter": None, "hex": GOLD_HEX}
    effect = say_to_reader(KING_EFFECT_WORDS[face["effect"] or ""])
    return {**card, "title": _("King card"), "value": "♛", "letter": None, "effect": effect, "hex": KING_HEX}


def _actor(view: ForTheKingTableView) -> int | None:
    return view["to_act"][0] if view["to_act"] else None


# What the seat that must act does now, by phase: said to everyone (DOING) and to that player (PROMPT).
# ``first_bid``: the bidding before anyone bid.
DOING = {
    "deal": gettext_lazy("The table shuffles the cards and deals the deck."),
    "distribute": gettext_lazy(
        "{who} is the Adviser: Distribute Cards ({placed} of {total} placed){holding}."
    ),
    "choose": gettext_lazy("Choose Central Cards: {who} takes a card from the middle of the table."),
    "king_card": gettext_lazy("{who} reveals a King card: {effect}."),
    "reveal": gettext_lazy("{who}, the first player, reveals the top card of the Favor deck."),
    "first_bid": gettext_lazy("{who}: bid 1 or more, or Pass."),
    "bidding": gettext_lazy("{who}: Raise or Pass. {high_bidder} bid {high}."),
    "pay_gold": gettext_lazy("{who} won the card and pays {owed} Gold."),
    "discard": gettext_lazy("{who} won the Gold card and discards {left} more face down."),
    "cannot_pay": gettext_lazy(
        "{loser} cannot pay: {who} draws a random card from their hand and discards it face down."
    ),
}
PROMPT = {
    "distribute": gettext_lazy("You are the Adviser: place the card you drew ({placed} of {total} placed)."),
    "choose": gettext_lazy("Choose Central Cards: take one card from the middle of the table."),
    "king_card": gettext_lazy("Use your King card: {effect}."),
    "reveal": gettext_lazy("You are the first player: reveal the top card of the Favor deck."),
    "first_bid": gettext_lazy("Bid 1 or more, or Pass."),
    "bidding": gettext_lazy("Raise or Pass: {high_bidder} bid {high}."),
    "pay_gold": gettext_lazy("You won the card: pay {owed} Gold with your Gold cards."),
    "discard": gettext_lazy("You won the Gold card: discard {left} face down."),
    "cannot_pay": gettext_lazy("{loser} cannot pay: draw a random card from their hand."),
}
GAME_OVER = gettext_lazy("The game is over: the offices are scored.")


def _moment(view: ForTheKingTableView) -> str:
    """The key of DOING and PROMPT: the phase, or ``first_bid`` before anyone bid."""
    bidding = view["bidding"]
    if view["phase"] == "bidding" and bidding is not None and not bidding["high_bid"]:
        return "first_bid"
    return view["phase"]


def _facts(view: ForTheKingTableView, names: dict[int, dict]) -> dict:
    """The words DOING and PROMPT fill in."""
    bidding, payment, king = view["bidding"], view["payment"], view["king_card"]
    owed, paid = (payment["owed"], payment["paid"]) if payment else (0, 0)
    return {
        "who": seat_name(names, _actor(view)),
        "placed": sum(view["placed"].values()),
        "total": sum(view["limits"].values()),
        "holding": _(" and holds a card") if view["adviser_holds_card"] else "",
        "effect": say_to_reader(king["effect"]) if king else "",
        "high": bidding["high_bid"] if bidding else 0,
        "high_bidder": seat_name(names, bidding["high_bidder"]) if bidding else "",
        "owed": owed,
        "left": ngettext("{n} card", "{n} cards", owed - paid).format(n=owed - paid),
        "loser": seat_name(names, payment["seat"]) if payment else "",
    }


def _ftk_doing(view: ForTheKingTableView, names: dict[int, dict]) -> str:
    """Whose turn it is and what they do, in the rulebook's words."""
    if view["over"]:
        return str(GAME_OVER)
    return str(DOING[_moment(view)]).format(**_facts(view, names))


def _ftk_prompt(view: ForTheKingTableView, names: dict[int, dict]) -> str:
    """What the seat that must act does now, said to that player."""
    if view["over"] or _moment(view) not in PROMPT:
        return ""
    return str(PROMPT[_moment(view)]).format(**_facts(view, names))


def _ftk_seats(view: ForTheKingTableView, names: dict[int, dict]) -> list[dict]:
    actor, bidding = _actor(view), view["bidding"]
    return [
        {
            **names.get(s["index"], {"name": s["name"], "hex": "#555"}),
            "index": s["index"],
            "hand_count": s["hand_count"],
            "personal_deck_count": s["personal_deck_count"],
            "is_adviser": s["is_adviser"],
            "is_first_player": s["is_first_player"],
            "acting": s["index"] == actor,
            "last_bid": bidding["last_bids"][s["index"]] if bidding else None,
            "passed": bidding is not None and s["index"] in bidding["passed"],
            "excluded": bidding is not None and s["index"] in bidding["excluded"],
            "high": bidding["high_bid"] if bidding and bidding["high_bidder"] == s["index"] else 0,
        }
        for s in view["seats"]
    ]


def _ftk_areas(view: ForTheKingTableView) -> list[dict]:
    """'Distribute Cards': each area, its cards placed and its limit (Share Influence only)."""
    if view["part"] != "share_influence":
        return []
    placed, limits = view["placed"], view["limits"]
    return [
        {"name": str(FTK_AREA_NAMES[area]), "placed": placed[area], "limit": limits[area]}
        for area in ("personal", "middle", "favor")
    ]


def _ftk_government(view: ForTheKingTableView) -> list[dict]:
    return [
        {
            "office": _office(g["office"]),
            "hex": OFFICE_HEX.get(g["colour"], "#555"),
            "primary": g["primary"],
            "secondary": g["secondary"],
        }
        for g in view["government"]
    ]


def _ftk_payment(payment: Payment | None) -> dict | None:
    return dict(payment) if payment is not None else None


def _ftk_king_card(view: ForTheKingTableView, names: dict[int, dict]) -> dict | None:
    king = view["king_card"]
    if king is None:
        return None
    return {
        "who": seat_name(names, king["seat"]),
        "card": _ftk_card(king["card"]),
        "effect": say_to_reader(king["effect"]),
    }


def _ftk_present(view: ForTheKingTableView, names: dict[int, dict], result: ForTheKingResult | None) -> dict:
    """The public part of a For the King view (the same on the table screen and on a phone)."""
    bidding = view["bidding"]
    return {
        "phase": str(FTK_PARTS[view["part"]]),
        "doing": _ftk_doing(view, names),
        "prompt": _ftk_prompt(view, names),
        "actor": _actor(view),
        "government": _ftk_government(view),
        "middle": [_ftk_card(c) for c in view["middle"]],
        "offer": _ftk_card(view["offer"]),
        "counts": [
            (_("Deck"), view["deck_count"]),
            (_("Favor deck"), view["favor_deck_count"]),
            (_("Discards"), len(view["discard"]) + view["discard_face_down_count"]),
        ],
        "areas": _ftk_areas(view),
        "seats": _ftk_seats(view, names),
        "bidding": bidding is not None and view["part"] == "gain_esteem",
        "high_bid": bidding["high_bid"] if bidding else 0,
        "high_bidder": seat_name(names, bidding["high_bidder"])
        if bidding and bidding["high_bidder"] is not None
        else "",
        "payment": _ftk_payment(view["payment"]),
        "king_card": _ftk_king_card(view, names),
        "result": _ftk_result(result, names) if result else None,
    }


def _ftk_result(result: ForTheKingResult, names: dict[int, dict]) -> dict:
    """'End of the Game': the ranking, each seat's points, Gold and Duty tiles, the office sums."""
    rows = [
        {
            **names.get(i, {"name": seat_name(names, i), "hex": "#555"}),
            "position": result["positions"][i],
            "score": result["scores"][i],
            "gold": result["gold"][i],
            "winner": i in result["winners"],
            "tiles": [
                _("{office} {duty} ({value})").format(
                    office=_office(t["office"]), duty=DUTY_NAMES.get(t["duty"], t["duty"]), value=t["value"]
                )
                for t in result["tiles"][i]
            ],
        }
        for i in result["ranking"]
    ]
    offices = [
        {
            "office": _office(office),
            "sums": sums,
            "primary": result["duties"][office]["primary"],
            "secondary": result["duties"][office]["secondary"],
        }
        for office, sums in result["office_sums"].items()
    ]
    return {
        "rows": rows,
        "winners": [seat_name(names, i) for i in result["winners"]],
        "offices": offices,
        "tie_notes": [say_to_reader(note) for note in result["tie_notes"]],
        "seat_names": [seat_name(names, i) for i in range(len(result["scores"]))],
    }


def _private_of(view: ForTheKingTableView) -> ForTheKingPrivate | None:
    """A seat view's private part (None on the table's view, which has none)."""
    return cast(ForTheKingSeatView, view)["private"] if "private" in view else None


def _ftk_private(view: ForTheKingTableView) -> dict | None:
    private = _private_of(view)
    if private is None:
        return None
    return {
        "drawn": _ftk_card(private["drawn"]),
        "hand": _ftk_sorted(private["hand"]),
        "personal_deck": _ftk_sorted(private["personal_deck"]),
        "gold": private["gold"],
    }


FTK_KIND_ORDER = {"government": 0, "king": 1, "gold": 2}


def _ftk_sorted(faces: list[CardFace]) -> list[dict]:
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


def _ftk_cards_by_id(view: ForTheKingTableView) -> dict[str, dict]:
    """Every card this viewer can see, by id (to name the cards in a button)."""
    table = view
    private = _private_of(view)
    faces: list[CardFace | None] = [*table["middle"], table["offer"]]
    if private is not None:
        faces += [*private["hand"], *private["personal_deck"], private["drawn"]]
    return {f["id"]: card for f in faces if f and (card := _ftk_card(f))}


def _king_change_words(view: ForTheKingTableView, action: dict) -> str:
    """A King card's changes: 'Change Military 3 → 4, Diplomacy 3 → 2'."""
    duties = {g["office"]: g["primary"] for g in view["government"]}
    parts = []
    for change in action.get("changes") or []:
        office, step = change.get("office"), change.get("change", 0)
        now = duties.get(office)
        if isinstance(now, int):
            parts.append(f"{_office(office)} {now} → {now + step}")
        else:
            parts.append(f"{_office(office)} {step:+d}")
    return _("Change {changes}").format(changes=", ".join(parts)) if parts else _("Use the King card")


# The buttons whose words are fixed.
BUTTONS = {kind: CHOICE_TITLES[kind] for kind in ("deal", "reveal", "pass")}


def _ftk_label(action: dict, view: ForTheKingTableView, names: dict[int, dict]) -> tuple[str, str]:
    """A button's words and its group ('bid' buttons sit in a compact grid)."""
    kind = action.get("type")
    table = view
    cards = _ftk_cards_by_id(view)

    def card_label(card_id: Any) -> str:
        card = cards.get(card_id)
        return card["label"] if card else _("a card")

    if kind in BUTTONS:
        return say_to_reader(BUTTONS[kind]), "main"
    if kind == "bid":
        return _("Bid {amount}").format(amount=action.get("amount")), "bid"
    if kind == "place":
        return str(FTK_AREAS.get(action.get("area") or "", generic_label(action))), "main"
    if kind == "choose":
        return _("Take {card}").format(card=card_label(action.get("card"))), "main"
    if kind == "king_card":
        return _king_change_words(table, action), "main"
    if kind == "pay_gold":
        paid = " + ".join(card_label(c) for c in action.get("cards") or [])
        return _("Pay with {cards}").format(cards=paid), "main"
    if kind == "discard":
        return _("Discard {card} face down").format(card=card_label(action.get("card"))), "main"
    if kind == "draw_random_card" and table["payment"] is not None:
        whose = seat_name(names, table["payment"]["seat"])
        return _("Draw a random card from {name}'s hand").format(name=whose), "main"
    return generic_label(action), "main"


KING_AT_ONCE = 6  # more ways to use a King card than this: the Duty tile first, then the others
KING_TILE_GONE = gettext_lazy("That Primary Duty tile is not offered: choose again.")


def _ftk_king_steps(
    choices: list, view: ForTheKingTableView, words: Words, step: Mapping[str, str] | None
) -> list[dict] | None:
    """A King card with many ways to use it (two tiles: up to 30), asked in two screens: one of
    its Primary Duty tiles, then the ways to use the card that change that tile. None: no need."""
    king = next((c for c in choices if c["type"] == "king_card"), None)
    if king is None or len(king["params"]["changes"]["options"]) <= KING_AT_ONCE:
        return None
    table = view
    options = king["params"]["changes"]["options"]
    duties = {g["office"]: g for g in table["government"]}
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
        asked = cast(Choice, narrowed)
        narrowed_words = _ftk_words(view, dict(words.names), [asked])
        return [step_back("?", _("Another Primary Duty tile")), *build_controls([asked], narrowed_words)]
    links = [
        {
            "query": step_query(office=o),
            "label": _office(o),
            "detail": _("Primary Duty {value}").format(value=duties[o]["primary"]),
            "chips": [OFFICE_HEX.get(duties[o]["colour"], "#555")],
            "data": o,
        }
        for o in offices
    ]
    pending = table["king_card"]
    effect = say_to_reader(pending["effect"]) if pending else _("change the Primary Duty tiles")
    title = _("King card: {effect}. Choose one of the tiles:").format(effect=effect)
    groups = [step_links("king_card", title, links, grid=2)]
    return ([step_note(str(KING_TILE_GONE), "error")] if office else []) + groups


def _owed(view: ForTheKingTableView) -> int | None:
    payment = view["payment"]
    return payment["owed"] if payment else None


def _ftk_words(view: ForTheKingTableView, names: dict[int, dict], choices: list[Choice]) -> Words:
    """The buttons in the labeller's words; a discard's card by its name (the title says what happens
    to it); a payment one button per set of Gold cards the engine offers: its cards by their
    values, and the Gold it pays."""
    words = Words(names)
    for choice, name, value, action in labelled_actions(choices):
        text = _ftk_label(action, view, names)[0]
        words.title_is(choice, text) if name is None else words.option_is(choice, name, value, text)
    cards = _ftk_cards_by_id(view)
    for choice, name, value in offered(choices):
        if choice["type"] == "discard":
            card = cards.get(value)
            words.option_is(choice, name, value, card["label"] if card else _("a card"))
    owed = _owed(view)
    for choice in choices:
        for name, param in choice["params"].items():
            if param["kind"] != "payment":
                continue
            if owed:
                words.payment_title_is(choice, _("Pay {owed} Gold").format(owed=owed))
            for option in param["options"]:
                shown = [cards[c] for c in option["cards"] if c in cards]
                if len(shown) == len(option["cards"]):
                    shown.sort(key=lambda card: -card["value"])
                    words.payment_is(choice, name, option, _ftk_payment_words(option, shown))
    return words


def _ftk_payment_words(option: PaymentOption, shown: list[dict]) -> dict:
    return {
        "label": " + ".join(card["label"] for card in shown),
        "price": _("{n} Gold").format(n=option["coins"]),
        "chips": [GOLD_HEX for _ in shown],
    }


class ForTheKingPresenter(Presenter[ForTheKingTableView]):
    template_folder = "games/for_the_king"

    def present(self, view: ForTheKingTableView, names: dict[int, dict], result: dict | None) -> dict:
        return _ftk_present(view, names, cast(ForTheKingResult | None, result))

    def private(self, view: ForTheKingTableView) -> dict | None:
        return _ftk_private(view)

    def words(
        self, view: ForTheKingTableView, names: dict[int, dict], choices: Sequence[Mapping[str, Any]]
    ) -> Words:
        return _ftk_words(view, names, cast(list[Choice], choices))

    def controls(
        self, choices: list, view: ForTheKingTableView, words: Words, step: Mapping[str, str] | None
    ) -> list[dict]:
        """The phone's controls: a payment in one submit; a King card with many uses in two steps."""
        return _ftk_king_steps(choices, view, words, step) or build_controls(choices, words)


PRESENTER = ForTheKingPresenter()
