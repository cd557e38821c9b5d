"""Campaign export and import: a versioned JSON archive of everything the campaign keeps.

``campaign_archive`` only reads; ``campaign_import`` writes a new campaign in one transaction, after
validating every part, so a damaged archive is refused with a clear message and nothing is written."""

from __future__ import annotations

import datetime

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from campaign.models import (
    Achievement,
    Campaign,
    CampaignEvent,
    ChronicleGame,
    ChronicleScore,
    ChronicleSticker,
    DilemmaCard,
    Envelope,
    House,
    LedgerEntry,
    Membership,
    MysterySticker,
    StoryCard,
)

ARCHIVE_FORMAT = "chronicle-campaign"
ARCHIVE_VERSION = 1
ARCHIVE_NOT_AN_OBJECT = "The archive is damaged: it is not a JSON object."
ARCHIVE_WRONG_FORMAT = "This file is not a Chronicle campaign archive."
ARCHIVE_WRONG_VERSION = "Archive version {version} is not supported (this Chronicle reads version 1)."
ARCHIVE_DAMAGED = "The archive is damaged: {where}: {problem}"

# Per section: the model and the plain fields copied as they are.
_FIELDS = {
    "houses": (House, ["number", "name", "player_name"]),
    "achievements": (
        Achievement,
        ["kind", "agenda", "name", "condition", "spaces", "marked", "effects", "ability_text"],
    ),
    "games": (ChronicleGame, ["number", "king_name", "played_on", "end", "recorded", "revision"]),
    "scores": (
        ChronicleScore,
        [
            "revision",
            "secret_agenda",
            "agenda_points",
            "open_agenda_points",
            "coins_points",
            "power_points",
            "total",
            "position",
            "last",
            "prestige",
            "crave",
        ],
    ),
    "ledger": (LedgerEntry, ["kind", "amount", "reason", "source"]),
    "stickers": (
        ChronicleSticker,
        ["number", "row", "positive", "title", "text", "slot", "marks", "covered"],
    ),
    "envelopes": (Envelope, ["number", "special"]),
    "story_cards": (
        StoryCard,
        [
            "number",
            "storyline",
            "title",
            "text",
            "order",
            "is_ending",
            "cohesion",
            "dissent",
            "majority_signer_bonus",
            "effects",
            "ability_text",
        ],
    ),
    "dilemma_cards": (DilemmaCard, ["number", "kind", "place", "title", "outcomes"]),
    "mystery_stickers": (MysterySticker, ["letter", "storyline"]),
    "events": (CampaignEvent, ["kind", "summary", "data"]),
}


def _plain(obj, fields):
    out = {}
    for name in fields:
        value = getattr(obj, name)
        out[name] = value.isoformat() if isinstance(value, datetime.date) else value
    return out


def _number(obj, attr):
    related = getattr(obj, attr)
    return related.number if related is not None else None


def campaign_archive(*, campaign: Campaign) -> dict:
    """Everything, keyed by the numbers players know (House number, game number, card numbers)."""
    houses = {h.pk: h.number for h in campaign.houses.all()}

    def rows(section, queryset, **links):
        model, fields = _FIELDS[section]
        return [{**_plain(obj, fields), **{key: fn(obj) for key, fn in links.items()}} for obj in queryset]

    house_of = lambda attr: lambda obj: houses.get(getattr(obj, f"{attr}_id"))  # noqa: E731
    number_of = lambda attr: lambda obj: _number(obj, attr)  # noqa: E731
    return {
        "format": ARCHIVE_FORMAT,
        "version": ARCHIVE_VERSION,
        "exported_at": timezone.now().isoformat(),
        "campaign": {
            "name": campaign.name,
            "settings": campaign.settings,
            "grand_finale_ready": campaign.grand_finale_ready,
            "closed": campaign.closed,
        },
        "houses": rows("houses", campaign.houses.all()),
        "achievements": rows(
            "achievements",
            Achievement.objects.filter(house__campaign=campaign).select_related("unlocked_in"),
            house=house_of("house"),
            unlocked_in=number_of("unlocked_in"),
        ),
        "games": rows("games", campaign.games.all()),
        "scores": rows(
            "scores",
            ChronicleScore.objects.filter(game__campaign=campaign).select_related("game"),
            game=number_of("game"),
            house=house_of("house"),
        ),
        "ledger": rows(
            "ledger",
            LedgerEntry.objects.filter(house__campaign=campaign).select_related("game"),
            house=house_of("house"),
            game=number_of("game"),
        ),
        "stickers": rows(
            "stickers",
            campaign.stickers.select_related("game", "covered_by").order_by("id"),
            signer=house_of("signer"),
            game=number_of("game"),
            covered_by=lambda s: s.covered_by.number if s.covered_by else None,
        ),
        "envelopes": rows(
            "envelopes",
            campaign.envelopes.select_related("game"),
            opened_by=house_of("opened_by"),
            game=number_of("game"),
        ),
        "story_cards": rows(
            "story_cards",
            campaign.story_cards.select_related("envelope", "game"),
            signer=house_of("signer"),
            envelope=number_of("envelope"),
            game=number_of("game"),
        ),
        "dilemma_cards": rows(
            "dilemma_cards",
            campaign.dilemma_cards.select_related("envelope", "resolved_in"),
            envelope=number_of("envelope"),
            resolved_in=number_of("resolved_in"),
        ),
        "mystery_stickers": rows(
            "mystery_stickers", campaign.mystery_stickers.select_related("game"), game=number_of("game")
        ),
        "events": rows(
            "events",
            campaign.events.select_related("game").order_by("created_at", "id"),
            house=house_of("house"),
            game=number_of("game"),
            created_at=lambda e: e.created_at.isoformat(),
        ),
    }


