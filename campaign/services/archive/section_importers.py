"""The section importers: one function per group of sections, read in dependency order
(``SECTION_IMPORTS``), each holding its rows to the rules beyond their types (numbers seen once,
a sticker's space, a Mystery sticker's letter, a session's log that replays)."""

from __future__ import annotations

from collections.abc import Callable

from campaign.models import (
    RESOURCE_ROWS,
    ChronicleSticker,
)
from campaign.selectors import campaign_setting
from campaign.services.archive.format import (
    ARCHIVE_SECTION_ROWS,
    ARCHIVE_SESSION_LOG,
    damaged,
    houses_mapped,
    is_int,
)
from campaign.services.archive.importer import Importer
from campaign.services.archive.value_checks import (
    check_session_consistent,
    replayed_session_state,
)
from games.engines.kernel.errors import RuleError
from games.engines.kernel.registry import get_game, slugs
from games.engines.kernel.text import has_control_characters
from games.engines.kings_dilemma.data import (
    MYSTERY_LETTERS,
    RESOURCE_TRACK_ROWS,
)
from games.engines.kings_dilemma.story import night_story
from games.models import GameSession, Seat, SessionAction


def _houses_and_games_import(run: Importer, archive: dict) -> None:
    houses, games = run.tables["houses"], run.tables["games"]
    for i, data in enumerate(archive["houses"]):
        house = run.row("houses", i, data)
        run.once(f"houses[{i}]", "house", house.number, f"House number {house.number}")
        houses[house.number] = house
    rows = RESOURCE_TRACK_ROWS
    for i, data in enumerate(archive["games"]):
        game = run.row("games", i, data)
        run.once(f"games[{i}]", "game", game.number, f"game {game.number}")
        if set(game.resources_final) - set(RESOURCE_ROWS) or not all(
            is_int(v) and 1 <= v <= rows for v in game.resources_final.values()
        ):
            raise damaged(f"games[{i}].resources_final", f"rows 1 to {rows} of the Resource rows")
        games[game.number] = game


def _house_rows_import(run: Importer, archive: dict) -> None:
    """Achievements, scores and the ledger: rows that belong to a House."""
    for i, data in enumerate(archive["achievements"]):
        where = f"achievements[{i}]"
        achievement = run.row("achievements", i, data)
        run.effects(where, "effects", achievement.effects)
        if achievement.marked > achievement.spaces:
            raise damaged(f"{where}.marked", f"more marks than its {achievement.spaces} spaces")
    for i, data in enumerate(archive["scores"]):
        where = f"scores[{i}]"
        score = run.row("scores", i, data)
        key = (score.game.number, score.revision, score.house.number)
        run.once(where, "score", key, f"the score of House {key[2]} in game {key[0]} (revision {key[1]})")
    for i, data in enumerate(archive["ledger"]):
        run.row("ledger", i, data)


def _envelopes_import(run: Importer, archive: dict) -> None:
    for i, data in enumerate(archive["envelopes"]):
        where = f"envelopes[{i}]"
        envelope = run.row("envelopes", i, data)
        run.once(where, "envelope", envelope.number, f"Envelope {envelope.number:02d}")
        run.tables["envelopes"][envelope.number] = envelope


def _sticker_checked(run: Importer, where: str, sticker: ChronicleSticker) -> None:
    capacity = campaign_setting(run.campaign, "row_capacity")
    squares = campaign_setting(run.campaign, "aging_squares")
    run.once(where, "sticker", sticker.number, f"Chronicle sticker {sticker.number}")
    if sticker.slot >= capacity:
        raise damaged(f"{where}.slot", f"a row has {capacity} spaces (slots 0 to {capacity - 1})")
    if sticker.marks > squares:
        raise damaged(f"{where}.marks", f"a sticker has {squares} aging squares")
    if not sticker.covered:
        run.once(
            where,
            "space",
            (sticker.row, sticker.slot),
            f"a visible sticker in space {sticker.slot} of {sticker.row}",
        )


def _stickers_import(run: Importer, archive: dict) -> None:
    covers = []
    for i, data in enumerate(archive["stickers"]):
        where = f"stickers[{i}]"
        sticker = run.row("stickers", i, data)
        _sticker_checked(run, where, sticker)
        covered_by = data.get("covered_by")
        if covered_by is not None:
            if not is_int(covered_by) or covered_by == sticker.number or not sticker.covered:
                raise damaged(f"{where}.covered_by", "must be the number of the sticker attached over it")
            covers.append((sticker, covered_by, where))
        run.tables["stickers"][sticker.number] = sticker
    for sticker, number, where in covers:  # written once every sticker has its id (Importer.write)
        over = run.link(where, {"covered_by": number}, "covered_by", "stickers", "sticker")
        run.covers.append((sticker, over))


def _cards_import(run: Importer, archive: dict) -> None:
    for i, data in enumerate(archive["story_cards"]):
        where = f"story_cards[{i}]"
        card = run.row("story_cards", i, data)
        run.once(where, "story", card.number, f"Story card {card.number}")
        run.once(
            where,
            "story order",
            (card.storyline, card.order),
            f"place {card.order} of storyline {card.storyline}",
        )
        run.effects(where, "effects", card.effects)
        run.effects(where, "majority_signer_bonus", card.majority_signer_bonus)
    for i, data in enumerate(archive["dilemma_cards"]):
        where = f"dilemma_cards[{i}]"
        card = run.row("dilemma_cards", i, data)
        run.once(where, "dilemma", card.number, f"Dilemma card {card.number}")


