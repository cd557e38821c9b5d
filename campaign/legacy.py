"""The King's Dilemma legacy rules as pure functions (no Django): the services feed them plain
data and persist what they answer, and the tests exercise them directly."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from games.engines.kernel.messages import gettext_noop
from games.engines.kings_dilemma.data import AGENDAS, DEFAULT_TRACKS, RESOURCES, START_STOCK

RESOURCE_ROWS = list(RESOURCES)

# DEFAULT (unconfirmed) values of docs/data/kings-dilemma.md; a campaign's ``settings`` overrides them.
DEFAULT_SETTINGS = {
    "row_capacity": 5,  # Chronicle sticker spaces per row
    "aging_squares": 6,  # aging-mark squares on a sticker; marks past the last one are not recorded
    "alignment_spaces": 4,  # spaces of each House Alignment achievement
    "start_power": START_STOCK["power"],
    "start_coins": START_STOCK["coins"],
}
# What a group may correct them to: a board row and a sticker hold at most 10 spaces (as an
# achievement), a House starts with no more Power or Coins than the general pool holds.
MAX_SPACES = 10
SETTINGS_RANGES = {
    "row_capacity": (1, MAX_SPACES),
    "aging_squares": (1, MAX_SPACES),
    "alignment_spaces": (1, MAX_SPACES),
    "start_power": (0, DEFAULT_TRACKS["general_pool"]["power"]),
    "start_coins": (0, DEFAULT_TRACKS["general_pool"]["coins"]),
}
# Message ids (the kernel's markers: this module stays free of Django), said in the reader's language
# at the edge.
SETTINGS_NOT_AN_OBJECT = gettext_noop("The campaign settings must be an object of named values.")
SETTING_UNKNOWN = gettext_noop("{key} is not a campaign setting ({known}).")
SETTING_RANGE = gettext_noop("The setting {key} is a whole number from {low} to {high}.")


def settings_problems(settings) -> list[str]:
    """What is wrong with a campaign's ``settings`` (empty if nothing): only the known keys, each a
    whole number in its range."""
    if not isinstance(settings, dict):
        return [SETTINGS_NOT_AN_OBJECT]
    problems: list[str] = []
    for key, value in settings.items():
        if key not in SETTINGS_RANGES:
            problems.append(SETTING_UNKNOWN.format(key=repr(key), known=", ".join(SETTINGS_RANGES)))
            continue
        low, high = SETTINGS_RANGES[key]
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            problems.append(SETTING_RANGE.format(key=key, low=low, high=high))
    return problems


# House screens: number -> (title, the two favourite Secret Agendas) from docs/data/kings-dilemma.md section 4.
HOUSE_SCREENS = {
    1: ("Dukes of Blodyn", ("moderate", "opulent")),
    2: ("Dukes of Solad", ("extremist", "rebel")),
    3: ("Marquises of Tork", ("moderate", "extremist")),
    4: ("Dukes of Coden", ("opulent", "greedy")),
    5: ("Dukes of Olwyn", ("opulent", "moderate")),
    6: ("Marquises of Allwed", ("opportunist", "moderate")),
    7: ("Dukes of Gamam", ("greedy", "opulent")),
    8: ("Marquises of Dualak", ("rebel", "greedy")),
    9: ("Marquises of Tiryll", ("opportunist", "rebel")),
    10: ("Marquises of Wylio", ("greedy", "opportunist")),
    11: ("Marquises of Crann", ("rebel", "extremist")),
    12: ("Dukes of Natar", ("extremist", "opportunist")),
}
PRESTIGE_AGENDAS = {"extremist", "opulent", "moderate"}  # the others reward Crave


def alignment_rewards(house_number: int) -> dict[str, tuple[str, int]]:
    """Reward of each House Alignment achievement: favourites give 3 and 2, the others 1;
    Prestige for Extremist/Opulent/Moderate, Crave for the others (docs/data/kings-dilemma.md section 4)."""
    favourites = HOUSE_SCREENS.get(house_number, ("", ()))[1]
    rewards = {}
    for agenda in AGENDAS:
        amount = {0: 3, 1: 2}.get(favourites.index(agenda), 1) if agenda in favourites else 1
        rewards[agenda] = ("prestige" if agenda in PRESTIGE_AGENDAS else "crave", amount)
    return rewards


def prestige_order_key(prestige: int, house_number: int) -> tuple[int, int]:
    """'Breaking ties of Prestige': more Prestige is higher; on a tie the higher House number."""
    return (prestige, house_number)


# ---- Chronicle stickers -------------------------------------------------------------------


@dataclass(frozen=True)
class Sticker:
    row: str
    slot: int
    positive: bool
    signer: object  # a House key, or None
    marks: int = 0


def sticker_placement(row_stickers: list[Sticker], capacity: int) -> tuple[int, int | None]:
    """'Apply Chronicle stickers': the leftmost empty space of the row, otherwise over the sticker
    with the most marks (the leftmost on a tie). Returns (slot, slot covered or None)."""
    taken = {s.slot for s in row_stickers}
    for slot in range(capacity):
        if slot not in taken:
            return slot, None
    oldest = min(row_stickers, key=lambda s: (-s.marks, s.slot))
    return oldest.slot, oldest.slot


def resource_legacy(stickers: list[Sticker]) -> dict[str, int]:
    """'Apply Resource Legacy': per row, positive stickers move the marker up, negative down."""
    offsets = dict.fromkeys(RESOURCE_ROWS, 0)
    for s in stickers:
        offsets[s.row] += 1 if s.positive else -1
    return offsets


def power_legacy(stickers: list[Sticker]) -> dict[object, int]:
    """'Apply Power Legacy': +1 Power per positive sticker signed, -1 per negative."""
    delta: dict[object, int] = defaultdict(int)
    for s in stickers:
        if s.signer is not None:
            delta[s.signer] += 1 if s.positive else -1
    return dict(delta)


@dataclass
class OpenAgendaAssignment:
    # house -> list of (row, positive) tokens it holds
    tokens: dict[object, list[tuple[str, bool]]] = field(default_factory=dict)
    # house -> (positive, tokens over the limit of 2 among which it must keep 2)
    choices: list[tuple[object, bool, list[str]]] = field(default_factory=list)


def open_agendas(stickers: list[Sticker], participants: set) -> OpenAgendaAssignment:
    """'Assign Open Agendas': per row and polarity, the participating House that signed the most
    recent sticker (fewest marks; the rightmost on a tie) takes the token. Stickers signed by
    absent Houses are ignored. At most 2 positive and 2 negative per House: over that, the House
    chooses which to keep (``choices``)."""
    result = OpenAgendaAssignment()
    won: dict[tuple[object, bool], list[str]] = defaultdict(list)
    for row in RESOURCE_ROWS:
        for positive in (True, False):
            candidates = [
                s for s in stickers if s.row == row and s.positive == positive and s.signer in participants
            ]
            if candidates:
                newest = min(candidates, key=lambda s: (s.marks, -s.slot))
                won[(newest.signer, positive)].append(row)
    for (house, positive), rows in won.items():
        if len(rows) > 2:
            result.choices.append((house, positive, rows))
        else:
            result.tokens.setdefault(house, []).extend((row, positive) for row in rows)
    return result
