"""The Realm board: drawing a Dilemma card, Dilemma Resolution (Resources, Momentum, Stability,
stickers, envelopes, the Time Counter, the King's death) and the host's hand-applied card effects
(DESIGN.md section 8 "Card effects the app cannot know")."""

from __future__ import annotations

from games.engine.errors import RuleError
from games.kings_dilemma import messages as msg
from games.kings_dilemma.board import move_resource
from games.kings_dilemma.cards import normalise_card, synthetic_card
from games.kings_dilemma.data import RESOURCES
from games.kings_dilemma.flow import (
    HOST_PHASES,
    expect_table,
    from_pool,
    is_int,
    seat_index,
    to_pool,
)
from games.kings_dilemma.voting import start_voting

MAX_LABEL = 80
HOST_WHATS = ("coins", "power", "prestige", "crave")


# ---- Phase 1: draw and read a card ------------------------------------------------------------


def drawn_numbers(state: dict) -> set[int]:
    return {int(n) for n in state["cards_met"]}


def draw_dilemma(state: dict, action: dict, rng) -> None:
    expect_table(state, action, ("draw",), "draw a Dilemma card")
    raw = action.get("card")
    if isinstance(raw, dict) and is_int(raw.get("number"), 1) and raw["number"] in drawn_numbers(state):
        raise RuleError(msg.CARD_ALREADY.format(number=raw["number"]))
    card = normalise_card(raw, state["known_cards"], state["tracks"])
    state["cards_met"][str(card["number"])] = card
    if card["number"] in state["dilemma_deck"]:
        state["dilemma_deck"].remove(card["number"])
    state["card"] = card
    state["round"] += 1
    start_voting(state)


def legal_draw(state: dict) -> list[dict]:
    """Cards the table may type: a few known cards not yet drawn (by number alone), and one synthetic."""
    drawn = drawn_numbers(state)
    known = sorted(int(n) for n in state["known_cards"] if int(n) not in drawn)
    in_deck = [n for n in known if n in state["dilemma_deck"]] or known
    actions = [{"type": "draw_dilemma", "seat": None, "card": {"number": n}} for n in in_deck[:2]]
    actions.append({"type": "draw_dilemma", "seat": None, "card": synthetic_card(state)})
    return actions


# ---- Phase 5: Dilemma Resolution --------------------------------------------------------------


def _lightning_space(state: dict) -> int:
    return state["tracks"]["time_counter"]["spaces"]


def cards_on_lightning(state: dict) -> int:
    return max(0, len(state["time_counter"]) - _lightning_space(state) + 1)


def to_time_counter(state: dict, action: dict, rng) -> None:
    """Step E: the card goes next to the top empty space; the last space carries the lightning."""
    expect_table(state, action, ("resolution",), "place the card on the Time Counter")
    state["time_counter"].append(state["card"]["number"])
    on_lightning = cards_on_lightning(state)
    if state["abdicated"] is None and on_lightning >= 1:
        if on_lightning >= state["tracks"]["time_counter"]["king_death_cards"]:
            state["king_dead"] = True
        else:
            state["phase"] = "lightning"
            return
    end_round(state)


def lightning(state: dict, action: dict, rng) -> None:
    """Step F: a card on the lightning space with the lightning on the central space of its back kills
    the King."""
    expect_table(state, action, ("lightning",), "say whether the card shows the lightning")
    shown = action.get("shown")
    if not isinstance(shown, bool):
        raise RuleError(msg.LIGHTNING_FORMAT)
    state["king_dead"] = shown
    end_round(state)


def end_round(state: dict) -> None:
    """Step F: the King abdicated or died (the end of the game is triggered), or a new round starts."""
    attached = len(state["mystery_before"]) + len(state["mystery_stickers"])
    finale = state["tracks"]["mystery_stickers_per_campaign"]
    if attached >= finale and not any(e.get("grand_finale") for e in state["envelopes"]):
        # 'Triggering the end of the campaign': after the resolution of the card that attached the
        # sixth Mystery sticker, Envelope 70 is opened.
        state["envelopes"].append(
            {
                "number": state["tracks"]["grand_finale_envelope"],
                "opened_by": state["leader"],
                "dilemma": state["card"]["number"] if state["card"] else None,
                "grand_finale": True,
            }
        )
    state["card"] = None
    state["vote"] = None
    state["winning_side"] = None
    state["leader_candidates"] = None
    if state["abdicated"] or state["king_dead"]:
        state["end"] = "king_died" if state["abdicated"] is None else f"abdicated_{state['abdicated']}"
        state["phase"] = "end"
    else:
        state["phase"] = "draw"


