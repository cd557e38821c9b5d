"""A King's Dilemma game night run by the table companion: set up from the campaign's legacy setup,
started (one night of a campaign at a time), taken over, resumed. Its save into the campaign is
night_saves.py."""

from __future__ import annotations

import datetime
from typing import cast

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext_lazy

from campaign.access import VIEWER_READS_ONLY, Need
from campaign.models import (
    Campaign,
    DilemmaCard,
    House,
    Membership,
    ResourceRow,
)
from campaign.selectors import night_running
from campaign.services.chronicles import legacy_setup_compute
from campaign.services.common import (
    CAMPAIGN_CLOSED,
    NAME_CONTROL_CHARACTERS,
    Actor,
    record_event,
)
from games.engines.kernel.messages import gettext_noop
from games.engines.kernel.text import has_control_characters
from games.models import GameSession
from games.services.sessions import SESSION_NOT_ABANDONED, session_create, session_resume

NIGHT_HOUSES = gettext_lazy("A King's Dilemma game has 3 to 5 Houses; {count} were chosen.")


NIGHT_HOUSE_TWICE = gettext_lazy("House {house} is seated twice.")


# Keyed by the Open Agendas' side (positive or not): the side agrees with its noun in each language.
NIGHT_KEEP_TWO = {
    True: gettext_lazy("House {house} holds {count} positive Open Agendas: choose the 2 it keeps ({rows})."),
    False: gettext_lazy("House {house} holds {count} negative Open Agendas: choose the 2 it keeps ({rows})."),
}


NIGHT_ALREADY_RECORDED = gettext_lazy("This game night's result is already in the campaign.")


NIGHT_AWAITS_SAVE = gettext_lazy(
    "Game night #{session} (King {king}) of this campaign is over and waits for its save: save it from "
    "its table (Save your game) before the next night begins. One night of a campaign at a time."
)


NIGHT_RUNNING = gettext_lazy(
    "Game night #{session} (King {king}) of this campaign is running: open it and play on, or its "
    "host or the campaign's owner abandons it first. One night of a campaign at a time."
)


NIGHT_PAPER_GAME = gettext_lazy(
    "Game {number} (King {king}) was begun on paper and has no result yet: record it on the Realm "
    "Chronicles before a night at the table."
)


NIGHT_NOT_KINGS_DILEMMA = gettext_lazy("This session is not a King's Dilemma game night of a campaign.")


NIGHT_TAKE_OVER_HOST_PLAYS = gettext_lazy(
    "{host} hosts this night and still plays in this campaign: ask them for the table, or ask the "
    "campaign's owner to take it over."
)


NIGHT_TAKE_OVER_NOT_RUNNING = gettext_lazy("This night is no longer running: there is no table to take over.")


NIGHT_TAKE_OVER_YOURS = gettext_lazy("You already host this night.")
# The history's sentence of a take-over (a message, said in each reader's language).
NIGHT_TAKEN_OVER = gettext_noop("{user} took over the table of game night #{night} (hosted by {was})")
NIGHT_TAKEN_OVER_HOSTLESS = gettext_noop(
    "{user} took over the table of game night #{night} (hosted by nobody)"
)


def _open_agendas(setup: dict, houses: list[House], keep: dict | None) -> dict[int, list[dict]]:
    """Open Agenda tokens per House, with the House's own choice where it holds more than 2."""
    tokens = {
        pk: [{"row": row, "positive": positive} for row, positive in held]
        for pk, held in setup["open_agendas"].items()
    }
    names = {h.pk: h.name for h in houses}
    for house_pk, positive, rows in setup["open_agenda_choices"]:
        polarity = "positive" if positive else "negative"
        chosen = list((keep or {}).get(house_pk, {}).get(polarity, []))
        if len(chosen) != 2 or not set(chosen) <= set(rows) or len(set(chosen)) != 2:
            raise ValidationError(
                NIGHT_KEEP_TWO[positive].format(
                    house=names[house_pk],
                    count=len(rows),
                    rows=", ".join(str(ResourceRow(row).label) for row in rows),
                )
            )
        tokens[house_pk] += [{"row": row, "positive": positive} for row in chosen]
    return tokens


