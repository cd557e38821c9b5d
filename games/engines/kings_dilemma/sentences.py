"""The log's words: ``describe(before, action, after)`` labels an action from the state before it (never
naming a Secret Agenda), with one line per consequence the action had (the state after's ``news``)."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import suppress
from typing import Any

from games.engines.kernel.describe import sentence
from games.engines.kernel.messages import (
    Message,
    from_data,
    gettext_noop,
    join,
    ngettext,
    ngettext_lazy,
    pgettext_lazy,
)
from games.engines.kings_dilemma.messages import resource_name, side_name
from games.engines.kings_dilemma.turn import name

LABEL_MOST = 1000  # the log's label (games.models.SessionAction.label)


# Words for each choice's button (``Choice.title``, filled by the kernel's ``Rules.legal_actions``).
CHOICE_TITLES = {
    "deal": gettext_noop("Remove one Secret Agenda unseen and begin the draft"),
    "choose_secret_agenda": gettext_noop("Choose your Secret Agenda"),
    "draw_dilemma": gettext_noop("Draw a Dilemma card"),
    "vote": gettext_noop("Vote with your Power"),
    "add_power": gettext_noop("Add Power to your vote"),
    "stay": gettext_noop("Stay (do nothing this turn)"),
    "pass_gather": gettext_noop("PASS AND GATHER POWER"),
    "pass_moderator": gettext_noop("PASS AND BECOME MODERATOR"),
    "give_coins": gettext_noop("Give Coins (bargaining)"),
    "break_tie": gettext_noop("As Moderator, decide the winning side"),
    "give_leader": gettext_noop("As Moderator, give the Leader token"),
    "read_outcome": gettext_noop("Read the outcome on the back of the card"),
    "move_resource": gettext_noop("Move a Resource by hand"),
    "adjust": gettext_noop("Give or take by hand"),
    "mystery_sticker": gettext_noop("Attach a Mystery sticker"),
    "to_event_area": gettext_noop("Send the card to the Event area"),
    "to_dilemma_deck": gettext_noop("Put a card into the Dilemma deck"),
    "to_time_counter": gettext_noop("Place the card on the Time Counter"),
    "score": gettext_noop("Reveal the Secret Agendas and score the game"),
    "choose_heir": gettext_noop("As Moderator, choose who marries into the royal line"),
}


# The actions whose label is a fixed sentence.
SENTENCES = {
    "deal": gettext_noop("The table removed one Secret Agenda at random, unseen, and the draft began."),
    "choose_secret_agenda": gettext_noop("{who} chose a Secret Agenda."),
    "stay": gettext_noop("{who} stayed."),
    "pass_gather": gettext_noop("{who} passed and gathers Power (+1 Coin)."),
    "pass_moderator": gettext_noop("{who} passed and became the Moderator (+1 Coin)."),
    "mystery_sticker": gettext_noop("The table attached Mystery sticker {letter}{label}."),
    "to_dilemma_deck": gettext_noop("The table put Dilemma card {number} into the Dilemma deck{label}."),
    "score": gettext_noop("The table revealed the Secret Agendas and scored the game."),
}


# A list of Houses: "Anna", "Anna and Ben", "Anna, Ben and Cora" ({names} holds all but the last).
LISTED = gettext_noop("{names} and {last}")

# What the table gives or takes by hand, other than Coins (which are counted one by one).
STOCK_NAMES = {
    "power": pgettext_lazy("a House's stock", "Power"),
    "prestige": pgettext_lazy("a House's stock", "Prestige"),
    "crave": pgettext_lazy("a House's stock", "Crave"),
}


def _is_count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _count(value: Any) -> int:
    """The number a plural form is chosen by: a value that is no number reads as a plural."""
    return value if _is_count(value) else 0


def _listed(names: list[str]) -> str:
    """ "Anna", "Anna and Ben", "Anna, Ben and Cora"."""
    return names[0] if len(names) == 1 else LISTED.format(names=join(names[:-1], ", "), last=names[-1])


# What the table gives or takes by hand: Coins counted one by one, any other stock by its name; to
# one House or to each of several ({who} lists them). By (gave or took, Coins or not, each).
HAND_MOVES = {
    ("gave", True, False): ngettext_lazy(
        "The table gave {amount} Coin to {who}{label}.",
        "The table gave {amount} Coins to {who}{label}.",
        "amount",
    ),
    ("gave", True, True): ngettext_lazy(
        "The table gave {amount} Coin to each of {who}{label}.",
        "The table gave {amount} Coins to each of {who}{label}.",
        "amount",
    ),
    ("took", True, False): ngettext_lazy(
        "The table took {amount} Coin from {who}{label}.",
        "The table took {amount} Coins from {who}{label}.",
        "amount",
    ),
    ("took", True, True): ngettext_lazy(
        "The table took {amount} Coin from each of {who}{label}.",
        "The table took {amount} Coins from each of {who}{label}.",
        "amount",
    ),
    ("gave", False, False): gettext_noop("The table gave {amount} {what} to {who}{label}."),
    ("gave", False, True): gettext_noop("The table gave {amount} {what} to each of {who}{label}."),
    ("took", False, False): gettext_noop("The table took {amount} {what} from {who}{label}."),
    ("took", False, True): gettext_noop("The table took {amount} {what} from each of {who}{label}."),
}


def _hand_move(verb: str, amount: Any, what: str, who: str, label: str, *, each: bool) -> Message:
    """The table gave (or took) ``amount`` of a House's stock to (or from) one House or each of several."""
    coins = what == "coins"
    words = HAND_MOVES[(verb, coins, each)].format(amount=amount, who=who, label=label)
    return words if coins else words.format(what=STOCK_NAMES.get(what, what.capitalize()))


