"""A simple For the King (and Me) bot: legal, not foolish, and no cheat.

It reads only what its own seat may see (its personal deck and hand, the card it drew as Adviser,
the middle, the offer, the Duty tiles, the bidding) and never the other hands, so its idea of "an
office a rival leads" is an office where it holds little or nothing.

- As Adviser it keeps a strong card for itself, gives weak cards to the middle and puts the middling
  ones on the Favor deck (which it may buy back later, knowing what they are).
- Choosing from the middle, it takes the card worth most to it: its strongest colours, high values.
- With a King card it raises the offices it leads and lowers the ones it does not.
- It bids only within its means: Gold for a Government or King card, for a Gold card only the cards
  it can spare; more for cards that help it, and it passes otherwise. It pays the least Gold that
  reaches the bid (then with the fewest cards) and discards its weakest cards.
"""

from __future__ import annotations

import random
from typing import Any

from games.engines.for_the_king.cards import CARDS, GOLD, GOVERNMENT, KING, gold_value
from games.engines.for_the_king.turn import limits
from games.engines.kernel.choices import Choice

# A Government card in an office the bot already holds counts this much more per point held.
FOCUS_PER_POINT = 0.15
FOCUS_CAP = 8
# Gold is what buys the Favor cards; short of Gold, a Gold card is worth more.
GOLD_WORTH = 0.8
GOLD_SHORT = 4
GOLD_SHORT_WORTH = 1.3
# King card worth: more when the bot has an office worth raising.
KING_WORTH_LEADING = 2.0
KING_WORTH = 1.0
LEADING = 3  # an office where the bot holds this many points is one it "leads"
# Adviser: keep a card at least this good for itself (the bar drops as the turn runs out of cards),
# give cards below WEAK to the middle.
KEEP_BAR = {3: 3.6, 2: 3.0}
KEEP_BAR_EARLY = 4.0
WEAK = 2.0
# King card: an office is the bot's when it holds more than this many points there.
STAKE_BASELINE = 2
# Gold card auction: a card is spare when it is worth less than this.
SPARE_BELOW = 1.5


# ---- what the bot knows ---------------------------------------------------------------------


def own_cards(state: dict, seat: int) -> list[str]:
    mine = state["seats"][seat]
    return [*mine["personal_deck"], *mine["hand"]]


def strengths(state: dict, seat: int) -> dict[str, int]:
    """The bot's sum of Government values in each office."""
    sums = dict.fromkeys(state["offices"], 0)
    for card_id in own_cards(state, seat):
        card = CARDS[card_id]
        if card["kind"] == GOVERNMENT:
            sums[card["office"]] = sums.get(card["office"], 0) + card["value"]
    return sums


def gold_worth(state: dict, seat: int) -> float:
    """What one Gold is worth to the bot now: nothing much once nothing is left to buy."""
    if state["part"] == "gain_esteem" and not state["favor_deck"]:
        return 0.1
    gold = gold_value(own_cards(state, seat))
    return GOLD_SHORT_WORTH if gold < GOLD_SHORT else GOLD_WORTH


def card_worth(state: dict, seat: int, card_id: str, sums: dict[str, int] | None = None) -> float:
    """How much a card helps the bot, roughly in Gold."""
    sums = strengths(state, seat) if sums is None else sums
    card = CARDS[card_id]
    if card["kind"] == GOVERNMENT:
        office = card["office"]
        primary = state["duties"][office]["primary"]
        held = sums.get(office, 0)
        # The card's own points do not make its office a focus.
        if card_id in own_cards(state, seat):
            held -= card["value"]
        focus = 1.0 + FOCUS_PER_POINT * min(held, FOCUS_CAP)
        return card["value"] * focus * (0.6 + primary / 7.5)
    if card["kind"] == GOLD:
        return card["value"] * gold_worth(state, seat)
    return KING_WORTH_LEADING if max(sums.values(), default=0) >= LEADING else KING_WORTH


# ---- decisions ------------------------------------------------------------------------------


def _by_type(choices: list[Choice]) -> dict[str, Choice]:
    return {c["type"]: c for c in choices}


def _options(choice_: Choice, name: str) -> list:
    return list(choice_["params"][name]["options"])


def _place(state: dict, seat: int, choice_: Choice) -> dict:
    areas = _options(choice_, "area")
    if len(areas) == 1:
        return _act(choice_, area=areas[0])
    worth = card_worth(state, seat, state["drawn"])
    room_left = sum(n - state["placed"][area] for area, n in limits(state).items())
    to_place = min(room_left, len(state["deck"]) + 1)  # this card included
    if "personal" in areas and worth >= KEEP_BAR.get(to_place, KEEP_BAR_EARLY):
        area = "personal"
    elif worth < WEAK and "middle" in areas:
        area = "middle"
    elif "favor" in areas:
        area = "favor"
    elif "middle" in areas and (worth < KEEP_BAR[2] or "personal" not in areas):
        area = "middle"
    else:
        area = "personal" if "personal" in areas else areas[0]
    return _act(choice_, area=area)


