"""The only writers of campaign state. Each service validates, runs in a transaction and records
a CampaignEvent (who, what, when, in which game) so the history can answer any question."""

from __future__ import annotations

import datetime
import json
import os
from pathlib import Path
from typing import Any

from django.conf import settings as django_settings
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.core.serializers.json import DjangoJSONEncoder
from django.db import transaction
from django.db.models import Max

from campaign import legacy
from campaign.archive import campaign_archive
from campaign.models import (
    MYSTERY_LETTERS,
    RESOURCE_ROWS,
    SECRET_AGENDAS,
    Achievement,
    Campaign,
    CampaignEvent,
    CampaignExport,
    ChronicleGame,
    ChronicleScore,
    ChronicleSticker,
    DilemmaCard,
    Envelope,
    GameEnd,
    House,
    LedgerEntry,
    Membership,
    MysterySticker,
    StoryCard,
)
from campaign.selectors import campaign_setting, houses_by_prestige, storylines
from games.engine.text import has_control_characters

MAX_HOUSES = 12
MIN_PLAYERS, MAX_PLAYERS = 3, 5  # Houses in one game of The King's Dilemma
GRAND_FINALE_ENVELOPE = 70
MYSTERY_STICKERS_IN_A_CAMPAIGN = 6

CAMPAIGN_NAME_REQUIRED = "A campaign needs a name."
CAMPAIGN_CLOSED = "The campaign is closed: the Grand Finale has been reached."
HOUSE_LIMIT = "A campaign has at most 12 Houses."
HOUSE_NUMBER_RANGE = "A House number is between 1 and 12."
HOUSE_NUMBER_TAKEN = "House number {number} is already used in this campaign."
HOUSE_NAME_REQUIRED = "A House needs a name."
NAME_CONTROL_CHARACTERS = "A name cannot hold control characters (such as NUL, ESC or U+202E)."
HOUSE_NOT_IN_CAMPAIGN = "House {house} is not part of this campaign."
STICKER_NUMBER_RANGE = "Chronicle sticker numbers go from 1 to 177."
STICKER_ALREADY_ATTACHED = "Sticker {number} is already on the board."
UNKNOWN_ROW = "{row!r} is not a Resource row (Influence, Wealth, Morale, Welfare, Knowledge)."
ENVELOPE_NUMBER_RANGE = "Envelope numbers go from 00 to 74."
ENVELOPE_ALREADY_OPENED = "Envelope {number:02d} has already been opened."
STANDARD_ENVELOPE_CARDS = (
    "A standard Envelope holds 1 Story card and 3 Dilemma cards; got {count} Dilemma cards."
)
DILEMMA_CARD_TWICE = "Dilemma card {number} is already in this campaign."
DILEMMA_CARD_UNKNOWN = "Dilemma card {number} is not in this campaign."
DILEMMA_NOT_IN_DECK = "Dilemma card {number} is not in the Dilemma deck (it is in the {place})."
STORY_CARD_TWICE = "Story card {number} is already in this campaign."
STORYLINE_REQUIRED = "A Story card needs its storyline."
ACHIEVEMENT_SPACES = "An achievement has between 1 and 10 spaces."
ACHIEVEMENT_FULL = "{name} has only {spaces} spaces: {marked} are already marked."
MARKS_POSITIVE = "Mark at least one space."
UNKNOWN_AGENDA = "{agenda!r} is not a Secret Agenda."
MYSTERY_LETTER = "Mystery stickers are lettered A to L."
MYSTERY_ALREADY = "Mystery sticker {letter} is already attached."
MYSTERY_ALL_ATTACHED = "All 6 Mystery stickers of the campaign are already attached."
RESULT_PLAYERS = "A game has 3 to 5 Houses; got {count}."
RESULT_HOUSE_TWICE = "House {house} appears twice in the result."
RESULT_ALREADY = "Game {number} already has a result: correct it instead."
RESULT_NOT_RECORDED = "Game {number} has no result to correct yet."
UNKNOWN_END = "{end!r} is not a way a game ends (king_died, abdicated_top, abdicated_bottom)."
LEDGER_KIND = "Ledger entries are Prestige or Crave."
RESOURCES_FINAL_FORMAT = (
    "Final Resource positions are rows 1 to 17 of Influence, Wealth, Morale, Welfare, Knowledge."
)
EFFECT_KEYS = {"start_power", "start_coins", "prestige", "crave", "power", "coins"}
UNKNOWN_EFFECT = (
    "Unknown ability effect {key!r}; use start_power, start_coins, prestige, crave, power or coins."
)


