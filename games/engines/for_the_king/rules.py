"""For the King (and Me): the rules object the registry hands out (slug ``for_the_king``)."""

import random

from games.engines.for_the_king import bot, esteem, influence
from games.engines.for_the_king.flow import actor, drew_a_card
from games.engines.for_the_king.views import ForTheKingView, describe, view
from games.engines.kernel.choices import Choice
from games.engines.kernel.rules import ALWAYS, TABLE, Rules


class ForTheKingRules(Rules):
    slug = "for_the_king"
    table_view_type = seat_view_type = ForTheKingView
    name = "For the King (and Me)"
    min_seats = influence.MIN_SEATS
    max_seats = influence.MAX_SEATS
    order = 2
    opening_action = {"type": "deal", "seat": TABLE}  # the hidden cards, dealt as action 1
    moves = {
        "deal": influence.deal,
        "place": influence.place,
        "choose": influence.choose,
        "king_card": influence.king_card,
        "reveal": esteem.reveal,
        "bid": esteem.bid,
        "pass": esteem.pass_,
        "pay_gold": esteem.pay_gold,
        "discard": esteem.discard,
        "draw_random_card": esteem.draw_random_card,
    }
    # What each move shows that was hidden: undo never drops it. The deal, any move that ends with
    # the Adviser's compulsory draw (its card to the Adviser), a card placed face up in the middle or
    # a King card revealed, the Favor card revealed, a bid called (can the winner pay?), Gold paid
    # face up, a card drawn at random.
    revealing = {
        "deal": ALWAYS,
        "place": influence.place_reveals,
        "choose": drew_a_card,
        "king_card": drew_a_card,
        "reveal": ALWAYS,
        "bid": esteem.calls_the_bid,
        "pass": esteem.calls_the_bid,
        "pay_gold": ALWAYS,
        "draw_random_card": ALWAYS,
    }
    bot_policy = staticmethod(bot.choose)  # legal, not foolish: see bot.py
    setup = staticmethod(influence.new_state)
    view = staticmethod(view)

    def describe(self, state: dict, action: dict) -> str:
        """The action in words, and the compulsory draw it ended with (the state after it, never
        the card drawn: only its Adviser sees it)."""
        try:
            after = self.apply(state, action)
        except Exception:  # a label must never lose an action: without the draw's words then
            return describe(state, action)
        return describe(state, action, after)

    def legal_actions(self, state: dict, seat: int | None) -> list[Choice]:
        """The choices of the one seat that acts now, each with its parameters and their bounds
        (``games.engines.kernel.choices``): never one entry per amount or per way to pay."""
        if state["over"] or seat != actor(state):
            return []
        if state["phase"] in ("setup", "share_influence") or state["stage"] == "king_card":
            return influence.legal(state, seat)
        return esteem.legal(state, seat)

    def sample(self, state: dict, choice: Choice, rng: random.Random) -> dict | None:
        """A concrete action of ``choice`` whose values depend on each other (``draw_action``): a
        payment that reaches the bid without overpaying. Other choices draw each value freely."""
        if choice["type"] != "pay_gold" or state["stage"] != "pay_gold":
            return None
        hand = state["seats"][choice["seat"]]["hand"]
        paid = esteem.random_payment(hand, state["payment"]["owed"], rng)
        return {"type": "pay_gold", "seat": choice["seat"], "cards": paid}


RULES = ForTheKingRules()
