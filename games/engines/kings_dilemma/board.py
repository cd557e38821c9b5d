"""The Realm board's moving parts: the general pool, Resources with Momentum, Stability and
abdication, and steps A-D of the Dilemma Resolution."""

from __future__ import annotations

from games.engines.kernel.messages import to_data
from games.engines.kings_dilemma import messages as msg
from games.engines.kings_dilemma.turn import name

ARROWS = {"up": "▲", "down": "▼"}


def from_pool(state: dict, what: str, amount: int) -> None:
    """Take from the general pool. docs/rules-decisions.md: when the pool cannot pay, the payment is
    made anyway and the shortfall is logged (the pool goes below 0)."""
    before = state["pool"][what]
    state["pool"][what] -= amount
    if state["pool"][what] < 0:
        short = min(amount, -state["pool"][what]) if before >= 0 else amount
        state["shortfalls"].append({"what": what, "amount": short, "step": state["step"]})


def to_pool(state: dict, what: str, amount: int) -> None:
    state["pool"][what] += amount


def tell(state: dict, line: str) -> None:
    """One consequence of the action being applied, in words (the table's banner and the log). The
    message's data is kept beside it (``news_data``): the state stored as JSON keeps the English
    words, and the data says them again in each reader's language."""
    state.setdefault("news", []).append(line)
    state.setdefault("news_data", []).append(to_data(line))


# ---- Resources, Momentum and Stability ------------------------------------------------------


def move_resource(state: dict, row: str, amount: int) -> dict:
    """'Moving Resources and Stability and updating Momentum': one outcome effect.

    Moving with the marker's Momentum adds 1 space (2 with a Momentum marker) and attaches a Momentum
    marker; moving against it flips the marker and removes any Momentum marker. The marker stops at the
    ends of its track; Stability moves the full number of spaces the same way, unless the King has
    already abdicated. Stability reaching either end makes the King abdicate."""
    marker = state["resources"][row]
    direction = "up" if amount > 0 else "down"
    spaces = abs(amount)
    had = marker["momentum"]
    with_momentum = had == direction
    if with_momentum:
        spaces += 2 if marker["marker"] else 1
        marker["marker"] = True
    else:
        marker["momentum"] = direction
        marker["marker"] = False
    sign = 1 if direction == "up" else -1
    top = state["tracks"]["resource_track"]["rows"]
    position = marker["position"]
    marker["position"] = min(top, max(1, position + sign * spaces))
    stability_moved = 0
    stability_words: str = ""
    abdicates = None
    if state["abdicated"] is None:
        end = state["tracks"]["stability_track"]["spaces"]
        before = state["stability"]
        state["stability"] = min(end, max(1, before + sign * spaces))
        stability_moved = state["stability"] - before
        stability_words = msg.NEWS_STABILITY.format(before=before, after=state["stability"])
        if state["stability"] == end:
            state["abdicated"] = "top"
        elif state["stability"] == 1:
            state["abdicated"] = "bottom"
        if state["abdicated"] is not None:
            abdicates = msg.NEWS_ABDICATES.format(at=state["stability"], top=end)
    words = msg.NEWS_MOMENTUM if with_momentum else msg.NEWS_AGAINST if had else msg.NEWS_MOVE
    tell(
        state,
        words.format(
            row=msg.resource_name(row),
            amount=amount,
            before=position,
            after=marker["position"],
            arrow=ARROWS[direction],
            stability=stability_words,
        ),
    )
    if abs(marker["position"] - position) < spaces:
        tell(state, msg.NEWS_TRACK_END.format(row=msg.resource_name(row), at=marker["position"], top=top))
    if abdicates:
        tell(state, abdicates)
    return {"row": row, "spaces": sign * spaces, "stability": stability_moved}


def resolve_dilemma(state: dict, outcome: dict) -> None:
    """Steps B-D of the outcome read from the back: its Resource moves (one at a time, in order), the
    Chronicle sticker (signed by the Leader) and the Envelope (opened by the Leader, who signs its
    Story card). Then the table may apply printed effects by hand before placing the card (step E)."""
    card = state["card"]
    state["outcome"] = outcome
    for row, amount in outcome["resources"]:
        move_resource(state, row, amount)
    leader = name(state, state["leader"])
    if sticker := outcome["sticker"]:
        state["stickers"].append({**sticker, "signer": state["leader"], "dilemma": card["number"]})
        kind = msg.SIGNS[bool(sticker["positive"])]
        row = msg.resource_name(sticker["row"])
        tell(state, msg.NEWS_STICKER.format(kind=kind, number=sticker["number"], row=row, leader=leader))
    if outcome["envelope"] is not None:
        state["envelopes"].append(
            {"number": outcome["envelope"], "opened_by": state["leader"], "dilemma": card["number"]}
        )
        tell(state, msg.NEWS_ENVELOPE.format(number=outcome["envelope"], leader=leader))
    state["phase"] = "resolution"
