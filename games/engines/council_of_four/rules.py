"""Council of Four: the rules object the registry hands out (slug ``council_of_four``).

Config: ``{"seats": [{"name": ...}, ...]}``, 2 to 4 seats (setup.py). The table's first action,
``deal``, deals the hidden cards; then each seat in turn plays ``elect``, ``acquire_permit``,
``build`` or ``queen_build`` (Main actions), ``engage_servant``, ``change_permits``,
``send_servant`` or ``additional_main`` (Quick actions), answers a bonus with
``choose_city_bonus``, ``choose_permit_bonus`` or ``take_free_permit``, and may ``end_turn`` after a
Main action. Each move below is declared with its guard (the phases and who acts: turn.py), which the
kernel checks in this game's words (messages.py) before the body (actions.py) runs.

``legal_actions`` returns choices with parameters (legal.py lists each action type's parameters),
the payments among them priced (``payments.payment_offers``), each titled (``sentences.CHOICE_TITLES``)."""

from collections.abc import Callable
from typing import Any

from games.engines.council_of_four import actions, bot, messages, sentences
from games.engines.council_of_four.legal import legal_actions
from games.engines.council_of_four.pieces import shows_hidden
from games.engines.council_of_four.player_view import CouncilOfFourSeatView, CouncilOfFourTableView, view
from games.engines.council_of_four.setup import MAX_SEATS, MIN_SEATS, setup
from games.engines.council_of_four.turn import ACTIONS, DEAL, current_seat, to_act
from games.engines.kernel.messages import gettext_noop
from games.engines.kernel.rules import ALWAYS, TABLE, Move, Rules

TURN = (ACTIONS,)


def _turn_move(run: Callable[[dict, dict, Any], None], what: str) -> Move:
    """A move of the seat whose turn it is, in the ``actions`` phase."""
    return Move(run, phases=TURN, acting=current_seat, what=what)


class CouncilOfFourRules(Rules):
    slug = "council_of_four"
    name = "Council of Four"
    min_seats = MIN_SEATS
    max_seats = MAX_SEATS
    order = 3
    table_view_type = CouncilOfFourTableView
    seat_view_type = CouncilOfFourSeatView
    words = messages
    opening_action = {"type": "deal", "seat": TABLE}  # the hidden cards, dealt as action 1
    moves = {
        "deal": Move(actions.deal, phases=(DEAL,), acting=TABLE, what=gettext_noop("deal the game")),
        # Main actions
        "elect": _turn_move(actions.elect, gettext_noop("elect a Councilor")),
        "acquire_permit": _turn_move(actions.acquire_permit, gettext_noop("acquire a Permit")),
        "build": _turn_move(actions.build, gettext_noop("place a Merchant")),
        "queen_build": _turn_move(
            actions.queen_build, gettext_noop("place a Merchant with the help of the Queen")
        ),
        # Quick actions
        "engage_servant": _turn_move(actions.engage_servant, gettext_noop("engage a Servant")),
        "change_permits": _turn_move(actions.change_permits, gettext_noop("change the face-up Permits")),
        "send_servant": _turn_move(actions.send_servant, gettext_noop("send a Servant to elect a Councilor")),
        "additional_main": _turn_move(
            actions.additional_main, gettext_noop("perform an additional Main action")
        ),
        "end_turn": _turn_move(actions.end_turn, gettext_noop("end the turn")),
        # Bonus choices
        "choose_city_bonus": _turn_move(actions.choose_city_bonus, gettext_noop("choose a City token bonus")),
        "choose_permit_bonus": _turn_move(actions.choose_permit_bonus, gettext_noop("choose a Permit bonus")),
        "take_free_permit": _turn_move(actions.take_free_permit, gettext_noop("take a free Permit")),
    }
    # What each move shows that was hidden: undo never drops it. The deal, Politics cards discarded
    # to satisfy a council (shown from the hand), and any move that draws a card (a bonus, or the
    # next player's draw when the move ends a turn: 'Phase 1: Draw a Card' happens by itself) or
    # turns a Permit face up from its deck. Otherwise electing, Servants and ending a turn show nothing.
    revealing = {
        "deal": ALWAYS,
        "acquire_permit": ALWAYS,
        "queen_build": ALWAYS,
        **dict.fromkeys(
            (
                "elect",
                "build",
                "engage_servant",
                "change_permits",
                "send_servant",
                "additional_main",
                "end_turn",
                "choose_city_bonus",
                "choose_permit_bonus",
                "take_free_permit",
            ),
            shows_hidden,
        ),
    }

    bot_policy = staticmethod(bot.choose)  # builds, buys Permits, elects: see bot.py
    setup = staticmethod(setup)
    # Choices with parameters (legal.py lists each action type's): the payments offered are priced
    # and affordable, so any offered values draw an action the rules accept (no sampler needed).
    choices = staticmethod(legal_actions)
    choice_titles = sentences.CHOICE_TITLES
    view = staticmethod(view)
    to_act = staticmethod(to_act)
    describe = staticmethod(sentences.describe)  # the action, and the next turn's draw it made


RULES = CouncilOfFourRules()
