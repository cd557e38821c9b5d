"""Reads of a campaign over months: the story of each night (told from its log by the engine), in
words, and what the records say of it now (a House's page and the realm's statistics, which read
these stories, are statistics_selectors.py). A fixed number of queries whatever the number of nights:
the stories of every night are read in one query of sessions and, for those not yet in the cache,
one query of their logs (a night's story is cached by session and version: a finished night never
changes, so each is replayed once). What the campaign corrected since (the result, the end of the
reign, the stickers) is read from the records at each reading, never cached with the story."""

from __future__ import annotations

import contextlib
import json
import logging
from collections import Counter, defaultdict
from typing import Any

from django.core.cache import cache
from django.db.models import BooleanField, ExpressionWrapper, Q
from django.utils.translation import gettext, gettext_lazy, ngettext, pgettext, pgettext_lazy

from campaign.models import (
    Campaign,
    ChronicleGame,
    ChronicleScore,
    GameEnd,
    House,
    ResourceRow,
    SecretAgenda,
    StoryLink,
)
from campaign.selectors import final_standings, game_results_since, night_stickers_now
from games.engines.kernel.errors import RuleError
from games.engines.kings_dilemma.data import GRAND_FINALE_ENVELOPE
from games.engines.kings_dilemma.story import story_begin, story_fold, story_told
from games.models import GameSession, SessionAction, SessionSnapshot
from games.services.taps import MALFORMED
from games.services.undo import session_snapshots_keep_told
from games.translation import say_stored

logger = logging.getLogger(__name__)
STORY_CACHE = "night-story-v2-{session}-{version}"  # v2: Open Agendas kept as messages
STORY_FOLD = 2  # the version of the stories kept beside the snapshots (told["v"]): others are ignored
STORY_CACHE_SECONDS = 30 * 24 * 3600
SIDES = {"aye": pgettext_lazy("vote", "AYE"), "nay": pgettext_lazy("vote", "NAY")}
PASSES = {
    "gather": gettext_lazy("passed and gathered Power"),
    "moderator": gettext_lazy("passed and became the Moderator"),
}
# What a hand-applied effect gives or takes (the engine's names of them).
AMOUNT_WORDS = {
    "prestige": gettext_lazy("Prestige"),
    "crave": gettext_lazy("Crave"),
    "coins": gettext_lazy("Coins"),
    "power": gettext_lazy("Power"),
}
END_WORDS = dict(GameEnd.choices)
STORY_PAGE_CHAPTERS = 20  # Dilemmas told on one page of a night's story (a night has about ten)
SCORE_POINTS = ("agenda_points", "open_agenda_points", "coins_points", "power_points")
FIGURES = ("dilemmas", "led", "moderated", "voted", "won", "coins_given", "coins_received")


# ---- the stories of the nights -------------------------------------------------------------------


def _cache_get_many(keys: list[str]) -> dict:
    try:
        return cache.get_many(keys)
    except Exception:  # the cache (Redis) is down: tell the stories again
        return {}


def _cache_set_many(values: dict) -> None:
    with contextlib.suppress(Exception):  # no cache: told again next time
        cache.set_many(values, timeout=STORY_CACHE_SECONDS)


def night_stories(*, campaign: Campaign, game: ChronicleGame | None = None) -> dict[int, dict]:
    """The story of each night played at the table (by game id); nights recorded from paper have
    none. The latest session of a game tells it."""
    sessions = GameSession.objects.filter(
        campaign=campaign, game="kings_dilemma", chronicle_game__isnull=False
    )
    if game is not None:
        sessions = sessions.filter(chronicle_game=game)
    latest: dict[int, Any] = {}
    for row in sessions.order_by("pk").values("pk", "chronicle_game_id", "version"):
        latest[row["chronicle_game_id"]] = row
    keys = {STORY_CACHE.format(session=r["pk"], version=r["version"]): r for r in latest.values()}
    cached = _cache_get_many(list(keys))
    missing = {r["pk"]: r for key, r in keys.items() if key not in cached}
    if missing:
        told = _tell(missing)
        cached.update(told)
        _cache_set_many(told)
    return {r["chronicle_game_id"]: cached[key] for key, r in keys.items() if cached.get(key) is not None}


