"""The view contract between the engines and the pages (docs/architecture.md section 3; docs/architecture.md, Conventions).

Every engine's ``view(state, seat)`` returns a dict with at least the keys of :class:`BaseView`; each
game declares the rest of its shape below, so a presenter reads only declared keys. ``to_act`` is the
one name, in every game, for who acts now: seat indexes, and ``None`` for the table (the host's
screen); empty when the game is over. A seat's view (``seat`` is not None) also carries ``you``.
"""

from typing import Any, NotRequired, TypedDict


class BaseView(TypedDict):
    phase: str
    to_act: list[int | None]
    seats: list[dict[str, Any]]
    you: NotRequired[Any]


class KingsDilemmaView(BaseView):
    round: int
    king_name: str
    leader: int
    moderator: int
    board: dict[str, Any]
    pool: dict[str, int]
    card: dict[str, Any] | None
    winning_side: str | None
    vote: dict[str, Any] | None
    last_vote: dict[str, Any] | None
    leader_candidates: list[int] | None
    heir_candidates: list[int] | None
    drafting: int | None
    dilemma_deck_size: int
    cards_drawn: list[int]
    prestige_crave_effects: list[dict[str, Any]]
    end: str | None
    scores: list[dict[str, Any]] | None
    result: dict[str, Any] | None
    over: bool


class ForTheKingView(BaseView):
    game: str
    stage: str
    government: list[dict[str, Any]]
    deck_count: int
    box_count: int
    favor_deck_count: int
    middle: list[dict[str, Any]]
    offer: dict[str, Any] | None


class CouncilOfFourView(BaseView):
    game: str
    turn: dict[str, Any] | None
    pending: dict[str, Any] | None
    hand: list[dict[str, Any]] | None
    cities: list[dict[str, Any]]


VIEW_TYPES: dict[str, type] = {
    "kings_dilemma": KingsDilemmaView,
    "for_the_king": ForTheKingView,
    "council_of_four": CouncilOfFourView,
}


def required_keys(view_type: type) -> frozenset[str]:
    return frozenset(getattr(view_type, "__required_keys__", frozenset()))


def check_view(slug: str, view: dict[str, Any]) -> list[str]:
    """The keys a view lacks against its game's declared shape (empty: it honours the contract)."""
    view_type = VIEW_TYPES.get(slug, BaseView)
    return sorted(required_keys(view_type) - set(view))
