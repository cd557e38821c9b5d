"""A King's Dilemma game night saved into its campaign ("Final Cleanup: Save your game!"): what the
table typed for the Envelopes opened tonight checked, then the night's stickers, Envelopes, Mystery
stickers, effects and result written through the campaign services, and whatever the campaign could
not take kept with the night, as typed, for a correction."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import Any, cast

from django.core.exceptions import ValidationError
from django.db import models, transaction
from django.utils.translation import gettext, gettext_lazy, ngettext_lazy

from campaign.models import (
    Campaign,
    ChronicleGame,
    DilemmaCard,
    House,
    LedgerEntry,
    StoryCard,
)
from campaign.services.chronicles import game_begin, game_result_record
from campaign.services.common import (
    STORY_CARD_FIELDS,
    Actor,
    check_effects,
    json_value,
    message_data,
    record_event,
)
from campaign.services.envelopes import (
    dilemma_card_remember,
    dilemma_cards_to_deck,
    envelope_open,
    game_save,
    grand_finale_refusal,
)
from campaign.services.game_nights import NIGHT_ALREADY_RECORDED, NIGHT_NOT_KINGS_DILEMMA
from campaign.services.ledger import ledger_add
from campaign.services.stickers import (
    mystery_sticker_attach,
    sticker_attach,
)
from games.engines.kernel.messages import Message, from_data, gettext_noop, join, ngettext, pgettext_lazy
from games.engines.kings_dilemma.data import GRAND_FINALE_ENVELOPE, MYSTERY_STICKERS_PER_CAMPAIGN
from games.engines.kings_dilemma.messages import SIGNS, resource_name
from games.models import GameSession
from games.services.sessions import session_night_saved
from games.services.taps import session_rules

NIGHT_NOT_OVER = gettext_lazy("The game night is not over yet.")


NIGHT_CONFLICTS = ngettext_lazy(
    "{count} item of the night conflicted with the campaign and was not written: it is listed "
    "with the night in the Realm Chronicles, as typed, for a correction.",
    "{count} items of the night conflicted with the campaign and were not written: they are listed "
    "with the night in the Realm Chronicles, as typed, for a correction.",
    "count",
)


CONTENTS_NOT_TONIGHT = gettext_lazy(
    "envelope_contents: Envelope {number} was not opened tonight (opened: {opened})."
)


CONTENTS_PROBLEM = gettext_lazy("envelope_contents[{number}].{field}: {problem}")


CONTENTS_NOT_AN_OBJECT = gettext_lazy(
    "envelope_contents[{number}]: must be an object of what the Envelope held."
)


CONTENTS_UNKNOWN = gettext_lazy(
    "envelope_contents[{number}]: unknown field(s) {keys}; an Envelope's contents are {known} "
    "(its number and who opened it come from the game)."
)


# The refusals a conflict keeps, as messages (the same words as the campaign services' refusals).
STICKER_HELD = gettext_noop("Sticker {number} is already on the board.")
ENVELOPE_HELD = gettext_noop("Envelope {number:02d} has already been opened.")
GRAND_FINALE_HELD = gettext_noop(
    "Envelope {envelope} is the Grand Finale: it is opened once the {stickers} Mystery stickers of "
    "the campaign are attached ({count} attached so far)."
)
MYSTERY_HELD = gettext_noop("Mystery sticker {letter} is already attached.")
MYSTERY_ALL_HELD = gettext_noop("All {count} Mystery stickers of the campaign are already attached.")


# What a conflict was, in words.
STICKER_WHAT = gettext_noop("Chronicle sticker {number} ({sign} {row})")
STICKER_WHAT_SIGNED = gettext_noop("Chronicle sticker {number} ({sign} {row}), signed by House {house}")
ENVELOPE_WHAT = pgettext_lazy("a night's conflict", "Envelope {number:02d}")
ENVELOPE_WHAT_OPENED = gettext_noop("Envelope {number:02d}, opened by House {house}")
ENVELOPE_HELD_CARDS = gettext_noop("{envelope}; it held {cards}")
STORY_CARD_WHAT = gettext_noop("Story card {number} ({storyline})")
MYSTERY_WHAT = gettext_noop("Mystery sticker {letter}")
CARD_WHAT = gettext_noop("Dilemma card {number}, played tonight")
CARD_WHAT_TITLED = gettext_noop("Dilemma card {number} ({title}), played tonight")
NIGHT_CONFLICT = gettext_noop("Game {number}: {message} Not written: kept as typed for a correction.")
CARD_EFFECT = gettext_noop("Card effect")


# What the table types for an Envelope opened tonight; its number and opener come from the game.
ENVELOPE_CONTENTS = {"special", "story_card", "dilemma_numbers", "trigger_numbers", "event_numbers"}


MAX_CARDS_IN_ENVELOPE = 20


# The House of a seat of the night (None for no seat).
type HouseOfSeat = Callable[[int | None], House | None]


def _field_value(model: type[models.Model], name: str, value: Any) -> Any:
    """``value`` checked as the model field ``name`` would store it (type, range, length)."""
    field = cast(models.Field, model._meta.get_field(name))  # the contents name plain fields only
    if isinstance(field, models.JSONField):
        check_effects(value if isinstance(value, dict) else {"": value})
        return value
    json_value(field, value)  # of the right JSON type; the ranges next
    try:
        field.clean(value, None)
    except ValidationError as error:
        raise ValueError(" ".join(error.messages)) from None
    return value


def envelope_contents_clean(contents: dict, opened_tonight: list[int]) -> dict[int, dict]:
    """What the table typed for tonight's Envelopes, checked field by field. Only Envelopes opened
    tonight; only contents (never the number or the opener, which the game recorded)."""
    clean = {}
    for key, body in contents.items():
        number = (
            int(key)
            if isinstance(key, int) or (isinstance(key, str) and key.isascii() and key.isdigit())
            else key
        )
        if number not in opened_tonight:
            opened = ", ".join(f"{n:02d}" for n in opened_tonight) or gettext("none")
            raise ValidationError(CONTENTS_NOT_TONIGHT.format(number=number, opened=opened))
        if not isinstance(body, dict):
            raise ValidationError(CONTENTS_NOT_AN_OBJECT.format(number=number))
        unknown = sorted(str(k) for k in body if k not in ENVELOPE_CONTENTS)
        if unknown:
            raise ValidationError(
                CONTENTS_UNKNOWN.format(
                    number=number, keys=", ".join(unknown), known=", ".join(sorted(ENVELOPE_CONTENTS))
                )
            )

        def problem(field: str, text: str, number: int = number) -> ValidationError:
            return ValidationError(CONTENTS_PROBLEM.format(number=number, field=field, problem=text))

        if not isinstance(body.get("special", False), bool):
            raise problem("special", gettext("must be true or false"))
        for key in ("dilemma_numbers", "trigger_numbers", "event_numbers"):
            cards = body.get(key, [])
            if not isinstance(cards, list) or len(cards) > MAX_CARDS_IN_ENVELOPE:
                raise problem(
                    key,
                    gettext("must be a list of at most {count} card numbers").format(
                        count=MAX_CARDS_IN_ENVELOPE
                    ),
                )
            for card in cards:
                try:
                    _field_value(DilemmaCard, "number", card)
                except ValueError as error:
                    raise problem(key, f"{card!r}: {error}") from None
        story = body.get("story_card")
        if story is not None:
            if not isinstance(story, dict):
                raise problem("story_card", gettext("must be an object"))
            unknown = sorted(str(k) for k in story if k not in STORY_CARD_FIELDS)
            if unknown:
                raise problem(
                    "story_card", gettext("unknown fields: {names}").format(names=", ".join(unknown))
                )
            for name, value in story.items():
                try:
                    _field_value(StoryCard, name, value)
                except (ValueError, ValidationError) as error:
                    text = " ".join(error.messages) if isinstance(error, ValidationError) else str(error)
                    raise problem(f"story_card.{name}", text) from None
        clean[number] = body
    return clean


def _campaign_of(session: GameSession) -> Campaign:
    """The campaign of a night (``game_night_record`` refuses a session without one first)."""
    if session.campaign is None:
        raise ValidationError(NIGHT_NOT_KINGS_DILEMMA)
    return session.campaign


def _house_of_seat(session: GameSession) -> HouseOfSeat:
    seats = session.config["seats"]
    houses = {h.pk: h for h in _campaign_of(session).houses.filter(pk__in=[s["house"] for s in seats])}
    return lambda seat_index: None if seat_index is None else houses[seats[seat_index]["house"]]


def _conflict(kind: str, number: object, message: Message, typed: dict, what: Message) -> dict:
    """One item of the night the campaign could not take, kept as the table typed it (``what`` says
    it in words); its English beside its message, said again in each reader's language."""
    return {
        "kind": kind,
        "number": number,
        "message": str(message),
        "typed": typed,
        "what": str(what),
        "message_data": message_data(message),
        "what_data": message_data(what),
    }