def _tell(missing: dict[int, dict]) -> dict[str, dict]:
    """Tell the nights not in the cache, each from its newest checkpoint (a story kept beside a
    snapshot of the state), else from its setup: their setups in one query, their snapshots in one
    or two, the actions after the checkpoints in one. A night that reached a newer snapshot keeps
    its story there for the next reader (one write for them all)."""
    setups = {
        pk: (config, seed)
        for pk, config, seed in GameSession.objects.filter(pk__in=list(missing)).values_list(
            "pk", "config", "seed"
        )
    }
    starts, newest = _checkpoints(missing)
    logs = _logs(missing, {pk: start["seq"] for pk, start in starts.items()})
    told, kept = {}, {}
    for pk, row in missing.items():
        try:
            story, keep = _fold_night(pk, setups[pk], starts.get(pk), logs[pk], newest.get(pk))
        except RuleError as error:  # a log today's engine refuses: that night untold, the page still shown
            logger.warning("The log of session %s does not replay: %s", pk, error)
            continue
        told[STORY_CACHE.format(session=pk, version=row["version"])] = story
        kept.update(keep)
    if kept:
        session_snapshots_keep_told(told=kept)
    return told


def _checkpoints(missing: dict[int, dict]) -> tuple[dict[int, dict], dict[int, tuple[int, int]]]:
    """For each night: the checkpoint to resume from (the newest snapshot holding a story of this
    fold's version: its seq, state and story) and its newest snapshot (id, seq)."""
    rows = (
        SessionSnapshot.objects.filter(session_id__in=list(missing))
        .annotate(has_told=ExpressionWrapper(Q(told__v=STORY_FOLD), output_field=BooleanField()))
        .order_by("session_id", "seq")
        .values_list("session_id", "pk", "seq", "has_told")
    )
    newest, resume = {}, {}
    for session_id, pk, seq, has_told in rows:
        newest[session_id] = (pk, seq)
        if has_told:
            resume[session_id] = pk
    starts = {}
    if resume:
        chosen = SessionSnapshot.objects.filter(pk__in=list(resume.values()))
        for session_id, seq, state, kept in chosen.values_list("session_id", "seq", "state", "told"):
            if kept:  # as filtered: told of this fold's version
                starts[session_id] = {"seq": seq, "state": state, "story": kept["story"]}
    return starts, newest


def _logs(missing: dict[int, dict], since: dict[int, int]) -> dict[int, list[tuple[int, dict]]]:
    """The actions in force of each night after its checkpoint (all of them without one): one query."""
    after = Q()
    for pk in missing:
        after |= Q(session_id=pk, seq__gt=since.get(pk, 0))
    logs: dict[int, list[tuple[int, dict]]] = defaultdict(list)
    actions = SessionAction.objects.filter(after, undone=False).order_by("session_id", "seq")
    for session_id, seq, payload in actions.values_list("session_id", "seq", "payload"):
        logs[session_id].append((seq, payload))
    return logs


def _fold_night(
    pk: int, setup: tuple, start: dict | None, log: list[tuple[int, dict]], newest: tuple[int, int] | None
) -> tuple[dict, dict[int, dict]]:
    """One night's story, folded from ``start`` (its setup without one) over ``log``; and the story
    to keep at its newest snapshot when the fold passed it ({snapshot id: told})."""
    if start is not None:
        checkpoint: dict = {"story": start["story"], "state": start["state"]}
        try:
            return _fold_from(checkpoint, start["seq"], log, newest)
        except (RuleError, *MALFORMED) as error:  # a checkpoint of older rules: the log is the truth
            logger.info("The story checkpoint of a night does not resume (%s): told from its setup", error)
            log = _logs({pk: {}}, {})[pk]
    return _fold_from(story_begin(*setup), 0, log, newest)


