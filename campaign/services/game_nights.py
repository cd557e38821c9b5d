"""A King's Dilemma game night run by the table companion: it starts from the campaign's legacy
setup and writes its result back through the campaign services."""

from __future__ import annotations

import datetime
from collections.abc import Callable

from django.core.exceptions import ValidationError
from django.db import models, transaction

from campaign.models import (
    Campaign,
    ChronicleGame,
    DilemmaCard,
    House,
    LedgerEntry,
    StoryCard,
)
from campaign.services.chronicles import game_begin, game_result_record, legacy_setup_compute
from campaign.services.common import STORY_CARD_FIELDS, check_effects, json_value
from campaign.services.envelopes import dilemma_card_remember, envelope_open, game_save
from campaign.services.ledger import ledger_add
from campaign.services.stickers import mystery_sticker_attach, sticker_attach

NIGHT_HOUSES = "A King's Dilemma game has 3 to 5 Houses; {count} were chosen."


NIGHT_HOUSE_TWICE = "House {house} is seated twice."


NIGHT_KEEP_TWO = "House {house} holds {count} {polarity} Open Agendas: choose the 2 it keeps ({rows})."


NIGHT_NOT_OVER = "The game night is not over yet."


NIGHT_ALREADY_RECORDED = "This game night's result is already in the campaign."


NIGHT_NOT_KINGS_DILEMMA = "This session is not a King's Dilemma game night of a campaign."


CONTENTS_NOT_TONIGHT = "envelope_contents: Envelope {number} was not opened tonight (opened: {opened})."


CONTENTS_PROBLEM = "envelope_contents[{number}].{field}: {problem}"


CONTENTS_NOT_AN_OBJECT = "envelope_contents[{number}]: must be an object of what the Envelope held."


CONTENTS_UNKNOWN = (
    "envelope_contents[{number}]: unknown field(s) {keys}; an Envelope's contents are {known} "
    "(its number and who opened it come from the game)."
)


# What the table types for an Envelope opened tonight; its number and opener come from the game.
ENVELOPE_CONTENTS = {"special", "story_card", "dilemma_numbers", "trigger_numbers", "event_numbers"}


MAX_CARDS_IN_ENVELOPE = 20


def _field_value(model, name: str, value):
    """``value`` checked as the model field ``name`` would store it (type, range, length)."""
    field = model._meta.get_field(name)
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
            opened = ", ".join(f"{n:02d}" for n in opened_tonight) or "none"
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

        def problem(field, text, number=number):
            return ValidationError(CONTENTS_PROBLEM.format(number=number, field=field, problem=text))

        if not isinstance(body.get("special", False), bool):
            raise problem("special", "must be true or false")
        for key in ("dilemma_numbers", "trigger_numbers", "event_numbers"):
            cards = body.get(key, [])
            if not isinstance(cards, list) or len(cards) > MAX_CARDS_IN_ENVELOPE:
                raise problem(key, f"must be a list of at most {MAX_CARDS_IN_ENVELOPE} card numbers")
            for card in cards:
                try:
                    _field_value(DilemmaCard, "number", card)
                except ValueError as error:
                    raise problem(key, f"{card!r}: {error}") from None
        story = body.get("story_card")
        if story is not None:
            if not isinstance(story, dict):
                raise problem("story_card", "must be an object")
            unknown = sorted(str(k) for k in story if k not in STORY_CARD_FIELDS)
            if unknown:
                raise problem("story_card", f"unknown field(s) {', '.join(unknown)}")
            for name, value in story.items():
                try:
                    _field_value(StoryCard, name, value)
                except (ValueError, ValidationError) as error:
                    text = " ".join(error.messages) if isinstance(error, ValidationError) else str(error)
                    raise problem(f"story_card.{name}", text) from None
        clean[number] = body
    return clean


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
                NIGHT_KEEP_TWO.format(
                    house=names[house_pk], count=len(rows), polarity=polarity, rows=", ".join(rows)
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
    setup = legacy_setup_compute(campaign=campaign, houses=houses)
    tokens = _open_agendas(setup, houses, keep)
    index = {h.pk: i for i, h in enumerate(houses)}
    deck = list(campaign.dilemma_cards.filter(place=DilemmaCard.Place.DECK).order_by("number"))
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
            str(card.number): {"number": card.number, **card.outcomes} for card in deck if card.outcomes
        },
    }


