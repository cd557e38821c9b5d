"""Council of Four: the rules object the registry hands out (slug ``council_of_four``).

``legal_actions`` returns choices with parameters (legal.py lists each action type's parameters);
``sample`` draws a valid payment for bots and property tests. The web layer prices a payment as a
player composes it with ``games.council_of_four.payments.permit_payment_cost`` and ``queen_cost``."""

from games.council_of_four import actions, bot
from games.council_of_four.flow import MAX_SEATS, MIN_SEATS, new_state
from games.council_of_four.legal import legal, sample
from games.council_of_four.views import CouncilOfFourView, describe, view
from games.engine.rules import TABLE, Rules


class CouncilOfFourRules(Rules):
    slug = "council_of_four"
    view_type = CouncilOfFourView
    name = "Council of Four"
    min_seats = MIN_SEATS
    max_seats = MAX_SEATS
    order = 3
    opening_action = {"type": "deal", "seat": TABLE}  # the hidden cards, dealt as action 1
    moves = {
        "deal": actions.deal,
        "draw": actions.draw,
        # Main actions
        "elect": actions.elect,
        "acquire_permit": actions.acquire_permit,
        "build": actions.build,
        "queen_build": actions.queen_build,
        # Quick actions
        "engage_servant": actions.engage_servant,
        "change_permits": actions.change_permits,
        "send_servant": actions.send_servant,
        "additional_main": actions.additional_main,
        "end_turn": actions.end_turn,
        # Bonus choices
        "choose_city_bonus": actions.choose_city_bonus,
        "choose_permit_bonus": actions.choose_permit_bonus,
        "take_free_permit": actions.take_free_permit,
    }
    # These show a hidden Politics card or Permit (a draw, a refilled Permit slot, or a bonus that
    # may draw a card): players cannot undo them.
    not_undoable = frozenset(
        {
            "deal",
            "draw",
            "acquire_permit",
            "build",
            "queen_build",
            "change_permits",
            "choose_city_bonus",
            "choose_permit_bonus",
            "take_free_permit",
        }
    )

    bot_policy = staticmethod(bot.choose)  # builds, buys Permits, elects: see bot.py
    setup = staticmethod(new_state)
    # Choices with parameters (legal.py lists each action type's); ``sample`` draws a valid payment
    # for ``acquire_permit`` and ``queen_build`` (bots, property tests), None for the other choices.
    legal_actions = staticmethod(legal)
    sample = staticmethod(sample)
    view = staticmethod(view)
    describe = staticmethod(describe)


RULES = CouncilOfFourRules()