def _choose(state: dict, seat: int, choice_: Choice) -> dict:
    sums = strengths(state, seat)
    best = max(_options(choice_, "card"), key=lambda c: (card_worth(state, seat, c, sums), c))
    return _act(choice_, card=best)


def _king_card(state: dict, seat: int, choice_: Choice) -> dict:
    """Raise where it leads, lower where it holds little (a rival's office)."""
    sums = strengths(state, seat)

    def gain(changes: list[dict]) -> tuple:
        total = 0.0
        for change in changes:
            stake = sums.get(change["office"], 0) - STAKE_BASELINE
            total += change["change"] * stake
        return (total, len(changes) if total > 0 else 0)

    options = _options(choice_, "changes")
    best = max(gain(o) for o in options)
    return _act(choice_, changes=next(o for o in options if gain(o) == best))


def spare_cards(state: dict, seat: int) -> list[str]:
    """The cards in hand the bot would give up for a Gold card: its weakest ones."""
    hand = state["seats"][seat]["hand"]
    sums = strengths(state, seat)
    return [c for c in hand if card_worth(state, seat, c, sums) < SPARE_BELOW]


def max_bid(state: dict, seat: int) -> int:
    """The most the bot will bid for the offer: never more than it can pay."""
    offer = state["offer"]
    hand = state["seats"][seat]["hand"]
    if CARDS[offer]["kind"] == GOLD:
        if not state["favor_deck"]:
            return 0  # nothing left to buy with it
        return min(CARDS[offer]["value"], len(spare_cards(state, seat)), len(hand))
    means = gold_value(hand)
    worth = card_worth(state, seat, offer)
    if CARDS[offer]["kind"] == KING:
        worth = worth if max(strengths(state, seat).values(), default=0) >= LEADING else 0
    remaining = len(state["favor_deck"])
    if remaining <= 1 and worth >= 1:
        return means  # Gold is worth nothing at the end: spend it on anything useful
    return min(means, int(worth / gold_worth(state, seat) + 0.5))


def _bid(state: dict, seat: int, by_type: dict[str, Choice]) -> dict:
    """The lowest bid it offers, if that is within what the card is worth to it; else pass."""
    bid = by_type.get("bid")
    if bid is not None and state["bidding"]["high_bidder"] != seat:
        low = bid["params"]["amount"]["min"]
        if low <= max_bid(state, seat):
            return _act(bid, amount=low)
    if "pass" in by_type:
        return _act(by_type["pass"])
    assert bid is not None  # a seat that cannot pass can bid
    return _act(bid, amount=bid["params"]["amount"]["min"])


def _pay_gold(state: dict, seat: int, choice_: Choice) -> dict | None:
    """The least Gold that reaches the bid, then the fewest cards (among the payments offered)."""
    payments = [list(p["cards"]) for p in _options(choice_, "cards")]
    if not payments:
        return None
    return _act(choice_, cards=min(payments, key=lambda p: (gold_value(p), len(p), p)))


def _discard(state: dict, seat: int, choice_: Choice) -> dict:
    sums = strengths(state, seat)
    weakest = min(_options(choice_, "card"), key=lambda c: (card_worth(state, seat, c, sums), c))
    return _act(choice_, card=weakest)


def _act(choice_: Choice, **values: Any) -> dict:
    return {"type": choice_["type"], "seat": choice_["seat"], **values}


def choose(state: dict, seat: int | None, choices: list[Choice], rng: random.Random) -> dict | None:
    """The policy the engine's ``bot_policy`` hook calls: a concrete action of one of ``choices``
    (``rng`` unused: the bot is deterministic). ``None`` lets the hook draw at random."""
    if seat is None or not choices:
        return None
    by_type = _by_type(choices)
    if "place" in by_type:
        return _place(state, seat, by_type["place"])
    if "choose" in by_type:
        return _choose(state, seat, by_type["choose"])
    if "king_card" in by_type:
        return _king_card(state, seat, by_type["king_card"])
    if "bid" in by_type or "pass" in by_type:
        return _bid(state, seat, by_type)
    if "pay_gold" in by_type:
        return _pay_gold(state, seat, by_type["pay_gold"])
    if "discard" in by_type:
        return _discard(state, seat, by_type["discard"])
    first = choices[0]
    return _act(first) if not first["params"] else None  # reveal, draw_random_card
