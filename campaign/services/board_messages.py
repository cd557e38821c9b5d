"""What the history and the ledger say of the Realm board (Chronicle and Mystery stickers, Envelopes,
Story and Dilemma cards, the save slots): kernel messages (games/engines/kernel/messages.py), kept
with their English and said again in each reader's language. A word of the game inside a sentence
(a row, a side, a save slot, a kind of card) is a message too; names, typed titles and numbers are
written as they are."""

from __future__ import annotations

from typing import Any

from games.engines.kernel.messages import Message, from_data, gettext_noop, join, ngettext_lazy, pgettext_lazy
from games.engines.kings_dilemma import messages as engine_messages

# ---- Words said inside the sentences ----------------------------------------------------------

SIDES = {True: pgettext_lazy("sticker", "positive"), False: pgettext_lazy("sticker", "negative")}

HOUSE = gettext_noop("House {name}")

NOBODY = pgettext_lazy("signer", "nobody")

NO_TITLE = gettext_noop("(no title)")

ENVELOPE_KINDS = {True: gettext_noop("Special"), False: pgettext_lazy("envelope", "standard")}

# The campaign's save slots, by their key; the engine names the three out of the Dilemma deck.
PLACE_NAMES = {"deck": gettext_noop("Dilemma save slot"), **engine_messages.PLACE_NAMES}

DILEMMA_CARD = gettext_noop("Dilemma card {number}")

STORY_CARD = gettext_noop("Story card {number}")  # also a ledger reason: the card's ability

# One field of a correction, from what to what ("row Welfare → Morale").
CHANGES = {
    "number": gettext_noop("number {before} → {after}"),
    "row": gettext_noop("row {before} → {after}"),
    "side": gettext_noop("side {before} → {after}"),
    "signer": gettext_noop("signer {before} → {after}"),
    "title": gettext_noop("title {before} → {after}"),
    "opened by": gettext_noop("opened by {before} → {after}"),
    "kind": gettext_noop("kind {before} → {after}"),
}

# ---- Chronicle and Mystery stickers ------------------------------------------------------------

STICKER_ATTACHED = gettext_noop("Chronicle sticker {number} ({side} {row}) attached")
STICKER_ATTACHED_SIGNED = gettext_noop(
    "Chronicle sticker {number} ({side} {row}) attached, signed by House {house}"
)
STICKER_ATTACHED_OVER = gettext_noop(
    "Chronicle sticker {number} ({side} {row}) attached, over sticker {covered}"
)
STICKER_ATTACHED_SIGNED_OVER = gettext_noop(
    "Chronicle sticker {number} ({side} {row}) attached, signed by House {house}, over sticker {covered}"
)
CHRONICLE_AGED = ngettext_lazy(
    "Chronicle aging: {count} sticker marked", "Chronicle aging: {count} stickers marked", "count"
)
AGING_CORRECTED = gettext_noop("Aging marks of Chronicle sticker {number} corrected: {before} → {after}")
MYSTERY_ATTACHED = gettext_noop("Mystery sticker {letter} attached")
GRAND_FINALE_DUE = gettext_noop("The sixth Mystery sticker: open Envelope {envelope}, the Grand Finale")
STICKER_CORRECTED = gettext_noop("Chronicle sticker {number} corrected: {changes}")
STICKER_REMOVED = gettext_noop(
    "Chronicle sticker {number} ({side} {row}, signed by {signer}) removed: attached by mistake"
)

# ---- Envelopes and Story cards -----------------------------------------------------------------

ENVELOPE_OPENED = gettext_noop("Envelope {number:02d} opened")
ENVELOPE_OPENED_BY = gettext_noop("Envelope {number:02d} opened by House {house}")
GRAND_FINALE_OPENED = gettext_noop("Envelope {number} opened: the Grand Finale")
ENVELOPE_CORRECTED = gettext_noop("Envelope {number:02d} corrected: {changes}")
ENVELOPE_REMOVED = gettext_noop("Envelope {number:02d} removed: opened by mistake")
ENVELOPE_CARDS_LEFT = ngettext_lazy(
    "its Dilemma card {cards} left the deck", "its Dilemma cards {cards} left the deck", "count"
)
ENVELOPE_STORIES_REMOVED = ngettext_lazy("Story card {cards} removed", "Story cards {cards} removed", "count")
STORY_CARD_PLACED = gettext_noop("Story card {number} on the {storyline} storyline")
STORY_CARD_PLACED_SIGNED = gettext_noop(
    "Story card {number} on the {storyline} storyline, signed by House {house}"
)
MAJORITY_SIGNER_BONUS = gettext_noop("Majority Signer Bonus of Ending card {number}")
CORRECTION_REMOVED = gettext_noop("Correction: {reason} removed")

# ---- Dilemma cards and the save ----------------------------------------------------------------

