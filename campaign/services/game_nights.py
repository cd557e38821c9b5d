"""A King's Dilemma game night run by the table companion: it starts from the campaign's legacy
setup and writes its result back through the campaign services."""

from __future__ import annotations

import datetime
from collections.abc import Callable

from django.core.exceptions import ValidationError
from django.db import models, transaction
from django.db.models import Max

from campaign.access import VIEWER_READS_ONLY, Need
from campaign.models import (
    Campaign,
    ChronicleGame,
    DilemmaCard,
    House,
    LedgerEntry,
    Membership,
    StoryCard,
)
from campaign.selectors import night_running
from campaign.services.chronicles import game_begin, game_result_record, legacy_setup_compute
from campaign.services.common import (
    CAMPAIGN_CLOSED,
    NAME_CONTROL_CHARACTERS,
    STORY_CARD_FIELDS,
    check_effects,
    json_value,
    record_event,
)
from campaign.services.envelopes import (
    ENVELOPE_ALREADY_OPENED,
    dilemma_card_remember,
    dilemma_cards_to_deck,
    envelope_open,
    game_save,
    grand_finale_refusal,
)
from campaign.services.ledger import ledger_add
from campaign.services.stickers import (
    MYSTERY_ALL_ATTACHED,
    MYSTERY_ALREADY,
    STICKER_ALREADY_ATTACHED,
    mystery_sticker_attach,
    sticker_attach,
)
from games.engines.kernel.text import has_control_characters
from games.engines.kings_dilemma.data import GRAND_FINALE_ENVELOPE, MYSTERY_STICKERS_PER_CAMPAIGN
from games.services.common import session_rules
from games.services.sessions import SESSION_NOT_ABANDONED, session_create, session_night_saved, session_resume

NIGHT_HOUSES = "A King's Dilemma game has 3 to 5 Houses; {count} were chosen."


NIGHT_HOUSE_TWICE = "House {house} is seated twice."


NIGHT_KEEP_TWO = "House {house} holds {count} {polarity} Open Agendas: choose the 2 it keeps ({rows})."


NIGHT_NOT_OVER = "The game night is not over yet."


NIGHT_ALREADY_RECORDED = "This game night's result is already in the campaign."


NIGHT_CONFLICTS = (
    "{count} item(s) of the night conflicted with the campaign and were not written: they are listed "
    "with the night in the Realm Chronicles, as typed, for a correction."
)


NIGHT_AWAITS_SAVE = (
    "Game night #{session} (King {king}) of this campaign is over and waits for its save: save it from "
    "its table (Save your game) before the next night begins. One night of a campaign at a time."
)


NIGHT_RUNNING = (
    "Game night #{session} (King {king}) of this campaign is running: open it and play on, or its "
    "host or the campaign's owner abandons it first. One night of a campaign at a time."
)


NIGHT_PAPER_GAME = (
    "Game {number} (King {king}) was begun on paper and has no result yet: record it on the Realm "
    "Chronicles before a night at the table."
)


NIGHT_NOT_KINGS_DILEMMA = "This session is not a King's Dilemma game night of a campaign."


NIGHT_TAKE_OVER_HOST_PLAYS = (
    "{host} hosts this night and still plays in this campaign: ask them for the table, or ask the "
    "campaign's owner to take it over."
)


NIGHT_TAKE_OVER_NOT_RUNNING = "This night is no longer running: there is no table to take over."


NIGHT_TAKE_OVER_YOURS = "You already host this night."


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


def night_running_words(running) -> str:
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
    host=None,
    played_on: datetime.date | None = None,
    keep: dict | None = None,
    seed: int | None = None,
):
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
def game_night_resume(*, session, actor=None):
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


def night_take_over_refusal(*, session, actor) -> str | None:
    """Why ``actor`` may not take the night's table over (None: they may). The owner always may; a
    player when the host no longer plays in the campaign (removed, or made a viewer); a viewer never
    (docs/rules-decisions.md, "Who may do what in a campaign")."""
    if session.status not in (session.Status.LOBBY, session.Status.ACTIVE, session.Status.FINISHED):
        return NIGHT_TAKE_OVER_NOT_RUNNING
    if session.chronicle_game_id is not None:
        return NIGHT_TAKE_OVER_NOT_RUNNING
    if session.host_id == getattr(actor, "pk", None):
        return NIGHT_TAKE_OVER_YOURS
    roles = dict(
        Membership.objects.filter(
            campaign_id=session.campaign_id, user_id__in=[actor.pk, session.host_id]
        ).values_list("user_id", "role")
    )
    mine = roles.get(actor.pk)
    if mine == Membership.Role.OWNER:
        return None
    if mine != Membership.Role.PLAYER:
        return VIEWER_READS_ONLY
    if roles.get(session.host_id) in Need.PLAY.value:
        return NIGHT_TAKE_OVER_HOST_PLAYS.format(host=session.host)
    return None


@transaction.atomic
def game_night_take_over(*, session, actor):
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
    was = locked.host
    locked.host = actor
    locked.save(update_fields=["host"])
    session.host = actor
    record_event(
        campaign,
        "night_host_changed",
        f"{actor} took over the table of game night #{locked.pk} (hosted by {was or 'nobody'})",
        actor=actor,
        session=locked.pk,
        was=was.get_username() if was is not None else "",
    )
    return session


def _seats_of_houses(*, session, campaign: Campaign, houses: list[House]) -> None:
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


def _house_of_seat(session) -> Callable[[int | None], House | None]:
    seats = session.config["seats"]
    houses = {h.pk: h for h in session.campaign.houses.filter(pk__in=[s["house"] for s in seats])}
    return lambda seat_index: None if seat_index is None else houses[seats[seat_index]["house"]]


