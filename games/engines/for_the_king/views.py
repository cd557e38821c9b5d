"""What each seat (or the table screen) may see, and every action in words."""

from typing import Any

from games.engines.for_the_king.cards import (
    CARDS,
    GOLD,
    KING_EFFECT_WORDS,
    OFFICE_COLOURS,
    face,
    gold_value,
    kind,
    label,
)
from games.engines.for_the_king.flow import actor, drew_a_card, limits, name
from games.engines.kernel.contract import BaseView
from games.engines.kernel.describe import sentence


class ForTheKingView(BaseView):
    game: str
    stage: str
    government: list[dict[str, Any]]
    deck_count: int
    box_count: int
    favor_deck_count: int
    middle: list[dict[str, Any]]
    offer: dict[str, Any] | None


def _payment_view(state: dict) -> dict | None:
    payment = state["payment"]
    if payment is None:
        return None
    return {
        "seat": payment["seat"],
        "owed": payment["owed"],
        "paid": payment["paid"],
        "with": "cards" if kind(state["offer"]) == GOLD else "gold",
        "cannot_pay": state["stage"] == "cannot_pay",
    }


def view(state: dict, seat: int | None) -> dict:
    """Hands, personal decks, the deck, the box, the Favor deck and face-down discards show only
    as counts; a seat sees its own cards (and, as Adviser, the card it drew)."""
    to_act = [] if state["over"] else [actor(state)]
    king = state["king_card"]
    seats = [
        {
            "index": i,
            "name": s["name"],
            "personal_deck_count": len(s["personal_deck"]),
            "hand_count": len(s["hand"]),
            "is_adviser": state["adviser"] == i,
            "is_first_player": state["first_player"] == i,
        }
        for i, s in enumerate(state["seats"])
    ]
    private = None
    if seat is not None:
        own = state["seats"][seat]
        drawn = state["drawn"] if state["adviser"] == seat else None
        private = {
            "personal_deck": [face(c) for c in own["personal_deck"]],
            "hand": [face(c) for c in own["hand"]],
            "gold": gold_value(own["hand"]) + gold_value(own["personal_deck"]),
            "drawn": face(drawn) if drawn is not None else None,
        }
    return {
        "game": "for_the_king",
        "phase": state["phase"],
        "stage": state["stage"],
        "you": seat,
        "to_act": to_act,
        "seats": seats,
        "government": [
            {
                "office": office,
                "colour": OFFICE_COLOURS[office],
                "primary": state["duties"][office]["primary"],
                "secondary": state["duties"][office]["secondary"],
            }
            for office in state["offices"]
        ],
        "deck_count": len(state["deck"]),
        "box_count": len(state["box"]),
        "favor_deck_count": len(state["favor_deck"]),
        "middle": [face(c) for c in state["middle"]],
        "offer": face(state["offer"]) if state["offer"] else None,
        "discard": [face(c) for c in state["discard"]],
        "discard_face_down_count": len(state["discard_face_down"]),
        "king_cards_used": [face(c) for c in state["king_cards_used"]],
        "adviser": state["adviser"],
        "adviser_holds_card": state["drawn"] is not None,
        "placed": dict(state["placed"]),
        "limits": limits(state),
        "choosers": list(state["choosers"]),
        "king_card": (
            {
                "seat": king["seat"],
                "card": face(king["card"]),
                "effect": KING_EFFECT_WORDS[CARDS[king["card"]]["effect"]],
            }
            if king
            else None
        ),
        "first_player": state["first_player"],
        "bidding": (
            {
                k: state["bidding"][k]
                for k in ("turn", "high_bid", "high_bidder", "passed", "excluded", "last_bids")
            }
            if state["bidding"]
            else None
        ),
        "payment": _payment_view(state),
        "private": private,
        "over": state["over"],
        "result": state["result"],
    }


AREA_WORDS = {
    "personal": "kept a card face down in their personal deck",
    "favor": "placed a card on the Favor deck",
}


# The actions whose label is a fixed sentence.
SENTENCES = {
    "deal": "The table shuffled the cards and dealt the deck",
    "bid": "{who} bid {amount}",
    "pass": "{who} passed",
    "discard": "{who} discarded a card face down",
}


# The Adviser's compulsory draw ('Distribute Cards'), said after the action it ended.
DREW_NEXT = "{label}; {adviser} drew the next card"
NEW_ADVISER_DREW = "{label}; {adviser} is the Adviser and drew the top card of the deck"


def describe(state: dict, action: dict, after: dict | None = None) -> str:
    """The action in the game's words, from the state before it (the state after it gives a vaguer
    label, never a leak). Never names a hidden card. With ``after`` (the state the action led to),
    the Adviser's compulsory draw that ended it is said too."""
    said = _describe(state, action)
    if after is None or not drew_a_card(state, action, after):
        return said
    adviser = after["adviser"]
    if adviser == state.get("adviser"):
        return DREW_NEXT.format(label=said, adviser=name(after, adviser))
    return NEW_ADVISER_DREW.format(label=said, adviser=name(after, adviser))


def _describe(state: dict, action: dict) -> str:
    kind_ = action.get("type")
    seat = action.get("seat")
    try:
        who = name(state, seat)
    except (IndexError, TypeError):
        who = "Someone"
    said = sentence(SENTENCES, action, who=who)
    if said is not None:
        return said
    if kind_ == "place":
        area: Any = action.get("area")
        drawn = state.get("drawn")
        if area == "middle" and drawn:
            return f"{who} placed {label(drawn)} in the middle of the table"
        if area == "personal" and drawn and CARDS[drawn]["kind"] == "king":
            return f"{who} kept {label(drawn)} and reveals it"
        return f"{who} {AREA_WORDS.get(area, 'placed a card')}"
    if kind_ == "choose":
        card_id = action.get("card")
        what = label(card_id) if card_id in CARDS else "a card"
        return f"{who} took {what} from the middle of the table"
    if kind_ == "king_card":
        changes = action.get("changes") or []
        try:
            parts = [
                f"{c['office'].capitalize()} {state['duties'][c['office']]['primary']} → "
                f"{state['duties'][c['office']]['primary'] + c['change']}"
                for c in changes
            ]
        except (KeyError, TypeError):
            parts = []
        return f"{who} used a King card: " + (", ".join(parts) if parts else "no Duty tile could change")
    if kind_ == "reveal":
        # From the state before the action the card is the top of the Favor deck; from the state
        # after, it is the offer. Never the Favor deck's top after the reveal: that one is hidden.
        top = state.get("favor_deck") or []
        shown = top[0] if state.get("stage") == "reveal" and top else state.get("offer")
        return (
            f"{who} revealed {label(shown)} from the Favor deck" if shown else f"{who} revealed a Favor card"
        )
    if kind_ == "pay_gold":
        cards = [c for c in action.get("cards") or [] if c in CARDS]
        values = " + ".join(str(CARDS[c]["value"]) for c in cards)
        return f"{who} paid {gold_value(cards)} Gold ({values})"
    if kind_ == "draw_random_card":
        payment = state.get("payment") or {}
        loser = payment.get("seat")
        whose = f"{name(state, loser)}'s" if loser is not None else "the winner's"
        return f"{who} drew a random card from {whose} hand and discarded it face down"
    return str(kind_ or "?").replace("_", " ")