# A card moved to another save slot, by its kind (each language says each kind's sentence).
CARD_MOVED = {
    "dilemma": gettext_noop("Dilemma card {number} moved: {before} → {after}"),
    "trigger": gettext_noop("Trigger card {number} moved: {before} → {after}"),
    "event": gettext_noop("Event card {number} moved: {before} → {after}"),
}
CARD_MOVED_BY_EFFECT = {
    "dilemma": gettext_noop(
        "Dilemma card {number} moved by a card effect in game {game}: {before} → {after}"
    ),
    "trigger": gettext_noop(
        "Trigger card {number} moved by a card effect in game {game}: {before} → {after}"
    ),
    "event": gettext_noop("Event card {number} moved by a card effect in game {game}: {before} → {after}"),
}
CARD_REMEMBERED = gettext_noop("Dilemma card {number} remembered as the table typed it")
GAME_SAVED = gettext_noop("Game {number} saved: {trashed}, {to_deck}, {to_story_slot}")
SAVED_TO_TRASH = ngettext_lazy(
    "{count} Dilemma card to the Trash", "{count} Dilemma cards to the Trash", "count"
)
SAVED_TO_DECK = ngettext_lazy(
    "{count} Trigger card back into the Dilemma deck",
    "{count} Trigger cards back into the Dilemma deck",
    "count",
)
SAVED_TO_STORY_SLOT = ngettext_lazy(
    "{count} Event card to the Story save slot", "{count} Event cards to the Story save slot", "count"
)
# A card the save would trash again (kept as a conflict of the night).
TRASHED_BEFORE = gettext_noop("Dilemma card {number} was already in the Trash: it stays there as it was.")
TRASHED_IN_GAME = gettext_noop(
    "Dilemma card {number} was already in the Trash (resolved in game {game}): it stays there as it was."
)


def house_or_nobody(name: str | None) -> Message:
    """'House Anna', or 'nobody' when no House is named."""
    return HOUSE.format(name=name) if name else NOBODY


def place_name(place: str) -> Message | str:
    """A save slot's name (a key no save slot has, as it is)."""
    return PLACE_NAMES.get(place, place)


def card_moved(kind: str, number: int, before: str, after: str, *, game: int | None = None) -> Message:
    """'Dilemma card 2 moved: Trash → Dilemma save slot' (by a card effect in game ``game``, if one)."""
    sentences = CARD_MOVED if game is None else CARD_MOVED_BY_EFFECT
    sentence = sentences.get(kind, sentences["dilemma"])
    params = {"number": number, "before": place_name(before), "after": place_name(after)}
    return sentence.format(**params) if game is None else sentence.format(game=game, **params)


def changes_said(before: dict[str, str], after: dict[str, str]) -> Message:
    """'row Welfare → Morale; signer nobody → House Tork': each changed field, from what to what."""
    changed = [key for key in after if before.get(key) != after[key]]
    return join([CHANGES[key].format(before=before[key], after=after[key]) for key in changed], "; ")


def reason_said(data: Any, english: str) -> Message | str:
    """A ledger entry's reason as its message (``data``, its ``reason_data``); a reason a person
    typed, or one kept before messages were, as its English."""
    kept = from_data(data) if data is not None else None
    return kept if isinstance(kept, Message) else english


def removal_summary(number: int, cards: list[int], stories: list[int]) -> Message:
    """'Envelope 05 removed: opened by mistake; its Dilemma cards 1, 2, 3 left the deck; Story card 5
    removed'."""
    parts = [ENVELOPE_REMOVED.format(number=number)]
    if cards:
        parts.append(ENVELOPE_CARDS_LEFT.format(cards=", ".join(map(str, cards)), count=len(cards)))
    if stories:
        parts.append(ENVELOPE_STORIES_REMOVED.format(cards=", ".join(map(str, stories)), count=len(stories)))
    return join(parts, "; ")


def envelope_opened(number: int, house: str | None) -> Message:
    """'Envelope 05 opened by House Anna' ('Envelope 05 opened' when no House is named)."""
    if house:
        return ENVELOPE_OPENED_BY.format(number=number, house=house)
    return ENVELOPE_OPENED.format(number=number)


def saved_summary(number: int, trashed: int, to_deck: int, to_story_slot: int) -> Message:
    """'Game 2 saved: 3 Dilemma cards to the Trash, 1 Trigger card back into the Dilemma deck, 0 Event
    cards to the Story save slot'."""
    return GAME_SAVED.format(
        number=number,
        trashed=SAVED_TO_TRASH.format(count=trashed),
        to_deck=SAVED_TO_DECK.format(count=to_deck),
        to_story_slot=SAVED_TO_STORY_SLOT.format(count=to_story_slot),
    )


def trashed_elsewhere(number: int, game: int | None) -> Message:
    """Why the save leaves a card in the Trash: it lies there from game ``game`` (None: put there by
    hand). The engine says the first sentence at the table too."""
    stays = (
        TRASHED_IN_GAME.format(number=number, game=game)
        if game is not None
        else TRASHED_BEFORE.format(number=number)
    )
    not_in_deck = engine_messages.DILEMMA_NOT_IN_DECK.format(number=number, place=PLACE_NAMES["trash"])
    return join([not_in_deck, stays], " ")