def _damaged(where: str, problem) -> ValidationError:
    if isinstance(problem, ValidationError):
        problem = "; ".join(problem.messages)
    return ValidationError(ARCHIVE_DAMAGED.format(where=where, problem=problem))


def _build(section, index, data, **links):
    model, fields = _FIELDS[section]
    where = f"{section}[{index}]"
    if not isinstance(data, dict):
        raise _damaged(where, "not an object")
    missing = [f for f in fields if f not in data]
    if missing:
        raise _damaged(where, f"missing {', '.join(missing)}")
    obj = model(**{f: data[f] for f in fields}, **links)
    try:
        obj.full_clean(validate_unique=False, validate_constraints=False)
    except ValidationError as error:
        raise _damaged(where, error) from None
    return obj


def _lookup(table: dict, key, where: str, what: str, *, optional=True):
    if key is None and optional:
        return None
    if key not in table:
        raise _damaged(where, f"refers to {what} {key!r}, which is not in the archive")
    return table[key]


@transaction.atomic
def campaign_import(*, archive, owner=None, name: str | None = None) -> Campaign:
    """Import an archive into a new campaign (its owner becomes the host)."""
    if not isinstance(archive, dict):
        raise ValidationError(ARCHIVE_NOT_AN_OBJECT)
    if archive.get("format") != ARCHIVE_FORMAT:
        raise ValidationError(ARCHIVE_WRONG_FORMAT)
    if archive.get("version") != ARCHIVE_VERSION:
        raise ValidationError(ARCHIVE_WRONG_VERSION.format(version=archive.get("version")))
    for section in ["campaign", *_FIELDS]:
        expected = dict if section == "campaign" else list
        if not isinstance(archive.get(section), expected):
            raise _damaged(section, "missing or of the wrong kind")
    head = archive["campaign"]
    campaign = Campaign(
        name=name or str(head.get("name") or "Imported campaign"),
        created_by=owner,
        settings=head.get("settings") or {},
        grand_finale_ready=bool(head.get("grand_finale_ready")),
        closed=bool(head.get("closed")),
    )
    campaign.full_clean()
    campaign.save()
    if owner is not None:
        Membership.objects.create(campaign=campaign, user=owner, role=Membership.Role.HOST)

    houses, games, envelopes, stickers = {}, {}, {}, {}
    for i, data in enumerate(archive["houses"]):
        house = _build("houses", i, data, campaign=campaign)
        if house.number in houses:
            raise _damaged(f"houses[{i}]", f"House number {house.number} appears twice")
        house.save()
        houses[house.number] = house
    for i, data in enumerate(archive["games"]):
        game = _build("games", i, data, campaign=campaign)
        if game.number in games:
            raise _damaged(f"games[{i}]", f"game {game.number} appears twice")
        game.save()
        games[game.number] = game

    def linked(section, i, data, **keys):
        where = f"{section}[{i}]"
        resolved = {}
        for field, (table, what, optional) in keys.items():
            resolved[field] = _lookup(
                table, data.get(field) if isinstance(data, dict) else None, where, what, optional=optional
            )
        model = _FIELDS[section][0]
        if any(f.name == "campaign" for f in model._meta.fields):
            resolved["campaign"] = campaign
        return _build(section, i, data, **resolved)

    for i, data in enumerate(archive["achievements"]):
        linked(
            "achievements", i, data, house=(houses, "House", False), unlocked_in=(games, "game", True)
        ).save()
    for i, data in enumerate(archive["scores"]):
        linked("scores", i, data, game=(games, "game", False), house=(houses, "House", False)).save()
    for i, data in enumerate(archive["ledger"]):
        linked("ledger", i, data, house=(houses, "House", False), game=(games, "game", True)).save()
    for i, data in enumerate(archive["envelopes"]):
        envelope = linked("envelopes", i, data, opened_by=(houses, "House", True), game=(games, "game", True))
        envelope.save()
        envelopes[envelope.number] = envelope
    covers = []
    for i, data in enumerate(archive["stickers"]):
        sticker = linked("stickers", i, data, signer=(houses, "House", True), game=(games, "game", True))
        sticker.save()
        stickers[sticker.number] = sticker
        if data.get("covered_by") is not None:
            covers.append((sticker, data["covered_by"], i))
    for sticker, number, i in covers:
        sticker.covered_by = _lookup(stickers, number, f"stickers[{i}]", "sticker")
        sticker.save(update_fields=["covered_by"])
    for i, data in enumerate(archive["story_cards"]):
        card = linked(
            "story_cards",
            i,
            data,
            signer=(houses, "House", True),
            envelope=(envelopes, "Envelope", True),
            game=(games, "game", True),
        )
        card.save()
    for i, data in enumerate(archive["dilemma_cards"]):
        card = linked(
            "dilemma_cards",
            i,
            data,
            envelope=(envelopes, "Envelope", True),
            resolved_in=(games, "game", True),
        )
        card.save()
    for i, data in enumerate(archive["mystery_stickers"]):
        sticker = linked("mystery_stickers", i, data, game=(games, "game", True))
        sticker.save()
    for i, data in enumerate(archive["events"]):
        event = linked("events", i, data, house=(houses, "House", True), game=(games, "game", True))
        event.save()
    CampaignEvent.objects.create(
        campaign=campaign,
        kind="campaign_imported",
        summary=f"Campaign imported from an archive of {head.get('name')!r}",
        actor=owner,
    )
    return campaign