def game_night_config(
    *, campaign: Campaign, houses: list[House], king_name: str, keep: dict | None = None
) -> dict:
    """The engine's setup config from the legacy setup (read-only)."""
    if not 3 <= len(houses) <= 5:
        raise ValidationError(NIGHT_HOUSES.format(count=len(houses)))
    if len({h.pk for h in houses}) != len(houses):
        raise ValidationError(NIGHT_HOUSE_TWICE.format(house=houses[0].name))
    setup = legacy_setup_compute(campaign=campaign, houses=houses, aged=True)
    tokens = _open_agendas(setup, houses, keep)
    index = {h.pk: i for i, h in enumerate(houses)}
    cards = list(campaign.dilemma_cards.order_by("number"))
    deck = [card for card in cards if card.place == DilemmaCard.Place.DECK]
    return {
        "king_name": king_name,
        "seats": [
            {
                "name": house.name,
                "house": house.pk,
                "house_number": house.number,
                "prestige": setup["prestige"][house.pk],
                "power": setup["start"][house.pk]["power"],
                "coins": setup["start"][house.pk]["coins"],
                "open_agendas": tokens.get(house.pk, []),
            }
            for house in houses
        ],
        "resources": setup["resources"],
        "leader": index[setup["leader"]],
        "moderator": index[setup["moderator"]],
        "dilemma_deck": [card.number for card in deck],
        "known_cards": {
            str(card.number): known_card(card, back=card.place == DilemmaCard.Place.DECK)
            for card in cards
            if card.outcomes
        },
        **campaign_memory(campaign, cards),
    }


def known_card(card: DilemmaCard, *, back: bool = True) -> dict:
    """A card met before as the engine reads it: the title the table typed is kept beside what was
    typed of its front and back (the save stores the title apart from the rest). A card out of the
    deck comes without its back (``back=False``): a printed effect may put it back in tonight
    (``to_dilemma_deck``), and its title and front are all the draw needs; the night stays small."""
    typed = card.outcomes
    if not back and "front" in typed:
        typed = {"front": typed["front"], "back": {"aye": None, "nay": None}}
    return {"number": card.number, **typed, "title": card.title or card.outcomes.get("title", "")}


RESTORED_PLACES = (DilemmaCard.Place.STORY_SLOT, DilemmaCard.Place.EVENT_AREA)


def campaign_memory(campaign: Campaign, cards: list[DilemmaCard]) -> dict:
    """What the table must know of the campaign to refuse it when typed again: the Envelopes opened,
    the Chronicle stickers attached (covered ones included: each exists once), the Mystery stickers,
    and the cards out of the Dilemma deck. 'Setup Story and Event Cards': the ongoing Event cards of
    the Story save slot (and any left in the Event area) are set up in the Event area tonight."""
    restored = [card.number for card in cards if card.place in RESTORED_PLACES]
    return {
        "envelopes_opened": sorted(campaign.envelopes.values_list("number", flat=True)),
        "stickers_attached": sorted(campaign.stickers.values_list("number", flat=True)),
        "mystery_stickers": sorted(campaign.mystery_stickers.values_list("letter", flat=True)),
        "cards_out_of_deck": {
            str(card.number): "trash" if card.place == DilemmaCard.Place.TRASH else "event_area"
            for card in cards
            if card.place != DilemmaCard.Place.DECK
        },
        "event_area": restored,
    }


def night_running_words(running: GameSession) -> str:
    """Why no other night may start: the night that runs, or the night over that waits for its save."""
    words = NIGHT_AWAITS_SAVE if running.status == running.Status.FINISHED else NIGHT_RUNNING
    return words.format(session=running.pk, king=running.config.get("king_name", ""))


def _one_night_at_a_time(campaign: Campaign) -> None:
    """Refused while a night of the campaign runs at the table, or a game begun on paper waits
    for its result (its Realm Chronicles table is the campaign's next game already)."""
    running = night_running(campaign=campaign)
    if running is not None:
        raise ValidationError(night_running_words(running))
    paper = campaign.games.filter(recorded=False, sessions__isnull=True).order_by("number").first()
    if paper is not None:
        raise ValidationError(NIGHT_PAPER_GAME.format(number=paper.number, king=paper.king_name))


@transaction.atomic
def game_night_start(
    *,
    campaign: Campaign,
    houses: list[House],
    king_name: str,
    host: Actor = None,
    played_on: datetime.date | None = None,
    keep: dict | None = None,
    seed: int | None = None,
) -> GameSession:
    """Seat the Houses in table order (clockwise) in a King's Dilemma session, from the legacy
    setup computed from the campaign (aged as 'Chronicle aging' would age it): nothing of the
    campaign is written until the night is saved (``game_night_record``), so an abandoned night
    leaves nothing behind. One night of a campaign at a time (the campaign's row is locked). A
    House played by a member's account gives its seat to that account."""
    campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)
    if campaign.closed:
        raise ValidationError(CAMPAIGN_CLOSED)
    if has_control_characters(king_name or ""):  # the API and the pages alike
        raise ValidationError(NAME_CONTROL_CHARACTERS)
    _one_night_at_a_time(campaign)
    number = (campaign.games.aggregate(top=Max("number"))["top"] or 0) + 1
    king = (king_name or "").strip() or str(number)  # pages write "King 3"; the number is the save's
    config = game_night_config(campaign=campaign, houses=houses, king_name=king, keep=keep)
    config["played_on"] = (played_on or datetime.date.today()).isoformat()
    session = session_create(
        game="kings_dilemma",
        seat_names=[h.name for h in houses],
        host=host,
        config=config,
        seed=seed,
        campaign=campaign,
    )
    _seats_of_houses(session=session, campaign=campaign, houses=houses)
    return session


