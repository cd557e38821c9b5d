"""Who acts now, and how the game moves on to its next decision.

The rulebook's two phases, Share Influence and Gain Esteem, are the game's ``part`` (``setup``,
``share_influence``, ``gain_esteem``, ``end``). The ``phase`` is the kernel's: the step of the game
that says which move may be played and who plays it (``rules.py`` declares it with each move). In
each phase exactly one seat acts (``to_act``), until the game is over:

- ``deal`` (part ``setup``): the table deals ('Setup' steps 4 to 7).
- ``distribute`` (``share_influence``): the Adviser places the card drawn; the draw is compulsory
  and happens by itself, as the end of the action before (``advance``).
- ``choose`` (``share_influence``): the opponents, from the Adviser's left, take a card from the middle.
- ``reveal`` (``gain_esteem``): the first player reveals the top Favor card.
- ``bidding``: the seat whose turn it is Raises or Passes.
- ``pay_gold`` / ``discard``: the winner pays, in Gold or in cards (a Gold card won).
- ``cannot_pay``: the winner's left neighbour draws a random card from the winner's hand.
- ``king_card`` (either part): the seat that received a King card uses it.
- ``over`` (``end``): nobody.
"""

import random

from games.engines.for_the_king.cards import GOLD, gold_value, kind
from games.engines.for_the_king.scoring import finish
from games.engines.kernel.messages import gettext_noop
from games.engines.kernel.turns import TABLE

AREAS = ("personal", "middle", "favor")
THE_TABLE = gettext_noop("the table")  # who acts for the seat None, inside a sentence


def left_of(state: dict, seat: int) -> int:
    return (seat + 1) % len(state["seats"])


def name(state: dict, seat: int | None) -> str:
    return THE_TABLE if seat is None else state["seats"][seat]["name"]


def limits(state: dict) -> dict[str, int]:
    """'Distribute Cards': one card for yourself, one per opponent in the middle, one on the Favor deck."""
    return {"personal": 1, "middle": len(state["seats"]) - 1, "favor": 1}


# ---------------------------------------------------------------- who acts (the moves' ``acting``)


def the_table(state: dict) -> int | None:
    return TABLE


def adviser(state: dict) -> int | None:
    return state["adviser"]


def chooser(state: dict) -> int | None:
    """'Choose Central Cards': the next opponent, from the Adviser's left."""
    return state["choosers"][0]


def king_card_holder(state: dict) -> int | None:
    return state["king_card"]["seat"]


def first_player(state: dict) -> int | None:
    return state["first_player"]


def bidder(state: dict) -> int | None:
    return state["bidding"]["turn"]


def winner(state: dict) -> int | None:
    """The seat that won the bidding and pays."""
    return state["payment"]["seat"]


def winners_left(state: dict) -> int | None:
    """'If you don't have enough cards to pay': the player to your left draws a card from your hand."""
    return left_of(state, state["payment"]["seat"])


ACTING = {
    "deal": the_table,
    "distribute": adviser,
    "choose": chooser,
    "king_card": king_card_holder,
    "reveal": first_player,
    "bidding": bidder,
    "pay_gold": winner,
    "discard": winner,
    "cannot_pay": winners_left,
}


def actor(state: dict) -> int | None:
    """The seat that must act now (None: the table). Exactly one actor until the game is over."""
    return ACTING[state["phase"]](state)


def to_act(state: dict) -> list[int | None]:
    """Who must act now: the one actor, nobody once the game is over."""
    return [] if state["over"] else [actor(state)]


# ---------------------------------------------------------------- moving on


def advance(state: dict, rng: random.Random) -> None:
    """Move on until some seat has a decision to take (or the game is over)."""
    while True:
        phase = state["phase"]
        if phase in ("deal", "king_card", "reveal", "pay_gold", "discard", "cannot_pay", "over"):
            if phase == "reveal" and not state["favor_deck"]:
                finish(state)
            return
        if phase == "distribute":
            if not _distribute_done(state):
                return
            continue
        if phase == "choose":
            if state["choosers"] and state["middle"]:
                return
            _after_choosing(state, rng)
            continue
        if phase == "bidding":
            if _bidding_over(state):
                continue
            return
        raise AssertionError(f"unknown phase {phase}")


