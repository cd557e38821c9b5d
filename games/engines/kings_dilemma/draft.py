"""The Secret Agenda draft (rulebook "Game Setup", step 6): the table's ``deal`` removes one Secret
Agenda at random, unseen; then each House, lowest Prestige first, keeps one of the cards offered."""

from __future__ import annotations

import random

from games.engines.kernel.errors import RuleError
from games.engines.kings_dilemma import messages as msg
from games.engines.kings_dilemma.turn import drafting_seat


def draft_order(state: dict) -> list[int]:
    """Step 6: the lowest Prestige chooses first (House number breaking ties: lower is lower)."""
    seats = state["seats"]
    return sorted(range(len(seats)), key=lambda i: (seats[i]["prestige"], seats[i]["house_number"]))


def deal(state: dict, action: dict, rng: random.Random) -> None:
    """Step 6: one Secret Agenda removed at random and never shown; the draft begins."""
    agendas = list(state["tracks"]["secret_agendas"])
    removed = rng.choice(agendas)
    state["removed_agenda"] = removed
    order = draft_order(state)
    state["draft"] = {"order": order, "index": 0, "remaining": [a for a in agendas if a != removed]}
    state["seats"][order[0]]["draft_offer"] = list(state["draft"]["remaining"])
    state["phase"] = "draft"


def choose_secret_agenda(state: dict, action: dict, rng: random.Random) -> None:
    """The drafting House keeps one of the cards offered; the rest go to the next House."""
    seat = action["seat"]
    agenda = action.get("agenda")
    draft = state["draft"]
    if agenda not in draft["remaining"]:
        raise RuleError(msg.AGENDA_NOT_OFFERED)
    state["seats"][seat]["secret_agenda"] = agenda
    draft["remaining"].remove(agenda)
    draft["index"] += 1
    if draft["index"] < len(draft["order"]):
        state["seats"][drafting_seat(state)]["draft_offer"] = list(draft["remaining"])
    else:
        # "Put all the unused cards back in the box, without looking at them."
        draft["remaining"] = []
        state["phase"] = "draw"