def _house_words(house: House | None) -> dict:
    return {"house": house.pk if house else None, "house_name": house.name if house else ""}


def _sticker_what(sticker: dict, signer: House | None) -> Message:
    sign, row = SIGNS[bool(sticker["positive"])], resource_name(sticker["row"])  # the game's words
    words = {"number": sticker["number"], "sign": sign, "row": row}
    if signer is None:
        return STICKER_WHAT.format(**words)
    return STICKER_WHAT_SIGNED.format(**words, house=signer.name)


def _cards_words(numbers: list, kind: str) -> Message:
    listed, count = ", ".join(str(n) for n in numbers), len(numbers)
    if kind == "trigger_numbers":
        return ngettext("Trigger card {numbers}", "Trigger cards {numbers}", count, numbers=listed)
    if kind == "event_numbers":
        return ngettext("Event card {numbers}", "Event cards {numbers}", count, numbers=listed)
    return ngettext("Dilemma card {numbers}", "Dilemma cards {numbers}", count, numbers=listed)


def _envelope_what(envelope: dict, opener: House | None) -> Message:
    what = (
        ENVELOPE_WHAT_OPENED.format(number=envelope["number"], house=opener.name)
        if opener
        else ENVELOPE_WHAT.format(number=envelope["number"])
    )
    story = envelope.get("story_card") or {}
    parts = (
        [STORY_CARD_WHAT.format(number=story["number"], storyline=str(story.get("storyline", "")))]
        if story.get("number")
        else []
    )
    for key in ("dilemma_numbers", "trigger_numbers", "event_numbers"):
        if envelope.get(key):
            parts.append(_cards_words(envelope[key], key))
    return ENVELOPE_HELD_CARDS.format(envelope=what, cards=join(parts, ", ")) if parts else what