def _event(campaign, kind, summary, *, actor=None, house=None, game=None, **data) -> CampaignEvent:
    return CampaignEvent.objects.create(
        campaign=campaign,
        kind=kind,
        summary=summary,
        actor=actor if isinstance(actor, AbstractBaseUser) else None,
        house=house,
        game=game,
        data=data,
    )


def _check_house(campaign: Campaign, house: House | None) -> None:
    if house is not None and house.campaign_id != campaign.id:
        raise ValidationError(HOUSE_NOT_IN_CAMPAIGN.format(house=house.name))


def _check_effects(effects: dict) -> dict:
    for key, value in (effects or {}).items():
        if key not in EFFECT_KEYS or not isinstance(value, int) or isinstance(value, bool):
            raise ValidationError(UNKNOWN_EFFECT.format(key=key))
    return effects or {}


# ---- Campaign and Houses ------------------------------------------------------------------


@transaction.atomic
def campaign_create(*, name: str, created_by: AbstractBaseUser | None = None) -> Campaign:
    if not name or not name.strip():
        raise ValidationError(CAMPAIGN_NAME_REQUIRED)
    if has_control_characters(name):
        raise ValidationError(NAME_CONTROL_CHARACTERS)
    campaign = Campaign(name=name.strip(), created_by=created_by)
    campaign.full_clean()
    campaign.save()
    if created_by is not None:
        Membership.objects.create(campaign=campaign, user=created_by, role=Membership.Role.HOST)
    _event(campaign, "campaign_created", f"Campaign {campaign.name} begins", actor=created_by)
    return campaign


@transaction.atomic
def membership_add(*, campaign: Campaign, user, role: str = Membership.Role.PLAYER, actor=None) -> Membership:
    membership, _ = Membership.objects.get_or_create(campaign=campaign, user=user, defaults={"role": role})
    _event(campaign, "member_added", f"{user} joined the campaign", actor=actor)
    return membership


@transaction.atomic
def house_create(
    *, campaign: Campaign, name: str, number: int, player_name: str = "", user=None, actor=None
) -> House:
    campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)
    if not name or not name.strip():
        raise ValidationError(HOUSE_NAME_REQUIRED)
    if has_control_characters(name) or has_control_characters(player_name or ""):
        raise ValidationError(NAME_CONTROL_CHARACTERS)
    if not isinstance(number, int) or not 1 <= number <= 12:
        raise ValidationError(HOUSE_NUMBER_RANGE)
    if campaign.houses.count() >= MAX_HOUSES:
        raise ValidationError(HOUSE_LIMIT)
    if campaign.houses.filter(number=number).exists():
        raise ValidationError(HOUSE_NUMBER_TAKEN.format(number=number))
    house = House(campaign=campaign, name=name.strip(), number=number, player_name=player_name, user=user)
    house.full_clean()
    house.save()
    if user is not None:
        Membership.objects.get_or_create(campaign=campaign, user=user)
    spaces = campaign_setting(campaign, "alignment_spaces")
    for agenda, (kind, amount) in legacy.alignment_rewards(number).items():
        Achievement.objects.create(
            house=house,
            kind=Achievement.Kind.ALIGNMENT,
            agenda=agenda,
            name=f"Alignment: {agenda.capitalize()}",
            condition=f"Play a game as {agenda.capitalize()}.",
            spaces=spaces,
            effects={kind: amount},
        )
    _event(campaign, "house_created", f"House {house.name} (number {number}) joins", actor=actor, house=house)
    return house


# ---- Prestige and Crave ledger ------------------------------------------------------------


def ledger_add(
    *,
    house: House,
    kind: str,
    amount: int,
    reason: str,
    source: str,
    game: ChronicleGame | None = None,
    actor=None,
) -> LedgerEntry | None:
    if kind not in LedgerEntry.Kind.values:
        raise ValidationError(LEDGER_KIND)
    if amount == 0:
        return None
    entry = LedgerEntry(house=house, kind=kind, amount=amount, reason=reason, source=source, game=game)
    entry.full_clean()
    entry.save()
    sign = "+" if amount > 0 else ""
    _event(
        house.campaign,
        "ledger",
        f"House {house.name}: {sign}{amount} {kind.capitalize()} ({reason})",
        actor=actor,
        house=house,
        game=game,
        kind_=kind,
        amount=amount,
    )
    return entry


# ---- Achievements and alignment -----------------------------------------------------------


