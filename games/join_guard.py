"""Join tokens are the only key to a seat: guessing them is rate limited. Only misses count, so a
table of phones behind one address is never slowed by its own play."""

from django_ratelimit.core import is_ratelimited
from django_ratelimit.exceptions import Ratelimited

from games import selectors
from games.models import Seat

MISSES_PER_MINUTE = "30/m"


def seat_for_join_token(request, token: str) -> Seat | None:
    """The seat of a join token, or None; too many unknown tokens from one address -> Ratelimited."""
    seat = selectors.session_for_token(token=token) if token else None
    if seat is None and is_ratelimited(
        request,
        group="seat-token-miss",
        key="ip",
        rate=MISSES_PER_MINUTE,
        method=is_ratelimited.ALL,
        increment=True,
    ):
        raise Ratelimited()
    return seat