def _distribute_done(state: dict) -> bool:
    """'Distribute Cards': the Adviser holds a card to place, or draws the next one (the draw is
    compulsory and leaves no choice, so it happens by itself: no tap, said in the log); once every
    area is full (or the deck empty), the opponents choose from the middle."""
    full = all(state["placed"][a] >= n for a, n in limits(state).items())
    if state["drawn"] is not None:
        return False
    if state["deck"] and not full:
        state["drawn"] = state["deck"].pop(0)
        return False
    count = len(state["seats"])
    state["choosers"] = [(state["adviser"] + i) % count for i in range(1, count)]
    state["phase"] = "choose"
    return True


def _after_choosing(state: dict, rng: random.Random) -> None:
    state["choosers"] = []
    if state["deck"]:
        _next_adviser(state)
    else:
        _start_gain_esteem(state, rng)


def _next_adviser(state: dict) -> None:
    """'Change Adviser': give the deck to the player to your left."""
    state["adviser"] = left_of(state, state["adviser"])
    state["placed"] = dict.fromkeys(AREAS, 0)
    state["phase"] = "distribute"


def _start_gain_esteem(state: dict, rng: random.Random) -> None:
    """'Gain Esteem Phase': shuffle the Favor deck, personal decks become hands, the player to the
    left of the last Adviser is the first player."""
    rng.shuffle(state["favor_deck"])
    for seat in state["seats"]:
        seat["hand"].extend(seat["personal_deck"])
        seat["personal_deck"] = []
    state["part"] = "gain_esteem"
    state["first_player"] = left_of(state, state["adviser"])
    state["last_adviser"] = state["adviser"]
    state["adviser"] = None
    state["placed"] = dict.fromkeys(AREAS, 0)
    state["phase"] = "reveal"


# ---------------------------------------------------------------- Gain Esteem rounds


def new_bidding(state: dict, excluded: list[int]) -> dict:
    bidding = {
        "turn": None,
        "high_bid": 0,
        "high_bidder": None,
        "passed": [],
        "excluded": sorted(excluded),
        "last_bids": [None] * len(state["seats"]),
    }
    bidding["turn"] = next_bidder(state, bidding, state["first_player"], include_start=True)
    return bidding


def in_the_running(bidding: dict, seat: int) -> bool:
    return seat not in bidding["passed"] and seat not in bidding["excluded"]


def next_bidder(state: dict, bidding: dict, start: int, *, include_start: bool = False) -> int | None:
    count = len(state["seats"])
    offsets = range(0, count) if include_start else range(1, count + 1)
    for offset in offsets:
        seat = (start + offset) % count
        if in_the_running(bidding, seat):
            return seat
    return None


def _bidding_over(state: dict) -> bool:
    """'End of a round': nobody left discards the card; one bidder left with the highest bid wins."""
    bidding = state["bidding"]
    running = [s for s in range(len(state["seats"])) if in_the_running(bidding, s)]
    if not running:
        state["discard"].append(state["offer"])
        state["offer"] = None
        next_round(state)
        return True
    if len(running) == 1 and bidding["high_bidder"] == running[0]:
        _award(state, running[0], bidding["high_bid"])
        return True
    return False


def _award(state: dict, winner: int, owed: int) -> None:
    hand = state["seats"][winner]["hand"]
    paying_with_cards = kind(state["offer"]) == GOLD
    means = len(hand) if paying_with_cards else gold_value(hand)
    state["payment"] = {"seat": winner, "owed": owed, "paid": 0}
    if means >= owed:
        state["phase"] = "discard" if paying_with_cards else "pay_gold"
    elif hand:
        state["phase"] = "cannot_pay"
    else:
        exclude_and_rebid(state, winner)


def exclude_and_rebid(state: dict, seat: int) -> None:
    """'If you don't have enough cards to pay': all players except you bid for the same card."""
    excluded = [*state["bidding"]["excluded"], seat]
    state["payment"] = None
    state["bidding"] = new_bidding(state, excluded)
    state["phase"] = "bidding"


def next_round(state: dict) -> None:
    """The player to the left of the first player becomes the first player for the next round."""
    state["bidding"] = None
    state["payment"] = None
    state["first_player"] = left_of(state, state["first_player"])
    state["phase"] = "reveal"
