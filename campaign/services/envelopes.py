"""Envelopes, Story cards by storyline, Dilemma cards and the save slots (deck, Story slot, Trash)."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils.text import format_lazy
from django.utils.translation import gettext, gettext_lazy

from campaign.models import (
    Campaign,
    ChronicleGame,
    DilemmaCard,
    Envelope,
    House,
    LedgerEntry,
    StoryCard,
)
from campaign.services import board_messages as board
from campaign.services.common import (
    Actor,
    check_effects,
    check_house,
    fill_lazy,
    in_english,
    message_data,
    record_event,
)
from campaign.services.ledger import ledger_add, prestige_check
from campaign.services.stickers import NOTHING_TO_CORRECT, changes_summary, in_words
from games.engines.kings_dilemma import messages as engine_messages
from games.engines.kings_dilemma.data import (
    ENVELOPE_COUNT,
    GRAND_FINALE_ENVELOPE,
    MYSTERY_STICKERS_PER_CAMPAIGN,
    STARTING_ENVELOPE,
)
from games.translation import say_to_reader

ENVELOPE_NUMBER_RANGE = format_lazy(
    gettext_lazy("Envelope numbers go from 00 to {last}."), last=f"{ENVELOPE_COUNT - 1:02d}"
)


ENVELOPE_ALREADY_OPENED = gettext_lazy("Envelope {number:02d} has already been opened.")


STANDARD_ENVELOPE_CARDS = gettext_lazy(
    "A standard Envelope holds 1 Story card and 3 Dilemma cards; got {count} Dilemma cards."
)


GRAND_FINALE_NOT_YET = fill_lazy(
    gettext_lazy(
        "Envelope {envelope} is the Grand Finale: it is opened once the {stickers} Mystery stickers of "
        "the campaign are attached ({count} attached so far)."
    ),
    envelope=GRAND_FINALE_ENVELOPE,
    stickers=MYSTERY_STICKERS_PER_CAMPAIGN,
)


DILEMMA_CARD_TWICE = gettext_lazy("Dilemma card {number} is already in this campaign.")


DILEMMA_CARD_UNKNOWN = gettext_lazy("Dilemma card {number} is not in this campaign.")


# The engine refuses such a card at the table; the campaign's save refuses to move it again.
DILEMMA_NOT_IN_DECK = engine_messages.DILEMMA_NOT_IN_DECK


STARTING_DECK_EMPTY = gettext_lazy(
    "Envelope 00 holds the starting Dilemma deck: type the numbers of its Dilemma cards (e.g. 1-20)."
)


ENVELOPE_CARDS_PLAYED = gettext_lazy(
    "Envelope {number:02d} cannot be removed: its card {card} has been played since "
    "(move that card or correct that night first)."
)


UNKNOWN_PLACE = gettext_lazy("{place!r} is not a save slot (deck, story_slot, event_area, trash).")


STORY_CARD_TWICE = gettext_lazy("Story card {number} is already in this campaign.")


STORYLINE_REQUIRED = gettext_lazy("A Story card needs its storyline.")


def _dilemma_card_add(
    *, campaign: Campaign, number: int, kind: str, envelope: Envelope | None = None, title: str = ""
) -> DilemmaCard:
    if not isinstance(number, int) or number < 1:
        raise ValidationError(DILEMMA_CARD_UNKNOWN.format(number=number))
    if campaign.dilemma_cards.filter(number=number).exists():
        raise ValidationError(DILEMMA_CARD_TWICE.format(number=number))
    # Event cards of a Special Envelope go straight to the Event area.
    place = DilemmaCard.Place.EVENT_AREA if kind == DilemmaCard.Kind.EVENT else DilemmaCard.Place.DECK
    return DilemmaCard.objects.create(
        campaign=campaign, number=number, kind=kind, envelope=envelope, title=title, place=place
    )


def _majority_signers(card: StoryCard) -> list[House]:
    """The Houses tied for the most signatures in the card's storyline (this card included)."""
    counts: dict[int, int] = {}
    for signer_id in card.campaign.story_cards.filter(
        storyline=card.storyline, signer__isnull=False
    ).values_list("signer", flat=True):
        counts[signer_id] = counts.get(signer_id, 0) + 1
    most = max(counts.values(), default=0)
    return list(card.campaign.houses.filter(pk__in=[h for h, c in counts.items() if c == most]))