def _fold_from(
    checkpoint: dict, since: int, log: list[tuple[int, dict]], newest: tuple[int, int] | None
) -> tuple[dict, dict[int, dict]]:
    keep: dict[int, dict] = {}
    if newest is not None and newest[1] > since:
        story_fold(checkpoint, [payload for seq, payload in log if seq <= newest[1]])
        keep[newest[0]] = {"v": STORY_FOLD, "story": json.loads(json.dumps(checkpoint["story"]))}
        log = [(seq, payload) for seq, payload in log if seq > newest[1]]
    story_fold(checkpoint, [payload for _, payload in log])
    return story_told(checkpoint), keep


def seat_of(story: dict, house: House) -> int | None:
    return next((h["seat"] for h in story["houses"] if h["house"] == house.pk), None)


# ---- the story of one night, in words --------------------------------------------------------------


def seat_names(story: dict, houses: dict[int, House]) -> list[dict]:
    """Each seat's House: its name as the campaign knows it now, and its colour."""
    named = []
    for seat in story["houses"]:
        house = houses.get(seat["house"])
        named.append(
            {
                "seat": seat["seat"],
                "name": house.name if house else seat["name"],
                "house": house.pk if house else None,
                "colour": house.colour if house else "#5f6b6d",
                "open_agendas": [_open_agenda_said(t) for t in seat.get("open_agendas") or []],
            }
        )
    return named


def _open_agenda_said(token: dict) -> dict:
    """An Open Agenda's words (the story keeps them as message data) in the reader's language."""
    return {
        key: say_stored(value) if key in ("name", "short", "rule") else value for key, value in token.items()
    }


def _chapter(dilemma: dict, names: list[dict], stickers_now: dict[int, dict]) -> dict:
    def who(seat):
        return None if seat is None else names[seat]

    votes = []
    for vote in dilemma["votes"]:
        entry = {"house": who(vote["seat"]), "power": vote["power"], "vote": vote["vote"]}
        if vote["vote"] in SIDES:
            entry["words"] = ngettext(
                "voted {side} with {power} Power", "voted {side} with {power} Power", vote["power"] or 0
            ).format(side=SIDES[vote["vote"]], power=vote["power"])
        elif vote["vote"] in PASSES:
            entry["words"] = str(PASSES[vote["vote"]])
        else:
            entry["words"] = gettext("did not vote")
        votes.append(entry)
    outcome = dilemma["outcome"] or {}
    return {
        "round": dilemma["round"],
        "number": dilemma["number"],
        "title": dilemma["title"],
        "question": dilemma["question"],
        "leader": who(dilemma["leader"]),
        "moderator": who(dilemma["moderator"]),
        "votes": votes,
        "aye": dilemma["aye"],
        "nay": dilemma["nay"],
        "side": dilemma["side"],
        "side_words": str(SIDES.get(dilemma["side"] or "", "")),
        "undecided": dilemma["undecided"],
        "decided_by": who(dilemma["decided_by"]),
        "carried_by": [who(s) for s in dilemma["carried_by"]],
        "resolved_by": who(dilemma["resolved_by"]),
        "leader_changed": dilemma["resolved_by"] is not None and dilemma["resolved_by"] != dilemma["leader"],
        "leader_given_by": who(dilemma["leader_given_by"]),
        "moves": [{"row": row_words(row), "amount": amount} for row, amount in outcome.get("resources", [])],
        "note": outcome.get("note", ""),
        "lightning": bool(outcome.get("lightning")),
        "stickers": [_sticker_now(s, names, stickers_now) for s in dilemma["stickers"]],
        "envelopes": [{**e, "opened_by": who(e["opened_by"])} for e in dilemma["envelopes"]],
        "effects": [_effect_words(e, names) for e in dilemma["effects"]],
        "coins": [
            {"giver": who(g["from"]), "receiver": who(g["to"]), "coins": g["coins"]} for g in dilemma["coins"]
        ],
        "placed": dilemma["placed"],
    }