@transaction.atomic
def achievement_create(
    *,
    house: House,
    name: str,
    spaces: int,
    kind: str = Achievement.Kind.GAMEPLAY,
    condition: str = "",
    effects: dict | None = None,
    ability_text: str = "",
    actor=None,
) -> Achievement:
    if not isinstance(spaces, int) or not 1 <= spaces <= 10:
        raise ValidationError(ACHIEVEMENT_SPACES)
    achievement = Achievement(
        house=house,
        name=name,
        spaces=spaces,
        kind=kind,
        condition=condition,
        effects=_check_effects(effects or {}),
        ability_text=ability_text,
    )
    achievement.full_clean()
    achievement.save()
    _event(
        house.campaign,
        "achievement_created",
        f"House {house.name} lists achievement {name}",
        actor=actor,
        house=house,
    )
    return achievement


def _apply_one_time_effects(achievement: Achievement, game, actor) -> None:
    effects = achievement.effects
    source = (
        LedgerEntry.Source.ALIGNMENT
        if achievement.kind == Achievement.Kind.ALIGNMENT
        else LedgerEntry.Source.ACHIEVEMENT
    )
    for kind in ("prestige", "crave"):
        if effects.get(kind):
            ledger_add(
                house=achievement.house,
                kind=kind,
                amount=effects[kind],
                reason=f"{achievement.name} unlocked",
                source=source,
                game=game,
                actor=actor,
            )


@transaction.atomic
def achievement_mark(
    *, achievement: Achievement, count: int = 1, game: ChronicleGame | None = None, actor=None
) -> Achievement:
    """'House Achievements': mark spaces; marking the last one unlocks the ability and applies its
    one-time effects (Prestige/Crave go to the ledger; one-time Power/Coins are recorded in the history)."""
    achievement = (
        Achievement.objects.select_for_update().select_related("house__campaign").get(pk=achievement.pk)
    )
    if count < 1:
        raise ValidationError(MARKS_POSITIVE)
    if achievement.marked + count > achievement.spaces:
        raise ValidationError(
            ACHIEVEMENT_FULL.format(
                name=achievement.name, spaces=achievement.spaces, marked=achievement.marked
            )
        )
    achievement.marked += count
    house = achievement.house
    _event(
        house.campaign,
        "achievement_marked",
        f"House {house.name} marked {count} space(s) of {achievement.name} ({achievement.marked}/{achievement.spaces})",
        actor=actor,
        house=house,
        game=game,
    )
    if achievement.unlocked:
        achievement.unlocked_in = game
        _event(
            house.campaign,
            "achievement_unlocked",
            f"House {house.name} unlocked {achievement.name}",
            actor=actor,
            house=house,
            game=game,
            effects=achievement.effects,
        )
        _apply_one_time_effects(achievement, game, actor)
    achievement.save()
    return achievement


@transaction.atomic
def alignment_mark(
    *, house: House, agenda: str, game: ChronicleGame | None = None, actor=None
) -> Achievement | None:
    """'Update House Alignment': one space for the Secret Agenda played; none if already unlocked."""
    if agenda not in SECRET_AGENDAS:
        raise ValidationError(UNKNOWN_AGENDA.format(agenda=agenda))
    achievement = house.achievements.filter(kind=Achievement.Kind.ALIGNMENT, agenda=agenda).first()
    if achievement is None or achievement.unlocked:
        return None
    return achievement_mark(achievement=achievement, game=game, actor=actor)


# ---- Chronicle stickers -------------------------------------------------------------------


def _sticker_info(s: ChronicleSticker) -> legacy.Sticker:
    return legacy.Sticker(row=s.row, slot=s.slot, positive=s.positive, signer=s.signer_id, marks=s.marks)


@transaction.atomic
def sticker_attach(
    *,
    campaign: Campaign,
    number: int,
    row: str,
    positive: bool,
    signer: House | None,
    title: str = "",
    text: str = "",
    game: ChronicleGame | None = None,
    actor=None,
) -> ChronicleSticker:
    """'Apply Chronicle stickers': the leftmost empty space of its row, otherwise over the sticker
    with the most marks (leftmost on a tie); the covered sticker stays in the history."""
    campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)
    if not isinstance(number, int) or not 1 <= number <= 177:
        raise ValidationError(STICKER_NUMBER_RANGE)
    if row not in RESOURCE_ROWS:
        raise ValidationError(UNKNOWN_ROW.format(row=row))
    _check_house(campaign, signer)
    if campaign.stickers.filter(number=number).exists():
        raise ValidationError(STICKER_ALREADY_ATTACHED.format(number=number))
    visible = list(campaign.stickers.filter(row=row, covered=False))
    slot, covered_slot = legacy.sticker_placement(
        [_sticker_info(s) for s in visible], campaign_setting(campaign, "row_capacity")
    )
    covered = next((s for s in visible if s.slot == covered_slot), None)
    sticker = ChronicleSticker(
        campaign=campaign,
        number=number,
        row=row,
        positive=positive,
        signer=signer,
        title=title,
        text=text,
        slot=slot,
        game=game,
    )
    sticker.full_clean(validate_constraints=False)
    if covered is not None:
        # Free the space first: one visible sticker per space (a partial unique constraint).
        ChronicleSticker.objects.filter(pk=covered.pk).update(covered=True)
    sticker.save()
    if covered is not None:
        ChronicleSticker.objects.filter(pk=covered.pk).update(covered_by=sticker)
    polarity = "positive" if positive else "negative"
    signed = f", signed by House {signer.name}" if signer else ""
    summary = f"Chronicle sticker {number} ({polarity} {row}) attached{signed}"
    if covered is not None:
        summary += f", over sticker {covered.number}"
    _event(
        campaign,
        "sticker_attached",
        summary,
        actor=actor,
        house=signer,
        game=game,
        number=number,
        row=row,
        slot=slot,
    )
    return sticker