def legal_resolution(state: dict) -> list[dict]:
    if state["phase"] == "lightning":
        return [{"type": "lightning", "seat": None, "shown": shown} for shown in (False, True)]
    label = "card effect"
    actions = [
        {"type": "to_time_counter", "seat": None},
        {"type": "to_event_area", "seat": None, "label": label},
    ]
    for row in RESOURCES:
        for amount in (1, -1):
            actions.append(
                {"type": "move_resource", "seat": None, "row": row, "amount": amount, "label": label}
            )
    for seat, house in enumerate(state["seats"]):
        for what in HOST_WHATS:
            for amount in (1, -1):
                if amount < 0 and what in ("coins", "power") and house[what] < 1:
                    continue
                actions.append(
                    {
                        "type": "adjust",
                        "seat": None,
                        "target": seat,
                        "what": what,
                        "amount": amount,
                        "label": label,
                    }
                )
    free = [x for x in state["tracks"]["mystery_letters"] if x not in _mystery_attached(state)]
    if free:
        actions.append({"type": "mystery_sticker", "seat": None, "letter": free[0], "label": label})
    return actions


# ---- host effects -----------------------------------------------------------------------------


def _label(action: dict) -> str:
    label = action.get("label")
    if not isinstance(label, str) or not label.strip() or len(label.strip()) > MAX_LABEL:
        raise RuleError(msg.LABEL)
    return label.strip()


def host_move_resource(state: dict, action: dict, rng) -> None:
    """A printed effect moving a Resource, applied like a card outcome (with Momentum and Stability)."""
    expect_table(state, action, ("resolution",), "move a Resource by hand")
    _label(action)
    row, amount = action.get("row"), action.get("amount")
    top = state["tracks"]["resource_track"]["rows"]
    if row not in RESOURCES:
        raise RuleError(msg.RESOURCE_ROW.format(row=row))
    if not is_int(amount, -top, top) or amount == 0:
        raise RuleError(msg.RESOURCE_MOVE.format(top=top))
    move_resource(state, row, amount)


def adjust(state: dict, action: dict, rng) -> None:
    """Give (amount > 0) or take (amount < 0) Coins or Power (from/to the general pool), Prestige or
    Crave (recorded for the campaign's ledger)."""
    expect_table(state, action, HOST_PHASES, "give or take by hand")
    label = _label(action)
    target = seat_index(state, action.get("target"))
    what, amount = action.get("what"), action.get("amount")
    if what not in HOST_WHATS:
        raise RuleError(msg.HOST_WHAT)
    if not is_int(amount) or amount == 0:
        raise RuleError(msg.HOST_AMOUNT)
    house = state["seats"][target]
    if what in ("coins", "power"):
        if amount < 0 and house[what] < -amount:
            words = "Coins" if what == "coins" else "Power"
            raise RuleError(msg.HOST_TAKE_TOO_MUCH.format(name=house["name"], have=house[what], what=words))
        if amount > 0:
            from_pool(state, what, amount)
        else:
            to_pool(state, what, -amount)
        house[what] += amount
    else:
        state["prestige_crave_effects"].append(
            {
                "seat": target,
                "prestige": amount if what == "prestige" else 0,
                "crave": amount if what == "crave" else 0,
                "label": label,
            }
        )


def _mystery_attached(state: dict) -> set[str]:
    return set(state["mystery_before"]) | {m["letter"] for m in state["mystery_stickers"]}


def mystery_sticker(state: dict, action: dict, rng) -> None:
    expect_table(state, action, HOST_PHASES, "attach a Mystery sticker")
    label = _label(action)
    letter = action.get("letter")
    if not isinstance(letter, str) or len(letter) != 1 or letter not in state["tracks"]["mystery_letters"]:
        raise RuleError(msg.MYSTERY_LETTER)
    if letter in _mystery_attached(state):
        raise RuleError(msg.MYSTERY_TWICE.format(letter=letter))
    dilemma = state["card"]["number"] if state["card"] else None
    state["mystery_stickers"].append({"letter": letter, "dilemma": dilemma, "label": label})


def to_event_area(state: dict, action: dict, rng) -> None:
    """Event and Trigger cards never go on the Time Counter: the Event area instead."""
    expect_table(state, action, ("resolution",), "send the card to the Event area")
    _label(action)
    state["event_cards"].append(state["card"]["number"])
    end_round(state)