def row_words(row: str) -> str:
    """A Resource row by the reader's name of it ("Wealth"); a row the board does not know, as it is."""
    return str(ResourceRow(row).label) if row in ResourceRow.values else row.capitalize()


def agenda_words(agenda: str) -> str:
    """A Secret Agenda by the reader's name of it ("Greedy")."""
    return str(SecretAgenda(agenda).label) if agenda in SecretAgenda.values else agenda.capitalize()


def _effect_words(effect: dict, names: list[dict]) -> str:
    label = f" ({effect['label']})" if effect["label"] else ""
    if effect["what"] == "move_resource":
        return (
            gettext("{row} moved {amount}").format(
                row=row_words(effect["row"]), amount=f"{effect['amount']:+d}"
            )
            + label
        )
    if effect["what"] == "adjust":
        house = names[effect["target"]]["name"]
        what = AMOUNT_WORDS.get(effect["kind"], effect["kind"].capitalize())
        amount = abs(effect["amount"])
        if effect["amount"] < 0:
            words = ngettext(
                "House {house} lost {amount} {what}", "House {house} lost {amount} {what}", amount
            )
        else:
            words = ngettext(
                "House {house} received {amount} {what}", "House {house} received {amount} {what}", amount
            )
        return words.format(house=house, amount=amount, what=what) + label
    return gettext("Mystery sticker {letter} was attached").format(letter=effect["letter"]) + label


