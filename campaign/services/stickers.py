"""The Realm board: Chronicle stickers (attaching, aging) and Mystery stickers."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction

from campaign import legacy
from campaign.models import (
    RESOURCE_ROWS,
    Campaign,
    ChronicleGame,
    ChronicleSticker,
    House,
    MysterySticker,
)
from campaign.selectors import campaign_setting
from campaign.services.common import check_house, record_event
from games.kings_dilemma.data import MYSTERY_LETTERS, MYSTERY_STICKERS_PER_CAMPAIGN, STICKER_COUNT

STICKER_NUMBER_RANGE = f"Chronicle sticker numbers go from 1 to {STICKER_COUNT}."


STICKER_ALREADY_ATTACHED = "Sticker {number} is already on the board."


UNKNOWN_ROW = "{row!r} is not a Resource row (Influence, Wealth, Morale, Welfare, Knowledge)."


MYSTERY_LETTER = "Mystery stickers are lettered A to L."


MYSTERY_ALREADY = "Mystery sticker {letter} is already attached."


MYSTERY_ALL_ATTACHED = (
    f"All {MYSTERY_STICKERS_PER_CAMPAIGN} Mystery stickers of the campaign are already attached."
)


def _sticker_info(s: ChronicleSticker) -> legacy.Sticker:
    return legacy.Sticker(row=s.row, slot=s.slot, positive=s.positive, signer=s.signer_id, marks=s.marks)


def _sticker_summary(sticker: ChronicleSticker, covered: ChronicleSticker | None) -> str:
    polarity = "positive" if sticker.positive else "negative"
    signed = f", signed by House {sticker.signer.name}" if sticker.signer else ""
    over = f", over sticker {covered.number}" if covered is not None else ""
    return f"Chronicle sticker {sticker.number} ({polarity} {sticker.row}) attached{signed}{over}"


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
    if not isinstance(number, int) or not 1 <= number <= STICKER_COUNT:
        raise ValidationError(STICKER_NUMBER_RANGE)
    if row not in RESOURCE_ROWS:
        raise ValidationError(UNKNOWN_ROW.format(row=row))
    check_house(campaign, signer)
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
    record_event(
        campaign,
        "sticker_attached",
        _sticker_summary(sticker, covered),
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
    record_event(
        campaign,
        "chronicle_aged",
        f"Chronicle aging: {len(stickers)} sticker(s) marked",
        actor=actor,
        game=game,
    )
    return len(stickers)


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
    if campaign.mystery_stickers.count() >= MYSTERY_STICKERS_PER_CAMPAIGN:
        raise ValidationError(MYSTERY_ALL_ATTACHED)
    sticker = MysterySticker.objects.create(campaign=campaign, letter=letter, storyline=storyline, game=game)
    record_event(
        campaign,
        "mystery_attached",
        f"Mystery sticker {letter} attached",
        actor=actor,
        game=game,
        letter=letter,
    )
    if campaign.mystery_stickers.count() == MYSTERY_STICKERS_PER_CAMPAIGN:
        campaign.grand_finale_ready = True
        campaign.closed = True
        campaign.save(update_fields=["grand_finale_ready", "closed"])
        record_event(
            campaign,
            "grand_finale_due",
            "The sixth Mystery sticker: open Envelope 70, the Grand Finale",
            actor=actor,
            game=game,
        )
    return sticker
