"""A seat's player and code: claimed by an account, joined by a phone, its code shown again or
replaced."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy

from games.live import nudges
from games.models import GameSession, Seat, new_seat_token
from games.services.taps import SEAT_NOT_IN_SESSION, keep_in_step, session_locked

SEAT_ALREADY_CLAIMED = gettext_lazy("{name}'s seat is already taken.")
SEAT_JOINED_BY_PHONE = gettext_lazy(
    "{name}'s seat was joined by a phone: only that phone can take it. "
    "To move it to another phone, show its code again or give it a new code first."
)
SEAT_IS_A_BOT = gettext_lazy("{name} is played by a bot: a bot seat has no code.")
SEAT_CODE_SESSION_OVER = gettext_lazy("This session is over: its seats are closed.")


@transaction.atomic
def session_seat_claim(*, session: GameSession, seat: Seat, user: User, by_phone: bool = False) -> Seat:
    """A logged-in player links a seat to their account (the token still works for the seat).
    A seat a phone has joined is that phone's: only a claim made with its token (``by_phone``)
    may take it, never the host reading it from the side."""
    if seat.session_id != session.pk:
        raise ValidationError(SEAT_NOT_IN_SESSION)
    row = session_locked(session)  # the session first, as every writer locks
    locked = Seat.objects.select_for_update().get(pk=seat.pk)
    if locked.user_id is not None and locked.user_id != user.pk:
        raise ValidationError(SEAT_ALREADY_CLAIMED.format(name=locked.name))
    if locked.joined_at is not None and not by_phone and locked.user_id != user.pk:
        raise ValidationError(SEAT_JOINED_BY_PHONE.format(name=locked.name))
    if locked.user_id != user.pk:
        locked.user = user
        locked.save(update_fields=["user"])
        _seats_changed(session, row)
    seat.user = user
    return seat


def _seats_changed(session: GameSession, locked: GameSession) -> None:
    """A seat's player or code changed: the version moves on, so that every screen draws the
    seats anew (versions.session_version_facts) and a phone holding an old code finds out at once."""
    locked.version += 1
    locked.save(update_fields=["version", "updated"])
    nudges.notify_session_changed(locked)
    keep_in_step(session, locked)


def seat_mark_joined(*, seat: Seat) -> Seat:
    """A phone opened the seat with its token: the table stops showing its code. Only the first
    opening writes (one conditional UPDATE); bots and closed sessions are left alone."""
    if seat.joined_at is None and not seat.is_bot:
        now = timezone.now()
        if Seat.objects.filter(pk=seat.pk, joined_at__isnull=True).update(joined_at=now):
            seat.joined_at = now
    return seat


def _seat_code_change(seat: Seat) -> tuple[GameSession, Seat]:
    """The locked session and seat, when the seat's code may be shown or changed."""
    locked = session_locked(seat.session)
    if not locked.is_running:
        raise ValidationError(str(SEAT_CODE_SESSION_OVER))
    row = Seat.objects.select_for_update().get(pk=seat.pk)
    if row.is_bot:
        raise ValidationError(SEAT_IS_A_BOT.format(name=row.name))
    return locked, row


@transaction.atomic
def seat_show_code_again(*, seat: Seat) -> Seat:
    """The host shows a seat's code on the table again (the same token: a phone that was closed
    or lost on the table, when nobody else can have read it)."""
    _, row = _seat_code_change(seat)
    row.joined_at = None
    row.save(update_fields=["joined_at"])
    seat.joined_at = None
    return seat


@transaction.atomic
def seat_rotate_token(*, seat: Seat) -> Seat:
    """A new code for the seat (a lost or photographed one): the old token stops opening it, the
    account linked through the old one is unlinked, and the new code is shown on the table. The
    session's version moves on so the phone that had the old token finds out at once."""
    locked, row = _seat_code_change(seat)
    row.token = new_seat_token()
    row.joined_at = None
    row.user = None
    row.full_clean()
    row.save(update_fields=["token", "joined_at", "user"])
    _seats_changed(seat.session, locked)
    seat.token, seat.joined_at, seat.user = row.token, None, None
    return seat
