"""The Government board: Primary and Secondary Duty tiles, and what King cards do to them."""

from collections.abc import Iterable
from itertools import combinations, permutations
from typing import Any

from games.engines.for_the_king import messages as msg
from games.engines.for_the_king.cards import CARDS, KING, KING_EFFECT_WORDS, kind
from games.engines.kernel.errors import RuleError

LOWEST = 1
HIGHEST = 6
START_PRIMARY = 3

# Each King card effect: the alternative patterns of changes, each on different Primary Duty tiles.
KING_EFFECTS: dict[str, tuple[tuple[int, ...], ...]] = {
    "plus1": ((1,),),
    "minus1": ((-1,),),
    "plus_or_minus1": ((1,), (-1,)),
    "plus1_two": ((1, 1),),
    "minus1_two": ((-1, -1),),
    "plus1_minus1_two": ((1, -1),),
}


def secondary_value(primary: int, player_count: int) -> int | None:
    """'Secondary Duty tiles': half the Primary (rounded down), no tile at 0, none with 2 players."""
    if player_count == 2:
        return None
    return primary // 2 or None


def new_duties(offices: list[str], player_count: int) -> dict[str, dict]:
    return {
        office: {"primary": START_PRIMARY, "secondary": secondary_value(START_PRIMARY, player_count)}
        for office in offices
    }


def set_primary(state: dict, office: str, value: int) -> None:
    state["duties"][office] = {
        "primary": value,
        "secondary": secondary_value(value, len(state["seats"])),
    }


def _within(duties: dict, changes: Iterable[tuple[str, int]]) -> bool:
    return all(LOWEST <= duties[office]["primary"] + change <= HIGHEST for office, change in changes)


def king_options(state: dict, card_id: str) -> list[tuple[tuple[str, int], ...]]:
    """Every way the receiver may use this King card now, each a tuple of (office, change) in board
    order. When the board allows no complete use, the card does as much of its effect as it can
    (decision 'King card that cannot be used in full'); possibly nothing."""
    offices = state["offices"]
    duties = state["duties"]
    patterns = KING_EFFECTS[CARDS[card_id]["effect"]]
    order = {office: i for i, office in enumerate(offices)}
    for size in range(max(len(p) for p in patterns), -1, -1):
        found: set[tuple[tuple[str, int], ...]] = set()
        for pattern in patterns:
            for part in set(combinations(pattern, size)):
                for chosen in permutations(offices, size):
                    changes = tuple(sorted(zip(chosen, part, strict=True), key=lambda oc: order[oc[0]]))
                    if _within(duties, changes):
                        found.add(changes)
        if found:
            return sorted(found, key=lambda changes: [(order[o], -c) for o, c in changes])
    return [()]  # unreachable: size 0 always fits


def as_action_changes(changes: tuple[tuple[str, int], ...]) -> list[dict]:
    return [{"office": office, "change": change} for office, change in changes]


def parse_changes(state: dict, raw: Any) -> tuple[tuple[str, int], ...]:
    """Check the shape of a King card action's ``changes`` and return it in board order."""
    if not isinstance(raw, list):
        raise RuleError(msg.KING_CHANGES_FORMAT)
    changes = []
    for item in raw:
        if not isinstance(item, dict) or set(item) != {"office", "change"}:
            raise RuleError(msg.KING_CHANGES_FORMAT)
        office, change = item["office"], item["change"]
        if not isinstance(office, str) or isinstance(change, bool) or change not in (1, -1):
            raise RuleError(msg.KING_CHANGES_FORMAT)
        if office not in state["duties"]:
            raise RuleError(msg.KING_UNKNOWN_OFFICE.format(office=office))
        changes.append((office, change))
    offices = [office for office, _ in changes]
    if len(set(offices)) != len(offices):
        raise RuleError(msg.KING_SAME_TILE)
    if not _within(state["duties"], changes):
        raise RuleError(msg.KING_LIMITS)
    order = {office: i for i, office in enumerate(state["offices"])}
    return tuple(sorted(changes, key=lambda oc: order[oc[0]]))


def use_king_card(state: dict, card_id: str, raw_changes: Any) -> None:
    changes = parse_changes(state, raw_changes)
    if changes not in king_options(state, card_id):
        words = KING_EFFECT_WORDS[CARDS[card_id]["effect"]]
        raise RuleError(msg.KING_NOT_THE_CARD.format(words=words))
    for office, change in changes:
        set_primary(state, office, state["duties"][office]["primary"] + change)


def receive(state: dict, seat: int, card_id: str, then: str) -> None:
    """A card enters a personal deck (or hand); a King card is revealed and used instead
    ('Receiving King cards'), then the game goes on with the phase ``then``."""
    if kind(card_id) == KING:
        state["king_card"] = {"seat": seat, "card": card_id, "then": then}
        state["phase"] = "king_card"
    elif state["part"] == "share_influence":
        state["seats"][seat]["personal_deck"].append(card_id)
    else:
        state["seats"][seat]["hand"].append(card_id)