def _story_card_rewards(card: StoryCard, *, game: ChronicleGame | None, actor: Actor) -> None:
    """The signer's Prestige/Crave of the card, and an Ending card's Majority Signer Bonus."""
    rewards = [
        (card.signer, card.effects, board.STORY_CARD.format(number=card.number), LedgerEntry.Source.STORY)
    ]
    if card.is_ending and card.majority_signer_bonus:
        reason = board.MAJORITY_SIGNER_BONUS.format(number=card.number)
        rewards += [
            (house, card.majority_signer_bonus, reason, LedgerEntry.Source.MAJORITY_SIGNER)
            for house in _majority_signers(card)
        ]
    for house, effects, reason, source in rewards:
        for kind in ("prestige", "crave"):
            if house is not None and effects.get(kind):
                ledger_add(
                    house=house,
                    kind=kind,
                    amount=effects[kind],
                    reason=reason,
                    source=source,
                    game=game,
                    actor=actor,
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
    actor: Actor = None,
) -> StoryCard:
    """'Story Legacy': the card joins its storyline (``order``: the order it came in); the setup puts
    the highest number on top (``selectors.storylines``). An Ending card played for the first time
    gives its Majority Signer Bonus to every House tied for the most signatures in its storyline."""
    check_house(campaign, signer)
    if not storyline or not storyline.strip():
        raise ValidationError(STORYLINE_REQUIRED)
    if campaign.story_cards.filter(number=number).exists():
        raise ValidationError(STORY_CARD_TWICE.format(number=number))
    effects = check_effects(effects or {})
    bonus = check_effects(majority_signer_bonus or {})
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
    placed = board.STORY_CARD_PLACED_SIGNED if signer else board.STORY_CARD_PLACED
    record_event(
        campaign,
        "story_card_placed",
        placed.format(number=number, storyline=storyline, **({"house": signer.name} if signer else {})),
        actor=actor,
        house=signer,
        game=game,
        number=number,
    )
    _story_card_rewards(card, game=game, actor=actor)
    return card


def _grand_finale_open(campaign: Campaign, *, game: ChronicleGame | None, actor: Actor) -> None:
    """Envelope 70 closes the campaign."""
    campaign.closed = True
    campaign.save(update_fields=["closed"])
    record_event(
        campaign,
        "grand_finale",
        board.GRAND_FINALE_OPENED.format(number=GRAND_FINALE_ENVELOPE),
        actor=actor,
        game=game,
    )


def grand_finale_refusal(campaign: Campaign) -> str:
    """Why Envelope 70 cannot be opened yet ('' once the campaign's six Mystery stickers are attached):
    'Triggering the end of the campaign' opens it after the sixth, and the campaign closes with it."""
    count = campaign.mystery_stickers.count()
    return GRAND_FINALE_NOT_YET.format(count=count) if count < MYSTERY_STICKERS_PER_CAMPAIGN else ""


def _standard_contents_check(number: int, dilemma_numbers: list[int]) -> None:
    """A standard Envelope holds 3 Dilemma cards; Envelope 00, the starting deck, at least one;
    Envelope 70, the Grand Finale, is no standard Envelope: it holds what it holds."""
    if number == GRAND_FINALE_ENVELOPE:
        return
    if number == STARTING_ENVELOPE:
        if not dilemma_numbers:
            raise ValidationError(STARTING_DECK_EMPTY)
    elif len(dilemma_numbers) != 3:
        raise ValidationError(STANDARD_ENVELOPE_CARDS.format(count=len(dilemma_numbers)))


