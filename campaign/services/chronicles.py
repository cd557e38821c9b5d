"""The Realm Chronicles: a game begun, its legacy setup, its result (Prestige/Crave, alignment) and
corrections, and the charts drawn from them."""

from __future__ import annotations

import dataclasses
import datetime
from collections.abc import Collection
from typing import Any

from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils import translation
from django.utils.text import format_lazy
from django.utils.translation import gettext, gettext_lazy

from campaign import legacy
from campaign.charts import CHARTS, SIZES, chart_cache_key, chart_languages, chart_stamp
from campaign.models import (
    RESOURCE_ROWS,
    SECRET_AGENDAS,
    Achievement,
    Campaign,
    ChronicleGame,
    ChronicleScore,
    GameEnd,
    House,
    LedgerEntry,
    SecretAgenda,
)
from campaign.selectors import campaign_setting, houses_by_prestige, night_running, storylines
from campaign.services.common import (
    CAMPAIGN_CLOSED,
    NAME_CONTROL_CHARACTERS,
    UNKNOWN_AGENDA,
    Actor,
    check_house,
    in_english,
    record_event,
    task_named,
)
from campaign.services.houses import alignment_mark
from campaign.services.ledger import ledger_add, prestige_check
from campaign.services.stickers import NOTHING_TO_CORRECT, _sticker_info, chronicle_age
from games.engines.kernel.messages import Message, gettext_noop, join
from games.engines.kernel.text import has_control_characters
from games.engines.kings_dilemma import scoring
from games.engines.kings_dilemma.data import MAX_SEATS, MIN_SEATS, RESOURCE_TRACK_ROWS
from games.engines.kings_dilemma.messages import AGENDA_NAMES

MIN_PLAYERS, MAX_PLAYERS = MIN_SEATS, MAX_SEATS  # Houses in one game of The King's Dilemma


CHARTS_TASK = "campaign.tasks.campaign_charts_task"  # renders the charts into the cache (sent by name)
RESULT_PLAYERS = gettext_lazy("A game has 3 to 5 Houses; got {count}.")


RESULT_HOUSE_TWICE = gettext_lazy("House {house} appears twice in the result.")


PAPER_GAME_NIGHT_RUNNING = gettext_lazy(
    "Game night #{session} of this campaign runs at the table: save it, or abandon it, before "
    "beginning a game on paper."
)


RESULT_ALREADY = gettext_lazy("Game {number} already has a result: correct it instead.")


RESULT_NOT_RECORDED = gettext_lazy("Game {number} has no result to correct yet.")


UNKNOWN_END = gettext_lazy("{end!r} is not a way a game ends (king_died, abdicated_top, abdicated_bottom).")


ALIGNMENT_UNLOCKED_HERE = gettext_lazy(
    "House {house} unlocked {achievement} in this game: correct its Secret Agenda by hand in the admin."
)
RESOURCES_FINAL_FORMAT = format_lazy(
    gettext_lazy(
        "Final Resource positions are rows 1 to {rows} of Influence, Wealth, Morale, Welfare, Knowledge."
    ),
    rows=RESOURCE_TRACK_ROWS,
)
AWARDS_FORMAT = gettext_lazy(
    "The engine's awards must give position, last, prestige, crave and rebel_crave per House."
)


