"""Tonight's seat for a phone left on last night's: a closed seat of a campaign's session points to
the seat its player holds at a session of the same campaign running now. Reads only.

The pointer never carries tonight's join token: the holder of an old seat's code is not thereby
tonight's player. A seat of the same account opens through the account (``games:my_seat``, after
signing in); a seat of the same House with no account says where its code is."""

from __future__ import annotations

from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.models import GameSession, Seat
from games.selectors import AnyUser

TONIGHT_YOURS = gettext_lazy("Tonight's game is running and you have a seat at it.")
TONIGHT_SIGN_IN = gettext_lazy(
    "Tonight's game is running and this seat's player has a seat at it: sign in to open it."
)
TONIGHT_SAME_HOUSE = gettext_lazy(
    "Tonight's game is running: {name}'s seat opens from its code on the table screen."
)


def _house(session: GameSession, index: int) -> object:
    """The House a seat of a campaign's night plays (its session's setup names it), or None."""
    seats = (session.config or {}).get("seats")
    if isinstance(seats, list) and 0 <= index < len(seats) and isinstance(seats[index], dict):
        return seats[index].get("house")
    return None


def seat_tonight(*, seat: Seat, user: AnyUser = None) -> Seat | None:
    """The seat at a running session of ``seat``'s campaign held by the same account (the seat's,
    or the signed-in ``user``'s), else by the same House; None outside a campaign or when none."""
    session = seat.session
    if session.campaign_id is None:
        return None
    running = Seat.objects.filter(
        session__campaign_id=session.campaign_id, session__status=GameSession.Status.ACTIVE
    ).exclude(session=session)
    signed_in = user.pk if user is not None and user.is_authenticated else None
    accounts = [pk for pk in (seat.user_id, signed_in) if pk is not None]
    if accounts:
        same_account = running.filter(user_id__in=accounts).select_related("session").order_by("-session_id")
        if found := same_account.first():
            return found
    house = _house(session, seat.index)
    if house is None:
        return None
    for candidate in running.select_related("session").order_by("-session_id", "index"):
        if _house(candidate.session, candidate.index) == house:
            return candidate
    return None


def tonight_pointer(*, seat: Seat, user: AnyUser) -> dict:
    """What a closed seat's page says of tonight's seat: ``{"tonight": {"text", "url"}}`` or nothing."""
    found = seat_tonight(seat=seat, user=user)
    if found is None:
        return {}
    my_seat = reverse("games:my_seat", args=[found.session_id])
    if found.user_id is not None and user is not None and user.is_authenticated and found.user_id == user.pk:
        return {"tonight": {"text": str(TONIGHT_YOURS), "url": my_seat, "link": _("Open tonight's seat")}}
    if found.user_id is not None:
        url = f"{reverse('login')}?{urlencode({'next': my_seat})}"
        return {
            "tonight": {"text": str(TONIGHT_SIGN_IN), "url": url, "link": _("Sign in to open tonight's seat")}
        }
    return {"tonight": {"text": str(TONIGHT_SAME_HOUSE).format(name=found.name), "url": "", "link": ""}}