def _contents_check(campaign: Campaign, number: int, special: bool, dilemma_numbers: list[int]) -> None:
    if number == GRAND_FINALE_ENVELOPE and (early := grand_finale_refusal(campaign)):
        raise ValidationError(early)
    if not special:
        _standard_contents_check(number, dilemma_numbers)


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
    actor: Actor = None,
) -> Envelope:
    """'Open Envelope': a standard Envelope holds 1 Story card (signed by the Leader, placed on its
    storyline) and 3 Dilemma cards shuffled into the Dilemma deck. Envelope 00 ('Before your first
    game') holds a Story card and the starting Dilemma deck: as many Dilemma cards as it brings. A Special Envelope's cards
    follow their own instructions: Trigger cards go to the deck, Event cards to the Event area.
    Envelope 70, the Grand Finale, opens after the sixth Mystery sticker, never checked as standard."""
    campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)
    if not isinstance(number, int) or not 0 <= number < ENVELOPE_COUNT:
        raise ValidationError(ENVELOPE_NUMBER_RANGE)
    check_house(campaign, opened_by)
    if campaign.envelopes.filter(number=number).exists():
        raise ValidationError(ENVELOPE_ALREADY_OPENED.format(number=number))
    dilemma_numbers = list(dilemma_numbers or [])
    _contents_check(campaign, number, special, dilemma_numbers)
    envelope = Envelope.objects.create(
        campaign=campaign, number=number, special=special, opened_by=opened_by, game=game
    )
    record_event(
        campaign,
        "envelope_opened",
        board.envelope_opened(number, opened_by.name if opened_by else None),
        actor=actor,
        house=opened_by,
        game=game,
        number=number,
    )
    kinds = {
        DilemmaCard.Kind.DILEMMA: dilemma_numbers,
        DilemmaCard.Kind.TRIGGER: trigger_numbers or [],
        DilemmaCard.Kind.EVENT: event_numbers or [],
    }
    for kind, numbers in kinds.items():
        for card_number in numbers:
            _dilemma_card_add(campaign=campaign, number=card_number, kind=kind, envelope=envelope)
    if story_card:
        story_card_place(
            campaign=campaign,
            envelope=envelope,
            game=game,
            actor=actor,
            **{"signer": opened_by, **story_card},
        )
    if number == GRAND_FINALE_ENVELOPE:
        _grand_finale_open(campaign, game=game, actor=actor)
    return envelope


def _envelope_words(envelope: Envelope) -> dict[str, str]:
    return {
        "opened by": board.house_or_nobody(envelope.opened_by.name if envelope.opened_by else None),
        "kind": board.ENVELOPE_KINDS[bool(envelope.special)],
    }


@transaction.atomic
def envelope_correct(
    *, envelope: Envelope, opened_by: House | None, special: bool, actor: Actor = None
) -> Envelope:
    """An Envelope recorded wrongly: who opened it, or whether it is a Special Envelope."""
    campaign = Campaign.objects.select_for_update().get(pk=envelope.campaign_id)
    envelope = campaign.envelopes.select_related("opened_by").get(pk=envelope.pk)
    check_house(campaign, opened_by)
    before = _envelope_words(envelope)
    envelope.opened_by, envelope.special = opened_by, special
    after = _envelope_words(envelope)
    if before == after:
        raise ValidationError(
            NOTHING_TO_CORRECT.format(thing=gettext("Envelope {number:02d}").format(number=envelope.number))
        )
    envelope.full_clean(validate_constraints=False)
    envelope.save(update_fields=["opened_by", "special"])
    record_event(
        campaign,
        "envelope_corrected",
        board.ENVELOPE_CORRECTED.format(number=envelope.number, changes=changes_summary(before, after)),
        actor=actor,
        house=opened_by,
        game=envelope.game,
        number=envelope.number,
        before=in_words(before),
        after=in_words(after),
    )
    return envelope


def _story_rewards_reverse(card: StoryCard, *, actor: Actor) -> None:
    """The Prestige/Crave a Story card gave (its ability, an Ending's Majority Signer Bonus) are
    reversed by correction entries: the ledger keeps both."""
    reasons = (
        str(board.STORY_CARD.format(number=card.number)),
        str(board.MAJORITY_SIGNER_BONUS.format(number=card.number)),
    )
    sources = (LedgerEntry.Source.STORY, LedgerEntry.Source.MAJORITY_SIGNER)
    entries = LedgerEntry.objects.filter(
        house__campaign=card.campaign, reason__in=reasons, source__in=sources
    ).select_related("house")
    for entry in entries:
        ledger_add(
            house=entry.house,
            kind=entry.kind,
            amount=-entry.amount,
            reason=board.CORRECTION_REMOVED.format(reason=board.reason_said(entry.reason_data, entry.reason)),
            source=LedgerEntry.Source.CORRECTION,
            game=entry.game,
            actor=actor,
        )
    prestige_check(houses=[entry.house for entry in entries])