# The history's and the ledger's words (kept as messages, said in each reader's language).
GAME_BEGUN = gettext_noop("Game {number} begins under King {king}")
GAME_RECORDED = gettext_noop("Game {number} recorded ({end}); won by {winners}")
GAME_CORRECTED = gettext_noop("Game {number} corrected (revision {revision}) ({changes})")
GAME_CORRECTED_BECAUSE = gettext_noop("Game {number} corrected (revision {revision}): {reason} ({changes})")
GAME_AWARD = gettext_noop("Game {number} (King {king}): {rank}")
REBEL_CRAVE = gettext_noop("Rebel, the King abdicated (game {number})")
CORRECTION_AWARD = gettext_noop("Correction of game {number} (King {king}): {why}")
RANK = gettext_noop("position {position}")
RANK_LAST = gettext_noop("position {position} (Last)")
NOT_IN_RESULT = gettext_noop("not in the result")
RANK_CHANGED = gettext_noop("{before} → {after}")
AGENDA_CHANGED = gettext_noop("Secret Agenda {before} → {after}")
END_OF_REIGN = gettext_noop("the end of the reign")
END_CHANGED = gettext_noop("end: {before} → {after}")
HOUSE_ADDED = gettext_noop("House {house} added")
HOUSE_REMOVED = gettext_noop("House {house} removed")
HOUSE_CHANGED = gettext_noop("House {house}: {changes}")
# The ways a reign ends, as the Realm Chronicles say them (the model's labels, as messages).
END_WORDS = {
    "king_died": gettext_noop("The King died"),
    "abdicated_top": gettext_noop("The King abdicated (Stability at the top)"),
    "abdicated_bottom": gettext_noop("The King abdicated (Stability at the bottom)"),
}


def legacy_setup_compute(*, campaign: Campaign, houses: list[House], aged: bool = False) -> dict:
    """Legacy setup for the participating Houses (read-only): Resource legacy, starting Power
    (8 + abilities + Power legacy, never below 0) and Coins (10 + abilities), Open Agendas, the
    Secret Agenda draft order (lowest Prestige first), the Leader and the Moderator. ``aged``: the
    board as 'Chronicle aging' leaves it (one more mark on each sticker), computed without writing
    it: a table night ages the board only when it is saved."""
    for house in houses:
        check_house(campaign, house)
    participants = {h.pk for h in houses}
    stickers = [_sticker_info(s) for s in campaign.stickers.filter(covered=False)]
    if aged:
        squares = campaign_setting(campaign, "aging_squares")
        stickers = [dataclasses.replace(s, marks=min(s.marks + 1, squares)) for s in stickers]
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
        "prestige": {h.pk: h.prestige for h in ordered},  # type: ignore[attr-defined]  # annotated ledger sum
    }


@transaction.atomic
def game_begin(
    *,
    campaign: Campaign,
    king_name: str,
    played_on: datetime.date | None = None,
    actor: Actor = None,
    aging: Collection[int] | None = None,
) -> ChronicleGame:
    """A new game of the campaign: its Realm Chronicles table, then Chronicle aging. A game played
    on paper begins here (never while a table night of the campaign runs); a table night saved
    (``aging``: the numbers of the stickers on the board when it began) begins here at its save."""
    campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)
    if campaign.closed:
        raise ValidationError(CAMPAIGN_CLOSED)
    if has_control_characters(king_name or ""):  # the API and the pages alike
        raise ValidationError(NAME_CONTROL_CHARACTERS)
    running = night_running(campaign=campaign) if aging is None else None
    if running is not None:
        raise ValidationError(PAPER_GAME_NIGHT_RUNNING.format(session=running.pk))
    number = (campaign.games.aggregate(top=Max("number"))["top"] or 0) + 1
    game = ChronicleGame(
        campaign=campaign,
        number=number,
        king_name=(king_name or "").strip() or str(number),  # pages write "King 3"
        played_on=played_on or datetime.date.today(),
    )
    game.full_clean()
    game.save()
    record_event(
        campaign, "game_begun", GAME_BEGUN.format(number=number, king=game.king_name), actor=actor, game=game
    )
    chronicle_age(campaign=campaign, game=game, actor=actor, numbers=aging)
    return game


def _awards_checked(awards: list[dict], count: int) -> list[dict]:
    """The engine's awards, one per row, of the shape ``scoring.awards_for`` answers."""
    keys = ("position", "last", "prestige", "crave", "rebel_crave")
    if len(awards) != count or any(
        not isinstance(a, dict) or not all(isinstance(a.get(k), int) for k in keys) for a in awards
    ):
        raise ValidationError(AWARDS_FORMAT)
    return [{k: a[k] for k in keys} for a in awards]