@transaction.atomic
def game_night_resume(*, session: GameSession, actor: Actor = None) -> GameSession:
    """A night abandoned by mistake goes on where it stopped (its log intact): never while another
    night of the campaign runs, nor once it was saved. Nothing of the campaign is written."""
    if session.campaign_id is None or session.game != "kings_dilemma":
        raise ValidationError(NIGHT_NOT_KINGS_DILEMMA)
    campaign = Campaign.objects.select_for_update().get(pk=session.campaign_id)
    if campaign.closed:
        raise ValidationError(CAMPAIGN_CLOSED)
    if session.chronicle_game_id is not None:
        raise ValidationError(NIGHT_ALREADY_RECORDED)
    if session.status != session.Status.ABANDONED:
        raise ValidationError(SESSION_NOT_ABANDONED.format(status=session.get_status_display().lower()))
    _one_night_at_a_time(campaign)
    return session_resume(session=session)


def night_take_over_refusal(*, session: GameSession, actor: Actor) -> str | None:
    """Why ``actor`` may not take the night's table over (None: they may). The owner always may; a
    player when the host no longer plays in the campaign (removed, or made a viewer); a viewer never
    (docs/rules-decisions.md, "Who may do what in a campaign")."""
    if session.status not in (session.Status.LOBBY, session.Status.ACTIVE, session.Status.FINISHED):
        return str(NIGHT_TAKE_OVER_NOT_RUNNING)
    if session.chronicle_game_id is not None:
        return str(NIGHT_TAKE_OVER_NOT_RUNNING)
    actor_id = getattr(actor, "pk", None)
    if session.host_id == actor_id:
        return str(NIGHT_TAKE_OVER_YOURS)
    roles: dict[int | None, str] = dict(
        Membership.objects.filter(
            # A session of no campaign (None) has no members: every actor is refused below.
            campaign_id=session.campaign_id,  # type: ignore[misc]
            user_id__in=[actor_id, session.host_id],
        ).values_list("user_id", "role")
    )
    mine = roles.get(actor_id)
    if mine == Membership.Role.OWNER:
        return None
    if mine != Membership.Role.PLAYER:
        return str(VIEWER_READS_ONLY)
    if roles.get(session.host_id) in Need.PLAY.value:
        return NIGHT_TAKE_OVER_HOST_PLAYS.format(host=session.host)
    return None


@transaction.atomic
def game_night_take_over(*, session: GameSession, actor: Actor) -> GameSession:
    """The night's table passes to ``actor``, who becomes its host (its page, seat codes, undo and
    abandon): when its host's phone died, or when the host was removed or made a viewer and lost the
    table. Nothing of the game changes; the campaign's history says who took it over from whom."""
    if session.campaign_id is None or session.game != "kings_dilemma":
        raise ValidationError(NIGHT_NOT_KINGS_DILEMMA)
    campaign = Campaign.objects.select_for_update().get(pk=session.campaign_id)
    locked = type(session).objects.select_for_update(of=("self",)).select_related("host").get(pk=session.pk)
    refusal = night_take_over_refusal(session=locked, actor=actor)
    if refusal is not None:
        raise ValidationError(refusal)
    actor = cast(User, actor)  # only a member's account is not refused above
    was = locked.host
    locked.host = actor
    locked.save(update_fields=["host"])
    session.host = actor
    record_event(
        campaign,
        "night_host_changed",
        (NIGHT_TAKEN_OVER if was is not None else NIGHT_TAKEN_OVER_HOSTLESS).format(
            user=str(actor), night=locked.pk, was=str(was)
        ),
        actor=actor,
        session=locked.pk,
        was=was.get_username() if was is not None else "",
    )
    return session


def _seats_of_houses(*, session: GameSession, campaign: Campaign, houses: list[House]) -> None:
    """Each seat of a campaign night wears its House's colour (campaign.colours, the colour of every
    campaign page and chart: one colour per House), and a seat whose House a member plays (a player
    or the owner, from the House as stored now) belongs to that member's account: their login opens
    it, as its join token does."""
    players = set(
        Membership.objects.filter(campaign=campaign, role__in=Need.PLAY.value).values_list(
            "user_id", flat=True
        )
    )
    users = dict(House.objects.filter(pk__in=[h.pk for h in houses]).values_list("pk", "user_id"))
    for seat in session.seats.all():
        house = houses[seat.index]
        seat.colour = house.colour
        user_id = users.get(house.pk)
        if user_id is not None and user_id in players:
            seat.user_id = user_id
        seat.full_clean()
        seat.save(update_fields=["colour", "user"])
