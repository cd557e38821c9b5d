"""The Realm board: Chronicle stickers (attaching, aging) and Mystery stickers."""

from __future__ import annotations

from collections.abc import Collection

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.text import format_lazy
from django.utils.translation import gettext, gettext_lazy, ngettext_lazy

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
from campaign.services import board_messages as board
from campaign.services.common import Actor, check_house, record_event
from games.engines.kernel.messages import Message
from games.engines.kings_dilemma.data import (
    GRAND_FINALE_ENVELOPE,
    MYSTERY_LETTERS,
    MYSTERY_STICKERS_PER_CAMPAIGN,
    STICKER_COUNT,
)
from games.engines.kings_dilemma.messages import resource_name

STICKER_NUMBER_RANGE = format_lazy(
    gettext_lazy("Chronicle sticker numbers go from 1 to {last}."), last=STICKER_COUNT
)


STICKER_ALREADY_ATTACHED = gettext_lazy("Sticker {number} is already on the board.")


UNKNOWN_ROW = gettext_lazy("{row!r} is not a Resource row (Influence, Wealth, Morale, Welfare, Knowledge).")


MYSTERY_LETTER = gettext_lazy("Mystery stickers are lettered A to L.")


MYSTERY_ALREADY = gettext_lazy("Mystery sticker {letter} is already attached.")


MYSTERY_ALL_ATTACHED = format_lazy(
    gettext_lazy("All {count} Mystery stickers of the campaign are already attached."),
    count=MYSTERY_STICKERS_PER_CAMPAIGN,
)


def _sticker_info(s: ChronicleSticker) -> legacy.Sticker:
    return legacy.Sticker(row=s.row, slot=s.slot, positive=s.positive, signer=s.signer_id, marks=s.marks)


def _sticker_summary(sticker: ChronicleSticker, covered: ChronicleSticker | None) -> Message:
    sentence = {
        (False, False): board.STICKER_ATTACHED,
        (True, False): board.STICKER_ATTACHED_SIGNED,
        (False, True): board.STICKER_ATTACHED_OVER,
        (True, True): board.STICKER_ATTACHED_SIGNED_OVER,
    }[(sticker.signer is not None, covered is not None)]
    params = {
        "number": sticker.number,
        "side": board.SIDES[bool(sticker.positive)],
        "row": resource_name(sticker.row),
    }
    if sticker.signer is not None:
        params["house"] = sticker.signer.name
    if covered is not None:
        params["covered"] = covered.number
    return sentence.format(**params)


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
    actor: Actor = None,
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
    sticker = ChronicleSticker(
        campaign=campaign,
        number=number,
        row=row,
        positive=positive,
        signer=signer,
        title=title,
        text=text,
        slot=0,
        game=game,
    )
    covered = _sticker_place(campaign, sticker)
    record_event(
        campaign,
        "sticker_attached",
        _sticker_summary(sticker, covered),
        actor=actor,
        house=signer,
        game=game,
        number=number,
        row=sticker.row,
        slot=sticker.slot,
    )
    return sticker


def _sticker_place(campaign: Campaign, sticker: ChronicleSticker) -> ChronicleSticker | None:
    """Save ``sticker`` in the leftmost empty space of its row, otherwise over the oldest sticker
    there (which stays, covered). Returns the sticker it covered, if any."""
    visible = list(campaign.stickers.filter(row=sticker.row, covered=False).exclude(pk=sticker.pk))
    sticker.slot, covered_slot = legacy.sticker_placement(
        [_sticker_info(s) for s in visible], campaign_setting(campaign, "row_capacity")
    )
    covered = next((s for s in visible if s.slot == covered_slot), None)
    sticker.full_clean(validate_constraints=False)
    if covered is not None:
        # Free the space first: one visible sticker per space (a partial unique constraint).
        ChronicleSticker.objects.filter(pk=covered.pk).update(covered=True)
    sticker.save()
    if covered is not None:
        ChronicleSticker.objects.filter(pk=covered.pk).update(covered_by=sticker)
    return covered


@transaction.atomic
def chronicle_age(
    *,
    campaign: Campaign,
    game: ChronicleGame | None = None,
    actor: Actor = None,
    numbers: Collection[int] | None = None,
) -> int:
    """'Chronicle aging': mark 1 space on every attached sticker (up to its last square).
    ``numbers``: only these stickers (a table night, saved: those on the board when it began)."""
    squares = campaign_setting(campaign, "aging_squares")
    rows = campaign.stickers.select_for_update().filter(covered=False)
    if numbers is not None:
        rows = rows.filter(number__in=list(numbers))
    stickers = list(rows)
    for sticker in stickers:
        sticker.marks = min(sticker.marks + 1, squares)
    ChronicleSticker.objects.bulk_update(stickers, ["marks"])
    record_event(
        campaign,
        "chronicle_aged",
        board.CHRONICLE_AGED.format(count=len(stickers)),
        actor=actor,
        game=game,
    )
    return len(stickers)


AGING_MARKS_RANGE = gettext_lazy(
    "Sticker {number} has {squares} aging squares: its marks go from 0 to {squares}."
)


AGING_MARKS_UNCHANGED = ngettext_lazy(
    "Nothing to correct: sticker {number} already has {marks} aging mark.",
    "Nothing to correct: sticker {number} already has {marks} aging marks.",
    "marks",
)


