"""The order of play (TURN STRUCTURE): the phases, who must act now, and the parts of a turn.

Phases (``state["phase"]``) and who acts in each:

- ``deal``: the table (the host's screen) deals the hidden cards, the game's first action.
- ``actions``: the seat whose turn it is (``state["current"]``), alone. Its turn starts with 'Phase 1:
  Draw a Card', made by itself; then one Main action and one Quick action in any order (a bonus may add
  Main actions). A bonus that asks for a choice (City token, Permit bonus, free Permit) waits in
  ``state["pending"]``: the same seat answers it before anything else. Once the Main and the Quick
  actions are used up the turn ends by itself; after one Main action the seat may end it.
- ``over``: nobody (the final scoring is in ``state["result"]``).
"""

import random

from games.engines.council_of_four import messages as msg
from games.engines.council_of_four.bonuses import PENDING_WORDS, pending_options
from games.engines.council_of_four.pieces import draw_card
from games.engines.council_of_four.scoring import finish
from games.engines.kernel.errors import RuleError
from games.engines.kernel.rules import TABLE

DEAL = "deal"
ACTIONS = "actions"
OVER = "over"


def fresh_turn() -> dict:
    return {"main_left": 1, "quick_left": 1, "mains_done": 0}


def to_act(state: dict) -> list[int | None]:
    """Who must act now: the table before the deal, then the seat whose turn it is (a pending bonus
    choice is its own), nobody once the game is over."""
    if state["over"]:
        return []
    if state["phase"] == DEAL:
        return [TABLE]
    return [state["current"]]


def current_seat(state: dict) -> int:
    """``acting`` of every move of a turn: the seat whose turn it is."""
    seat: int = state["current"]
    return seat


def name(state: dict, seat: int) -> str:
    seat_name: str = state["seats"][seat]["name"]
    return seat_name


def next_seat(state: dict, seat: int) -> int:
    """The seat on the left, who plays after ``seat``."""
    return (seat + 1) % len(state["seats"])


# The parts of a turn: what a move checks beyond its declared guard (phase and seat).


def expect_no_bonus_waiting(state: dict) -> None:
    if state["pending"]:
        raise RuleError(msg.CHOOSE_FIRST.format(what=PENDING_WORDS[state["pending"][0]["kind"]]))


def expect_main_left(state: dict) -> None:
    expect_no_bonus_waiting(state)
    if state["turn"]["main_left"] < 1:
        raise RuleError(msg.NO_MAIN_ACTION_LEFT)


def expect_quick_left(state: dict) -> None:
    expect_no_bonus_waiting(state)
    if state["turn"]["quick_left"] < 1:
        raise RuleError(msg.NO_QUICK_ACTION_LEFT)


def use_main(state: dict) -> None:
    state["turn"]["main_left"] -= 1
    state["turn"]["mains_done"] += 1


def use_quick(state: dict) -> None:
    state["turn"]["quick_left"] -= 1


def settle(state: dict, rng: random.Random) -> None:
    """After an action: drop bonus choices nothing qualifies for (the bonus is lost), then end the
    turn by itself once both the Main and the Quick actions are used up (the next player's draw
    then happens by itself: ``start_turn``)."""
    while state["pending"] and not pending_options(state, state["pending"][0]):
        state["pending"].pop(0)
    if state["over"] or state["pending"] or state["phase"] != ACTIONS:
        return
    turn = state["turn"]
    if turn["main_left"] == 0 and turn["quick_left"] == 0:
        end_turn(state, rng)


def start_turn(state: dict, seat: int, rng: random.Random) -> None:
    """'Phase 1: Draw a Card': compulsory and without a choice, so it happens by itself as the turn
    starts (no tap; the log says it with the action that passed the turn). With no Politics card
    left anywhere the draw is skipped (docs/rules-decisions.md)."""
    state["current"] = seat
    state["turn"] = fresh_turn()
    state["phase"] = ACTIONS
    draw_card(state, seat, rng)


def end_turn(state: dict, rng: random.Random) -> None:
    """The turn passes to the left; the game ends when it comes back to whoever placed their last
    Merchant (END OF THE GAME)."""
    following = next_seat(state, state["current"])
    if state["final"] is not None and following == state["final"]["by"]:
        finish(state)
        return
    start_turn(state, following, rng)
