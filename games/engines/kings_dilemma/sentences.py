"""The log's words: ``describe(before, action, after)`` labels an action from the state before it (never
naming a Secret Agenda), with one line per consequence the action had (the state after's ``news``)."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import suppress
from typing import Any

from games.engines.kernel.describe import sentence
from games.engines.kernel.words import count
from games.engines.kings_dilemma.turn import name

LABEL_MOST = 1000  # the log's label (games.models.SessionAction.label)


def _side(side: Any) -> str:
    return str(side).upper()


# Words for each choice's button (``Choice.title``, filled by the kernel's ``Rules.legal_actions``).
CHOICE_TITLES = {
    "deal": "Remove one Secret Agenda unseen and begin the draft",
    "choose_secret_agenda": "Choose your Secret Agenda",
    "draw_dilemma": "Draw a Dilemma card",
    "vote": "Vote with your Power",
    "add_power": "Add Power to your vote",
    "stay": "Stay (do nothing this turn)",
    "pass_gather": "PASS AND GATHER POWER",
    "pass_moderator": "PASS AND BECOME MODERATOR",
    "give_coins": "Give Coins (bargaining)",
    "break_tie": "As Moderator, decide the winning side",
    "give_leader": "As Moderator, give the Leader token",
    "read_outcome": "Read the outcome on the back of the card",
    "move_resource": "Move a Resource by hand",
    "adjust": "Give or take by hand",
    "mystery_sticker": "Attach a Mystery sticker",
    "to_event_area": "Send the card to the Event area",
    "to_dilemma_deck": "Put a card into the Dilemma deck",
    "to_time_counter": "Place the card on the Time Counter",
    "score": "Reveal the Secret Agendas and score the game",
    "choose_heir": "As Moderator, choose who marries into the royal line",
}


# The actions whose label is a fixed sentence.
SENTENCES = {
    "deal": "The table removed one Secret Agenda at random, unseen, and the draft began.",
    "choose_secret_agenda": "{who} chose a Secret Agenda.",
    "stay": "{who} stayed.",
    "pass_gather": "{who} passed and gathers Power (+1 Coin).",
    "pass_moderator": "{who} passed and became the Moderator (+1 Coin).",
    "mystery_sticker": "The table attached Mystery sticker {letter}{label}.",
    "to_dilemma_deck": "The table put Dilemma card {number} into the Dilemma deck{label}.",
    "score": "The table revealed the Secret Agendas and scored the game.",
}


def _coins(amount: Any) -> str:
    """ "1 Coin", "3 Coins" (never "paid 1 Coins")."""
    return count(amount, "Coin") if isinstance(amount, int) else f"{amount} Coins"


def _amount(amount: Any, what: str) -> str:
    """An amount of a House's stock: Coins count one by one; Power, Prestige and Crave do not."""
    return _coins(amount) if what == "Coins" else f"{amount} {what}"


def _listed(names: list[str]) -> str:
    """ "Anna", "Anna and Ben", "Anna, Ben and Cora"."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _adjusted(state: dict, action: dict, house: Callable[[Any], str], label: str) -> str:
    """A hand-applied give or take, to one House or to several named in one effect."""
    amount, what = action.get("amount"), str(action.get("what", "?")).capitalize()
    target = action.get("target")
    one: Any = target[0] if isinstance(target, list) and len(target) == 1 else target
    several = isinstance(one, list) and len(one) > 1
    who = _listed([house(t) for t in one]) if several else house(one)
    each = "each of " if several else ""
    if isinstance(amount, int) and amount < 0:
        taken = -amount
        # A House gives up at most the Coins or Power it holds (realm.adjust): the label says what it gave.
        with suppress(KeyError, IndexError, TypeError):
            if action["what"] in ("coins", "power") and not several:
                taken = min(taken, state["seats"][one][action["what"]])
        return f"The table took {_amount(taken, what)} from {each}{who}{label}."
    return f"The table gave {_amount(amount, what)} to {each}{who}{label}."


def done(state: dict, action: dict) -> str:
    """What was done, from the state before the action. Never names a Secret Agenda."""
    kind = action.get("type", "?")
    seat = action.get("seat")
    try:
        who = name(state, seat) if seat is None or 0 <= seat < len(state["seats"]) else "?"
    except TypeError:
        who = "?"

    def house(index: Any) -> str:
        try:
            return name(state, index)
        except (TypeError, IndexError):
            return "?"

    label = f" ({action['label']})" if isinstance(action.get("label"), str) else ""
    card = state.get("card") or {}
    said = sentence(SENTENCES, action, who=who, label=label)
    if said is not None:
        return said
    if kind == "draw_dilemma":
        raw: dict = action["card"] if isinstance(action.get("card"), dict) else {}
        number = raw.get("number", "?")
        known = state["known_cards"].get(str(number), {})
        title = raw.get("title") or known.get("title") or ""
        return f"The table drew Dilemma card {number}" + (f": {title}." if title else ".")
    if kind == "read_outcome":
        won = _side(state.get("winning_side"))
        return f"The table turned card {card.get('number', '?')} over and read the {won} outcome."
    if kind == "vote":
        return f"{who} voted {_side(action.get('side'))} with {action.get('power')} Power."
    if kind == "add_power":
        side: str | None
        try:
            side = state["vote"]["choice"][seat]
        except (TypeError, IndexError, KeyError):
            side = None
        return f"{who} added {action.get('power')} Power to their {_side(side)} vote."
    if kind == "give_coins":
        return f"{who} gave {_coins(action.get('coins'))} to {house(action.get('to'))}."
    if kind == "break_tie":
        return f"{who}, the Moderator, decided for {_side(action.get('side'))}."
    if kind == "give_leader":
        return f"{who}, the Moderator, gave the Leader token to {house(action.get('to'))}."
    if kind == "move_resource":
        row = str(action.get("row", "?")).capitalize()
        amount = action.get("amount")
        amount = f"{amount:+d}" if isinstance(amount, int) else "?"
        return f"The table moved {row} {amount}{label}."
    if kind == "adjust":
        return _adjusted(state, action, house, label)
    if kind == "to_event_area":
        return f"The table placed card {card.get('number', '?')} in the Event area{label}."
    if kind == "to_time_counter":
        return f"The table placed card {card.get('number', '?')} on the Time Counter."
    if kind == "choose_heir":
        return f"{who}, the Moderator, chose {house(action.get('heir'))} to marry into the royal line."
    return str(kind).replace("_", " ")


def describe(before: dict, action: dict, after: dict) -> str:
    """The log's label: what was done, then one line per consequence, read from ``after`` (as long
    as the label holds them: the banner shows them all)."""
    said = done(before, action)
    for line in after.get("news") or []:
        if len(said) + 1 + len(line) > LABEL_MOST:
            break
        said += "\n" + line
    return said
