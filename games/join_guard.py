"""Join tokens are the only key to a seat, and this is the one rule that reads them: the phone's
pages, the API (the X-Seat-Token header) and the event streams all ask ``seat_for_join_token``.
Guessing them is rate limited. Only misses count, so a table of phones behind one address is never
slowed by its own play."""

import secrets

from django_ratelimit.core import is_ratelimited
from django_ratelimit.exceptions import Ratelimited

from games import selectors
from games.models import Seat

MISSES_PER_MINUTE = "30/m"


# How the API and the streams send a seat's token: a header, never the address (which ends up in logs).
SEAT_TOKEN_HEADER = "X-Seat-Token"


def seat_for_join_token(request, token: str, *, session_id: int | None = None) -> Seat | None:
    """The seat of a join token (compared in constant time), of session ``session_id`` when one is
    named, or None; too many unknown tokens from one address -> Ratelimited."""
    seat = selectors.session_for_token(token=token) if token else None
    if seat is not None and not secrets.compare_digest(seat.token, token):
        seat = None
    if seat is None and is_ratelimited(
        request,
        group="seat-token-miss",
        key="ip",
        rate=MISSES_PER_MINUTE,
        method=is_ratelimited.ALL,
        increment=True,
    ):
        raise Ratelimited()
    if seat is not None and session_id is not None and seat.session_id != session_id:
        return None  # a real seat of another session: no guess, not a miss
    return seat
