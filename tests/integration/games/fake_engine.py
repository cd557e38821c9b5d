"""A tiny engine for session tests that need what For the King lacks: no deal, and table actions.

Seats take turns adding 1 or 2 to a shared total; the table may "nudge" the total by one at any
time. The game ends at 10 or more.
"""

from games.engines.kernel.choices import amount, choice
from games.engines.kernel.errors import RuleError
from games.engines.kernel.rules import Rules

NOT_YOUR_TURN = "It is not your turn."


def _add(state, action, rng):
    if action.get("seat") != state["turn"]:
        raise RuleError(NOT_YOUR_TURN)
    if action.get("amount") not in (1, 2):
        raise RuleError("Add 1 or 2.")
    state["total"] += action["amount"]
    state["turn"] = (state["turn"] + 1) % len(state["seats"])
    if state["total"] >= 10:
        state["over"], state["result"] = True, {"total": state["total"]}


def _table_bump(state, action, rng):
    if action.get("seat") is not None:
        raise RuleError("Only the table bumps.")
    state["total"] += 1


class CountingRules(Rules):
    slug = "counting"
    name = "Counting"
    min_seats = 2
    max_seats = 3
    moves = {"add": _add, "bump": _table_bump}

    def setup(self, config, seed):
        return {
            "seed": seed,
            "step": 0,
            "over": False,
            "result": None,
            "total": 0,
            "turn": 0,
            "seats": [{"name": s["name"]} for s in config["seats"]],
        }

    def legal_actions(self, state, seat):
        if state["over"]:
            return []
        if seat is None:
            return [choice("bump", None)]
        if seat == state["turn"]:
            return [choice("add", seat, amount=amount(1, 2))]
        return []

    def view(self, state, seat):
        to_act = [] if state["over"] else [None, state["turn"]]
        return {
            "phase": "over" if state["over"] else "counting",
            "to_act": to_act,
            "seats": [{"name": s["name"]} for s in state["seats"]],
            "total": state["total"],
            "turn": state["turn"],
            "you": seat,
        }


RULES = CountingRules()
