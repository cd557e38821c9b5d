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

from games.for_the_king.cards import CARDS, GOLD, GOVERNMENT, KING, gold_value
from games.for_the_king.flow import limits

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
    if state["phase"] == "gain_esteem" and not state["favor_deck"]:
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


def _by_type(actions: list[dict]) -> dict[str, list[dict]]:
    found: dict[str, list[dict]] = {}
    for action in actions:
        found.setdefault(action["type"], []).append(action)
    return found


def _place(state: dict, seat: int, options: list[dict]) -> dict:
    areas = {a["area"]: a for a in options}
    if len(areas) == 1:
        return options[0]
    worth = card_worth(state, seat, state["drawn"])
    room_left = sum(n - state["placed"][area] for area, n in limits(state).items())
    to_place = min(room_left, len(state["deck"]) + 1)  # this card included
    if "personal" in areas and worth >= KEEP_BAR.get(to_place, KEEP_BAR_EARLY):
        return areas["personal"]
    if worth < WEAK and "middle" in areas:
        return areas["middle"]
    if "favor" in areas:
        return areas["favor"]
    if "middle" in areas and (worth < KEEP_BAR[2] or "personal" not in areas):
        return areas["middle"]
    return areas.get("personal", options[0])


def _choose(state: dict, seat: int, options: list[dict]) -> dict:
    sums = strengths(state, seat)
    return max(options, key=lambda a: (card_worth(state, seat, a["card"], sums), a["card"]))


def _king_card(state: dict, seat: int, options: list[dict]) -> dict:
    """Raise where it leads, lower where it holds little (a rival's office)."""
    sums = strengths(state, seat)

    def gain(action: dict) -> tuple:
        total = 0.0
        for change in action["changes"]:
            stake = sums.get(change["office"], 0) - STAKE_BASELINE
            total += change["change"] * stake
        return (total, len(action["changes"]) if total > 0 else 0)

    best = max(gain(a) for a in options)
    return next(a for a in options if gain(a) == best)


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


def _bid(state: dict, seat: int, actions: dict[str, list[dict]]) -> dict:
    bids = actions.get("bid", [])
    passing = actions.get("pass", [])
    limit = max_bid(state, seat)
    affordable = [b for b in bids if b["amount"] <= limit]
    if affordable and state["bidding"]["high_bidder"] != seat:
        return min(affordable, key=lambda b: b["amount"])
    return passing[0] if passing else min(bids, key=lambda b: b["amount"])


def _pay_gold(options: list[dict]) -> dict:
    """The least Gold that reaches the bid, then the fewest cards."""
    return min(options, key=lambda a: (gold_value(a["cards"]), len(a["cards"]), a["cards"]))


def _discard(state: dict, seat: int, options: list[dict]) -> dict:
    sums = strengths(state, seat)
    return min(options, key=lambda a: (card_worth(state, seat, a["card"], sums), a["card"]))


def choose(state: dict, seat: int | None, actions: list[dict], rng) -> dict | None:
    """The policy the engine's ``bot_policy`` hook calls (``rng`` unused: the bot is deterministic)."""
    if seat is None or not actions:
        return None
    by_type = _by_type(actions)
    if "place" in by_type:
        return _place(state, seat, by_type["place"])
    if "choose" in by_type:
        return _choose(state, seat, by_type["choose"])
    if "king_card" in by_type:
        return _king_card(state, seat, by_type["king_card"])
    if "bid" in by_type or "pass" in by_type:
        return _bid(state, seat, by_type)
    if "pay_gold" in by_type:
        return _pay_gold(by_type["pay_gold"])
    if "discard" in by_type:
        return _discard(state, seat, by_type["discard"])
    return actions[0]  # draw, reveal, draw_random_card: the one thing to do
