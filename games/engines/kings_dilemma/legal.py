"""What a seat (or the table, None) may do now: ``legal_actions(state, seat)``, each choice with its
parameters and bounds (``games.engines.kernel.choices``), looked up by phase in ``CHOICES_BY_PHASE``.
Bargaining (``give_coins``) is open to every House with a Coin during the vote and its resolution.
The table's hand-applied effects are offered at the resolution (``adjust`` and ``mystery_sticker``
are also accepted earlier, from the API, but not offered there)."""

from __future__ import annotations

from collections.abc import Callable

from games.engines.kernel.choices import Choice, amount, cards, choice, open_to_all, pick, text, typed
from games.engines.kings_dilemma.data import RESOURCES
from games.engines.kings_dilemma.realm import (
    HOST_WHATS,
    MAX_LABEL,
    PLACES,
    mystery_all_attached,
    mystery_attached,
    out_of_deck,
)
from games.engines.kings_dilemma.turn import drafting_seat
from games.engines.kings_dilemma.voting import SIDES


def deal_choices(state: dict, seat: int | None) -> list[Choice]:
    return [choice("deal", None)] if seat is None else []


def draft_choices(state: dict, seat: int | None) -> list[Choice]:
    if seat is None or seat != drafting_seat(state):
        return []
    return [choice("choose_secret_agenda", seat, agenda=pick(state["draft"]["remaining"]))]


def draw_choices(state: dict, seat: int | None) -> list[Choice]:
    if seat is not None:
        return []
    return [choice("draw_dilemma", None, card=typed("dilemma_front")), *_to_deck(state)]


def _to_deck(state: dict) -> list[Choice]:
    """A printed effect putting a card out of the deck back in: offered while the campaign has one."""
    out = sorted(int(n) for n in out_of_deck(state))
    return [choice("to_dilemma_deck", None, number=pick(out), label=text(MAX_LABEL))] if out else []


def _turn_choices(state: dict, seat: int) -> list[Choice]:
    """A voting turn: a first one votes or passes, a later one adds Power or stays."""
    power = state["seats"][seat]["power"]
    if state["vote"]["choice"][seat] is None:
        choices = []
        if power >= 1:  # "place 1 or more Power": with none, a House can only pass
            choices.append(choice("vote", seat, side=pick(list(SIDES)), power=amount(1, power)))
        choices.append(choice("pass_gather", seat))
        if state["vote"]["moderator_pass"] is None:
            choices.append(choice("pass_moderator", seat))
        return choices
    added = [choice("add_power", seat, power=amount(1, power))] if power >= 1 else []
    return [*added, choice("stay", seat)]


def _gift(state: dict, seat: int) -> list[Choice]:
    """Bargaining: any House, without claiming the turn."""
    coins = state["seats"][seat]["coins"]
    others = [to for to in range(len(state["seats"])) if to != seat]
    return (
        [open_to_all(choice("give_coins", seat, to=pick(others), coins=amount(1, coins)))]
        if coins >= 1
        else []
    )


def voting_choices(state: dict, seat: int | None) -> list[Choice]:
    if seat is None:
        return []
    turn = _turn_choices(state, seat) if state["vote"]["turn"] == seat else []
    return turn + _gift(state, seat)


def tie_break_choices(state: dict, seat: int | None) -> list[Choice]:
    if seat is None:
        return []
    decide = [choice("break_tie", seat, side=pick(list(SIDES)))] if seat == state["moderator"] else []
    return decide + _gift(state, seat)


def leader_choice_choices(state: dict, seat: int | None) -> list[Choice]:
    if seat is None:
        return []
    candidates = list(state["leader_candidates"])
    give = [choice("give_leader", seat, to=pick(candidates))] if seat == state["moderator"] else []
    return give + _gift(state, seat)


def outcome_choices(state: dict, seat: int | None) -> list[Choice]:
    if seat is not None:
        return []
    return [choice("read_outcome", None, outcome=typed("dilemma_outcome"), place=pick(list(PLACES)))]


def resolution_choices(state: dict, seat: int | None) -> list[Choice]:
    if seat is not None:
        return []
    top = state["tracks"]["resource_track"]["rows"]
    return [
        choice("to_time_counter", None),
        choice("to_event_area", None, label=text(MAX_LABEL)),
        choice(
            "move_resource",
            None,
            row=pick(list(RESOURCES)),
            amount=amount(-top, top, nonzero=True),
            label=text(MAX_LABEL),
        ),
        *_host_effects(state),
    ]


def _host_effects(state: dict) -> list[Choice]:
    """The table's hand-applied effects of a printed card (docs/rules-decisions.md)."""
    most = state["tracks"]["limits"]["hand_adjust"]
    houses = list(range(len(state["seats"])))
    choices = [
        choice(
            "adjust",
            None,
            # One or more Houses in one effect ("each House that voted NAY pays 1 Coin").
            target=cards(houses, 1, len(houses)),
            what=pick(list(HOST_WHATS)),
            amount=amount(-most, most, nonzero=True),
            label=text(MAX_LABEL),
        )
    ]
    free = [x for x in state["tracks"]["mystery_letters"] if x not in mystery_attached(state)]
    if free and not mystery_all_attached(state):
        choices.append(choice("mystery_sticker", None, letter=pick(free), label=text(MAX_LABEL)))
    return [*choices, *_to_deck(state)]


def end_choices(state: dict, seat: int | None) -> list[Choice]:
    return [choice("score", None)] if seat is None else []


def heir_choices(state: dict, seat: int | None) -> list[Choice]:
    if seat != state["moderator"]:
        return []
    return [choice("choose_heir", seat, heir=pick(list(state["heir_candidates"])))]


CHOICES_BY_PHASE: dict[str, Callable[[dict, int | None], list[Choice]]] = {
    "deal": deal_choices,
    "draft": draft_choices,
    "draw": draw_choices,
    "voting": voting_choices,
    "tie_break": tie_break_choices,
    "leader_choice": leader_choice_choices,
    "outcome": outcome_choices,
    "resolution": resolution_choices,
    "end": end_choices,
    "heir": heir_choices,
}


def legal_actions(state: dict, seat: int | None) -> list[Choice]:
    if state["over"]:
        return []
    return CHOICES_BY_PHASE[state["phase"]](state, seat)