def _adjusted(state: dict, action: dict, house: Callable[[Any], str], label: str) -> Message:
    """A hand-applied give or take, to one House or to several named in one effect."""
    amount, what = action.get("amount"), str(action.get("what", "?")).lower()
    target = action.get("target")
    one: Any = target[0] if isinstance(target, list) and len(target) == 1 else target
    several = isinstance(one, list) and len(one) > 1
    who = _listed([house(t) for t in one]) if several else house(one)
    if isinstance(amount, int) and amount < 0:
        taken = -amount
        # A House gives up at most the Coins or Power it holds (realm.adjust): the label says what it gave.
        with suppress(KeyError, IndexError, TypeError):
            if action["what"] in ("coins", "power") and not several:
                taken = min(taken, state["seats"][one][action["what"]])
        return _hand_move("took", taken, what, who, label, each=several)
    return _hand_move("gave", amount, what, who, label, each=several)


def _drew(state: dict, action: dict) -> Message:
    raw: dict = action["card"] if isinstance(action.get("card"), dict) else {}
    number = raw.get("number", "?")
    known = state["known_cards"].get(str(number), {})
    title = raw.get("title") or known.get("title") or ""
    if title:
        return gettext_noop("The table drew Dilemma card {number}: {title}.").format(
            number=number, title=title
        )
    return gettext_noop("The table drew Dilemma card {number}.").format(number=number)


def _voted(who: str, action: dict) -> Message:
    power = action.get("power")
    # Power does not take an "s" in English; other languages count it.
    return ngettext(
        "{who} voted {side} with {power} Power.",
        "{who} voted {side} with {power} Power.",
        _count(power),
        who=who,
        side=side_name(action.get("side")),
        power=power,
    )


def _added(state: dict, who: str, action: dict) -> Message:
    seat = action.get("seat")
    side: str | None
    try:
        side = state["vote"]["choice"][seat]
    except (TypeError, IndexError, KeyError):
        side = None
    power = action.get("power")
    return ngettext(
        "{who} added {power} Power to their {side} vote.",
        "{who} added {power} Power to their {side} vote.",
        _count(power),
        who=who,
        side=side_name(side),
        power=power,
    )


def _moved(action: dict, label: str) -> Message:
    row = action.get("row", "?")
    amount = action.get("amount")
    amount = f"{amount:+d}" if isinstance(amount, int) else "?"
    return gettext_noop("The table moved {row} {amount}{label}.").format(
        row=resource_name(row) if isinstance(row, str) else str(row).capitalize(), amount=amount, label=label
    )


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
    number = card.get("number", "?")
    said = sentence(SENTENCES, action, who=who, label=label)
    if said is not None:
        return said
    if kind == "draw_dilemma":
        return _drew(state, action)
    if kind == "read_outcome":
        return gettext_noop("The table turned card {number} over and read the {side} outcome.").format(
            number=number, side=side_name(state.get("winning_side"))
        )
    if kind == "vote":
        return _voted(who, action)
    if kind == "add_power":
        return _added(state, who, action)
    if kind == "give_coins":
        coins = action.get("coins")
        return ngettext(
            "{who} gave {coins} Coin to {to}.",
            "{who} gave {coins} Coins to {to}.",
            _count(coins),
            who=who,
            coins=coins,
            to=house(action.get("to")),
        )
    if kind == "break_tie":
        return gettext_noop("{who}, the Moderator, decided for {side}.").format(
            who=who, side=side_name(action.get("side"))
        )
    if kind == "give_leader":
        return gettext_noop("{who}, the Moderator, gave the Leader token to {to}.").format(
            who=who, to=house(action.get("to"))
        )
    if kind == "move_resource":
        return _moved(action, label)
    if kind == "adjust":
        return _adjusted(state, action, house, label)
    if kind == "to_event_area":
        return gettext_noop("The table placed card {number} in the Event area{label}.").format(
            number=number, label=label
        )
    if kind == "to_time_counter":
        return gettext_noop("The table placed card {number} on the Time Counter.").format(number=number)
    if kind == "choose_heir":
        return gettext_noop("{who}, the Moderator, chose {heir} to marry into the royal line.").format(
            who=who, heir=house(action.get("heir"))
        )
    return str(kind).replace("_", " ")


def news_lines(state: dict) -> list[Any]:
    """The consequences of the last action (``state["news"]``), each a message: the state as the
    engine left it holds them so; as the database gives it back, its ``news_data`` does."""
    lines = list(state.get("news") or [])
    stored = state.get("news_data")
    if not isinstance(stored, list) or len(stored) != len(lines):
        return lines
    return [
        line if isinstance(line, Message) else _stored_line(data, line)
        for line, data in zip(lines, stored, strict=True)
    ]


def _stored_line(data: Any, english: Any) -> Any:
    said = from_data(data)
    return said if isinstance(said, Message) else english


def describe(before: dict, action: dict, after: dict) -> str:
    """The log's label: what was done, then one line per consequence, read from ``after`` (as long
    as the label holds them: the banner shows them all)."""
    said = done(before, action)
    parts, length = [said], len(said)
    for line in news_lines(after):
        if length + 1 + len(line) > LABEL_MOST:
            break
        parts.append(line)
        length += 1 + len(line)
    return join(parts, "\n") if len(parts) > 1 else said