@transaction.atomic
def chronicle_age(*, campaign: Campaign, game: ChronicleGame | None = None, actor=None) -> int:
    """'Chronicle aging': mark 1 space on every attached sticker (up to its last square)."""
    squares = campaign_setting(campaign, "aging_squares")
    stickers = list(campaign.stickers.select_for_update().filter(covered=False))
    for sticker in stickers:
        sticker.marks = min(sticker.marks + 1, squares)
    ChronicleSticker.objects.bulk_update(stickers, ["marks"])
    _event(
        campaign,
        "chronicle_aged",
        f"Chronicle aging: {len(stickers)} sticker(s) marked",
        actor=actor,
        game=game,
    )
    return len(stickers)


# ---- Envelopes, Story cards, Dilemma cards and save slots ---------------------------------


def _dilemma_card_add(*, campaign, number, kind, envelope=None, title="") -> DilemmaCard:
    if not isinstance(number, int) or number < 1:
        raise ValidationError(DILEMMA_CARD_UNKNOWN.format(number=number))
    if campaign.dilemma_cards.filter(number=number).exists():
        raise ValidationError(DILEMMA_CARD_TWICE.format(number=number))
    return DilemmaCard.objects.create(
        campaign=campaign, number=number, kind=kind, envelope=envelope, title=title
    )


@transaction.atomic
def story_card_place(
    *,
    campaign: Campaign,
    number: int,
    storyline: str,
    signer: House | None = None,
    title: str = "",
    text: str = "",
    is_ending: bool = False,
    cohesion: int = 0,
    dissent: int = 0,
    majority_signer_bonus: dict | None = None,
    effects: dict | None = None,
    ability_text: str = "",
    envelope: Envelope | None = None,
    game: ChronicleGame | None = None,
    actor=None,
) -> StoryCard:
    """'Story Legacy': the card goes on top of its storyline, covering the previous one's ability.
    An Ending card played for the first time gives its Majority Signer Bonus to every House tied
    for the most signatures in the storyline (this card included)."""
    _check_house(campaign, signer)
    if not storyline or not storyline.strip():
        raise ValidationError(STORYLINE_REQUIRED)
    if campaign.story_cards.filter(number=number).exists():
        raise ValidationError(STORY_CARD_TWICE.format(number=number))
    effects = _check_effects(effects or {})
    bonus = _check_effects(majority_signer_bonus or {})
    order = (campaign.story_cards.filter(storyline=storyline).aggregate(top=Max("order"))["top"] or 0) + 1
    card = StoryCard(
        campaign=campaign,
        number=number,
        storyline=storyline.strip(),
        signer=signer,
        title=title,
        text=text,
        is_ending=is_ending,
        cohesion=cohesion,
        dissent=dissent,
        majority_signer_bonus=bonus,
        effects=effects,
        ability_text=ability_text,
        envelope=envelope,
        game=game,
        order=order,
    )
    card.full_clean()
    card.save()
    signed = f", signed by House {signer.name}" if signer else ""
    _event(
        campaign,
        "story_card_placed",
        f"Story card {number} on the {storyline} storyline{signed}",
        actor=actor,
        house=signer,
        game=game,
        number=number,
    )
    if signer is not None:
        for kind in ("prestige", "crave"):
            if effects.get(kind):
                ledger_add(
                    house=signer,
                    kind=kind,
                    amount=effects[kind],
                    reason=f"Story card {number}",
                    source=LedgerEntry.Source.STORY,
                    game=game,
                    actor=actor,
                )
    if is_ending and bonus:
        counts: dict[int, int] = {}
        for signer_id in campaign.story_cards.filter(
            storyline=card.storyline, signer__isnull=False
        ).values_list("signer", flat=True):
            counts[signer_id] = counts.get(signer_id, 0) + 1
        if counts:
            most = max(counts.values())
            for house in campaign.houses.filter(pk__in=[h for h, c in counts.items() if c == most]):
                for kind in ("prestige", "crave"):
                    if bonus.get(kind):
                        ledger_add(
                            house=house,
                            kind=kind,
                            amount=bonus[kind],
                            reason=f"Majority Signer Bonus of Ending card {number}",
                            source=LedgerEntry.Source.MAJORITY_SIGNER,
                            game=game,
                            actor=actor,
                        )
    return card


