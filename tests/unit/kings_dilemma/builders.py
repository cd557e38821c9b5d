"""Crafted states for scenario tests: a real setup, then direct edits (boardgame.io style)."""

from games.engines.kings_dilemma.rules import RULES

NAMES = ["Anna", "Ben", "Chloe", "David", "Emma"]


def config(count: int = 3, names: list[str] | None = None, power=None, coins=None, **extra) -> dict:
    names = names or NAMES[:count]
    seats = [{"name": n, "house": 100 + i} for i, n in enumerate(names)]
    for field, values in (("power", power), ("coins", coins)):
        for seat, value in zip(seats, values or [], strict=False):
            seat[field] = value
    return {"king_name": "Harald V", "seats": seats, **extra}


def act(state: dict, type_: str, seat, **fields) -> dict:
    return RULES.apply(state, {"type": type_, "seat": seat, **fields})


def card(number: int = 12, aye=None, nay=None, title: str = "") -> dict:
    """A whole card as a test knows it: its front is derived, its backs are read after the vote
    (``resolve``). Outcomes default to a small move each way."""
    return {
        "number": number,
        "title": title or f"Dilemma {number}",
        "aye": aye or outcome(("wealth", 1)),
        "nay": nay or outcome(("wealth", -1)),
    }


def outcome(*moves, sticker=None, envelope=None, lightning=False, note="") -> dict:
    moves_ = [list(m) for m in moves]
    if not (moves_ or sticker or envelope is not None or note):
        note = "Nothing moves."
    return {
        "resources": moves_,
        "sticker": sticker,
        "envelope": envelope,
        "lightning": lightning,
        "note": note,
    }


def front(the_card: dict) -> dict:
    """The front a table types at the draw: the Outcome tokens each back implies."""
    typed = {"number": the_card["number"], "title": the_card.get("title") or f"Dilemma {the_card['number']}"}
    for side in ("aye", "nay"):
        back = the_card[side]
        sticker = back.get("sticker")
        typed[side] = {
            "resources": [[row, "up" if amount > 0 else "down"] for row, amount in back["resources"]],
            "sticker": None if not sticker else ("positive" if sticker["positive"] else "negative"),
        }
    return typed


def draw(state: dict, the_card: dict) -> dict:
    """Draw ``the_card``: its front is typed, and the test keeps its backs for ``resolve``."""
    BACKS[the_card["number"]] = the_card
    return act(state, "draw_dilemma", None, card=front(the_card))


BACKS: dict[int, dict] = {}


def resolve(state: dict, the_card: dict | None = None) -> dict:
    """After the vote: the table reads the winning side's outcome from the back of the card."""
    if state["phase"] != "outcome":
        return state
    whole = the_card or BACKS[state["card"]["number"]]
    return act(state, "read_outcome", None, outcome=whole[state["winning_side"]])


def drafted(cfg: dict | None = None, seed: int = 1) -> dict:
    """Dealt, and every seat took the first card offered: the game waits for the first card."""
    state = RULES.setup(cfg or config(), seed)
    state = act(state, "deal", None)
    while state["phase"] == "draft":
        seat = state["draft"]["order"][state["draft"]["index"]]
        state = act(state, "choose_secret_agenda", seat, agenda=state["draft"]["remaining"][0])
    return state


def voting(cfg: dict | None = None, the_card: dict | None = None, seed: int = 1, **edits) -> dict:
    """A Voting Phase on ``the_card``, after direct edits of the drafted state (leader, moderator, ...)."""
    state = drafted(cfg, seed)
    for key, value in edits.items():
        state[key] = value
    return draw(state, the_card or card())


def set_seats(state: dict, **fields) -> dict:
    """set_seats(state, power=[8, 2, 2], coins=[...]) keeps the general pool conserved."""
    for field, values in fields.items():
        for seat, value in zip(state["seats"], values, strict=True):
            if field in ("power", "coins"):
                state["pool"][field] -= value - seat[field]
            seat[field] = value
    return state


def all_vote(state: dict, votes: list) -> dict:
    """Play voting turns in order: each item is (seat, type, fields)."""
    for seat, type_, fields in votes:
        state = act(state, type_, seat, **fields)
    return state


def power_total(state: dict) -> int:
    committed = sum(state["vote"]["committed"]) if state["vote"] else 0
    return state["pool"]["power"] + sum(s["power"] for s in state["seats"]) + state["balance"] + committed


def coins_total(state: dict) -> int:
    on_pass = sum(state["vote"]["pass_coin"]) if state["vote"] else 0
    return state["pool"]["coins"] + sum(s["coins"] for s in state["seats"]) + on_pass