def story_pages(count: int) -> int:
    """How many pages a story of ``count`` Dilemmas has (at least one)."""
    return max(1, -(-count // STORY_PAGE_CHAPTERS))


def _page(dilemmas: list[dict], page: int | None) -> tuple[list[dict], dict]:
    """The Dilemmas of one page of the story (all of them for ``page=None``) and where it stands:
    a long night is told STORY_PAGE_CHAPTERS Dilemmas at a time, so a page costs what a short
    night's does. A page past the last is the last."""
    pages = story_pages(len(dilemmas))
    if page is None:
        return dilemmas, {"page": 1, "pages": [], "last_page": True}
    page = min(max(page, 1), pages)
    first = (page - 1) * STORY_PAGE_CHAPTERS
    links = [
        {
            "number": n,
            "first": (n - 1) * STORY_PAGE_CHAPTERS + 1,
            "last": min(n * STORY_PAGE_CHAPTERS, len(dilemmas)),
        }
        for n in range(1, pages + 1)
    ]
    where = {"page": page, "pages": links if pages > 1 else [], "last_page": page == pages}
    return dilemmas[first : first + STORY_PAGE_CHAPTERS], where


def night_chapter(
    *, campaign: Campaign, game: ChronicleGame, stories: dict | None = None, page: int | None = None
) -> dict | None:
    """A night's story in the game's words (None for a night recorded from paper): one page of it
    (``page``, from 1), or the whole of it (``page=None``: the API)."""
    stories = night_stories(campaign=campaign, game=game) if stories is None else stories
    story = stories.get(game.pk)
    if story is None:
        return None
    dilemmas, where = _page(story["dilemmas"], page)
    houses = {h.pk: h for h in campaign.houses.all()}
    names = seat_names(story, houses)
    # What a correction changed is read from the records at each reading, never kept with the story
    # told from the log (which a correction cannot change): nothing a correction can miss is cached.
    recorded = None
    if game.recorded and story["over"]:
        recorded = game_results_since(campaign=campaign, game=game).get(game.pk, {"rows": [], "end_on": None})
    stickers_now = night_stickers_now(campaign=campaign, game=game)
    ranking, dropped = None, []
    if recorded and recorded["rows"]:
        ranking = _ranking_now(story, names, recorded["rows"])
        dropped = _dropped_now(story, names, recorded.get("dropped", []))
    elif story["over"]:
        ranking = [
            {
                **row,
                "house": names[row["seat"]],
                "secret_agenda": agenda_words(row["secret_agenda"]),
                # Tied winners share the victory; the Moderator chose who married into the royal line.
                "heir": len(story["winners"]) > 1 and row["seat"] == story["heir"],
                "was": {},
                "corrected_on": None,
            }
            for row in story["ranking"]
        ]
    gifts: Counter[tuple[int, int]] = Counter()
    for gift in story["coins"]:
        gifts[(gift["from"], gift["to"])] += gift["coins"]
    return {
        "game": game,
        "king_name": story["king_name"],
        "houses": names,
        "open_agendas": [h for h in names if h["open_agendas"]],  # the Houses that hold any
        "over": story["over"],
        "chapters": [_chapter(d, names, stickers_now) for d in dilemmas],
        **where,
        **_end_now(story, game, recorded),
        "resources_final": [
            {"row": row_words(row), "position": position}
            for row, position in (story["resources_final"] or {}).items()
        ],
        "ranking": ranking,
        "dropped": dropped,
        "coins": [{"giver": names[a], "receiver": names[b], "coins": n} for (a, b), n in gifts.items()],
    }


def night_finale(*, campaign: Campaign, game: ChronicleGame) -> dict | None:
    """The campaign's final standings, told with the night that opened Envelope 70, the Grand Finale
    (None for every other night)."""
    if not campaign.envelopes.filter(number=GRAND_FINALE_ENVELOPE, game=game).exists():
        return None
    return final_standings(campaign=campaign)


# ---- what the records say now of a night the table played --------------------------------------------


def _house_entry(house: House, names: list[dict]) -> dict:
    """A House as the story names it: its seat at the table, or none (a House a correction added)."""
    seated = next((n for n in names if n["house"] == house.pk), None)
    return seated or {"seat": None, "name": house.name, "house": house.pk, "colour": house.colour}


def _rank_words(position: int, last: bool) -> str:
    return pgettext("rank", "Last") if last else str(position)


def row_was(old: dict | None, entry: dict) -> dict[str, str]:
    """What the table played of a Realm Chronicles row a correction changed (rank, Secret Agenda,
    points), where it differs from the row now; empty for a row as the table played it."""
    score = entry["score"]
    if not entry["corrected"]:
        return {}
    if old is None:
        return {"rank": gettext("not at this table")}
    shown = {
        "rank": (_rank_words(old["position"], old["last"]), _rank_words(score.position, score.last)),
        "secret_agenda": (agenda_words(old["secret_agenda"]), str(score.get_secret_agenda_display())),
        "total": (str(old["total"]), str(score.total)),
    }
    return {key: then for key, (then, now) in shown.items() if then != now}


def _ranking_now(story: dict, names: list[dict], rows: list[dict]) -> list[dict]:
    """The night's ranking as the Realm Chronicles hold it now; where a correction made a row differ
    from what the table played, ``was`` says what the table played (rank, Secret Agenda, points)."""
    played = {row["house"]: row for row in story["ranking"] or []}
    ranking = []
    for entry in rows:
        score, old = entry["score"], played.get(entry["score"].house_id)
        was = row_was(old, entry)
        ranking.append(
            {
                **{f: getattr(score, f) for f in (*SCORE_POINTS, "total", "position", "last")},
                "seat": old["seat"] if old else None,
                "name": score.house.name,
                "house": _house_entry(score.house, names),
                "secret_agenda": str(score.get_secret_agenda_display()),
                "heir": old is not None and len(story["winners"]) > 1 and old["seat"] == story["heir"],
                "was": was,
                "corrected_on": entry["since"] if was else None,
            }
        )
    return ranking


def _dropped_now(story: dict, names: list[dict], dropped: list[dict]) -> list[dict]:
    """The Houses a correction took out of the night's Realm Chronicles table: each with the rank
    the table gave it (None: one a correction had added) and when it was taken out."""
    played = {row["house"]: row for row in story["ranking"] or []}
    shown = []
    for entry in dropped:
        score, old = entry["score"], played.get(entry["score"].house_id)
        shown.append(
            {
                "house": _house_entry(score.house, names),
                "rank": _rank_words(old["position"], old["last"]) if old else None,
                "removed_on": entry["since"],
            }
        )
    return shown


def _end_now(story: dict, game: ChronicleGame, recorded: dict | None) -> dict:
    """How the reign ended, as recorded now, and how the table played it when a correction changed it."""
    end = game.end if recorded is not None and game.end else story["end"]
    changed = end != story["end"] and story["end"] is not None
    return {
        "end": end,
        "end_words": str(END_WORDS.get(end or "", "")),
        "end_was": str(END_WORDS.get(story["end"] or "", "")) if changed else "",
        "end_corrected_on": recorded["end_on"] if changed and recorded is not None else None,
    }


def _sticker_now(told: dict, names: list[dict], stickers_now: dict[int, dict]) -> dict:
    """A sticker of the night as the board holds it now: corrected (``was``: what the table typed) or
    removed since, with when."""
    signer = None if told["signer"] is None else names[told["signer"]]
    shown = {
        **told,
        "row": row_words(told["row"]),
        "signer": signer,
        "was": "",
        "changed_on": None,
        "removed": False,
    }
    held = stickers_now.get(told["number"])
    if held is None or held["changed_on"] is None:
        return shown
    if held["removed"]:
        return {**shown, "removed": True, "changed_on": held["changed_on"]}
    sticker = held["sticker"]
    if sticker is None:
        return shown
    now = {
        "number": sticker.number,
        "row": str(sticker.get_row_display()),
        "positive": sticker.positive,
        "signer": None if sticker.signer is None else _house_entry(sticker.signer, names),
    }
    was = _sticker_was(shown, now)
    return {**shown, **now, "was": was, "changed_on": held["changed_on"]} if was else shown


def _sticker_was(then: dict, now: dict) -> str:
    """What the table typed of a sticker where it differs from the board now: 'sticker 31 in the
    Wealth row, negative, signed by House Anna'."""
    where = []
    if then["number"] != now["number"]:
        where.append(gettext("sticker {number}").format(number=then["number"]))
    if then["row"] != now["row"]:
        where.append(gettext("in the {row} row").format(row=then["row"]))
    parts = [" ".join(where)] if where else []
    if then["positive"] != now["positive"]:
        parts.append(pgettext("sticker", "positive") if then["positive"] else pgettext("sticker", "negative"))
    house = (then["signer"] or {}).get("house")
    if house != (now["signer"] or {}).get("house"):
        parts.append(
            gettext("signed by House {house}").format(house=then["signer"]["name"])
            if then["signer"]
            else gettext("unsigned")
        )
    return ", ".join(parts)


def game_for_story(*, campaign: Campaign, number: int) -> ChronicleGame | None:
    return campaign.games.filter(number=number).first()


def story_link_live(*, game: ChronicleGame) -> StoryLink | None:
    return game.story_links.filter(revoked_at__isnull=True).first()


def story_link_for_token(*, token: str, revoked: bool = False) -> StoryLink | None:
    """The live link with this token (a revoked or unknown token: None); with ``revoked``, the
    link however it stands, so its page can say that it was revoked."""
    if not isinstance(token, str) or not 20 <= len(token) <= 64:
        return None
    links = StoryLink.objects.filter(token=token)
    if not revoked:
        links = links.filter(revoked_at__isnull=True)
    return links.select_related("game", "campaign").first()


def game_scores(*, game: ChronicleGame) -> list[ChronicleScore]:
    """The Realm Chronicles rows of one game (its current revision), in ranking order."""
    return list(
        game.scores.filter(revision=game.revision)
        .select_related("house")
        .order_by("position", "house__number")
    )
