"""Shared helpers: names, seat checks and the general pool.

Phases (``state["phase"]``) and who acts in each:

- ``deal``: the table's ``deal`` only (the Secret Agenda draft's hidden randomness).
- ``draft``: the seat in ``state["draft"]`` chooses a Secret Agenda.
- ``draw``: the table types the Dilemma card drawn (``draw_dilemma``).
- ``voting``: the seat whose turn it is votes, passes, adds Power or stays; anyone gives Coins.
- ``tie_break``: the Moderator decides the winning side (a tie, or everybody passed).
- ``leader_choice``: the Moderator gives the Leader token among the winning side's tied biggest voters.
- ``outcome``: the vote is over; the table turns the card over and types the winning side's outcome
  from its back (``read_outcome``), which is applied at once.
- ``resolution``: the table may apply printed effects by hand, then places the card on the Time
  Counter (the lightning typed with the outcome decides the King's death) or in the Event area.
- ``end``: the end was triggered; the table reveals the Secret Agendas and scores (``score``).
- ``heir``: totals are tied at the top; the Moderator chooses who marries into the royal line.
- ``over``.
"""

from __future__ import annotations

from games.engines.kernel.errors import RuleError
from games.engines.kernel.turns import turn_guard
from games.engines.kings_dilemma import messages as msg

VOTING_PHASES = ("voting", "tie_break", "leader_choice")
HOST_PHASES = ("draw", "voting", "tie_break", "leader_choice", "resolution")


def name(state: dict, seat: int | None) -> str:
    return "the table" if seat is None else state["seats"][seat]["name"]


def is_int(value, low: int | None = None, high: int | None = None) -> bool:
    if not isinstance(value, int) or isinstance(value, bool):
        return False
    return (low is None or value >= low) and (high is None or value <= high)


def seat_index(state: dict, value) -> int:
    if not is_int(value, 0, len(state["seats"]) - 1):
        raise RuleError(msg.NO_SUCH_SEAT)
    return value


def right_of(state: dict, seat: int) -> int:
    """Seats are in clockwise table order: the player to your right plays just before you."""
    return (seat - 1) % len(state["seats"])


def left_of(state: dict, seat: int) -> int:
    return (seat + 1) % len(state["seats"])


# The kernel's turn guard in this game's words: TABLE, ANY_SEAT or one seat acts.
expect_turn = turn_guard(msg)


def expect_moderator(state: dict, action: dict, phases: tuple[str, ...], what: str) -> int:
    """The turn guard for the Moderator's decisions."""
    return expect_turn(
        state, action, phases=phases, acting=state["moderator"], what=what, not_yours=msg.MODERATOR_ONLY
    )


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