@transaction.atomic
def envelope_open(
    *,
    campaign: Campaign,
    number: int,
    opened_by: House | None = None,
    game: ChronicleGame | None = None,
    special: bool = False,
    story_card: dict[str, Any] | None = None,
    dilemma_numbers: list[int] | None = None,
    trigger_numbers: list[int] | None = None,
    event_numbers: list[int] | None = None,
    actor=None,
) -> Envelope:
    """'Open Envelope': a standard Envelope holds 1 Story card (signed by the Leader, placed on its
    storyline) and 3 Dilemma cards shuffled into the Dilemma deck. A Special Envelope's cards
    follow their own instructions: Trigger cards go to the deck, Event cards to the Event area."""
    campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)
    if not isinstance(number, int) or not 0 <= number <= 74:
        raise ValidationError(ENVELOPE_NUMBER_RANGE)
    _check_house(campaign, opened_by)
    if campaign.envelopes.filter(number=number).exists():
        raise ValidationError(ENVELOPE_ALREADY_OPENED.format(number=number))
    dilemma_numbers = list(dilemma_numbers or [])
    if not special and len(dilemma_numbers) != 3:
        raise ValidationError(STANDARD_ENVELOPE_CARDS.format(count=len(dilemma_numbers)))
    envelope = Envelope.objects.create(
        campaign=campaign, number=number, special=special, opened_by=opened_by, game=game
    )
    by = f" by House {opened_by.name}" if opened_by else ""
    _event(
        campaign,
        "envelope_opened",
        f"Envelope {number:02d} opened{by}",
        actor=actor,
        house=opened_by,
        game=game,
        number=number,
    )
    for card_number in dilemma_numbers:
        _dilemma_card_add(
            campaign=campaign, number=card_number, kind=DilemmaCard.Kind.DILEMMA, envelope=envelope
        )
    for card_number in trigger_numbers or []:
        _dilemma_card_add(
            campaign=campaign, number=card_number, kind=DilemmaCard.Kind.TRIGGER, envelope=envelope
        )
    for card_number in event_numbers or []:
        card = _dilemma_card_add(
            campaign=campaign, number=card_number, kind=DilemmaCard.Kind.EVENT, envelope=envelope
        )
        card.place = DilemmaCard.Place.EVENT_AREA
        card.save(update_fields=["place"])
    if story_card:
        story_card_place(
            campaign=campaign,
            envelope=envelope,
            game=game,
            actor=actor,
            **{"signer": opened_by, **story_card},
        )
    if number == GRAND_FINALE_ENVELOPE:
        campaign.closed = True
        campaign.save(update_fields=["closed"])
        _event(campaign, "grand_finale", "Envelope 70 opened: the Grand Finale", actor=actor, game=game)
    return envelope


@transaction.atomic
def dilemma_card_remember(
    *, campaign: Campaign, number: int, title: str = "", outcomes: dict, actor=None
) -> DilemmaCard:
    """Store what the table typed from a Dilemma card, so it is typed only once."""
    card, _ = DilemmaCard.objects.get_or_create(campaign=campaign, number=number)
    card.title = title or card.title
    card.outcomes = outcomes
    card.save(update_fields=["title", "outcomes"])
    return card


@transaction.atomic
def game_save(
    *,
    game: ChronicleGame,
    resolved: list[int],
    event_area_triggers: list[int] | None = None,
    ongoing_events: list[int] | None = None,
    actor=None,
) -> None:
    """'Final Cleanup: Save your game!': Trigger cards of the Event area back into the Dilemma
    deck, resolved Dilemmas to the Trash, ongoing Event cards to the Story save slot."""
    campaign = game.campaign
    cards = campaign.dilemma_cards.select_for_update()
    for number in resolved:
        card = cards.filter(number=number).first()
        if card is None:
            card = _dilemma_card_add(campaign=campaign, number=number, kind=DilemmaCard.Kind.DILEMMA)
        card.place, card.resolved_in = DilemmaCard.Place.TRASH, game
        card.save(update_fields=["place", "resolved_in"])
    cards.filter(number__in=event_area_triggers or []).update(place=DilemmaCard.Place.DECK)
    cards.filter(number__in=ongoing_events or []).update(place=DilemmaCard.Place.STORY_SLOT)
    _event(
        campaign,
        "game_saved",
        f"Game {game.number} saved: {len(resolved)} Dilemma card(s) to the Trash",
        actor=actor,
        game=game,
        resolved=resolved,
    )


