"""The protocol every game engine follows (docs/architecture.md section 3) and a small base class.

State is a plain JSON-serialisable dict. It always holds ``seed`` and ``step`` (the number of
actions applied), so randomness inside ``apply`` comes from ``seeded_rng(seed, step)``.
Actions are dicts with a ``type`` and a ``seat`` (an int, or ``None`` for the table/host).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from games.engines.kernel.choices import Choice
from games.engines.kernel.contract import BaseView
from games.engines.kernel.errors import RuleError
from games.engines.kernel.messages import gettext_noop
from games.engines.kernel.rng import seeded_rng
from games.engines.kernel.turns import TABLE, Move, check_move, words_of

__all__ = ["TABLE", "Move", "Rules", "GameRules", "ALWAYS", "always"]

State = dict[str, Any]
Action = dict[str, Any]
# A game's bot: policy(state, seat, legal_actions, rng) -> one of them (None: draw one at random).
BotPolicy = Callable[[State, int | None, list[Choice], random.Random], Action | None]
# A game's own draw of a concrete action of a choice (a card typed by the host): sample(state, choice,
# rng) -> an action, or None to draw each parameter's value independently.
Sampler = Callable[[State, Choice, random.Random], Action | None]
# When an action shows something that was hidden: a function of the state before it, the action and
# the state after it (both states are the engine's own, never changed by the function).
Reveal = Callable[[State, Action, State], bool]


def always(before: State, action: Action, after: State) -> bool:
    """An action that reveals whatever its parameters (a card drawn, a deal)."""
    return True


ALWAYS: Reveal = always


# The values a copy may share with its original: nothing changes them in place.
ATOMIC: frozenset[type] = frozenset({str, int, float, bool, type(None)})


def plain_copy(value: Any) -> Any:
    """A deep copy of a plain JSON value (dicts, lists, text, numbers), several times quicker than
    ``copy.deepcopy`` on a state of 200 KB; anything else is deep-copied as usual. Like the database's
    copy, it shares nothing with the original, not even between two of its own parts."""
    kind = type(value)
    if kind is dict:
        return {key: item if type(item) in ATOMIC else plain_copy(item) for key, item in value.items()}
    if kind is list:
        return [item if type(item) in ATOMIC else plain_copy(item) for item in value]
    if kind in ATOMIC:
        return value
    return copy.deepcopy(value)


GAME_IS_OVER = gettext_noop("The game is over.")
UNKNOWN_ACTION = gettext_noop("There is no action called {type!r} in this game.")
ACTION_NOT_A_DICT = gettext_noop("An action must be an object with a 'type'.")


def config_seat_names(config: Any, min_seats: int, max_seats: int, words: Any) -> list[str]:
    """The seats' names of a setup config, checked: ``min_seats`` to ``max_seats`` seats, each with a
    name (``words.SEAT_COUNT`` and ``words.SEAT_NAMES`` say what is wrong in the game's words)."""
    seats = config.get("seats") if isinstance(config, dict) else None
    if not isinstance(seats, list) or not min_seats <= len(seats) <= max_seats:
        raise RuleError(words.SEAT_COUNT)
    names = [s.get("name") if isinstance(s, dict) else None for s in seats]
    if not all(isinstance(n, str) and n.strip() for n in names):
        raise RuleError(words.SEAT_NAMES)
    return [n.strip() for n in names if isinstance(n, str)]


class GameRules(Protocol):
    slug: str
    name: str
    min_seats: int
    max_seats: int
    order: int
    opening_action: Action | None
    table_view_type: type
    seat_view_type: type
    settings_type: type | None
    bot_excluded: frozenset[str]
    bot_policy: BotPolicy | None
    sample: Sampler | None

    def setup(self, config: dict[str, Any], seed: int) -> State: ...
    def legal_actions(self, state: State, seat: int | None) -> list[Choice]: ...
    def apply(self, state: State, action: Action) -> State: ...
    def apply_in_place(self, state: State, action: Action) -> None: ...
    def view(self, state: State, seat: int | None) -> dict[str, Any]: ...
    def is_over(self, state: State) -> bool: ...
    def result(self, state: State) -> dict[str, Any] | None: ...
    def describe(self, before: State, action: Action, after: State) -> str: ...
    def reveals(self, before: State, action: Action, after: State) -> bool: ...
    def undoable(self, before: State, action: Action, after: State) -> bool: ...
    def active_seats(self, state: State) -> list[int | None]: ...
    def to_act(self, state: State) -> list[int | None]: ...


class Rules:
    """Base for engines: ``moves`` maps an action type to its declared :class:`Move` (the guard: phases,
    who acts, the words of a refusal), whose ``run(state, action, rng)`` mutates a private copy of the
    state or raises RuleError (the original is never touched). The kernel checks the guard first."""

    slug = ""
    name = ""
    min_seats = 2
    max_seats = 5
    order = 100  # where the game appears in lists of games
    # The declared shapes of its views (games.engines.kernel.contract: BaseView subclasses in its
    # player_view.py): the table's, and a seat's (with ``private``).
    table_view_type: type = BaseView
    seat_view_type: type = BaseView
    # The declared settings (the session's ``config``) when not its ``setup.py``'s ``SETTINGS``.
    settings_type: type | None = None
    moves: dict[str, Move | Callable[[State, Action, Any], None]] = {}
    # The game's refusal words (its messages module): the kernel's guard speaks them.
    words: object = None
    phase_key = "phase"
    # The table's first action, applied by the session as soon as the game is set up (action 1 of
    # the log, never undone): dealing hidden cards in an action keeps the deck order out of the
    # initial state, so a replay never shows it to a client. None: the game opens without one.
    opening_action: Action | None = None
    # The actions that show something hidden, declared beside ``moves``: action type -> ``ALWAYS``
    # or a ``Reveal`` saying when it does (a card placed face up, not face down). Undo never drops
    # an action that revealed something: what the players saw cannot be hidden again.
    revealing: dict[str, Reveal] = {}
    # Action types never undone for another reason, whatever they show (a binding gift of Coins).
    not_undoable: frozenset[str] = frozenset()
    # Action types a bot never picks (legal for people, pointless or harmful at random).
    bot_excluded: frozenset[str] = frozenset()
    # Words for each choice's button, by action type (the game's ``sentences.CHOICE_TITLES``):
    # ``legal_actions`` gives every choice of a listed type its ``title``.
    choice_titles: Mapping[str, str] = {}
    # A game's bot (``BotPolicy``; None: a bot draws at random).
    bot_policy: BotPolicy | None = None
    # A game's draw of a concrete action (``Sampler``) when its choices hold what only it can make.
    sample: Sampler | None = None

    def apply(self, state: State, action: Action) -> State:
        new: State = plain_copy(state)
        self.apply_in_place(new, action)
        return new

    def apply_in_place(self, state: State, action: Action) -> None:
        """``apply`` on a state the caller owns (a replay): the declared guard, then the move's body.
        A refusal may leave ``state`` half changed: only a replay that stops at it calls this."""
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise RuleError(ACTION_NOT_A_DICT)
        if self.is_over(state):
            raise RuleError(GAME_IS_OVER)
        move = self.moves.get(action["type"])
        if move is None:
            raise RuleError(UNKNOWN_ACTION.format(type=action["type"]))
        if isinstance(move, Move):
            check_move(state, action, move, words_of(self.words), self.phase_key)
            run = move.run
        else:
            run = move
        run(state, action, seeded_rng(state["seed"], state["step"]))
        state["step"] += 1

    def legal_actions(self, state: State, seat: int | None) -> list[Choice]:
        """What ``seat`` may do now (the game's ``choices``), each choice with its ``title``."""
        titles = self.choice_titles
        return [
            {**c, "title": titles[c["type"]]} if c["type"] in titles else c for c in self.choices(state, seat)
        ]

    def choices(self, state: State, seat: int | None) -> list[Choice]:
        raise NotImplementedError  # each game's rules object says what a seat may do now (legal.py)

    def is_over(self, state: State) -> bool:
        return bool(state.get("over"))

    def result(self, state: State) -> dict[str, Any] | None:
        return state.get("result")

    def reveals(self, before: State, action: Action, after: State) -> bool:
        """Whether ``action``, taking ``before`` to ``after``, showed someone something hidden: as
        ``revealing`` declares it, and always when it ended the game (the result shows it all)."""
        if self.is_over(after):
            return True
        when = self.revealing.get(action.get("type", ""))
        return when is not None and bool(when(before, action, after))

    def undoable(self, before: State, action: Action, after: State) -> bool:
        """Whether the host may drop ``action`` (taking ``before`` to ``after``) from the log."""
        return action.get("type") not in self.not_undoable and not self.reveals(before, action, after)

    def to_act(self, state: State) -> list[int | None]:
        """Who must act now (the view's ``to_act``); a game says so in its ``turn.py``. By default: every
        seat with a choice."""
        seats: list[int | None] = [TABLE, *range(len(state.get("seats", [])))]
        return [s for s in seats if self.legal_actions(state, s)]

    def active_seats(self, state: State) -> list[int | None]:
        return self.to_act(state)

    def describe(self, before: State, action: Action, after: State) -> str:
        """The log's words for ``action``, which took ``before`` to ``after`` (both the caller's, never
        changed): a game words what was done from the one and what it led to from the other, so no
        engine applies an action again to say it."""
        return str(action.get("type", "?")).replace("_", " ")