@transaction.atomic
def game_night_start(
    *,
    campaign: Campaign,
    houses: list[House],
    king_name: str,
    host=None,
    played_on: datetime.date | None = None,
    keep: dict | None = None,
    seed: int | None = None,
):
    """Begin the campaign's next game (its Realm Chronicles table; Chronicle aging), then seat the
    Houses in table order (clockwise) in a King's Dilemma session."""
    from games.services import session_create

    game = game_begin(campaign=campaign, king_name=king_name, played_on=played_on, actor=host)
    config = game_night_config(campaign=campaign, houses=houses, king_name=game.king_name, keep=keep)
    return session_create(
        game="kings_dilemma",
        seat_names=[h.name for h in houses],
        host=host,
        config=config,
        seed=seed,
        campaign=campaign,
        chronicle_game=game,
    )


def _house_of_seat(session) -> Callable[[int | None], House | None]:
    seats = session.config["seats"]
    houses = {h.pk: h for h in session.campaign.houses.filter(pk__in=[s["house"] for s in seats])}
    return lambda seat_index: None if seat_index is None else houses[seats[seat_index]["house"]]


def _night_board_write(game: ChronicleGame, result: dict, contents: dict, house_of, actor) -> None:
    """Tonight's Chronicle stickers, Envelopes (with what the table typed), cards met and Mystery
    stickers."""
    campaign = game.campaign
    for sticker in result.get("stickers", []):
        sticker_attach(
            campaign=campaign,
            number=sticker["number"],
            row=sticker["row"],
            positive=sticker["positive"],
            signer=house_of(sticker.get("signer")),
            title=sticker.get("title", ""),
            game=game,
            actor=actor,
        )
    for envelope in result.get("envelopes", []):
        envelope = {**contents.get(envelope["number"], {}), **envelope}  # the game's number and opener
        story = envelope.get("story_card")
        envelope_open(
            campaign=campaign,
            number=envelope["number"],
            opened_by=house_of(envelope.get("opened_by")),
            game=game,
            special=bool(envelope.get("special")),
            dilemma_numbers=envelope.get("dilemma_numbers") or [],
            trigger_numbers=envelope.get("trigger_numbers") or [],
            event_numbers=envelope.get("event_numbers") or [],
            story_card=dict(story) if story else None,
            actor=actor,
        )
    for number, card in (result.get("cards_met") or {}).items():
        outcomes = {k: v for k, v in card.items() if k not in ("number", "title")}
        dilemma_card_remember(
            campaign=campaign, number=int(number), title=card.get("title", ""), outcomes=outcomes, actor=actor
        )
    for letter in result.get("mystery_stickers", []):
        mystery_sticker_attach(campaign=campaign, letter=letter, game=game, actor=actor)


def _night_effects_write(game: ChronicleGame, result: dict, house_of, actor) -> None:
    """Prestige/Crave the host applied by hand from printed card effects."""
    for effect in result.get("prestige_crave_effects", []):
        for kind in ("prestige", "crave"):
            if effect.get(kind):
                ledger_add(
                    house=house_of(effect["seat"]),
                    kind=kind,
                    amount=effect[kind],
                    reason=effect.get("label") or "Card effect",
                    source=LedgerEntry.Source.MANUAL,
                    game=game,
                    actor=actor,
                )


def _night_save(game: ChronicleGame, result: dict, actor) -> None:
    """The Event area: Trigger cards go back into the Dilemma deck, Event cards to the Story save slot."""
    event_area = list(result.get("event_cards", []))
    triggers = set(
        game.campaign.dilemma_cards.filter(number__in=event_area, kind=DilemmaCard.Kind.TRIGGER).values_list(
            "number", flat=True
        )
    )
    game_save(
        game=game,
        resolved=list(result.get("resolved_dilemmas", [])),
        event_area_triggers=[n for n in event_area if n in triggers],
        ongoing_events=[n for n in event_area if n not in triggers],
        actor=actor,
    )


@transaction.atomic
def game_night_record(*, session, envelope_contents: dict | None = None, actor=None) -> ChronicleGame:
    """Write a finished game night into the campaign: stickers (signed by the Leader of the
    moment), envelopes and their cards, Mystery stickers, Prestige/Crave effects, the Realm
    Chronicles result (ledger, alignment) and the save-your-game cleanup.

    ``envelope_contents``: what the table found in each Envelope opened tonight, by number:
    ``{"special": bool, "story_card": {"number", "storyline", ...}, "dilemma_numbers": [...],
    "trigger_numbers": [...], "event_numbers": [...]}`` (typed when the host saves the night)."""
    from games.services import session_rules

    game = session.chronicle_game
    if session.game != "kings_dilemma" or session.campaign_id is None or game is None:
        raise ValidationError(NIGHT_NOT_KINGS_DILEMMA)
    game = ChronicleGame.objects.select_for_update().get(pk=game.pk)
    if game.recorded:
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
    _night_board_write(game, result, contents, house_of, actor)
    _night_effects_write(game, result, house_of, actor)
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
    _night_save(game, result, actor)
    game.refresh_from_db()
    return game