def _mystery_stickers_import(run: Importer, archive: dict) -> None:
    for i, data in enumerate(archive["mystery_stickers"]):
        where = f"mystery_stickers[{i}]"
        sticker = run.row("mystery_stickers", i, data)
        if sticker.letter not in MYSTERY_LETTERS:
            raise damaged(
                f"{where}.letter",
                f"Mystery stickers are lettered {MYSTERY_LETTERS[0]} to {MYSTERY_LETTERS[-1]}",
            )
        run.once(where, "mystery", sticker.letter, f"Mystery sticker {sticker.letter}")


def _events_import(run: Importer, archive: dict) -> None:
    owner = run.owner
    for i, data in enumerate(archive["events"]):
        where = f"events[{i}]"
        actor = data.get("actor") if isinstance(data, dict) else None
        if actor is not None and (
            not isinstance(actor, str) or len(actor) > 150 or has_control_characters(actor)
        ):
            raise damaged(f"{where}.actor", "must be a username (a text of at most 150 characters)")
        mine = owner is not None and actor is not None and actor == owner.get_username()
        run.row(
            "events",
            i,
            data,
            actor=owner if mine else None,
            actor_name="" if mine or actor is None else actor,
        )


def _house_number_checked(run: Importer, where: str) -> Callable[[int], int]:
    def checked(number: int) -> int:
        if number not in run.tables["houses"]:
            raise damaged(where, f"refers to House {number!r}, which is not in the archive")
        return number

    return checked


def _sessions_import(run: Importer, archive: dict) -> None:
    """The game sessions: hosted by the importer; each seat with a fresh join token and no phone or
    account joined yet (tokens are secrets: they never travel)."""
    games = set(slugs())
    for i, data in enumerate(archive.get("sessions", [])):
        where = f"sessions[{i}]"
        session = run.row("sessions", i, data, host=run.owner)
        number = data["number"]
        if not is_int(number) or not 1 <= number <= ARCHIVE_SECTION_ROWS["sessions"]:
            raise damaged(f"{where}.number", "must be a whole number from 1")
        run.once(where, "session", number, f"session {number}")
        if session.game not in games:
            raise damaged(f"{where}.game", f"{session.game!r} is not a game of this Chronicle")
        for part in ("config", "state"):
            houses_mapped(getattr(session, part), _house_number_checked(run, f"{where}.{part}"))
        run.tables["sessions"][number] = session
    seats: dict[int, dict[int, Seat]] = {}
    for i, data in enumerate(archive.get("seats", [])):
        seat = run.row("seats", i, data)
        run.once(f"seats[{i}]", "seat", (id(seat.session), seat.index), f"seat {seat.index} of a session")
        seats.setdefault(id(seat.session), {})[seat.index] = seat
    logs = _session_logs_read(run, archive, seats)
    for i, session in enumerate(run.new["sessions"]):
        actions = sorted(logs.get(id(session), []), key=lambda a: a.seq)
        in_force = [action for action in actions if not action.undone]
        _log_replayed(f"sessions[{i}]", session, in_force)
        session.state = replayed_session_state(
            f"sessions[{i}].state",
            game=session.game,
            config=session.config,
            seed=session.seed,
            log=[action.payload for action in in_force],
        )
        check_session_consistent(
            f"sessions[{i}]",
            session=session,
            seats=list(seats.get(id(session), {}).values()),
            actions=actions,
            houses=set(run.tables["houses"]),
        )


def _session_logs_read(run: Importer, archive: dict, seats: dict[int, dict[int, Seat]]) -> dict[int, list]:
    """Every action of the archive (undone ones included), by its session, each checked on its own."""
    logs: dict[int, list] = {}
    for i, data in enumerate(archive.get("actions", [])):
        where = f"actions[{i}]"
        action = run.row("actions", i, data)
        key = id(action.session)
        run.once(where, "action", (key, action.seq), f"action {action.seq} of a session")
        if action.idempotency_key is not None:
            run.once(where, "action key", (key, action.idempotency_key), "an idempotency key of a session")
        if action.seat is not None and action.seat not in seats.get(key, {}):
            raise damaged(f"{where}.seat", f"refers to seat {action.seat}, which is not in its session")
        logs.setdefault(key, []).append(action)
    return logs


def _log_replayed(where: str, session: GameSession, log: list[SessionAction]) -> None:
    """The pages replay a session's log (a night's story, its table): a log the engine refuses is
    told as it can be (the rules may have changed since), but one that breaks the replay is refused."""
    payloads = [action.payload for action in log]
    try:
        if session.game == "kings_dilemma":
            night_story(session.config, session.seed, payloads)
        else:
            rules = get_game(session.game)
            state = rules.setup(session.config, session.seed)
            for payload in payloads:
                state = rules.apply(state, payload)
    except RuleError:
        return
    except Exception as error:  # any other failure: the archive is damaged
        raise damaged(where, ARCHIVE_SESSION_LOG.format(problem=type(error).__name__)) from None


# In dependency order: each section links only to sections read before it.
SECTION_IMPORTS = (
    _houses_and_games_import,
    _house_rows_import,
    _envelopes_import,
    _stickers_import,
    _cards_import,
    _mystery_stickers_import,
    _events_import,
    _sessions_import,
)