def _conflict(kind: str, number, message: str, typed: dict, what: str) -> dict:
    """One item of the night the campaign could not take, kept as the table typed it (``what`` says
    it in words)."""
    return {"kind": kind, "number": number, "message": message, "typed": typed, "what": what}


def _house_words(house: House | None) -> dict:
    return {"house": house.pk if house else None, "house_name": house.name if house else ""}


def _by(house: House | None, verb: str) -> str:
    return f", {verb} by House {house.name}" if house else ""


def _contents_words(envelope: dict) -> str:
    story = envelope.get("story_card") or {}
    parts = [f"Story card {story['number']} ({story.get('storyline', '')})"] if story.get("number") else []
    for key, words in (
        ("dilemma_numbers", "Dilemma"),
        ("trigger_numbers", "Trigger"),
        ("event_numbers", "Event"),
    ):
        if envelope.get(key):
            parts.append(f"{words} cards {', '.join(str(n) for n in envelope[key])}")
    return f"; it held {', '.join(parts)}" if parts else ""


def _night_stickers_write(game: ChronicleGame, result: dict, house_of, actor) -> list[dict]:
    """Tonight's Chronicle stickers, signed by the Leader of the moment. One the campaign already
    holds (attached from the pages meanwhile, or named twice by an older table) is not attached."""
    campaign, conflicts = game.campaign, []
    held = set(campaign.stickers.values_list("number", flat=True))
    for sticker in result.get("stickers", []):
        signer = house_of(sticker.get("signer"))
        if sticker["number"] in held:
            message = STICKER_ALREADY_ATTACHED.format(number=sticker["number"])
            typed = {**sticker, "signer_house": _house_words(signer)}
            polarity = "positive" if sticker["positive"] else "negative"
            what = (
                f"Chronicle sticker {sticker['number']} ({polarity} {sticker['row']}){_by(signer, 'signed')}"
            )
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


def _night_envelopes_write(game: ChronicleGame, result: dict, contents: dict, house_of, actor) -> list[dict]:
    """Tonight's Envelopes with what the table found in them. One the campaign already opened is not
    opened again, nor Envelope 70 before the campaign's sixth Mystery sticker (tonight's are written
    first): its contents as typed stay in the conflict."""
    campaign, conflicts = game.campaign, []
    opened = set(campaign.envelopes.values_list("number", flat=True))
    for envelope in result.get("envelopes", []):
        envelope = {**contents.get(envelope["number"], {}), **envelope}  # the game's number and opener
        opener = house_of(envelope.get("opened_by"))
        message = (
            ENVELOPE_ALREADY_OPENED.format(number=envelope["number"])
            if envelope["number"] in opened
            else grand_finale_refusal(campaign)
            if envelope["number"] == GRAND_FINALE_ENVELOPE
            else ""
        )
        if message:
            typed = {**envelope, "opened_by_house": _house_words(opener)}
            what = f"Envelope {envelope['number']:02d}{_by(opener, 'opened')}{_contents_words(envelope)}"
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


def _night_mystery_write(game: ChronicleGame, result: dict, actor) -> list[dict]:
    campaign, conflicts = game.campaign, []
    for letter in result.get("mystery_stickers", []):
        attached = set(campaign.mystery_stickers.values_list("letter", flat=True))
        message = (
            MYSTERY_ALREADY.format(letter=letter)
            if letter in attached
            else MYSTERY_ALL_ATTACHED
            if len(attached) >= MYSTERY_STICKERS_PER_CAMPAIGN
            else None
        )
        if message:
            conflicts.append(
                _conflict("mystery_sticker", letter, message, {"letter": letter}, f"Mystery sticker {letter}")
            )
            continue
        mystery_sticker_attach(campaign=campaign, letter=letter, game=game, actor=actor)
    return conflicts


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


def _night_save(game: ChronicleGame, result: dict, actor) -> list[dict]:
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
        title = f" ({typed['title']})" if typed.get("title") else ""
        conflict.update(typed=typed, what=f"Dilemma card {conflict['number']}{title}, played tonight")
    skipped = {conflict["number"] for conflict in conflicts}
    for number, card in met.items():
        if int(number) in skipped:
            continue
        outcomes = {k: v for k, v in card.items() if k not in ("number", "title")}
        dilemma_card_remember(
            campaign=campaign, number=int(number), title=card.get("title", ""), outcomes=outcomes, actor=actor
        )
    return conflicts


def _conflicts_keep(game: ChronicleGame, conflicts: list[dict], actor) -> None:
    """The conflicts stay on the game (shown with its Realm Chronicles table) and in the history."""
    for conflict in conflicts:
        record_event(
            game.campaign,
            "night_conflict",
            f"Game {game.number}: {conflict['message']} Not written: kept as typed for a correction."[:300],
            actor=actor,
            game=game,
            conflict=conflict,
        )
    game.conflicts = conflicts
    game.full_clean()
    game.save(update_fields=["conflicts"])


def _night_result_write(game: ChronicleGame, result: dict, house_of, actor) -> None:
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


def _night_begin(session, actor) -> ChronicleGame:
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
            session.campaign.stickers.filter(attached_at__lte=session.created).values_list(
                "number", flat=True
            )
        )
    game = game_begin(
        campaign=session.campaign,
        king_name=str(config.get("king_name") or ""),
        played_on=played_on,
        actor=actor,
        aging=[n for n in on_board if isinstance(n, int)],
    )
    session_night_saved(session=session, chronicle_game=game)
    return game


@transaction.atomic
def game_night_record(*, session, envelope_contents: dict | None = None, actor=None) -> ChronicleGame:
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
