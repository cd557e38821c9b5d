"""The one turn guard of every engine, declared beside each move and checked by the kernel before the
move runs (boardgame.io's reducer checks the same): the game is in a phase where the move may be
played, and the action's seat is the one that acts. A game's ``rules.py`` declares its moves so:

    moves = {"vote": Move(voting.vote, phases=("voting",), acting=current_voter, what="vote"), ...}

and ``Rules.apply`` calls ``expect_turn`` with the game's words (its ``messages`` module) before the
body, which keeps only what is specific to it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any, Protocol

from games.engines.kernel.errors import RuleError
from games.engines.kernel.messages import gettext_noop

TABLE = None  # the seat value of actions taken by the table (the host's screen)
ANY_SEAT = "any seat"  # ``acting``: any seat of the table (not the table itself)

# The kernel's words; an engine's messages module may say them in the game's own words.
WORDS = SimpleNamespace(
    NOT_NOW=gettext_noop("You cannot {what} now."),
    TABLE_ONLY=gettext_noop("Only the table can {what}."),
    SEAT_ONLY=gettext_noop("The table cannot {what}: a player does."),
    NOT_YOUR_TURN=gettext_noop("It is {name}'s turn to {what}."),
    NO_SUCH_SEAT=gettext_noop("There is no such seat at this table."),
)
# Who acts for a seat of None, inside a sentence ("It is the table's turn to ...").
THE_TABLE = gettext_noop("the table")


class Words(Protocol):
    NOT_NOW: str
    TABLE_ONLY: str
    SEAT_ONLY: str
    NOT_YOUR_TURN: str
    NO_SUCH_SEAT: str


def is_seat(state: dict[str, Any], seat: Any) -> bool:
    return isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(state["seats"])


def seat_name(state: dict[str, Any], seat: int | None) -> str:
    return THE_TABLE if seat is None else state["seats"][seat]["name"]


def expect_turn(
    state: dict[str, Any],
    action: dict[str, Any],
    *,
    phases: tuple[str, ...] | None,
    acting: int | str | None | Callable[[dict[str, Any]], int | None],
    what: str,
    words: Words = WORDS,
    phase_key: str = "phase",
    not_yours: str | None = None,
) -> int | None:
    """The action's seat, once checked: ``state[phase_key]`` is one of ``phases`` (None: any), the seat
    is a seat of the table or the table (None), and it is ``acting``: TABLE, ANY_SEAT, one seat, or a
    function of the state answering TABLE or one seat (called once the phase is known to be right).
    ``not_yours`` words the refusal when another seat must act (default ``words.NOT_YOUR_TURN``)."""
    if phases is not None and state[phase_key] not in phases:
        raise RuleError(words.NOT_NOW.format(what=what))
    if callable(acting):
        acting = acting(state)
    seat = action.get("seat")
    if seat is not None and not is_seat(state, seat):
        raise RuleError(words.NO_SUCH_SEAT)
    if acting is TABLE:
        if seat is not None:
            raise RuleError(words.TABLE_ONLY.format(what=what))
    elif seat is None:
        raise RuleError(words.SEAT_ONLY.format(what=what))
    elif acting != ANY_SEAT and seat != acting:
        refusal = not_yours or words.NOT_YOUR_TURN
        raise RuleError(refusal.format(name=seat_name(state, acting), what=what))  # type: ignore[arg-type]
    return seat


def turn_guard(words: object, *, phase_key: str = "phase") -> Callable[..., Any]:
    """``expect_turn`` in one engine's words (its messages module; a sentence it does not define is
    the kernel's) and with the key of its phase in the state."""
    merged = words_of(words)

    def guard(state: dict[str, Any], action: dict[str, Any], **kwargs: Any) -> Any:
        return expect_turn(state, action, words=merged, phase_key=phase_key, **kwargs)

    return guard


# Who acts for a move: TABLE, ANY_SEAT, one seat, or a function of the state answering TABLE or a seat.
Acting = int | str | None | Callable[[dict[str, Any]], int | None]


# A move's body: ``run(state, action, rng)``.
MoveBody = Callable[[dict[str, Any], dict[str, Any], Any], None]


@dataclass(frozen=True)
class Move:
    """A move and its guard: the phases it may be played in (None: any), who acts (``acting``), the
    words of what it does for a refusal ("vote", "give Coins": a message, said in the refusal's
    language) and, optionally, the refusal when
    another seat must act. ``run(state, action, rng)`` mutates a private copy of the state or raises
    RuleError; it runs only once the guard passed."""

    run: MoveBody
    phases: tuple[str, ...] | None
    acting: Acting
    what: str
    not_yours: str | None = None


def words_of(words: object) -> SimpleNamespace:
    """The kernel's refusal words, each replaced by the game's own where its messages module has it."""
    return SimpleNamespace(**{key: getattr(words, key, text) for key, text in vars(WORDS).items()})


def check_move(
    state: dict[str, Any], action: dict[str, Any], move: Move, words: object, phase_key: str
) -> None:
    """The declared guard of ``move``, in the game's words."""
    expect_turn(
        state,
        action,
        phases=move.phases,
        acting=move.acting,
        what=move.what,
        words=words,  # type: ignore[arg-type]
        phase_key=phase_key,
        not_yours=move.not_yours,
    )
