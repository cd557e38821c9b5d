"""A session's life: set up for named seats, abandoned, resumed, saved as a campaign's night, and
closed by the clock when nobody plays."""

from __future__ import annotations

import datetime
import secrets
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy, pgettext_lazy

from games import versions
from games.engines.kernel.errors import RuleError
from games.engines.kernel.rules import GameRules
from games.engines.kernel.text import has_control_characters
from games.live import nudges
from games.models import GameSession, Seat
from games.services.taps import (
    ACTION_NOT_JSON,
    action_append,
    after_change,
    keep_in_step,
    plain_json,
    rules_named,
    session_locked,
    session_rules,
)
from games.translation import say_to_reader

SEAT_COLOURS = ["red", "blue", "green", "yellow", "purple", "orange", "teal", "grey"]
MAX_SEAT_NAME = 80
SEAT_COUNT = gettext_lazy("{game} is played by {min} to {max} players; got {count}.")
SEAT_NAME_REQUIRED = gettext_lazy("Every seat needs a name.")
SEAT_NAME_INVALID = gettext_lazy("A seat name cannot hold control characters.")
SEAT_NAME_TOO_LONG = format_lazy(
    gettext_lazy("A seat name has at most {most} characters."), most=MAX_SEAT_NAME
)
SEAT_NAME_TWICE = gettext_lazy("Two seats are called {name}.")
CONFIG_NOT_A_DICT = gettext_lazy("The game settings must be an object.")
CONFIG_SEATS = gettext_lazy("The game settings list {got} seats for {count} seat names.")
BOT_SEAT_UNKNOWN = gettext_lazy("There is no seat {index} to give to a bot.")
SETUP_REFUSED = gettext_lazy("The game could not be set up: {message}")
SESSION_ALREADY_OVER = gettext_lazy("This session is already {status}.")
SESSION_NOT_ABANDONED = gettext_lazy("Only an abandoned session can be resumed; this one is {status}.")
STATUS_WORDS: dict[str, Any] = {
    GameSession.Status.LOBBY: pgettext_lazy("session status", "Lobby"),
    GameSession.Status.ACTIVE: pgettext_lazy("session status", "Active"),
    GameSession.Status.FINISHED: pgettext_lazy("session status", "Finished"),
    GameSession.Status.ABANDONED: pgettext_lazy("session status", "Abandoned"),
}


def status_words(status: str) -> str:
    """A session's status as a word in a sentence ("finished"), in the reader's language."""
    return str(STATUS_WORDS.get(status, status)).lower()


def _seat_names_clean(rules: GameRules, seat_names: list[str]) -> list[str]:
    names = [(n or "").strip() for n in seat_names]
    if not rules.min_seats <= len(names) <= rules.max_seats:
        raise ValidationError(
            SEAT_COUNT.format(game=rules.name, min=rules.min_seats, max=rules.max_seats, count=len(names))
        )
    if not all(names):
        raise ValidationError(str(SEAT_NAME_REQUIRED))
    if any(has_control_characters(n) for n in names):
        raise ValidationError(str(SEAT_NAME_INVALID))
    if any(len(n) > MAX_SEAT_NAME for n in names):
        raise ValidationError(str(SEAT_NAME_TOO_LONG))
    seen: set[str] = set()
    for n in names:
        if n.casefold() in seen:
            raise ValidationError(SEAT_NAME_TWICE.format(name=n))
        seen.add(n.casefold())
    return names


def _config_with_seats(config: dict | None, names: list[str]) -> dict:
    """The engine's config: the given settings, with each seat's extras and its name."""
    extra = dict(config or {}) if isinstance(config or {}, dict) else None
    if extra is None:
        raise ValidationError(str(CONFIG_NOT_A_DICT))
    seat_extras = extra.pop("seats", None) or [{} for _ in names]
    if not isinstance(seat_extras, list) or len(seat_extras) != len(names):
        got = len(seat_extras) if isinstance(seat_extras, list) else "no"
        raise ValidationError(CONFIG_SEATS.format(got=got, count=len(names)))
    seats_config = [
        {**(x if isinstance(x, dict) else {}), "name": n} for x, n in zip(seat_extras, names, strict=True)
    ]
    return plain_json({"seats": seats_config, **extra}, str(CONFIG_NOT_A_DICT))


