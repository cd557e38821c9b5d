"""Shared helpers and the one function that moves the game to its next decision point.

Phases and stages (``state["phase"]`` / ``state["stage"]``):

- ``setup`` / ``deal``: only the table's ``deal``.
- ``share_influence`` / ``distribute``: the Adviser places the card drawn (the draw is compulsory and
  happens by itself, as part of the action before: ``advance``);
  ``choose``: the opponents, from the Adviser's left, take a card from the middle;
  ``king_card``: a received King card is being used.
- ``gain_esteem`` / ``reveal``: the first player reveals the top Favor card;
  ``bidding``: Raise or Pass; ``pay_gold`` / ``discard``: the winner pays;
  ``cannot_pay``: the winner's left neighbour draws a random card from the winner's hand;
  ``king_card``: a won King card is being used.
- ``end`` / ``over``.
"""

from games.engines.for_the_king import messages as msg
from games.engines.for_the_king.cards import GOLD, KING, gold_value, kind
from games.engines.kernel.turns import turn_guard

AREAS = ("personal", "middle", "favor")


def left_of(state: dict, seat: int) -> int:
    return (seat + 1) % len(state["seats"])


def name(state: dict, seat: int | None) -> str:
    return "the table" if seat is None else state["seats"][seat]["name"]


def limits(state: dict) -> dict[str, int]:
    """'Distribute Cards': one card for yourself, one per opponent in the middle, one on the Favor deck."""
    return {"personal": 1, "middle": len(state["seats"]) - 1, "favor": 1}


def actor(state: dict) -> int | None:
    """The seat that must act now (None: the table). Exactly one actor until the game is over."""
    stage = state["stage"]
    if stage == "deal":
        return None
    if stage == "distribute":
        return state["adviser"]
    if stage == "choose":
        return state["choosers"][0]
    if stage == "king_card":
        return state["king_card"]["seat"]
    if stage == "reveal":
        return state["first_player"]
    if stage == "bidding":
        return state["bidding"]["turn"]
    if stage in ("pay_gold", "discard"):
        return state["payment"]["seat"]
    if stage == "cannot_pay":
        return left_of(state, state["payment"]["seat"])
    raise AssertionError(f"no actor in stage {stage}")


# The kernel's turn guard in this game's words; the phase it checks is the ``stage``.
expect_turn = turn_guard(msg, phase_key="stage")


def receive(state: dict, seat: int, card_id: str, then: str) -> None:
    """A card enters a personal deck (or hand); a King card is revealed and used instead."""
    if kind(card_id) == KING:
        state["king_card"] = {"seat": seat, "card": card_id, "then": then}
        state["stage"] = "king_card"
    elif state["phase"] == "share_influence":
        state["seats"][seat]["personal_deck"].append(card_id)
    else:
        state["seats"][seat]["hand"].append(card_id)


# ---------------------------------------------------------------- moving on


def drew_a_card(before: dict, action: dict, after: dict) -> bool:
    """The action ended with the Adviser's compulsory draw ('Distribute Cards'): the card drawn was
    seen by its Adviser, so the action is never undone (and its label says so)."""
    return after["drawn"] is not None and after["drawn"] != before["drawn"]


def advance(state: dict, rng) -> None:
    """Move on until some seat has a decision to take (or the game is over)."""
    while True:
        stage = state["stage"]
        if stage in ("deal", "king_card", "reveal", "pay_gold", "discard", "cannot_pay", "over"):
            if stage == "reveal" and not state["favor_deck"]:
                from games.engines.for_the_king.scoring import finish

                finish(state)
            return
        if stage == "distribute":
            full = all(state["placed"][a] >= n for a, n in limits(state).items())
            if state["drawn"] is not None:
                return
            if state["deck"] and not full:
                # 'Distribute Cards': "draw the top card from the deck", then place it. The draw is
                # compulsory and leaves no choice, so it happens by itself (no tap, said in the log).
                state["drawn"] = state["deck"].pop(0)
                return
            adviser = state["adviser"]
            opponents = [(adviser + i) % len(state["seats"]) for i in range(1, len(state["seats"]))]
            state["choosers"] = opponents
            state["stage"] = "choose"
            continue
        if stage == "choose":
            if state["choosers"] and state["middle"]:
                return
            state["choosers"] = []
            if state["deck"]:
                _next_adviser(state)
            else:
                _start_gain_esteem(state, rng)
            continue
        if stage == "bidding":
            if _bidding_over(state):
                continue
            return
        raise AssertionError(f"unknown stage {stage}")


def _next_adviser(state: dict) -> None:
    """'Change Adviser': give the deck to the player to your left."""
    state["adviser"] = left_of(state, state["adviser"])
    state["placed"] = dict.fromkeys(AREAS, 0)
    state["stage"] = "distribute"


def _start_gain_esteem(state: dict, rng) -> None:
    """'Gain Esteem Phase': shuffle the Favor deck, personal decks become hands, the player to the
    left of the last Adviser is the first player."""
    rng.shuffle(state["favor_deck"])
    for seat in state["seats"]:
        seat["hand"].extend(seat["personal_deck"])
        seat["personal_deck"] = []
    state["phase"] = "gain_esteem"
    state["first_player"] = left_of(state, state["adviser"])
    state["last_adviser"] = state["adviser"]
    state["adviser"] = None
    state["placed"] = dict.fromkeys(AREAS, 0)
    state["stage"] = "reveal"


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
        state["stage"] = "discard" if paying_with_cards else "pay_gold"
    elif hand:
        state["stage"] = "cannot_pay"
    else:
        exclude_and_rebid(state, winner)


def exclude_and_rebid(state: dict, seat: int) -> None:
    """'If you don't have enough cards to pay': all players except you bid for the same card."""
    excluded = [*state["bidding"]["excluded"], seat]
    state["payment"] = None
    state["bidding"] = new_bidding(state, excluded)
    state["stage"] = "bidding"


def take_offer(state: dict) -> None:
    """The winner has paid: the card goes into their hand (a King card is used at once)."""
    winner = state["payment"]["seat"]
    card_id = state["offer"]
    state["offer"] = None
    state["payment"] = None
    receive(state, winner, card_id, then="next_round")
    if state["stage"] != "king_card":
        next_round(state)


def next_round(state: dict) -> None:
    """The player to the left of the first player becomes the first player for the next round."""
    state["bidding"] = None
    state["payment"] = None
    state["first_player"] = left_of(state, state["first_player"])
    state["stage"] = "reveal"
