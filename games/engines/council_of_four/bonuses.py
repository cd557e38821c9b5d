"""Bonuses (City tokens, Permits, the Nobility Track): receiving one, and the choices a bonus may ask
for, which wait in ``state["pending"]`` until the seat answers them."""

from typing import Any

from games.engines.council_of_four.board import CITY_TOKENS, NOBILITY, NOBILITY_LAST, PERMITS, REGIONS
from games.engines.council_of_four.pieces import draw_card, refill
from games.engines.kernel.messages import gettext_noop

# Pending bonus choices, and how a message names each.
CITY_TOKEN = "city_token"
PERMIT_BONUS = "permit_bonus"
FREE_PERMIT = "free_permit"
PENDING_WORDS = {
    CITY_TOKEN: gettext_noop("City token bonus"),
    PERMIT_BONUS: gettext_noop("Permit bonus"),
    FREE_PERMIT: gettext_noop("free Permit"),
}


def gain(state: dict, seat: int, bonus: dict, rng: Any) -> None:
    """Receive a bonus (City token, Permit, Nobility space). Choices wait in ``pending``."""
    player = state["seats"][seat]
    for key, amount in bonus.items():
        if key in ("coins", "servants"):
            player[key] += amount
        elif key == "victory_points":
            player["victory"] += amount
        elif key == "politics_cards":
            for _ in range(amount):
                draw_card(state, seat, rng)
        elif key == "additional_main_action":
            state["turn"]["main_left"] += amount
        elif key == "nobility_steps":
            advance(state, seat, amount, rng)
        else:
            _wait_for_choice(state, seat, key, amount)


def _wait_for_choice(state: dict, seat: int, key: str, amount: int) -> None:
    if key == "city_token_bonus":
        state["pending"].append({"kind": CITY_TOKEN, "seat": seat, "count": amount})
    elif key == "free_permit_tile":
        state["pending"].append({"kind": FREE_PERMIT, "seat": seat})
    elif key == "permit_tile_bonus_again":
        state["pending"].append({"kind": PERMIT_BONUS, "seat": seat})


def advance(state: dict, seat: int, steps: int, rng: Any) -> None:
    """Move along the Nobility Track one space at a time, taking each bonus reached. The track
    ends at its last space: further steps are lost."""
    player = state["seats"][seat]
    for _ in range(steps):
        if player["nobility"] >= NOBILITY_LAST:
            return
        player["nobility"] += 1
        bonus = NOBILITY.get(player["nobility"])
        if bonus:
            gain(state, seat, bonus, rng)


def take_permit(state: dict, seat: int, permit: str, rng: Any) -> None:
    """A face-up Permit into the seat's hand of Permits, its slot refilled, its bonus received."""
    region = PERMITS[permit]["region"]
    slot = state["face_up"][region].index(permit)
    state["face_up"][region].pop(slot)
    refill(state, region, slot)
    state["seats"][seat]["permits"].append({"id": permit, "face_up": True})
    gain(state, seat, PERMITS[permit]["bonus"], rng)


def moves_on_nobility(bonus: dict) -> bool:
    return bool(bonus.get("nobility_steps"))


def city_token_options(state: dict, seat: int) -> list[str]:
    """Cities where the seat has a Merchant and whose token does not move it on the Nobility Track."""
    return [
        letter
        for letter, token in sorted(state["city_tokens"].items())
        if seat in state["merchants"][letter] and not moves_on_nobility(CITY_TOKENS[token])
    ]


def permit_bonus_options(state: dict, seat: int) -> list[str]:
    """Every Permit the seat bought, face up or face down, in the order acquired (Nobility space 14:
    "one of the permit tiles which you previously bought (also a face-down tile)"). Unlike the City
    tokens, the rulebook leaves none out: one whose bonus moves the seat on the Nobility Track is
    offered too, and the track only moves forward, so nothing loops (docs/rules-decisions.md)."""
    return [p["id"] for p in state["seats"][seat]["permits"]]


def free_permit_options(state: dict) -> list[str]:
    return [p for region in REGIONS for p in state["face_up"][region]]


def pending_options(state: dict, pending: dict) -> list[str]:
    if pending["kind"] == CITY_TOKEN:
        return city_token_options(state, pending["seat"])
    if pending["kind"] == PERMIT_BONUS:
        return permit_bonus_options(state, pending["seat"])
    return free_permit_options(state)