def _night_stickers_write(
    game: ChronicleGame, result: dict, house_of: HouseOfSeat, actor: Actor
) -> list[dict]:
    """Tonight's Chronicle stickers, signed by the Leader of the moment. One the campaign already
    holds (attached from the pages meanwhile, or named twice by an older table) is not attached."""
    campaign, conflicts = game.campaign, []
    held = set(campaign.stickers.values_list("number", flat=True))
    for sticker in result.get("stickers", []):
        signer = house_of(sticker.get("signer"))
        if sticker["number"] in held:
            message = STICKER_HELD.format(number=sticker["number"])
            typed = {**sticker, "signer_house": _house_words(signer)}
            what = _sticker_what(sticker, signer)
            conflicts.append(_conflict("sticker", sticker["number"], message, typed, what))
            continue
        sticker_attach(
            campaign=campaign,
            number=sticker["number"],
            row=sticker["row"],
            positive=sticker["positive"],
            signer=signer,
            title=sticker.get("title", ""),
            game=game,
            actor=actor,
        )
        held.add(sticker["number"])
    return conflicts


def _night_envelopes_write(
    game: ChronicleGame, result: dict, contents: dict, house_of: HouseOfSeat, actor: Actor
) -> list[dict]:
    """Tonight's Envelopes with what the table found in them. One the campaign already opened is not
    opened again, nor Envelope 70 before the campaign's sixth Mystery sticker (tonight's are written
    first): its contents as typed stay in the conflict."""
    campaign, conflicts = game.campaign, []
    opened = set(campaign.envelopes.values_list("number", flat=True))
    for envelope in result.get("envelopes", []):
        envelope = {**contents.get(envelope["number"], {}), **envelope}  # the game's number and opener
        opener = house_of(envelope.get("opened_by"))
        message = (
            ENVELOPE_HELD.format(number=envelope["number"])
            if envelope["number"] in opened
            else _grand_finale_held(campaign)
            if envelope["number"] == GRAND_FINALE_ENVELOPE
            else None
        )
        if message:
            typed = {**envelope, "opened_by_house": _house_words(opener)}
            what = _envelope_what(envelope, opener)
            conflicts.append(_conflict("envelope", envelope["number"], message, typed, what))
            continue
        story = envelope.get("story_card")
        envelope_open(
            campaign=campaign,
            number=envelope["number"],
            opened_by=opener,
            game=game,
            special=bool(envelope.get("special")),
            dilemma_numbers=envelope.get("dilemma_numbers") or [],
            trigger_numbers=envelope.get("trigger_numbers") or [],
            event_numbers=envelope.get("event_numbers") or [],
            story_card=dict(story) if story else None,
            actor=actor,
        )
        opened.add(envelope["number"])
    return conflicts