# ---- Mystery stickers ---------------------------------------------------------------------


@transaction.atomic
def mystery_sticker_attach(
    *, campaign: Campaign, letter: str, storyline: str = "", game: ChronicleGame | None = None, actor=None
) -> MysterySticker:
    """'Triggering the end of the campaign': the sixth Mystery sticker makes Envelope 70 due."""
    campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)
    letter = (letter or "").strip().upper()
    if len(letter) != 1 or letter not in MYSTERY_LETTERS:
        raise ValidationError(MYSTERY_LETTER)
    if campaign.mystery_stickers.filter(letter=letter).exists():
        raise ValidationError(MYSTERY_ALREADY.format(letter=letter))
    if campaign.mystery_stickers.count() >= MYSTERY_STICKERS_IN_A_CAMPAIGN:
        raise ValidationError(MYSTERY_ALL_ATTACHED)
    sticker = MysterySticker.objects.create(campaign=campaign, letter=letter, storyline=storyline, game=game)
    _event(
        campaign,
        "mystery_attached",
        f"Mystery sticker {letter} attached",
        actor=actor,
        game=game,
        letter=letter,
    )
    if campaign.mystery_stickers.count() == MYSTERY_STICKERS_IN_A_CAMPAIGN:
        campaign.grand_finale_ready = True
        campaign.closed = True
        campaign.save(update_fields=["grand_finale_ready", "closed"])
        _event(
            campaign,
            "grand_finale_due",
            "The sixth Mystery sticker: open Envelope 70, the Grand Finale",
            actor=actor,
            game=game,
        )
    return sticker


# ---- A game: legacy setup, result, correction ---------------------------------------------


def legacy_setup_compute(*, campaign: Campaign, houses: list[House]) -> dict:
    """Legacy setup for the participating Houses (read-only): Resource legacy, starting Power
    (8 + abilities + Power legacy, never below 0) and Coins (10 + abilities), Open Agendas, the
    Secret Agenda draft order (lowest Prestige first), the Leader and the Moderator."""
    for house in houses:
        _check_house(campaign, house)
    participants = {h.pk for h in houses}
    stickers = [_sticker_info(s) for s in campaign.stickers.filter(covered=False)]
    power_delta = legacy.power_legacy(stickers)
    start = {
        h.pk: {
            "power": campaign_setting(campaign, "start_power"),
            "coins": campaign_setting(campaign, "start_coins"),
        }
        for h in houses
    }
    unlocked = Achievement.objects.filter(house__in=houses).exclude(kind=Achievement.Kind.ALIGNMENT)
    for achievement in unlocked:
        if achievement.unlocked:
            start[achievement.house_id]["power"] += achievement.effects.get("start_power", 0)
            start[achievement.house_id]["coins"] += achievement.effects.get("start_coins", 0)
    for line in storylines(campaign=campaign):
        top = line["top"]
        if top.signer_id in start:
            start[top.signer_id]["power"] += top.effects.get("start_power", 0)
            start[top.signer_id]["coins"] += top.effects.get("start_coins", 0)
    for pk in start:
        start[pk]["power"] = max(0, start[pk]["power"] + power_delta.get(pk, 0))
    agendas = legacy.open_agendas(stickers, participants)
    ordered = houses_by_prestige(campaign=campaign, houses=houses)
    return {
        "resources": legacy.resource_legacy(stickers),
        "start": start,
        "open_agendas": {pk: agendas.tokens.get(pk, []) for pk in participants},
        "open_agenda_choices": agendas.choices,
        "draft_order": [h.pk for h in reversed(ordered)],
        "leader": ordered[0].pk,
        "moderator": ordered[-1].pk,
        "prestige": {h.pk: h.prestige for h in ordered},
    }


