"""The Realm board's moving parts: Resources with Momentum, Stability and abdication, and steps A-D
of the Dilemma Resolution."""

from __future__ import annotations

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
    if marker["momentum"] == direction:
        spaces += 2 if marker["marker"] else 1
        marker["marker"] = True
    else:
        marker["momentum"] = direction
        marker["marker"] = False
    sign = 1 if direction == "up" else -1
    top = state["tracks"]["resource_track"]["rows"]
    marker["position"] = min(top, max(1, marker["position"] + sign * spaces))
    stability_moved = 0
    if state["abdicated"] is None:
        end = state["tracks"]["stability_track"]["spaces"]
        before = state["stability"]
        state["stability"] = min(end, max(1, before + sign * spaces))
        stability_moved = state["stability"] - before
        if state["stability"] == end:
            state["abdicated"] = "top"
        elif state["stability"] == 1:
            state["abdicated"] = "bottom"
    return {"row": row, "spaces": sign * spaces, "stability": stability_moved}


def resolve_dilemma(state: dict, outcome: dict) -> None:
    """Steps B-D of the outcome read from the back: its Resource moves (one at a time, in order), the
    Chronicle sticker (signed by the Leader) and the Envelope (opened by the Leader, who signs its
    Story card). Then the table may apply printed effects by hand before placing the card (step E)."""
    card = state["card"]
    state["outcome"] = outcome
    for row, amount in outcome["resources"]:
        move_resource(state, row, amount)
    if outcome["sticker"]:
        state["stickers"].append({**outcome["sticker"], "signer": state["leader"], "dilemma": card["number"]})
    if outcome["envelope"] is not None:
        state["envelopes"].append(
            {"number": outcome["envelope"], "opened_by": state["leader"], "dilemma": card["number"]}
        )
    state["phase"] = "resolution"