def _envelope_cards_played(envelope: Envelope) -> str:
    """The first card of the Envelope played since it was opened ('' if none): a Dilemma card resolved
    or trashed, or a Story card covered by a later one of its storyline."""
    for card in envelope.cards.all():
        if card.resolved_in_id is not None or card.place == DilemmaCard.Place.TRASH:
            return say_to_reader(board.DILEMMA_CARD.format(number=card.number))
    for story in envelope.story_cards.all():
        later = envelope.campaign.story_cards.filter(storyline=story.storyline, order__gt=story.order)
        if later.exists():
            return say_to_reader(board.STORY_CARD.format(number=story.number))
    return ""


@transaction.atomic
def envelope_remove(*, envelope: Envelope, actor: Actor = None) -> None:
    """An Envelope opened by mistake goes back in the box with its cards: its Dilemma cards leave
    the Dilemma save slot, its Story cards their storylines (the Prestige/Crave they gave is reversed).
    Refused once one of its cards has been played since. The history keeps the opening and the removal."""
    campaign = Campaign.objects.select_for_update().get(pk=envelope.campaign_id)
    envelope = campaign.envelopes.get(pk=envelope.pk)
    blocking = _envelope_cards_played(envelope)
    if blocking:
        raise ValidationError(ENVELOPE_CARDS_PLAYED.format(number=envelope.number, card=blocking))
    cards = sorted(envelope.cards.values_list("number", flat=True))
    stories = list(envelope.story_cards.all())
    for story in stories:
        _story_rewards_reverse(story, actor=actor)
        story.delete()
    envelope.cards.all().delete()
    if envelope.number == GRAND_FINALE_ENVELOPE and not campaign.grand_finale_ready:
        campaign.closed = False
        campaign.save(update_fields=["closed"])
    envelope.delete()
    record_event(
        campaign,
        "envelope_removed",
        board.removal_summary(envelope.number, cards, [story.number for story in stories]),
        actor=actor,
        number=envelope.number,
        cards=cards,
    )


@transaction.atomic
def dilemma_card_move(*, card: DilemmaCard, place: str, actor: Actor = None) -> DilemmaCard:
    """A card put in the wrong save slot moves to the right one (the Dilemma save slot, the Story
    save slot, the Event area or the Trash). Out of the Trash it is no longer resolved in any night."""
    campaign = Campaign.objects.select_for_update().get(pk=card.campaign_id)
    card = campaign.dilemma_cards.get(pk=card.pk)
    if place not in DilemmaCard.Place.values:
        raise ValidationError(UNKNOWN_PLACE.format(place=place))
    if place == card.place:
        raise ValidationError(
            NOTHING_TO_CORRECT.format(thing=gettext("card {number}").format(number=card.number))
        )
    was, was_place = in_english(card.get_place_display()), card.place
    card.place = place
    if place != DilemmaCard.Place.TRASH:
        card.resolved_in = None
    card.full_clean(validate_constraints=False)
    card.save(update_fields=["place", "resolved_in"])
    record_event(
        campaign,
        "dilemma_card_moved",
        board.card_moved(card.kind, card.number, was_place, card.place),
        actor=actor,
        number=card.number,
        before=was,
        after=in_english(card.get_place_display()),
    )
    return card


@transaction.atomic
def dilemma_cards_to_deck(*, game: ChronicleGame, numbers: list[int], actor: Actor = None) -> int:
    """The cards a printed effect put into the Dilemma deck during ``game`` (the table's
    ``to_dilemma_deck``) go to the Dilemma save slot before the save sorts the rest: out of the Trash
    they are no longer resolved in any night. Returns how many moved."""
    campaign = game.campaign
    moved = 0
    for card in campaign.dilemma_cards.select_for_update().filter(number__in=numbers):
        if card.place == DilemmaCard.Place.DECK:
            continue  # already moved on the campaign page during the night
        was, was_place = in_english(card.get_place_display()), card.place
        card.place, card.resolved_in = DilemmaCard.Place.DECK, None
        card.save(update_fields=["place", "resolved_in"])
        moved += 1
        record_event(
            campaign,
            "dilemma_card_moved",
            board.card_moved(card.kind, card.number, was_place, card.place, game=game.number),
            actor=actor,
            game=game,
            number=card.number,
            before=was,
            after=in_english(card.get_place_display()),
        )
    return moved