def _validated_rows(
    game: ChronicleGame, end: str, rows: list[dict], awards: list[dict] | None = None
) -> list[dict]:
    """The rows checked, each with its award: the engine's when it scored the game, otherwise the
    engine's scoring applied to the typed points (a game played on paper)."""
    if end not in GameEnd.values:
        raise ValidationError(UNKNOWN_END.format(end=end))
    if not MIN_PLAYERS <= len(rows) <= MAX_PLAYERS:
        raise ValidationError(RESULT_PLAYERS.format(count=len(rows)))
    seen = set()
    clean = []
    for row in rows:
        house = row["house"]
        check_house(game.campaign, house)
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
    if awards is None:
        awards = scoring.awards_for(end, [r["total"] for r in clean], [r["secret_agenda"] for r in clean])
    for row, award in zip(clean, _awards_checked(awards, len(clean)), strict=True):
        row.update(award)
    return clean


def _write_scores(game: ChronicleGame, rows: list[dict]) -> None:
    """The rows of the game's current revision of its Realm Chronicles table."""
    for row in rows:
        ChronicleScore.objects.create(
            game=game, revision=game.revision, **{k: v for k, v in row.items() if k != "rebel_crave"}
        )


def _award(game: ChronicleGame, rows: list[dict], actor: Actor) -> None:
    """'Gain Prestige and Crave': each row's award from the table, a ledger entry per kind."""
    for row in rows:
        for kind in ("prestige", "crave"):
            ledger_add(
                house=row["house"],
                kind=kind,
                amount=row[kind],
                reason=GAME_AWARD.format(number=game.number, king=game.king_name, rank=_rank_words(row)),
                source=LedgerEntry.Source.GAME_RESULT,
                game=game,
                actor=actor,
            )


def _rank_words(row: dict | None) -> Message:
    if row is None:
        return NOT_IN_RESULT
    return (RANK_LAST if row["last"] else RANK).format(position=row["position"])


def _rebel_crave(game: ChronicleGame, rows: list[dict], actor: Actor) -> None:
    # Printed on the Rebel card: +1 Crave when the King abdicated (a ledger entry of its own).
    for row in rows:
        if row["rebel_crave"]:
            ledger_add(
                house=row["house"],
                kind="crave",
                amount=row["rebel_crave"],
                reason=REBEL_CRAVE.format(number=game.number),
                source=LedgerEntry.Source.SECRET_AGENDA,
                game=game,
                actor=actor,
            )


@transaction.atomic
def game_result_record(
    *,
    game: ChronicleGame,
    end: str,
    rows: list[dict],
    resources_final: dict | None = None,
    awards: list[dict] | None = None,
    actor: Actor = None,
) -> ChronicleGame:
    """'Mark scores on the Realm Chronicles', then Prestige/Crave and the House Alignment marks.
    ``rows``: one dict per House with house, secret_agenda, agenda_points, open_agenda_points,
    coins_points, power_points. ``awards``: the engine's, when the table companion scored the game
    (``games.engines.kings_dilemma.scoring.awards_for``); without them the same function is applied here."""
    game = ChronicleGame.objects.select_for_update().select_related("campaign").get(pk=game.pk)
    if game.recorded:
        raise ValidationError(RESULT_ALREADY.format(number=game.number))
    clean = _validated_rows(game, end, rows, awards)
    game.end, game.recorded = end, True
    if resources_final is not None:
        if set(resources_final) - set(RESOURCE_ROWS) or not all(
            isinstance(v, int) and 1 <= v <= RESOURCE_TRACK_ROWS for v in resources_final.values()
        ):
            raise ValidationError(RESOURCES_FINAL_FORMAT)
        game.resources_final = resources_final
    game.save(update_fields=["end", "recorded", "resources_final"])
    _write_scores(game, clean)
    _award(game, clean, actor)
    _rebel_crave(game, clean, actor)
    for row in clean:
        alignment_mark(house=row["house"], agenda=row["secret_agenda"], game=game, actor=actor)
    transaction.on_commit(lambda: task_named(CHARTS_TASK).delay(game.campaign_id), robust=True)
    winners = ", ".join(r["house"].name for r in clean if r["position"] == 1)
    record_event(
        game.campaign,
        "game_recorded",
        GAME_RECORDED.format(number=game.number, end=_end_words(end), winners=winners),
        actor=actor,
        game=game,
    )
    return game


