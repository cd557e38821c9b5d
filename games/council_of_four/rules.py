"""Council of Four: the rules object the registry hands out (slug ``council_of_four``)."""

from games.council_of_four import actions, bot
from games.council_of_four.flow import MAX_SEATS, MIN_SEATS, new_state
from games.council_of_four.legal import legal
from games.council_of_four.views import describe, view
from games.engine.rules import Rules


class CouncilOfFourRules(Rules):
    slug = "council_of_four"
    name = "Council of Four"
    min_seats = MIN_SEATS
    max_seats = MAX_SEATS
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

    def setup(self, config: dict, seed: int) -> dict:
        return new_state(config, seed)

    def legal_actions(self, state: dict, seat: int | None) -> list[dict]:
        return legal(state, seat)

    def view(self, state: dict, seat: int | None) -> dict:
        return view(state, seat)

    def describe(self, state: dict, action: dict) -> str:
        return describe(state, action)


RULES = CouncilOfFourRules()
