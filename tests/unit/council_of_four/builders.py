"""Crafted states for scenario tests: a real setup and deal, then direct edits that keep every
Politics card and Councilor in exactly one place."""

from games.engines.council_of_four.board import CARDS, JOKER
from games.engines.council_of_four.rules import RULES
from games.engines.kernel.choices import enumerate_choice

NAMES = ["Anna", "Ben", "Chloe", "David"]


def config(count: int) -> dict:
    return {"seats": [{"name": n} for n in NAMES[:count]]}


def new_game(count: int = 3, seed: int = 1) -> dict:
    return RULES.setup(config(count), seed)


def dealt(count: int = 3, seed: int = 1) -> dict:
    return RULES.apply(new_game(count, seed), {"type": "deal", "seat": None})


def act(state: dict, type_: str, seat, **fields) -> dict:
    return RULES.apply(state, {"type": type_, "seat": seat, **fields})


def choices_of(state: dict, seat, type_: str) -> list[dict]:
    """The seat's choices of one action type, as the engine describes them (untitled)."""
    return [c for c in RULES.choices(state, seat) if c["type"] == type_]


def offered(state: dict, seat, type_: str) -> list[dict]:
    """Every concrete action the seat's choices of this type offer (picks only, no cards)."""
    return [a for c in choices_of(state, seat, type_) for a in enumerate_choice(c, limit=1000)]


def options(state: dict, seat, type_: str, param: str) -> list:
    """The options of one parameter across the seat's choices of this type."""
    return [o for c in choices_of(state, seat, type_) for o in c["params"][param]["options"]]


def cards(colour: str, n: int, skip: int = 0) -> list[str]:
    """``n`` Politics card ids of one colour (``joker`` for the multi-coloured cards)."""
    return [c for c, col in CARDS.items() if col == colour][skip : skip + n]


def jokers(n: int, skip: int = 0) -> list[str]:
    return cards(JOKER, n, skip)


def _take(state: dict, card: str) -> None:
    for pile in (state["deck"], state["discard"], *(s["hand"] for s in state["seats"])):
        if card in pile:
            pile.remove(card)
            return
    raise AssertionError(f"{card} is nowhere")


def set_hand(state: dict, seat: int, ids: list[str]) -> None:
    """The seat's hand becomes exactly ``ids``; its old cards go to the bottom of the deck."""
    old = state["seats"][seat]["hand"]
    state["seats"][seat]["hand"] = []
    state["deck"].extend(old)
    for card in ids:
        _take(state, card)
        state["seats"][seat]["hand"].append(card)


def set_balcony(state: dict, balcony: str, colours: list[str]) -> None:
    """A Balcony with these Councilors (newest first). The old ones go back beside the board; a
    colour missing there is swapped out of another Balcony for a spare Councilor."""
    pool, lines = state["councilors"], state["balconies"]
    for colour in lines[balcony]:
        pool[colour] += 1
    lines[balcony] = []
    for colour in colours:
        if pool[colour] == 0:
            other = next(line for b, line in lines.items() if b != balcony and colour in line)
            spare = next(c for c, n in pool.items() if n > 0 and c not in colours)
            other[other.index(colour)] = spare
            pool[spare] -= 1
            pool[colour] += 1
        pool[colour] -= 1
        lines[balcony].append(colour)


def playing(count: int = 3, seed: int = 1, seat: int = 0) -> dict:
    """Dealt, with ``seat`` to act after its draw (its Main and Quick actions unused)."""
    state = dealt(count, seed)
    state["current"] = seat
    state["phase"] = "actions"
    return state


def place(state: dict, seat: int, *cities: str) -> None:
    """Put the seat's Merchants on the map without any bonus (a crafted position)."""
    for city in cities:
        state["merchants"][city].append(seat)


def give_permit(state: dict, seat: int, permit: str, face_up: bool = True) -> None:
    """Move a Permit from wherever it lies to the seat."""
    for region, deck in state["permit_decks"].items():
        if permit in deck:
            deck.remove(permit)
        if permit in state["face_up"][region]:
            state["face_up"][region].remove(permit)
    state["seats"][seat]["permits"].append({"id": permit, "face_up": face_up})


def set_face_up(state: dict, region: str, permits: list[str]) -> None:
    """These Permits face up in the region (the old ones back on top of the deck)."""
    deck = state["permit_decks"][region]
    deck[:0] = state["face_up"][region]
    for p in permits:
        deck.remove(p)
    state["face_up"][region] = list(permits)


def no_tokens(state: dict) -> None:
    """Remove every City token (a crafted position where placing a Merchant gives no bonus)."""
    state["city_tokens"] = {}


def token_with(bonus_key: str) -> int:
    from games.engines.council_of_four.board import CITY_TOKENS

    return next(t for t, b in CITY_TOKENS.items() if list(b) == [bonus_key])