@transaction.atomic
def session_create(
    *,
    game: str,
    seat_names: list[str],
    host: User | AnonymousUser | None = None,
    config: dict | None = None,
    seed: int | None = None,
    campaign: Any = None,  # a campaign's rows: games names no type of campaign's
    chronicle_game: Any = None,
    bot_seats: list[int] | None = None,
) -> GameSession:
    """Set up a game for the named seats (in table order), deal when the engine hides cards
    (logged as action 1, not undoable) and start it. ``config["seats"]`` may carry extra
    per-seat settings; the names always come from ``seat_names``."""
    rules = rules_named(game)
    names = _seat_names_clean(rules, seat_names)
    full_config = _config_with_seats(config, names)
    bots = set(bot_seats or [])
    for index in bots:
        if not isinstance(index, int) or not 0 <= index < len(names):
            raise ValidationError(BOT_SEAT_UNKNOWN.format(index=index))
    seed = secrets.randbelow(2**31) if seed is None else seed

    try:
        state = plain_json(rules.setup(full_config, seed), ACTION_NOT_JSON)
    except RuleError as exc:
        raise ValidationError(SETUP_REFUSED.format(message=say_to_reader(exc.message))) from exc

    session = GameSession(
        game=game,
        config=full_config,
        seed=seed,
        status=GameSession.Status.ACTIVE,
        version=0,
        state=state,
        has_bots=bool(bots),
        host=host if isinstance(host, User) else None,  # an anonymous caller hosts nothing
        campaign=campaign,
        chronicle_game=chronicle_game,
    )
    session.full_clean()
    session.save()
    for index, name in enumerate(names):
        Seat.objects.create(
            session=session,
            index=index,
            name=name,
            colour=SEAT_COLOURS[index % len(SEAT_COLOURS)],
            is_bot=index in bots,
        )
    if rules.opening_action is not None:
        action_append(session=session, rules=rules, action=dict(rules.opening_action), seat_index=None)
    # The first version's facts, read once the night that creates the session has set its seats
    # (a campaign night gives them their Houses' colours and players in the same transaction): the
    # next writers make theirs from them.
    transaction.on_commit(lambda: versions.session_version_facts(session=session), robust=True)
    after_change(session, rules)
    return session


@transaction.atomic
def session_abandon(*, session: GameSession) -> GameSession:
    locked = session_locked(session)
    if locked.status in (GameSession.Status.FINISHED, GameSession.Status.ABANDONED):
        raise ValidationError(SESSION_ALREADY_OVER.format(status=status_words(locked.status)))
    locked.status = GameSession.Status.ABANDONED
    locked.version += 1
    locked.last_activity = timezone.now()
    locked.save()
    nudges.notify_session_changed(locked)
    keep_in_step(session, locked)
    return session


@transaction.atomic
def session_resume(*, session: GameSession) -> GameSession:
    """An abandoned session goes on where it stopped: its log and state are untouched, only its
    status is running again (who may, and when, is the caller's rule: a campaign's night)."""
    locked = session_locked(session)
    if locked.status != GameSession.Status.ABANDONED:
        raise ValidationError(SESSION_NOT_ABANDONED.format(status=status_words(locked.status)))
    locked.status = GameSession.Status.ACTIVE
    locked.version += 1
    locked.last_activity = timezone.now()
    locked.save()
    after_change(locked, session_rules(locked))
    keep_in_step(session, locked)
    return session


@transaction.atomic
def session_night_saved(*, session: GameSession, chronicle_game: Any) -> GameSession:  # a ChronicleGame
    """A campaign night's session learns the Realm Chronicles game it was saved as."""
    locked = session_locked(session, without_state=True)
    locked.chronicle_game = chronicle_game
    locked.save(update_fields=["chronicle_game", "updated"])
    session.chronicle_game, session.updated = chronicle_game, locked.updated
    return session


ABANDON_AFTER = datetime.timedelta(hours=12)


def session_cleanup_abandoned(*, older_than: datetime.timedelta = ABANDON_AFTER) -> int:
    """Close sessions nobody has acted in for a while (celery beat). Idempotent: each session is
    abandoned under its own row lock and skipped if another worker got there first. A campaign's
    night is never closed by the clock: a night stopped late goes on the next evening (its table
    page says nothing of a closing; a table without a campaign says when it will close)."""
    cutoff = timezone.now() - older_than
    closed = 0
    stale = GameSession.objects.filter(
        status__in=[GameSession.Status.LOBBY, GameSession.Status.ACTIVE],
        last_activity__lt=cutoff,
        campaign__isnull=True,
    )
    for session_id in stale.values_list("pk", flat=True):
        with transaction.atomic():
            session = GameSession.objects.select_for_update().get(pk=session_id)
            if (
                session.status in (GameSession.Status.LOBBY, GameSession.Status.ACTIVE)
                and session.last_activity < cutoff
                and session.campaign_id is None
            ):
                session_abandon(session=session)
                closed += 1
    return closed
