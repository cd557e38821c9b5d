"""The Gain Esteem phase: reveal a Favor card, Raise or Pass, the winner pays. The kernel checks each
move's phase and seat (``rules.py``) before its body runs."""

import random

from games.engines.for_the_king import messages as msg
from games.engines.for_the_king.board import receive
from games.engines.for_the_king.cards import CARDS, GOLD, gold_value, kind
from games.engines.for_the_king.turn import advance, exclude_and_rebid, new_bidding, next_bidder, next_round
from games.engines.kernel.errors import RuleError

# legal_actions offers bids up to the bidder's means plus this much (bluffing is allowed);
# apply accepts any higher bid too.
BID_CAP_ABOVE_MEANS = 2


def reveal(state: dict, action: dict, rng: random.Random) -> None:
    """'Gain Esteem' step 1: the first player reveals the top card of the Favor deck."""
    state["offer"] = state["favor_deck"].pop(0)
    state["bidding"] = new_bidding(state, excluded=[])
    state["phase"] = "bidding"
    advance(state, rng)


def bid(state: dict, action: dict, rng: random.Random) -> None:
    """'Bid': the first bid is 1 or more, each later bid strictly greater."""
    seat = action["seat"]
    amount = action.get("amount")
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise RuleError(msg.BID_NOT_A_NUMBER)
    bidding = state["bidding"]
    if amount <= bidding["high_bid"]:
        if bidding["high_bidder"] is None:
            raise RuleError(msg.BID_TOO_LOW_FIRST)
        raise RuleError(msg.BID_TOO_LOW.format(high=bidding["high_bid"]))
    bidding["high_bid"] = amount
    bidding["high_bidder"] = seat
    bidding["last_bids"][seat] = amount
    bidding["turn"] = next_bidder(state, bidding, seat)
    advance(state, rng)


def pass_(state: dict, action: dict, rng: random.Random) -> None:
    """'Pass': you are out of the bidding for this round."""
    seat = action["seat"]
    bidding = state["bidding"]
    bidding["passed"].append(seat)
    bidding["turn"] = next_bidder(state, bidding, seat)
    advance(state, rng)


def calls_the_bid(before: dict, action: dict, after: dict) -> bool:
    """A bid or a pass that ends the bidding shows whether the winner holds the Gold to pay."""
    return after["phase"] in ("pay_gold", "cannot_pay")


def pay_gold(state: dict, action: dict, rng: random.Random) -> None:
    """'End of a round': discard Gold cards face up until they reach the bid; no change is given,
    and no card may be left out while still reaching the bid."""
    seat = action["seat"]
    chosen = action.get("cards")
    if not isinstance(chosen, list) or not chosen or not all(isinstance(c, str) for c in chosen):
        raise RuleError(msg.PAY_FORMAT)
    if len(set(chosen)) != len(chosen):
        raise RuleError(msg.PAY_SAME_CARD)
    hand = state["seats"][seat]["hand"]
    if not all(c in hand and kind(c) == GOLD for c in chosen):
        raise RuleError(msg.PAY_NOT_GOLD_IN_HAND)
    owed = state["payment"]["owed"]
    total = gold_value(chosen)
    if total < owed:
        raise RuleError(msg.PAY_NOT_ENOUGH.format(owed=owed))
    if total - min(CARDS[c]["value"] for c in chosen) >= owed:
        raise RuleError(msg.PAY_TOO_MUCH.format(owed=owed))
    for c in chosen:
        hand.remove(c)
        state["discard"].append(c)
    state["payment"]["paid"] = total
    take_offer(state)
    advance(state, rng)


def discard(state: dict, action: dict, rng: random.Random) -> None:
    """'End of a round', Gold card won: discard as many cards as the bid, face down, one by one."""
    seat = action["seat"]
    hand = state["seats"][seat]["hand"]
    card_id = action.get("card")
    if card_id not in hand:
        raise RuleError(msg.DISCARD_NOT_IN_HAND)
    hand.remove(card_id)
    state["discard_face_down"].append(card_id)
    state["payment"]["paid"] += 1
    if state["payment"]["paid"] >= state["payment"]["owed"]:
        take_offer(state)
    advance(state, rng)


def take_offer(state: dict) -> None:
    """The winner has paid: the card goes into their hand (a King card is used at once)."""
    winner = state["payment"]["seat"]
    card_id = state["offer"]
    state["offer"] = None
    state["payment"] = None
    receive(state, winner, card_id, then="next_round")
    if state["phase"] != "king_card":
        next_round(state)


def draw_random_card(state: dict, action: dict, rng: random.Random) -> None:
    """'If you don't have enough cards to pay': the player to your left draws a random card from your
    hand and discards it face down; then the others bid again for the same card."""
    loser = state["payment"]["seat"]
    hand = state["seats"][loser]["hand"]
    card_id = hand.pop(rng.randrange(len(hand)))
    state["discard_face_down"].append(card_id)
    exclude_and_rebid(state, loser)
    advance(state, rng)


def gold_payments(hand: list[str], owed: int) -> list[list[str]]:
    """Every way to pay ``owed`` Gold without gratuitous overpayment, one per mix of values
    (Gold cards of one value are alike; the lowest ids stand for them)."""
    by_value: dict[int, list[str]] = {1: [], 2: [], 3: []}
    for c in sorted(hand):
        if kind(c) == GOLD:
            by_value.setdefault(CARDS[c]["value"], []).append(c)
    values = sorted(by_value)
    options = []

    def walk(i: int, picked: list[str], total: int) -> None:
        if i == len(values):
            if picked and total >= owed and total - min(CARDS[c]["value"] for c in picked) < owed:
                options.append(list(picked))
            return
        value = values[i]
        for n in range(len(by_value[value]) + 1):
            if n and total + (n - 1) * value >= owed:
                break  # one card of this value fewer would already reach the bid
            walk(i + 1, picked + by_value[value][:n], total + n * value)

    walk(0, [], 0)
    return options


def bid_bounds(state: dict, seat: int) -> tuple[int, int]:
    """The amounts a bid choice offers: above the high bid, up to the bidder's means (Gold, or cards
    in hand for a Gold card) plus ``BID_CAP_ABOVE_MEANS``. Empty when low > high."""
    hand = state["seats"][seat]["hand"]
    means = len(hand) if kind(state["offer"]) == GOLD else gold_value(hand)
    return state["bidding"]["high_bid"] + 1, means + BID_CAP_ABOVE_MEANS
