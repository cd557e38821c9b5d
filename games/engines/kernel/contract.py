"""The view contract between the engines and the pages (docs/architecture.md section 3; docs/architecture.md, Conventions).

Every engine's ``view(state, seat)`` returns a dict with at least the keys of :class:`BaseView`; each
game declares the rest of its shape in its own ``views.py`` (a ``BaseView`` subclass, named by its
rules' ``view_type``), so a presenter reads only declared keys. ``to_act`` is the
one name, in every game, for who acts now: seat indexes, and ``None`` for the table (the host's
screen); empty when the game is over. A seat's view (``seat`` is not None) also carries ``you``.
"""

from typing import Any, NotRequired, TypedDict


class BaseView(TypedDict):
    phase: str
    to_act: list[int | None]
    seats: list[dict[str, Any]]
    you: NotRequired[Any]


def required_keys(view_type: type) -> frozenset[str]:
    return frozenset(getattr(view_type, "__required_keys__", frozenset()))


def check_view(view_type: type, view: dict[str, Any]) -> list[str]:
    """The keys a view lacks against its game's declared shape (``rules.view_type``; empty: it
    honours the contract)."""
    return sorted(required_keys(view_type) - set(view))