def _grand_finale_held(campaign: Campaign) -> Message | None:
    """Why Envelope 70 cannot be opened yet, as ``grand_finale_refusal`` says it (None once it can)."""
    if not grand_finale_refusal(campaign):
        return None
    return GRAND_FINALE_HELD.format(
        envelope=GRAND_FINALE_ENVELOPE,
        stickers=MYSTERY_STICKERS_PER_CAMPAIGN,
        count=campaign.mystery_stickers.count(),
    )


def _night_mystery_write(game: ChronicleGame, result: dict, actor: Actor) -> list[dict]:
    campaign, conflicts = game.campaign, []
    for letter in result.get("mystery_stickers", []):
        attached = set(campaign.mystery_stickers.values_list("letter", flat=True))
        message = (
            MYSTERY_HELD.format(letter=letter)
            if letter in attached
            else MYSTERY_ALL_HELD.format(count=MYSTERY_STICKERS_PER_CAMPAIGN)
            if len(attached) >= MYSTERY_STICKERS_PER_CAMPAIGN
            else None
        )
        if message:
            what = MYSTERY_WHAT.format(letter=letter)
            conflicts.append(_conflict("mystery_sticker", letter, message, {"letter": letter}, what))
            continue
        mystery_sticker_attach(campaign=campaign, letter=letter, game=game, actor=actor)
    return conflicts


def _night_effects_write(game: ChronicleGame, result: dict, house_of: HouseOfSeat, actor: Actor) -> None:
    """Prestige/Crave the host applied by hand from printed card effects."""
    for effect in result.get("prestige_crave_effects", []):
        for kind in ("prestige", "crave"):
            if effect.get(kind):
                ledger_add(
                    house=cast(House, house_of(effect["seat"])),  # an effect always names its seat
                    kind=kind,
                    amount=effect[kind],
                    reason=effect.get("label") or CARD_EFFECT,
                    source=LedgerEntry.Source.MANUAL,
                    game=game,
                    actor=actor,
                )


def _night_save(game: ChronicleGame, result: dict, actor: Actor) -> list[dict]:
    """'Final Cleanup: Save Your Game!' (``game_save``), then the cards met tonight remembered as the
    table typed them. The Event area holds the ongoing Event cards restored at setup and the cards
    drawn tonight and sent there: Trigger cards (Event cards never lie in the deck), unless the
    campaign knows them as Event cards."""
    campaign = game.campaign
    met = result.get("cards_met") or {}
    kinds = dict(campaign.dilemma_cards.values_list("number", "kind"))
    event_area = list(result.get("event_cards", []))

    def is_trigger(number: int) -> bool:
        kind = kinds.get(number)
        return kind == DilemmaCard.Kind.TRIGGER or (str(number) in met and kind != DilemmaCard.Kind.EVENT)

    dilemma_cards_to_deck(game=game, numbers=list(result.get("cards_to_deck", [])), actor=actor)
    conflicts = game_save(
        game=game,
        resolved=list(result.get("resolved_dilemmas", [])),
        event_area_triggers=[n for n in event_area if is_trigger(n)],
        ongoing_events=[n for n in event_area if not is_trigger(n)],
        actor=actor,
    )
    for conflict in conflicts:  # what the table typed of the card, kept with the conflict
        typed = met.get(str(conflict["number"]), {"number": conflict["number"]})
        what = (
            CARD_WHAT_TITLED.format(number=conflict["number"], title=typed["title"])
            if typed.get("title")
            else CARD_WHAT.format(number=conflict["number"])
        )
        conflict.update(typed=typed, what=str(what), what_data=message_data(what))
    skipped = {conflict["number"] for conflict in conflicts}
    for number, card in met.items():
        if int(number) in skipped:
            continue
        outcomes = {k: v for k, v in card.items() if k not in ("number", "title")}
        dilemma_card_remember(
            campaign=campaign, number=int(number), title=card.get("title", ""), outcomes=outcomes, actor=actor
        )
    return conflicts


def _conflicts_keep(game: ChronicleGame, conflicts: list[dict], actor: Actor) -> None:
    """The conflicts stay on the game (shown with its Realm Chronicles table) and in the history."""
    for conflict in conflicts:
        message = from_data(conflict.get("message_data")) or conflict["message"]
        record_event(
            game.campaign,
            "night_conflict",
            NIGHT_CONFLICT.format(number=game.number, message=message),
            actor=actor,
            game=game,
            conflict=conflict,
        )
    game.conflicts = conflicts
    game.full_clean()
    game.save(update_fields=["conflicts"])


