"""What the seat that acts may do now: one choice per action type, each with its parameters and
their bounds (``games.engines.kernel.choices``), never one entry per amount or per way to pay.
``legal_actions`` looks the phase up in ``CHOICES_BY_PHASE``; only the seat that must act
(``turn.actor``) has a choice."""

from collections.abc import Callable

from games.engines.for_the_king.board import as_action_changes, king_options
from games.engines.for_the_king.cards import gold_value
from games.engines.for_the_king.esteem import bid_bounds, gold_payments
from games.engines.for_the_king.sentences import payment_label
from games.engines.for_the_king.turn import AREAS, actor, limits
from games.engines.kernel.choices import Choice, Payment, amount, choice, payment, pick


def deal_choices(state: dict, seat: int | None) -> list[Choice]:
    return [choice("deal", None)]


def place_choices(state: dict, seat: int | None) -> list[Choice]:
    """'Distribute Cards': an area that still has room."""
    room = limits(state)
    return [choice("place", seat, area=pick([a for a in AREAS if state["placed"][a] < room[a]]))]


def choose_choices(state: dict, seat: int | None) -> list[Choice]:
    return [choice("choose", seat, card=pick(state["middle"]))]


def king_card_choices(state: dict, seat: int | None) -> list[Choice]:
    """One of the ways this King card may change the Primary Duty tiles (a short, rule-bounded list)."""
    options = king_options(state, state["king_card"]["card"])
    return [choice("king_card", seat, changes=pick([as_action_changes(o) for o in options]))]


def reveal_choices(state: dict, seat: int | None) -> list[Choice]:
    return [choice("reveal", seat)]


def bidding_choices(state: dict, seat: int | None) -> list[Choice]:
    """Pass, or one amount choice: above the high bid, up to the bidder's means and a little more."""
    assert seat is not None
    low, high = bid_bounds(state, seat)
    offered = [choice("pass", seat)]
    if low <= high:
        offered.append(choice("bid", seat, amount=amount(low, high)))
    return offered


def pay_gold_choices(state: dict, seat: int | None) -> list[Choice]:
    """The sets of Gold cards that reach the bid without overpaying (the rulebook's 'End of a round'): one
    option per mix of values (Gold cards of one value are alike), the least Gold first."""
    assert seat is not None
    paid = gold_payments(state["seats"][seat]["hand"], state["payment"]["owed"])
    options: list[Payment] = [
        {"cards": list(p), "coins": gold_value(p), "label": payment_label(p)}
        for p in sorted(paid, key=lambda p: (gold_value(p), len(p), p))
    ]
    return [choice("pay_gold", seat, cards=payment(options))]


def discard_choices(state: dict, seat: int | None) -> list[Choice]:
    assert seat is not None
    return [choice("discard", seat, card=pick(sorted(state["seats"][seat]["hand"])))]


def cannot_pay_choices(state: dict, seat: int | None) -> list[Choice]:
    return [choice("draw_random_card", seat)]


CHOICES_BY_PHASE: dict[str, Callable[[dict, int | None], list[Choice]]] = {
    "deal": deal_choices,
    "distribute": place_choices,
    "choose": choose_choices,
    "king_card": king_card_choices,
    "reveal": reveal_choices,
    "bidding": bidding_choices,
    "pay_gold": pay_gold_choices,
    "discard": discard_choices,
    "cannot_pay": cannot_pay_choices,
}


def legal_actions(state: dict, seat: int | None) -> list[Choice]:
    """The choices of ``seat`` now: none once the game is over or when another seat must act."""
    if state["over"] or seat != actor(state):
        return []
    return CHOICES_BY_PHASE[state["phase"]](state, seat)