@transaction.atomic
def game_begin(
    *, campaign: Campaign, king_name: str, played_on: datetime.date | None = None, actor=None
) -> ChronicleGame:
    """A new game of the campaign: its Realm Chronicles table, then Chronicle aging."""
    campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)
    if campaign.closed:
        raise ValidationError(CAMPAIGN_CLOSED)
    number = (campaign.games.aggregate(top=Max("number"))["top"] or 0) + 1
    game = ChronicleGame(
        campaign=campaign,
        number=number,
        king_name=(king_name or "").strip() or f"King {number}",
        played_on=played_on or datetime.date.today(),
    )
    game.full_clean()
    game.save()
    _event(
        campaign, "game_begun", f"Game {number} begins under King {game.king_name}", actor=actor, game=game
    )
    chronicle_age(campaign=campaign, game=game, actor=actor)
    return game


def _validated_rows(game: ChronicleGame, end: str, rows: list[dict]) -> list[dict]:
    if end not in GameEnd.values:
        raise ValidationError(UNKNOWN_END.format(end=end))
    if not MIN_PLAYERS <= len(rows) <= MAX_PLAYERS:
        raise ValidationError(RESULT_PLAYERS.format(count=len(rows)))
    seen = set()
    clean = []
    for row in rows:
        house = row["house"]
        _check_house(game.campaign, house)
        if house.pk in seen:
            raise ValidationError(RESULT_HOUSE_TWICE.format(house=house.name))
        seen.add(house.pk)
        if row["secret_agenda"] not in SECRET_AGENDAS:
            raise ValidationError(UNKNOWN_AGENDA.format(agenda=row["secret_agenda"]))
        points = {
            k: int(row.get(k, 0))
            for k in ("agenda_points", "open_agenda_points", "coins_points", "power_points")
        }
        clean.append(
            {"house": house, "secret_agenda": row["secret_agenda"], **points, "total": sum(points.values())}
        )
    for row, (position, last) in zip(clean, legacy.rank([r["total"] for r in clean]), strict=True):
        row["position"], row["last"] = position, last
        row["prestige"], row["crave"] = legacy.prestige_crave(end, position, last)
    return clean


def _write_scores(
    game: ChronicleGame, rows: list[dict], actor, sign: int = 1, source=LedgerEntry.Source.GAME_RESULT
) -> None:
    for row in rows:
        ChronicleScore.objects.create(game=game, revision=game.revision, **row)
        for kind in ("prestige", "crave"):
            ledger_add(
                house=row["house"],
                kind=kind,
                amount=sign * row[kind],
                reason=f"Game {game.number} (King {game.king_name}): position {row['position']}{' (Last)' if row['last'] else ''}",
                source=source,
                game=game,
                actor=actor,
            )


def _rebel_crave(game: ChronicleGame, end: str, rows: list[dict], actor, sign: int = 1) -> None:
    # Printed on the Rebel card: +1 Crave when the King abdicated.
    if end != GameEnd.KING_DIED:
        for row in rows:
            if row["secret_agenda"] == "rebel":
                ledger_add(
                    house=row["house"],
                    kind="crave",
                    amount=sign,
                    reason=f"Rebel, the King abdicated (game {game.number})",
                    source=LedgerEntry.Source.SECRET_AGENDA,
                    game=game,
                    actor=actor,
                )


@transaction.atomic
def game_result_record(
    *, game: ChronicleGame, end: str, rows: list[dict], resources_final: dict | None = None, actor=None
) -> ChronicleGame:
    """'Mark scores on the Realm Chronicles', then Prestige/Crave and the House Alignment marks.
    ``rows``: one dict per House with house, secret_agenda, agenda_points, open_agenda_points,
    coins_points, power_points."""
    game = ChronicleGame.objects.select_for_update().select_related("campaign").get(pk=game.pk)
    if game.recorded:
        raise ValidationError(RESULT_ALREADY.format(number=game.number))
    clean = _validated_rows(game, end, rows)
    game.end, game.recorded = end, True
    if resources_final is not None:
        if set(resources_final) - set(RESOURCE_ROWS) or not all(
            isinstance(v, int) and 1 <= v <= 17 for v in resources_final.values()
        ):
            raise ValidationError(RESOURCES_FINAL_FORMAT)
        game.resources_final = resources_final
    game.save(update_fields=["end", "recorded", "resources_final"])
    _write_scores(game, clean, actor)
    _rebel_crave(game, end, clean, actor)
    for row in clean:
        alignment_mark(house=row["house"], agenda=row["secret_agenda"], game=game, actor=actor)
    from campaign.tasks import campaign_charts_task

    transaction.on_commit(lambda: campaign_charts_task.delay(game.campaign_id), robust=True)
    winners = ", ".join(r["house"].name for r in clean if r["position"] == 1)
    _event(
        game.campaign,
        "game_recorded",
        f"Game {game.number} recorded ({GameEnd(end).label}); won by {winners}",
        actor=actor,
        game=game,
    )
    return game