def _alignment_follow(game: ChronicleGame, old: list[dict], clean: list[dict], actor: Actor) -> None:
    """A corrected Secret Agenda moves its alignment mark from the old agenda to the new one."""
    old_agenda = {r["house"].pk: r["secret_agenda"] for r in old}
    for row in clean:
        previous = old_agenda.get(row["house"].pk)
        if previous == row["secret_agenda"]:
            continue
        if previous:
            alignment = row["house"].achievements.get(kind=Achievement.Kind.ALIGNMENT, agenda=previous)
            if alignment.unlocked and alignment.unlocked_in_id == game.pk:
                raise ValidationError(
                    ALIGNMENT_UNLOCKED_HERE.format(house=row["house"].name, achievement=alignment.name)
                )
            if alignment.marked and not alignment.unlocked:
                alignment.marked -= 1
                alignment.save(update_fields=["marked"])
        alignment_mark(house=row["house"], agenda=row["secret_agenda"], game=game, actor=actor)


@transaction.atomic
def game_result_correct(
    *, game: ChronicleGame, end: str, rows: list[dict], reason: str = "", actor: Actor = None
) -> ChronicleGame:
    """A correction is recorded, not an overwrite: the old revision stays and the new one is written;
    the ledger gets only the difference, one entry per House and kind whose award changed (a
    correction that moves no ranking writes no ledger entry). A correction that changes nothing is
    refused and writes nothing. Alignment marks follow a changed Secret Agenda unless the old one was
    unlocked by this very game."""
    game = ChronicleGame.objects.select_for_update().select_related("campaign").get(pk=game.pk)
    if not game.recorded:
        raise ValidationError(RESULT_NOT_RECORDED.format(number=game.number))
    previous = list(game.scores.filter(revision=game.revision).select_related("house"))
    old: list[dict[str, Any]] = [
        {
            "house": s.house,
            "secret_agenda": s.secret_agenda,
            "position": s.position,
            "last": s.last,
            "prestige": s.prestige,
            "crave": s.crave,
            "rebel_crave": scoring.rebel_crave(game.end, s.secret_agenda),
        }
        for s in previous
    ]
    clean = _validated_rows(game, end, rows)
    changes = _result_changes(game, end, previous, clean)
    if not changes:
        raise ValidationError(
            NOTHING_TO_CORRECT.format(thing=gettext("game {number}").format(number=game.number))
        )
    _alignment_follow(game, old, clean, actor)
    game.revision += 1
    game.end = end
    game.save(update_fields=["revision", "end"])
    _write_scores(game, clean)
    changed = _award_differences(game, old, clean, actor)
    prestige_check(houses=changed)
    record_event(
        game.campaign,
        "game_corrected",
        (GAME_CORRECTED_BECAUSE if reason else GAME_CORRECTED).format(
            number=game.number, revision=game.revision, reason=reason, changes=join(changes, "; ")
        ),
        actor=actor,
        game=game,
        changes=[str(change) for change in changes],
        revision=game.revision,
    )
    return game