def _night_result_write(game: ChronicleGame, result: dict, house_of: HouseOfSeat, actor: Actor) -> None:
    """The Realm Chronicles table with the engine's awards (ledger, alignment)."""
    game_result_record(
        game=game,
        end=result["end"],
        rows=[
            {
                "house": house_of(i),
                "secret_agenda": row["secret_agenda"],
                "agenda_points": row["agenda_points"],
                "open_agenda_points": row["open_agenda_points"],
                "coins_points": row["coins_points"],
                "power_points": row["power_points"],
            }
            for i, row in enumerate(result["seats"])
        ],
        resources_final=result.get("resources_final") or {},
        awards=[
            {
                "position": row["position"],
                "last": row["last"],
                "prestige": row["prestige_award"],
                "crave": row["crave_award"] - row["rebel_crave"],
                "rebel_crave": row["rebel_crave"],
            }
            for row in result["seats"]
        ],
        actor=actor,
    )


def _night_begin(session: GameSession, actor: Actor) -> ChronicleGame:
    """The night's game, begun at its save: 'Chronicle aging' of the stickers that were on the
    board when the night began (its setup step, written only now), under the next game number."""
    config = session.config
    played_on: datetime.date | None
    try:
        played_on = datetime.date.fromisoformat(config.get("played_on") or "")
    except (TypeError, ValueError):  # a night set up without it: the day it was created
        played_on = session.created.date() if session.created else None
    on_board = config.get("stickers_attached")
    if not isinstance(on_board, list):  # a night set up without the list: the stickers older than it
        on_board = list(
            _campaign_of(session)
            .stickers.filter(attached_at__lte=session.created)
            .values_list("number", flat=True)
        )
    game = game_begin(
        campaign=_campaign_of(session),
        king_name=str(config.get("king_name") or ""),
        played_on=played_on,
        actor=actor,
        aging=[n for n in on_board if isinstance(n, int)],
    )
    session_night_saved(session=session, chronicle_game=game)
    return game


@transaction.atomic
def game_night_record(
    *, session: GameSession, envelope_contents: dict | None = None, actor: Actor = None
) -> ChronicleGame:
    """Write a finished game night into the campaign: its game in the Realm Chronicles (numbered
    now) with the Chronicle aging of its setup, stickers (signed by the Leader of the
    moment), envelopes and their cards, Mystery stickers, Prestige/Crave effects, the Realm
    Chronicles result (ledger, alignment) and the save-your-game cleanup.

    ``envelope_contents``: what the table found in each Envelope opened tonight, by number:
    ``{"special": bool, "story_card": {"number", "storyline", ...}, "dilemma_numbers": [...],
    "trigger_numbers": [...], "event_numbers": [...]}`` (typed when the host saves the night).

    A scored night is always written: what still conflicts with the campaign (a sticker attached or an
    Envelope opened from the pages meanwhile, a Mystery sticker already attached, a Dilemma card
    already in the Trash) is left out, kept as typed in ``game.conflicts`` and told in the history,
    for a correction. What the host types now (``envelope_contents``) is checked as before: a mistake
    there is refused and nothing is written."""
    if session.game != "kings_dilemma" or session.campaign_id is None:
        raise ValidationError(NIGHT_NOT_KINGS_DILEMMA)
    Campaign.objects.select_for_update().get(pk=session.campaign_id)  # one save at a time
    session.refresh_from_db(fields=["chronicle_game"])
    begun = session.chronicle_game  # a night started before saves began its game: already aged
    if begun is not None and ChronicleGame.objects.select_for_update().get(pk=begun.pk).recorded:
        raise ValidationError(NIGHT_ALREADY_RECORDED)
    rules = session_rules(session)
    if not rules.is_over(session.state):
        raise ValidationError(NIGHT_NOT_OVER)
    result = rules.result(session.state)
    if result is None:
        raise ValidationError(NIGHT_NOT_OVER)
    house_of = _house_of_seat(session)
    contents = envelope_contents_clean(
        envelope_contents or {},
        [e["number"] for e in result.get("envelopes", [])],
    )
    game = begun or _night_begin(session, actor)
    conflicts = _night_stickers_write(game, result, house_of, actor)
    # The sixth Mystery sticker before the Envelopes: Envelope 70 opens after it.
    conflicts += _night_mystery_write(game, result, actor)
    conflicts += _night_envelopes_write(game, result, contents, house_of, actor)
    _night_effects_write(game, result, house_of, actor)
    _night_result_write(game, result, house_of, actor)
    conflicts += _night_save(game, result, actor)
    game.refresh_from_db()
    _conflicts_keep(game, conflicts, actor)
    return game