@transaction.atomic
def sticker_marks_correct(*, sticker: ChronicleSticker, marks: int, actor: Actor = None) -> ChronicleSticker:
    """Aging marks miscounted (a night aged twice, a mark forgotten): set from 0 to the sticker's
    last square. The history says from what to what; a correction that changes nothing is refused
    and writes nothing."""
    campaign = Campaign.objects.select_for_update().get(pk=sticker.campaign_id)
    sticker = campaign.stickers.select_for_update().get(pk=sticker.pk)
    squares = campaign_setting(campaign, "aging_squares")
    if not isinstance(marks, int) or isinstance(marks, bool) or not 0 <= marks <= squares:
        raise ValidationError(AGING_MARKS_RANGE.format(number=sticker.number, squares=squares))
    if marks == sticker.marks:
        raise ValidationError(AGING_MARKS_UNCHANGED.format(number=sticker.number, marks=marks))
    was = sticker.marks
    sticker.marks = marks
    sticker.save(update_fields=["marks"])
    record_event(
        campaign,
        "sticker_aging_corrected",
        board.AGING_CORRECTED.format(number=sticker.number, before=was, after=marks),
        actor=actor,
        game=sticker.game,
        number=sticker.number,
        was_marks=was,
        marks=marks,
    )
    return sticker


@transaction.atomic
def mystery_sticker_attach(
    *,
    campaign: Campaign,
    letter: str,
    storyline: str = "",
    game: ChronicleGame | None = None,
    actor: Actor = None,
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
        board.MYSTERY_ATTACHED.format(letter=letter),
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
            board.GRAND_FINALE_DUE.format(envelope=GRAND_FINALE_ENVELOPE),
            actor=actor,
            game=game,
        )
    return sticker


NOTHING_TO_CORRECT = gettext_lazy("Nothing to correct: {thing} already says so.")


def _sticker_words(sticker: ChronicleSticker) -> dict[str, str]:
    """What a player reads of a sticker, field by field (for 'from what to what'): the words of the
    game are messages, so the history says them in each reader's language."""
    return {
        "number": str(sticker.number),
        "row": resource_name(sticker.row),
        "side": board.SIDES[bool(sticker.positive)],
        "signer": board.house_or_nobody(sticker.signer.name if sticker.signer else None),
        "title": sticker.title or board.NO_TITLE,
    }


def in_words(words: dict[str, str]) -> dict[str, str]:
    """The English of each field, as the event's data keeps it."""
    return {key: str(value) for key, value in words.items()}


def changes_summary(before: dict[str, str], after: dict[str, str]) -> Message:
    """'row Welfare → Morale; signer nobody → House Tork': what changed, from what to what."""
    return board.changes_said(before, after)


@transaction.atomic
def sticker_correct(
    *,
    sticker: ChronicleSticker,
    number: int,
    row: str,
    positive: bool,
    signer: House | None,
    title: str = "",
    actor: Actor = None,
) -> ChronicleSticker:
    """A sticker typed wrongly: its number, row, side, signer or title corrected. A new row places it
    as attaching would (the sticker it covered in the old row is visible again); its aging marks stay.
    The history says what changed, from what to what."""
    campaign = Campaign.objects.select_for_update().get(pk=sticker.campaign_id)
    sticker = campaign.stickers.select_related("signer").get(pk=sticker.pk)
    if not isinstance(number, int) or not 1 <= number <= STICKER_COUNT:
        raise ValidationError(STICKER_NUMBER_RANGE)
    if row not in RESOURCE_ROWS:
        raise ValidationError(UNKNOWN_ROW.format(row=row))
    check_house(campaign, signer)
    if number != sticker.number and campaign.stickers.filter(number=number).exists():
        raise ValidationError(STICKER_ALREADY_ATTACHED.format(number=number))
    before, was, old_row = _sticker_words(sticker), sticker.number, sticker.row
    sticker.number, sticker.row, sticker.positive, sticker.signer, sticker.title = (
        number,
        row,
        positive,
        signer,
        title,
    )
    after = _sticker_words(sticker)
    if before == after:
        raise ValidationError(
            NOTHING_TO_CORRECT.format(thing=gettext("sticker {number}").format(number=number))
        )
    if row != old_row:
        under = list(ChronicleSticker.objects.filter(covered_by=sticker).values_list("pk", flat=True))
        if sticker.covered:
            sticker.covered, sticker.covered_by = False, None  # a covered sticker moves to a space of its own
        _sticker_place(campaign, sticker)
        ChronicleSticker.objects.filter(pk__in=under).update(covered=False, covered_by=None)
    else:
        sticker.full_clean(validate_constraints=False)
        sticker.save()
    record_event(
        campaign,
        "sticker_corrected",
        board.STICKER_CORRECTED.format(number=was, changes=changes_summary(before, after)),
        actor=actor,
        house=signer,
        game=sticker.game,
        number=number,
        was_number=was,
        before=in_words(before),
        after=in_words(after),
    )
    return sticker


@transaction.atomic
def sticker_remove(*, sticker: ChronicleSticker, actor: Actor = None) -> None:
    """A sticker attached by mistake comes off the board; the sticker it covered is visible again.
    Its attachment stays in the history, with this removal."""
    campaign = Campaign.objects.select_for_update().get(pk=sticker.campaign_id)
    sticker = campaign.stickers.select_related("signer").get(pk=sticker.pk)
    words = _sticker_words(sticker)
    under = list(ChronicleSticker.objects.filter(covered_by=sticker).values_list("pk", flat=True))
    sticker.delete()
    ChronicleSticker.objects.filter(pk__in=under).update(covered=False, covered_by=None)
    record_event(
        campaign,
        "sticker_removed",
        board.STICKER_REMOVED.format(
            number=words["number"], side=words["side"], row=words["row"], signer=words["signer"]
        ),
        actor=actor,
        number=int(words["number"]),
        was_number=int(words["number"]),
        before=in_words(words),
    )