@transaction.atomic
def dilemma_card_remember(
    *, campaign: Campaign, number: int, title: str = "", outcomes: dict, actor: Actor = None
) -> DilemmaCard:
    """Store what the table typed from a Dilemma card, so it is typed only once."""
    card, _ = DilemmaCard.objects.get_or_create(campaign=campaign, number=number)
    card.title = title or card.title
    card.outcomes = outcomes
    card.save(update_fields=["title", "outcomes"])
    record_event(
        campaign,
        "dilemma_card_remembered",
        board.CARD_REMEMBERED.format(number=number),
        actor=actor,
        number=number,
    )
    return card


def _trashed_elsewhere(card: DilemmaCard, game: ChronicleGame) -> dict | None:
    """A conflict when ``card`` lies in the Trash from another game (or was put there by hand): the
    Trash is never left and its ``resolved_in`` never moved ('Final Cleanup' step 2)."""
    if card.place != DilemmaCard.Place.TRASH or card.resolved_in_id == game.pk:
        return None
    resolved_in = card.resolved_in
    message = board.trashed_elsewhere(card.number, resolved_in.number if resolved_in is not None else None)
    return {
        "kind": "dilemma_card",
        "number": card.number,
        "message": str(message),
        "message_data": message_data(message),
    }


def _save_card(campaign: Campaign, number: int, kind: str) -> DilemmaCard:
    card = campaign.dilemma_cards.select_for_update().filter(number=number).first()
    return card or _dilemma_card_add(campaign=campaign, number=number, kind=kind)


@transaction.atomic
def game_save(
    *,
    game: ChronicleGame,
    resolved: list[int],
    event_area_triggers: list[int] | None = None,
    ongoing_events: list[int] | None = None,
    actor: Actor = None,
) -> list[dict]:
    """'Final Cleanup: Save Your Game!' (step 3, the Secret Agenda and Vote cards, keeps nothing):

    1. the Trigger cards of the Event area (``event_area_triggers``, and any Trigger card the
       campaign holds there) are shuffled back into the Dilemma deck, which stays in the Dilemma
       save slot with every card not resolved;
    2. the Dilemma cards resolved (``resolved``) go to the Trash, "never used again";
    4. the ongoing Event cards (``ongoing_events``, and every other card of the Event area) go to the
       Story save slot, from where the next night's setup restores them.

    A card that already lies in the Trash from another game is neither moved nor given a new
    ``resolved_in``: it is returned as a conflict (``{"kind", "number", "message"}``)."""
    campaign = game.campaign
    conflicts: list[dict] = []
    moves = {
        DilemmaCard.Place.TRASH: [(n, DilemmaCard.Kind.DILEMMA) for n in resolved],
        DilemmaCard.Place.DECK: [(n, DilemmaCard.Kind.TRIGGER) for n in event_area_triggers or []],
        DilemmaCard.Place.STORY_SLOT: [(n, DilemmaCard.Kind.EVENT) for n in ongoing_events or []],
    }
    counts = dict.fromkeys(moves, 0)
    for place, numbers in moves.items():
        for number, kind in numbers:
            card = _save_card(campaign, number, kind)
            conflict = _trashed_elsewhere(card, game)
            if conflict is not None:
                conflicts.append(conflict)
                continue
            card.place = place
            if place == DilemmaCard.Place.TRASH:
                card.resolved_in = game
            elif place == DilemmaCard.Place.DECK and card.kind == DilemmaCard.Kind.DILEMMA:
                card.kind = kind  # drawn from the deck and sent to the Event area: a Trigger card
            card.save(update_fields=["place", "resolved_in", "kind"])
            counts[place] += 1
    left = campaign.dilemma_cards.filter(place=DilemmaCard.Place.EVENT_AREA)
    counts[DilemmaCard.Place.DECK] += left.filter(kind=DilemmaCard.Kind.TRIGGER).update(
        place=DilemmaCard.Place.DECK
    )
    counts[DilemmaCard.Place.STORY_SLOT] += left.update(place=DilemmaCard.Place.STORY_SLOT)
    record_event(
        campaign,
        "game_saved",
        board.saved_summary(game.number, *(counts[place] for place in moves)),
        actor=actor,
        game=game,
        resolved=resolved,
        conflicts=conflicts,
    )
    return conflicts
