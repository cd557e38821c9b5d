"""The exporter: everything a campaign keeps, as the archive's sections, keyed by the numbers players
know (House number, game number, card numbers), the game sessions by their place in the archive.
It only reads."""

from __future__ import annotations

import datetime
import json
from collections.abc import Callable, Iterable
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder
from django.db import models
from django.utils import timezone

from campaign.models import (
    Achievement,
    Campaign,
    CampaignEvent,
    ChronicleScore,
    LedgerEntry,
)
from campaign.services.archive.format import (
    ARCHIVE_FORMAT,
    ARCHIVE_VERSION,
    DATES,
    FIELDS,
    houses_mapped,
)
from games.models import Seat, SessionAction

# The House number a row's link names, by the link's field name.
type HouseOf = Callable[[str], Callable[[Any], int | None]]


def _plain(obj: models.Model, fields: list[str]) -> dict[str, Any]:
    out = {}
    for name in fields:
        value = getattr(obj, name)
        out[name] = value.isoformat() if isinstance(value, datetime.date) else value
    return out


def _number(obj: models.Model, attr: str) -> int | None:
    related = getattr(obj, attr)
    return related.number if related is not None else None


def _actor(event: CampaignEvent) -> str | None:
    if event.actor is not None:
        return event.actor.get_username()
    return event.actor_name or None


def _rows(section: str, queryset: Iterable[Any], **links: Callable[[Any], Any]) -> list[dict]:
    """The rows of ``section`` in the order they were written (by id): the copy's ids keep it, so a
    page that breaks a tie by id lists them as the original did."""
    _, fields = FIELDS[section]
    fields = fields + DATES.get(section, [])
    if isinstance(queryset, models.QuerySet):
        queryset = queryset.order_by("pk")
    return [{**_plain(obj, fields), **{key: fn(obj) for key, fn in links.items()}} for obj in queryset]


def _number_of(attr: str) -> Callable[[Any], int | None]:
    return lambda obj: _number(obj, attr)


def _house_sections(campaign: Campaign, house_of: HouseOf) -> dict:
    return {
        "houses": _rows("houses", campaign.houses.all()),
        "achievements": _rows(
            "achievements",
            Achievement.objects.filter(house__campaign=campaign).select_related("unlocked_in"),
            house=house_of("house"),
            unlocked_in=_number_of("unlocked_in"),
        ),
        "games": _rows("games", campaign.games.all()),
        "scores": _rows(
            "scores",
            ChronicleScore.objects.filter(game__campaign=campaign).select_related("game"),
            game=_number_of("game"),
            house=house_of("house"),
        ),
        "ledger": _rows(
            "ledger",
            LedgerEntry.objects.filter(house__campaign=campaign).select_related("game"),
            house=house_of("house"),
            game=_number_of("game"),
        ),
    }


def _board_sections(campaign: Campaign, house_of: HouseOf) -> dict:
    return {
        "stickers": _rows(
            "stickers",
            campaign.stickers.select_related("game", "covered_by"),
            signer=house_of("signer"),
            game=_number_of("game"),
            covered_by=lambda s: s.covered_by.number if s.covered_by else None,
        ),
        "envelopes": _rows(
            "envelopes",
            campaign.envelopes.select_related("game"),
            opened_by=house_of("opened_by"),
            game=_number_of("game"),
        ),
        "story_cards": _rows(
            "story_cards",
            campaign.story_cards.select_related("envelope", "game"),
            signer=house_of("signer"),
            envelope=_number_of("envelope"),
            game=_number_of("game"),
        ),
        "dilemma_cards": _rows(
            "dilemma_cards",
            campaign.dilemma_cards.select_related("envelope", "resolved_in"),
            envelope=_number_of("envelope"),
            resolved_in=_number_of("resolved_in"),
        ),
        "mystery_stickers": _rows(
            "mystery_stickers", campaign.mystery_stickers.select_related("game"), game=_number_of("game")
        ),
        "events": _rows(
            "events",
            campaign.events.select_related("game", "actor"),
            house=house_of("house"),
            game=_number_of("game"),
            actor=_actor,
        ),
    }


def _session_sections(campaign: Campaign, houses: dict[int, int]) -> dict:
    sessions = list(campaign.sessions.select_related("chronicle_game").order_by("pk"))
    number = {session.pk: i for i, session in enumerate(sessions, start=1)}
    rows = _rows(
        "sessions",
        sessions,
        number=lambda s: number[s.pk],
        chronicle_game=_number_of("chronicle_game"),
    )
    for row in rows:
        row["config"] = houses_mapped(row["config"], houses.get)
        # The import replays the log and keeps the replay's state, never the archive's: the
        # cached state (up to a few hundred KB a night) is not carried, so the file grows with
        # what was played, not with a copy of it.
        row["state"] = {}
    return {
        "sessions": rows,
        "seats": _rows(
            "seats",
            Seat.objects.filter(session__in=sessions),
            session=lambda s: number[s.session_id],
        ),
        "actions": _rows(
            "actions",
            SessionAction.objects.filter(session__in=sessions),
            session=lambda a: number[a.session_id],
        ),
    }


def campaign_archive(*, campaign: Campaign) -> dict:
    """Everything, keyed by the numbers players know (House number, game number, card numbers);
    the game sessions by their place in the archive."""
    houses = {h.pk: h.number for h in campaign.houses.all()}

    def house_of(attr: str) -> Callable[[Any], int | None]:
        return lambda obj: houses.get(getattr(obj, f"{attr}_id"))

    return {
        "format": ARCHIVE_FORMAT,
        "version": ARCHIVE_VERSION,
        "exported_at": timezone.now().isoformat(),
        "campaign": {
            "name": campaign.name,
            "settings": campaign.settings,
            "grand_finale_ready": campaign.grand_finale_ready,
            "closed": campaign.closed,
            "created_at": campaign.created_at.isoformat(),
        },
        **_house_sections(campaign, house_of),
        **_board_sections(campaign, house_of),
        **_session_sections(campaign, houses),
    }


def archive_dumps(archive: dict) -> str:
    """The archive as Chronicle writes it: compact JSON (no indent, no spaces)."""
    return json.dumps(archive, separators=(",", ":"), cls=DjangoJSONEncoder)
