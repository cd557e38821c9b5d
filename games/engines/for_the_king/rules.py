"""For the King (and Me): the rules object the registry hands out (slug ``for_the_king``).

Config: ``{"seats": [{"name": ...}, ...]}``, 2 to 5 seats (``setup.py``). The table deals first
(the opening action), then one seat acts at a time (``turn.py``: the phases and who acts). Actions,
each declared below with its guard (the phase it is played in, who plays it):

- ``deal`` (the table): 'Setup' steps 4 to 7.
- ``place`` ``area`` (the Adviser): personal, middle or favor ('Distribute Cards').
- ``choose`` ``card`` (the next opponent): a card of the middle ('Choose Central Cards').
- ``king_card`` ``changes`` (who received it): ``[{"office": ..., "change": 1 or -1}, ...]``.
- ``reveal`` (the first player), ``bid`` ``amount`` and ``pass`` (the bidder whose turn it is),
  ``pay_gold`` ``cards`` or ``discard`` ``card`` (the winner), ``draw_random_card`` (the winner's
  left neighbour): the Gain Esteem phase.
"""

from games.engines.for_the_king import (
    bot,
    esteem,
    influence,
    legal,
    messages,
    player_view,
    sentences,
    setup,
    turn,
)
from games.engines.kernel.messages import gettext_noop
from games.engines.kernel.rules import ALWAYS, TABLE, Move, Rules


class ForTheKingRules(Rules):
    slug = "for_the_king"
    name = "For the King (and Me)"
    min_seats = setup.MIN_SEATS
    max_seats = setup.MAX_SEATS
    order = 2
    opening_action = {"type": "deal", "seat": TABLE}  # the hidden cards, dealt as action 1
    moves = {
        "deal": Move(influence.deal, phases=("deal",), acting=TABLE, what=gettext_noop("deal the cards")),
        "place": Move(
            influence.place, phases=("distribute",), acting=turn.adviser, what=gettext_noop("place a card")
        ),
        "choose": Move(
            influence.choose,
            phases=("choose",),
            acting=turn.chooser,
            what=gettext_noop("choose a card from the middle"),
        ),
        "king_card": Move(
            influence.king_card,
            phases=("king_card",),
            acting=turn.king_card_holder,
            what=gettext_noop("use a King card"),
        ),
        "reveal": Move(
            esteem.reveal,
            phases=("reveal",),
            acting=turn.first_player,
            what=gettext_noop("reveal a Favor card"),
        ),
        "bid": Move(esteem.bid, phases=("bidding",), acting=turn.bidder, what=gettext_noop("bid")),
        "pass": Move(esteem.pass_, phases=("bidding",), acting=turn.bidder, what=gettext_noop("pass")),
        "pay_gold": Move(
            esteem.pay_gold, phases=("pay_gold",), acting=turn.winner, what=gettext_noop("pay Gold")
        ),
        "discard": Move(
            esteem.discard, phases=("discard",), acting=turn.winner, what=gettext_noop("discard a card")
        ),
        "draw_random_card": Move(
            esteem.draw_random_card,
            phases=("cannot_pay",),
            acting=turn.winners_left,
            what=gettext_noop("draw a random card"),
        ),
    }
    words = messages
    # What each move shows that was hidden: undo never drops it. The deal, any move that ends with
    # the Adviser's compulsory draw (its card to the Adviser), a card placed face up in the middle or
    # a King card revealed, the Favor card revealed, a bid called (can the winner pay?), Gold paid
    # face up, a card drawn at random.
    revealing = {
        "deal": ALWAYS,
        "place": influence.place_reveals,
        "choose": influence.drew_a_card,
        "king_card": influence.drew_a_card,
        "reveal": ALWAYS,
        "bid": esteem.calls_the_bid,
        "pass": esteem.calls_the_bid,
        "pay_gold": ALWAYS,
        "draw_random_card": ALWAYS,
    }
    bot_policy = staticmethod(bot.choose)  # legal, not foolish: see bot.py
    table_view_type = player_view.ForTheKingTableView
    seat_view_type = player_view.ForTheKingSeatView
    setup = staticmethod(setup.setup)
    choices = staticmethod(legal.legal_actions)
    choice_titles = sentences.CHOICE_TITLES
    view = staticmethod(player_view.view)
    to_act = staticmethod(turn.to_act)
    describe = staticmethod(sentences.describe)  # the action, and the compulsory draw it ended with


RULES = ForTheKingRules()
