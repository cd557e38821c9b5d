"""The log's words: every action of For the King (and Me) said from the state before it, never naming
a hidden card."""

from typing import Any

from games.engines.for_the_king.cards import CARDS, gold_value, label
from games.engines.for_the_king.influence import drew_a_card
from games.engines.for_the_king.turn import name
from games.engines.kernel.describe import sentence

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


# Words for each choice's button (``Choice.title``, filled by the kernel's ``Rules.legal_actions``).
CHOICE_TITLES = {
    "deal": "Shuffle and deal the cards",
    "place": "Place the card you drew",
    "choose": "Take a card from the middle",
    "king_card": "Use your King card",
    "reveal": "Reveal the top card of the Favor deck",
    "bid": "Bid",
    "pass": "Pass",
    "pay_gold": "Pay with Gold cards",
    "discard": "Discard a card face down",
    "draw_random_card": "Draw a random card",
}
# One way to pay a bid ('End of a round'), on its button: "Gold 3 + Gold 1: 4 Gold".
PAYMENT_LABEL = "{cards}: {total} Gold"


def payment_label(cards: list[str]) -> str:
    """A payment of Gold cards in words, the highest first."""
    named = " + ".join(label(c) for c in sorted(cards, key=lambda c: (-CARDS[c]["value"], c)))
    return PAYMENT_LABEL.format(cards=named, total=gold_value(cards))


# The Adviser's compulsory draw ('Distribute Cards'), said after the action it ended.
DREW_NEXT = "{label}; {adviser} drew the next card"
NEW_ADVISER_DREW = "{label}; {adviser} is the Adviser and drew the top card of the deck"


def describe(before: dict, action: dict, after: dict) -> str:
    """The action in the game's words, from the state before it (the state after it gives a vaguer
    label, never a leak). Never names a hidden card. The Adviser's compulsory draw that ended it is
    said too, from ``after``, the state it led to (never the card drawn: only its Adviser sees it)."""
    said = _describe(before, action)
    if not drew_a_card(before, action, after):
        return said
    adviser = after["adviser"]
    if adviser == before.get("adviser"):
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
        shown = top[0] if state.get("phase") == "reveal" and top else state.get("offer")
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
