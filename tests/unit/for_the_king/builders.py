"""Crafted states for scenario tests: a real setup, then direct edits."""

from games.engines.for_the_king.cards import CARDS
from games.engines.for_the_king.rules import RULES

NAMES = ["Anna", "Ben", "Chloe", "David", "Emma"]


def config(count: int) -> dict:
    return {"seats": [{"name": n} for n in NAMES[:count]]}


def new_game(count: int, seed: int = 1) -> dict:
    return RULES.setup(config(count), seed)


def dealt(count: int, seed: int = 1) -> dict:
    return RULES.apply(new_game(count, seed), {"type": "deal", "seat": None})


def act(state: dict, type_: str, seat, **fields) -> dict:
    return RULES.apply(state, {"type": type_, "seat": seat, **fields})


def gold(value: int) -> list[str]:
    """The 13 Gold cards of one value."""
    return [c for c, card in CARDS.items() if card["kind"] == "gold" and card["value"] == value]


def gov(office: str, letter: str) -> str:
    return next(c for c, card in CARDS.items() if card["office"] == office and card["letter"] == letter)


def king(effect: str, n: int = 0) -> str:
    return [c for c, card in CARDS.items() if card["effect"] == effect][n]


def adviser_turn(count: int, deck: list[str], adviser: int = 0) -> dict:
    """Share Influence with a chosen deck (top first) and Adviser, who holds its top card: the
    draw is compulsory and happens by itself ('Distribute Cards')."""
    state = dealt(count)
    state["box"] += [c for c in [state["drawn"], *state["deck"]] if c not in deck]
    state["drawn"] = deck[0]
    state["deck"] = list(deck[1:])
    state["adviser"] = adviser
    return state


def esteem(
    count: int,
    hands: list[list[str]],
    favor: list[str],
    first_player: int = 0,
    primaries: dict[str, int] | None = None,
) -> dict:
    """The Gain Esteem phase at the start of a round, with chosen hands and Favor deck (top first)."""
    from games.engines.for_the_king.board import set_primary

    state = new_game(count)
    used = {c for hand in hands for c in hand} | set(favor)
    state["box"] = [c for c in CARDS if c not in used]
    for seat, hand in zip(state["seats"], hands, strict=True):
        seat["hand"] = list(hand)
    state["favor_deck"] = list(favor)
    state["part"] = "gain_esteem"
    state["phase"] = "reveal"
    state["first_player"] = first_player
    for office, value in (primaries or {}).items():
        set_primary(state, office, value)
    return state


def ended(count: int, hands: list[list[str]], primaries: dict[str, int] | None = None) -> dict:
    """Play the last round of a game whose Favor deck holds one card nobody wants: scoring follows."""
    held = {c for hand in hands for c in hand}
    spare = next(c for c in gold(1) if c not in held)
    state = esteem(count, hands, [spare], primaries=primaries)
    state = act(state, "reveal", 0)
    for seat in range(count):
        state = act(state, "pass", seat)
    assert state["over"]
    return state
