"""The log's words: every action of For the King (and Me) said from the state before it, never naming
a hidden card. Each sentence is a message id with its values (the kernel's ``messages``), so the log
reads in each reader's language; a card's words (``cards.label``) are messages too."""

from typing import Any

from games.engines.for_the_king.cards import CARDS, gold_value, label, office_word
from games.engines.for_the_king.influence import drew_a_card
from games.engines.for_the_king.turn import name
from games.engines.kernel.messages import Message, gettext_noop, join

SOMEONE = gettext_noop("Someone")  # an action whose seat is no seat of the table

# Where the Adviser placed the card drawn ('Distribute Cards'), when the log may not name it.
AREA_WORDS = {
    "personal": gettext_noop("{who} kept a card face down in their personal deck"),
    "favor": gettext_noop("{who} placed a card on the Favor deck"),
}
PLACED_A_CARD = gettext_noop("{who} placed a card")
PLACED_IN_MIDDLE = gettext_noop("{who} placed {card} in the middle of the table")
KEPT_KING_CARD = gettext_noop("{who} kept {card} and reveals it")
TOOK_FROM_MIDDLE = gettext_noop("{who} took {card} from the middle of the table")
TOOK_A_CARD = gettext_noop("{who} took a card from the middle of the table")
USED_KING_CARD = gettext_noop("{who} used a King card: {changes}")
USED_KING_CARD_IN_VAIN = gettext_noop("{who} used a King card: no Duty tile could change")
DUTY_CHANGE = gettext_noop("{office} {before} → {after}")
REVEALED = gettext_noop("{who} revealed {card} from the Favor deck")
REVEALED_A_CARD = gettext_noop("{who} revealed a Favor card")
PAID_GOLD = gettext_noop("{who} paid {total} Gold ({values})")
DREW_FROM_HAND = gettext_noop("{who} drew a random card from {loser}'s hand and discarded it face down")
DREW_FROM_WINNER = gettext_noop("{who} drew a random card from the winner's hand and discarded it face down")


# The actions whose label is a fixed sentence, with the action's values it says.
SENTENCES = {
    "deal": gettext_noop("The table shuffled the cards and dealt the deck"),
    "bid": gettext_noop("{who} bid {amount}"),
    "pass": gettext_noop("{who} passed"),
    "discard": gettext_noop("{who} discarded a card face down"),
}
SENTENCE_VALUES = ("amount",)


# Words for each choice's button (``Choice.title``, filled by the kernel's ``Rules.legal_actions``).
CHOICE_TITLES: dict[str, str] = {
    "deal": gettext_noop("Shuffle and deal the cards"),
    "place": gettext_noop("Place the card you drew"),
    "choose": gettext_noop("Take a card from the middle"),
    "king_card": gettext_noop("Use your King card"),
    "reveal": gettext_noop("Reveal the top card of the Favor deck"),
    "bid": gettext_noop("Bid"),
    "pass": gettext_noop("Pass"),
    "pay_gold": gettext_noop("Pay with Gold cards"),
    "discard": gettext_noop("Discard a card face down"),
    "draw_random_card": gettext_noop("Draw a random card"),
}
# One way to pay a bid ('End of a round'), on its button: "Gold 3 + Gold 1: 4 Gold".
PAYMENT_LABEL = gettext_noop("{cards}: {total} Gold")


def payment_label(cards: list[str]) -> str:
    """A payment of Gold cards in words, the highest first."""
    named = join([label(c) for c in sorted(cards, key=lambda c: (-CARDS[c]["value"], c))], " + ")
    return PAYMENT_LABEL.format(cards=named, total=gold_value(cards))


# The Adviser's compulsory draw ('Distribute Cards'), said after the action it ended.
DREW_NEXT = gettext_noop("{label}; {adviser} drew the next card")
NEW_ADVISER_DREW = gettext_noop("{label}; {adviser} is the Adviser and drew the top card of the deck")


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
    try:
        who = name(state, action.get("seat"))
    except (IndexError, TypeError):
        who = SOMEONE
    if kind_ in SENTENCES:
        values = {key: action[key] for key in SENTENCE_VALUES if key in action}
        return SENTENCES[kind_].format(who=who, **values)
    saying = SAYINGS.get(str(kind_))
    if saying is not None:
        return saying(state, action, who)
    return str(kind_ or "?").replace("_", " ")


def _place(state: dict, action: dict, who: str) -> Message:
    area: Any = action.get("area")
    drawn = state.get("drawn")
    if area == "middle" and drawn:
        return PLACED_IN_MIDDLE.format(who=who, card=label(drawn))
    if area == "personal" and drawn and CARDS[drawn]["kind"] == "king":
        return KEPT_KING_CARD.format(who=who, card=label(drawn))
    return AREA_WORDS.get(area, PLACED_A_CARD).format(who=who)


def _choose(state: dict, action: dict, who: str) -> Message:
    card_id = action.get("card")
    if card_id in CARDS:
        return TOOK_FROM_MIDDLE.format(who=who, card=label(card_id))
    return TOOK_A_CARD.format(who=who)


def _king_card(state: dict, action: dict, who: str) -> Message:
    changes = action.get("changes") or []
    try:
        parts = [
            DUTY_CHANGE.format(
                office=office_word(c["office"]),
                before=state["duties"][c["office"]]["primary"],
                after=state["duties"][c["office"]]["primary"] + c["change"],
            )
            for c in changes
        ]
    except (KeyError, TypeError):
        parts = []
    if not parts:
        return USED_KING_CARD_IN_VAIN.format(who=who)
    return USED_KING_CARD.format(who=who, changes=join(parts, ", "))


def _reveal(state: dict, action: dict, who: str) -> Message:
    # From the state before the action the card is the top of the Favor deck; from the state
    # after, it is the offer. Never the Favor deck's top after the reveal: that one is hidden.
    top = state.get("favor_deck") or []
    shown = top[0] if state.get("phase") == "reveal" and top else state.get("offer")
    return REVEALED.format(who=who, card=label(shown)) if shown else REVEALED_A_CARD.format(who=who)


def _pay_gold(state: dict, action: dict, who: str) -> Message:
    cards = [c for c in action.get("cards") or [] if c in CARDS]
    values = " + ".join(str(CARDS[c]["value"]) for c in cards)
    return PAID_GOLD.format(who=who, total=gold_value(cards), values=values)


def _draw_random_card(state: dict, action: dict, who: str) -> Message:
    loser = (state.get("payment") or {}).get("seat")
    if loser is None:
        return DREW_FROM_WINNER.format(who=who)
    return DREW_FROM_HAND.format(who=who, loser=name(state, loser))


# The actions whose label depends on the state, each said by its function.
SAYINGS = {
    "place": _place,
    "choose": _choose,
    "king_card": _king_card,
    "reveal": _reveal,
    "pay_gold": _pay_gold,
    "draw_random_card": _draw_random_card,
}