def _award_differences(game: ChronicleGame, old: list[dict], clean: list[dict], actor: Actor) -> list[House]:
    """The ledger entries of a correction: for each House whose Prestige or Crave award changed
    (the Rebel's Crave counted in), one entry per kind with the difference. Returns those Houses."""
    before = {row["house"].pk: row for row in old}
    after = {row["house"].pk: row for row in clean}
    changed = []
    for pk in [*before, *(pk for pk in after if pk not in before)]:
        was, now = before.get(pk), after.get(pk)
        house = after[pk]["house"] if now is not None else before[pk]["house"]
        reason = CORRECTION_AWARD.format(
            number=game.number, king=game.king_name, why=_correction_words(was, now)
        )
        for kind in ("prestige", "crave"):
            delta = _awarded(now, kind) - _awarded(was, kind)
            if delta:
                ledger_add(
                    house=house,
                    kind=kind,
                    amount=delta,
                    reason=reason,
                    source=LedgerEntry.Source.CORRECTION,
                    game=game,
                    actor=actor,
                )
                changed.append(house)
    return changed


def _correction_words(was: dict | None, now: dict | None) -> Message:
    """Why a House's award changed: its rank, else its Secret Agenda (the Rebel), else the end."""
    if _rank_words(was) != _rank_words(now):
        return RANK_CHANGED.format(before=_rank_words(was), after=_rank_words(now))
    if was is not None and now is not None and was["secret_agenda"] != now["secret_agenda"]:
        return AGENDA_CHANGED.format(
            before=_shown("secret_agenda", was["secret_agenda"]),
            after=_shown("secret_agenda", now["secret_agenda"]),
        )
    return END_OF_REIGN


def _awarded(row: dict | None, kind: str) -> int:
    """What a row of the table gave its House of ``kind`` (the Rebel's Crave included)."""
    if row is None:
        return 0
    return row[kind] + (row["rebel_crave"] if kind == "crave" else 0)


# A changed field of a Realm Chronicles row, from what to what (each a whole phrase to translate).
SCORE_WORDS = {
    "secret_agenda": AGENDA_CHANGED,
    "agenda_points": gettext_noop("Agenda points {before} → {after}"),
    "open_agenda_points": gettext_noop("Open Agenda {before} → {after}"),
    "coins_points": gettext_noop("Coins {before} → {after}"),
    "power_points": gettext_noop("Power {before} → {after}"),
    "position": gettext_noop("position {before} → {after}"),
}


def _shown(key: str, value: Any) -> Any:
    if key == "secret_agenda":
        return AGENDA_NAMES.get(value, in_english(SecretAgenda(value).label))
    return value


def _end_words(end: str) -> Any:
    return END_WORDS.get(end, in_english(GameEnd(end).label))


def _result_changes(
    game: ChronicleGame, end: str, previous: list[ChronicleScore], clean: list[dict]
) -> list[Message]:
    """What a correction changes in a Realm Chronicles table, from what to what, House by House."""
    changes = (
        [END_CHANGED.format(before=_end_words(game.end), after=_end_words(end))] if end != game.end else []
    )
    before = {score.house_id: score for score in previous}
    for row in clean:
        name = row["house"].name
        old = before.pop(row["house"].pk, None)
        if old is None:
            changes.append(HOUSE_ADDED.format(house=name))
            continue
        diffs = [
            words.format(before=_shown(key, getattr(old, key)), after=_shown(key, row[key]))
            for key, words in SCORE_WORDS.items()
            if getattr(old, key) != row[key]
        ]
        if diffs:
            changes.append(HOUSE_CHANGED.format(house=name, changes=join(diffs, ", ")))
    return changes + [HOUSE_REMOVED.format(house=score.house.name) for score in before.values()]


def campaign_charts_render(*, campaign_id: int) -> list[str]:
    """Render and cache every chart in both sizes, keyed by the campaign's last event, in each
    language its members read (a chart's words are in one language)."""
    campaign = Campaign.objects.get(pk=campaign_id)
    stamp = chart_stamp(campaign=campaign)
    keys = []  # (a cache outage raises here: Celery retries the task)
    for language in chart_languages(campaign=campaign):
        with translation.override(language):
            for name, render in CHARTS.items():
                for size in SIZES:
                    key = chart_cache_key(
                        campaign=campaign, name=name, size=size, stamp=stamp, language=language
                    )
                    cache.set(key, render(campaign=campaign, size=size), timeout=7 * 24 * 3600)
                    keys.append(key)
    return keys
