"""Council of Four: the rules object the registry hands out (slug ``council_of_four``).

``legal_actions`` returns choices with parameters (legal.py lists each action type's parameters);
``sample`` draws a valid payment for bots and property tests. The web layer prices a payment as a
player composes it with ``games.engines.council_of_four.payments.permit_payment_cost`` and ``queen_cost``."""

from games.engines.council_of_four import actions, bot
from games.engines.council_of_four.flow import MAX_SEATS, MIN_SEATS, new_state, shows_hidden
from games.engines.council_of_four.legal import legal, sample
from games.engines.council_of_four.views import CouncilOfFourView, describe, view
from games.engines.kernel.rules import ALWAYS, TABLE, Rules


class CouncilOfFourRules(Rules):
    slug = "council_of_four"
    table_view_type = seat_view_type = CouncilOfFourView
    name = "Council of Four"
    min_seats = MIN_SEATS
    max_seats = MAX_SEATS
    order = 3
    opening_action = {"type": "deal", "seat": TABLE}  # the hidden cards, dealt as action 1
    moves = {
        "deal": actions.deal,
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
    setup = staticmethod(new_state)
    # Choices with parameters (legal.py lists each action type's); ``sample`` draws a valid payment
    # for ``acquire_permit`` and ``queen_build`` (bots, property tests), None for the other choices.
    legal_actions = staticmethod(legal)
    sample = staticmethod(sample)
    view = staticmethod(view)

    def describe(self, state: dict, action: dict) -> str:
        """The action in words, and the next turn's draw it made (never the card drawn)."""
        try:
            after = self.apply(state, action)
        except Exception:  # a label must never lose an action: without the draw's words then
            return describe(state, action)
        return describe(state, action, after)


RULES = CouncilOfFourRules()