@transaction.atomic
def game_result_correct(
    *, game: ChronicleGame, end: str, rows: list[dict], reason: str = "", actor=None
) -> ChronicleGame:
    """A correction is recorded, not an overwrite: the old revision stays, its Prestige/Crave are
    reversed by correction entries and the new revision's are written. Alignment marks follow a
    changed Secret Agenda unless the old one was unlocked by this very game."""
    game = ChronicleGame.objects.select_for_update().select_related("campaign").get(pk=game.pk)
    if not game.recorded:
        raise ValidationError(RESULT_NOT_RECORDED.format(number=game.number))
    old = [
        {
            "house": s.house,
            "secret_agenda": s.secret_agenda,
            "position": s.position,
            "last": s.last,
            "prestige": s.prestige,
            "crave": s.crave,
        }
        for s in game.scores.filter(revision=game.revision).select_related("house")
    ]
    clean = _validated_rows(game, end, rows)
    for row in old:
        for kind in ("prestige", "crave"):
            ledger_add(
                house=row["house"],
                kind=kind,
                amount=-row[kind],
                reason=f"Correction of game {game.number}",
                source=LedgerEntry.Source.CORRECTION,
                game=game,
                actor=actor,
            )
    _rebel_crave(game, game.end, old, actor, sign=-1)
    old_agenda = {r["house"].pk: r["secret_agenda"] for r in old}
    for row in clean:
        previous = old_agenda.get(row["house"].pk)
        if previous != row["secret_agenda"]:
            if previous:
                alignment = row["house"].achievements.get(kind=Achievement.Kind.ALIGNMENT, agenda=previous)
                if alignment.unlocked and alignment.unlocked_in_id == game.pk:
                    raise ValidationError(
                        f"House {row['house'].name} unlocked {alignment.name} in this game: correct its Secret Agenda by hand in the admin."
                    )
                if alignment.marked and not alignment.unlocked:
                    alignment.marked -= 1
                    alignment.save(update_fields=["marked"])
            alignment_mark(house=row["house"], agenda=row["secret_agenda"], game=game, actor=actor)
    game.revision += 1
    game.end = end
    game.save(update_fields=["revision", "end"])
    _write_scores(game, clean, actor)
    _rebel_crave(game, end, clean, actor)
    _event(
        game.campaign,
        "game_corrected",
        f"Game {game.number} corrected (revision {game.revision}){': ' + reason if reason else ''}",
        actor=actor,
        game=game,
    )
    return game


# ---- Export (Celery) ----------------------------------------------------------------------


@transaction.atomic
def campaign_export_request(*, campaign: Campaign, requested_by=None) -> CampaignExport:
    export = CampaignExport.objects.create(campaign=campaign, requested_by=requested_by)
    _event(campaign, "export_requested", "Campaign export requested", actor=requested_by)
    from campaign.tasks import campaign_export_task

    transaction.on_commit(lambda: campaign_export_task.delay(export.pk), robust=True)
    return export


def campaign_export_write(*, export_id: int) -> str:
    """Write the archive file (idempotent: a ready export is not written again; the file is
    written to a temporary name and renamed, so a killed worker never leaves half a file)."""
    export = CampaignExport.objects.select_related("campaign").get(pk=export_id)
    if export.status == CampaignExport.Status.READY and export.path:
        return export.path
    folder = Path(django_settings.MEDIA_ROOT) / "exports"
    folder.mkdir(parents=True, exist_ok=True)
    name = f"campaign-{export.campaign_id}-export-{export.pk}.json"
    tmp = folder / f".{name}.tmp"
    tmp.write_text(json.dumps(campaign_archive(campaign=export.campaign), indent=1, cls=DjangoJSONEncoder))
    os.replace(tmp, folder / name)
    CampaignExport.objects.filter(pk=export.pk).update(status=CampaignExport.Status.READY, path=name)
    return name


def campaign_charts_render(*, campaign_id: int) -> list[str]:
    """Render and cache every chart in both sizes, keyed by the campaign's last event."""
    from django.core.cache import cache

    from campaign.charts import CHARTS, SIZES, chart_cache_key, chart_stamp

    campaign = Campaign.objects.get(pk=campaign_id)
    stamp = chart_stamp(campaign=campaign)
    keys = []  # (a cache outage raises here: Celery retries the task)
    for name, render in CHARTS.items():
        for size in SIZES:
            key = chart_cache_key(campaign=campaign, name=name, size=size, stamp=stamp)
            cache.set(key, render(campaign=campaign, size=size), timeout=7 * 24 * 3600)
            keys.append(key)
    return keys
