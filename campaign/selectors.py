"""Read-only queries of a campaign. Each page's data comes from a fixed number of queries,
whatever the number of games (see tests/integration/campaign/test_query_counts.py)."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from allauth.account.models import EmailAddress
from django.core.cache import cache
from django.db.models import IntegerField, OuterRef, Prefetch, Q, QuerySet, Subquery, Sum, Value
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext, pgettext

from campaign import legacy
from campaign.access import is_demo
from campaign.charts import CHARTS, chart_cache_key, chart_stamp
from campaign.models import (
    RESOURCE_ROWS,
    AccountPreference,
    Achievement,
    Campaign,
    CampaignEvent,
    ChronicleGame,
    ChronicleScore,
    ChronicleSticker,
    DilemmaCard,
    House,
    Invitation,
    LedgerEntry,
    Membership,
    ResourceRow,
    StoryCard,
)
from games.access import seats_of_user
from games.engines.kings_dilemma.data import GRAND_FINALE_ENVELOPE
from games.models import GameSession

NIGHTS_ABANDONED_SHOWN = 5
NIGHT_GAME = "kings_dilemma"  # a campaign's nights are played with the King's Dilemma engine


def campaign_setting(campaign: Campaign, key: str):
    """A campaign's value of a setting, or the default when it has none (or one out of range,
    stored before settings were checked)."""
    settings = campaign.settings if isinstance(campaign.settings, dict) else {}
    value = settings.get(key, legacy.DEFAULT_SETTINGS[key])
    if legacy.settings_problems({key: value}):
        return legacy.DEFAULT_SETTINGS[key]
    return value


def campaign_list_for_user(*, user) -> QuerySet[Campaign]:
    if not user.is_authenticated:
        return Campaign.objects.none()
    campaigns = Campaign.objects.filter(memberships__user=user)
    if is_demo(user):  # the demo account sees the demo campaign only (campaign/access.py)
        campaigns = campaigns.filter(created_by=user)
    return campaigns.order_by("-created_at").distinct()


def campaign_is_member(*, campaign: Campaign, user) -> bool:
    """A member of any role (campaign/access.py says what each role may do)."""
    return user.is_authenticated and campaign.memberships.filter(user=user).exists()


def last_night_houses(*, campaign: Campaign) -> list[int]:
    """The Houses of the campaign's latest game night, in its table order (ids), to offer the
    same seats again; an empty list before the first night."""
    last = campaign.sessions.order_by("-created", "-pk").values("config").first()
    seats = last["config"].get("seats", []) if last and isinstance(last["config"], dict) else []
    known = set(campaign.houses.values_list("pk", flat=True))
    return [s["house"] for s in seats if isinstance(s, dict) and s.get("house") in known]


def _ledger_sum(kind: str):
    return Coalesce(
        Subquery(
            LedgerEntry.objects.filter(house=OuterRef("pk"), kind=kind)
            .values("house")
            .annotate(total=Sum("amount"))
            .values("total")[:1],
            output_field=IntegerField(),
        ),
        Value(0),
    )


def house_list(*, campaign: Campaign) -> QuerySet[House]:
    """Houses with their Prestige and Crave totals (ledger sums) and achievements."""
    return (
        campaign.houses.annotate(prestige=_ledger_sum("prestige"), crave=_ledger_sum("crave"))
        .select_related("user")
        .prefetch_related(Prefetch("achievements", queryset=Achievement.objects.order_by("kind", "id")))
        .order_by("number")
    )


def house_totals(*, house: House) -> dict[str, int]:
    totals = dict.fromkeys(("prestige", "crave"), 0)
    for row in house.ledger.values("kind").annotate(total=Sum("amount")):
        totals[row["kind"]] = row["total"]
    return totals


def houses_by_prestige(*, campaign: Campaign, houses: list[House] | None = None) -> list[House]:
    """Highest Prestige first; ties broken by the higher House number ('Breaking ties of Prestige')."""
    annotated = {h.pk: h for h in house_list(campaign=campaign)}
    chosen = [annotated[h.pk] for h in houses] if houses is not None else list(annotated.values())
    return sorted(chosen, key=lambda h: legacy.prestige_order_key(h.prestige, h.number), reverse=True)  # type: ignore[attr-defined]  # annotated by house_list


def visible_stickers(*, campaign: Campaign) -> list[ChronicleSticker]:
    return list(campaign.stickers.filter(covered=False).select_related("signer").order_by("row", "slot"))


def realm_board(*, campaign: Campaign) -> list[dict]:
    """The five Chronicle rows, each a list of spaces (a sticker or None), left to right."""
    capacity = campaign_setting(campaign, "row_capacity")
    squares = campaign_setting(campaign, "aging_squares")
    rows: dict[str, list[ChronicleSticker | None]] = {row: [None] * capacity for row in RESOURCE_ROWS}
    for sticker in visible_stickers(campaign=campaign):
        if sticker.slot < capacity:
            # The sticker's aging squares, marked ones first, as the box draws them.
            sticker.aging_squares = [i < sticker.marks for i in range(max(squares, sticker.marks))]  # type: ignore[attr-defined]  # for the template only
            rows[sticker.row][sticker.slot] = sticker
    return [
        {"row": row, "label": str(ResourceRow(row).label), "spaces": spaces} for row, spaces in rows.items()
    ]


def storylines(*, campaign: Campaign) -> list[dict]:
    """Story cards by storyline as the next game sets them up ('Setup Story and Event Cards': "ordered
    by number, with the highest number on top"), whatever order they were opened in; only the top
    card's ability is active."""
    grouped: dict[str, list[StoryCard]] = defaultdict(list)
    for card in campaign.story_cards.select_related("signer").order_by("storyline", "-number"):
        grouped[card.storyline].append(card)
    return [{"storyline": name, "top": cards[0], "cards": cards} for name, cards in grouped.items()]


def save_slots(*, campaign: Campaign) -> dict[str, list[DilemmaCard]]:
    slots: dict[str, list[DilemmaCard]] = {place: [] for place in DilemmaCard.Place.values}
    for card in campaign.dilemma_cards.order_by("number"):
        slots[card.place].append(card)
    return slots


def realm_chronicles(*, campaign: Campaign) -> list[ChronicleGame]:
    """Every game with the rows of its current revision (two queries whatever the number of games)."""
    games = list(campaign.games.order_by("number"))
    rows = defaultdict(list)
    for score in ChronicleScore.objects.filter(game__campaign=campaign).select_related("house", "game"):
        if score.revision == score.game.revision:
            rows[score.game_id].append(score)
    for game in games:
        game.current_scores = sorted(rows[game.pk], key=lambda s: (s.position, -s.total, s.house.number))
    return games


def campaign_history(*, campaign: Campaign, kind: str | None = None) -> QuerySet[CampaignEvent]:
    events = campaign.events.select_related("actor", "house", "game")
    return events.filter(kind=kind) if kind else events


STICKER_EVENTS = "sticker_"  # the kinds of the events of one Chronicle sticker (attached, corrected...)


def sticker_lives(*, events: QuerySet[CampaignEvent]) -> list[list[CampaignEvent]]:
    """The events of each Chronicle sticker, oldest first, followed through its corrections: a
    sticker keeps its identity when its number is corrected (one typed 31 and corrected to 13 is
    one sticker), and a number freed by a correction or a removal may start another's life."""
    lives: list[list[CampaignEvent]] = []
    current: dict[int, list[CampaignEvent]] = {}
    ordered = events.filter(kind__startswith=STICKER_EVENTS).select_related("actor", "house", "game")
    for event in ordered.order_by("created_at", "id"):
        data = event.data if isinstance(event.data, dict) else {}
        number = data.get("number")
        if not isinstance(number, int):
            continue
        if event.kind == "sticker_attached":
            life = current[number] = [event]
            lives.append(life)
            continue
        was = data.get("was_number", number)
        found = current.pop(was, None) if isinstance(was, int) else None
        if found is None:  # attached before the history began: its life starts here
            found = []
            lives.append(found)
        life = found
        life.append(event)
        if event.kind != "sticker_removed":
            current[number] = life
    return lives


def _carried(life: list[CampaignEvent], number: int) -> bool:
    return any(number in (e.data.get("number"), e.data.get("was_number")) for e in life)


def sticker_event_ids(*, events: QuerySet[CampaignEvent], number: int) -> list[int]:
    """The events of every sticker that carried ``number``, then or now."""
    return [e.pk for life in sticker_lives(events=events) if _carried(life, number) for e in life]


def sticker_history(*, campaign: Campaign, number: int) -> QuerySet[CampaignEvent]:
    """Answers 'who signed sticker 43, in which game?': the events of each sticker that carried the
    number, then or now, followed through its corrections (asked for 13, a sticker typed 31 and
    corrected to 13 answers with its attachment as 31, signer and night, and its correction)."""
    ids = sticker_event_ids(events=campaign.events.all(), number=number)
    return campaign_history(campaign=campaign).filter(pk__in=ids)


def _signer_words(house: House | None) -> str:
    return gettext("House {name}").format(name=house.name) if house else pgettext("signer", "nobody")


def sticker_answers(*, campaign: Campaign, number: int) -> list[dict]:
    """'Who signed sticker N': for each sticker that carried N, its number now (None: removed), who
    signed it (as corrected), the night it was signed in, the number it was attached as and when it
    was last corrected or removed."""
    answers = []
    board = {s.number: s for s in campaign.stickers.select_related("signer", "game")}
    for life in sticker_lives(events=campaign.events.all()):
        if not life or not _carried(life, number):
            continue
        first, last = life[0], life[-1]
        removed = last.kind == "sticker_removed"
        sticker = None if removed else board.get(last.data["number"])
        corrections = [e for e in life if e.kind == "sticker_corrected"]
        if sticker is not None:
            signer = _signer_words(sticker.signer)
        else:  # what the history wrote of it, else the House of its first event
            signer = (last.data.get("before") or {}).get("signer") or _signer_words(first.house)
        answers.append(
            {
                "number": sticker.number if sticker is not None else None,
                "label": sticker.number
                if sticker is not None
                else first.data.get("was_number", first.data["number"]),
                "signer": signer,
                "game": (sticker.game if sticker is not None else None) or first.game,
                "attached_as": first.data["number"] if first.kind == "sticker_attached" else None,
                "corrected_on": corrections[-1].created_at if corrections else None,
                "removed_on": last.created_at if removed else None,
            }
        )
    return answers


RESULT_FIELDS = ("secret_agenda", "total", "position", "last")  # what a story's ranking shows of a row


def _corrections_of(events: QuerySet[CampaignEvent]) -> dict[int, tuple[dict[int, Any], Any]]:
    """For each game (by id): when each revision of its table was written by a correction (revision
    -> time: the revision its event names, else its rank among the game's corrections, each of which
    wrote one), and when the end of its reign was last corrected (None: never)."""
    found: dict[int, tuple[dict[int, Any], Any]] = {}
    ranks: dict[int, int] = defaultdict(int)
    corrections = events.filter(kind="game_corrected").order_by("created_at", "id")
    for game_id, data, created_at in corrections.values_list("game_id", "data", "created_at"):
        dates, end_on = found.get(game_id, ({}, None))
        data = data if isinstance(data, dict) else {}
        ranks[game_id] += 1
        revision = data.get("revision")
        dates[revision if isinstance(revision, int) else ranks[game_id]] = created_at
        if any(isinstance(c, str) and c.startswith("end: ") for c in data.get("changes") or []):
            end_on = created_at
        found[game_id] = (dates, end_on)
    return found


def game_results_since(
    *, campaign: Campaign, game: ChronicleGame | None = None, house: House | None = None
) -> dict[int, dict]:
    """Each game's table as it stands (by game id; one game's, one House's rows), each row saying
    whether a correction made it what it is and when (None: unknown, or as recorded); the Houses a
    correction took out of it (``dropped``); and when the end of the reign was last corrected
    (None: never). Two queries, whatever the number of games
    and revisions."""
    scores = ChronicleScore.objects.filter(game__campaign=campaign).select_related("house", "game")
    events = CampaignEvent.objects.filter(campaign=campaign)
    if game is not None:
        scores, events = scores.filter(game=game), events.filter(game=game)
    if house is not None:
        scores = scores.filter(house=house)
    revisions: dict[int, dict[int, dict[int, ChronicleScore]]] = defaultdict(lambda: defaultdict(dict))
    games: dict[int, ChronicleGame] = {}
    for score in scores.order_by("revision"):
        revisions[score.game_id][score.revision][score.house_id] = score
        games[score.game_id] = score.game
    corrections = _corrections_of(events)
    results = {}
    for game_id, table in revisions.items():
        current = games[game_id].revision
        dates, end_on = corrections.get(game_id, ({}, None))
        rows: list[dict[str, Any]] = []
        for house_id, score in table.get(current, {}).items():
            since = current
            while since > 0 and _same_row(table[since - 1].get(house_id), score):
                since -= 1
            rows.append(
                {"score": score, "corrected": since > 0, "since": dates.get(since) if since > 0 else None}
            )
        rows.sort(key=lambda r: (r["score"].position, r["score"].house.number))
        results[game_id] = {"rows": rows, "end_on": end_on, "dropped": _dropped(table, current, dates)}
    return results


def _dropped(table: dict[int, dict[int, ChronicleScore]], current: int, dates: dict[int, Any]) -> list[dict]:
    """The Houses an earlier revision of a table held and a correction took out: each one's last
    row, and when the correction that took it out was made (None: unknown)."""
    dropped = []
    for house_id in {h for revision in table.values() for h in revision} - set(table.get(current, {})):
        last = max(revision for revision, rows in table.items() if house_id in rows)
        dropped.append({"score": table[last][house_id], "since": dates.get(last + 1)})
    return sorted(dropped, key=lambda d: d["score"].house.number)


def _same_row(old: ChronicleScore | None, new: ChronicleScore) -> bool:
    return old is not None and all(getattr(old, f) == getattr(new, f) for f in RESULT_FIELDS)


def night_stickers_now(*, campaign: Campaign, game: ChronicleGame) -> dict[int, dict]:
    """The Chronicle stickers attached by a night, by the number they were attached as: each as the
    campaign holds it now (None: removed), with the time it was last corrected or removed."""
    board = {s.number: s for s in campaign.stickers.select_related("signer")}
    now = {}
    for life in sticker_lives(events=campaign.events.all()):
        first, last = life[0], life[-1]
        if first.kind != "sticker_attached" or first.game_id != game.pk:
            continue
        removed = last.kind == "sticker_removed"
        corrected = [e for e in life if e.kind in ("sticker_corrected", "sticker_removed")]
        now[first.data["number"]] = {
            "sticker": None if removed else board.get(last.data["number"]),
            "changed_on": corrected[-1].created_at if corrected else None,
            "removed": removed,
        }
    return now


def final_standings(*, campaign: Campaign) -> dict:
    """What the Grand Finale counts ('Triggering the end of the campaign'): each House's Prestige and
    Crave, and the Ending cards with their Cohesion and Dissent. How they decide the winner is revealed
    in Envelope 70 only, so the Houses are listed by Prestige (ties: House number), never summed
    into a winner (docs/rules-decisions.md)."""
    endings = list(
        campaign.story_cards.filter(is_ending=True).select_related("signer").order_by("storyline", "number")
    )
    finale = campaign.envelopes.filter(number=GRAND_FINALE_ENVELOPE).select_related("game").first()
    return {
        "houses": houses_by_prestige(campaign=campaign),
        "endings": endings,
        "cohesion": sum(card.cohesion for card in endings),
        "dissent": sum(card.dissent for card in endings),
        "envelope": finale,  # Envelope 70 once opened (its game: the last night)
    }


def campaign_chart_svg(*, campaign: Campaign, name: str, size: str = "wide") -> str:
    """A chart from the cache the Celery task fills, or rendered now (it only reads)."""
    key = chart_cache_key(campaign=campaign, name=name, size=size, stamp=chart_stamp(campaign=campaign))
    try:
        cached = cache.get(key)
    except Exception:  # the cache (Redis) is down: render now
        cached = None
    return cached or CHARTS[name](campaign=campaign, size=size)


def night_running(*, campaign: Campaign) -> GameSession | None:
    """The campaign's game night still running at the table (one at a time), or None. A night that
    is over but not saved still holds the table: the next night's setup needs its result."""
    running = (GameSession.Status.LOBBY, GameSession.Status.ACTIVE)
    over_unsaved = Q(status=GameSession.Status.FINISHED, chronicle_game__isnull=True)
    nights = campaign.sessions.filter(Q(status__in=running) | over_unsaved, game=NIGHT_GAME)
    return nights.order_by("-pk").first()


def campaign_nights(*, campaign: Campaign) -> QuerySet[GameSession]:
    """The campaign's game nights played at the table, whatever their status."""
    return campaign.sessions.filter(game=NIGHT_GAME)


def nights_abandoned(*, campaign: Campaign) -> list[GameSession]:
    """The newest game nights abandoned before they were saved, for the campaign page: each may
    be resumed where it stopped."""
    nights = campaign_nights(campaign=campaign).filter(
        status=GameSession.Status.ABANDONED, chronicle_game__isnull=True
    )
    nights = nights.defer("state")
    return list(nights.order_by("-last_activity", "-pk")[:NIGHTS_ABANDONED_SHOWN])


def campaign_seats_tonight(*, campaign: Campaign, user) -> list:
    """The seats ``user`` holds at the campaign's nights still running (a night started from the
    campaign gives each House's seat to the account that plays it): their way in without scanning."""
    return list(seats_of_user(user=user, campaign=campaign))


def houses_played_by(*, user, campaigns: list[Campaign]) -> dict[int, list[House]]:
    """Campaign id -> the Houses ``user``'s account plays in it (by House number)."""
    played: dict[int, list[House]] = defaultdict(list)
    if user is None or not user.is_authenticated:
        return played
    for house in House.objects.filter(user=user, campaign__in=campaigns).order_by("campaign_id", "number"):
        played[house.campaign_id].append(house)
    return played


# ---- Members and invitations ---------------------------------------------------------------

ROLE_ORDER = {Membership.Role.OWNER: 0, Membership.Role.PLAYER: 1, Membership.Role.VIEWER: 2}


def campaign_members(*, campaign: Campaign) -> list[dict]:
    """Each member with their name (display name, else username), role and the House they play
    (None: none): owners first, then players, then viewers, each by name. Two queries."""
    houses = {h.user_id: h for h in campaign.houses.exclude(user=None)}
    members = [
        {"membership": m, "user": m.user, "name": m.name, "role": m.role, "house": houses.get(m.user_id)}
        for m in campaign.memberships.select_related("user")
    ]
    return sorted(members, key=lambda m: (ROLE_ORDER[m["role"]], m["name"].lower()))


def invitations_pending(*, campaign: Campaign) -> QuerySet[Invitation]:
    """The invitations that can still be accepted: not revoked, not expired, and (for a House)
    not used yet."""
    return (
        campaign.invitations.filter(revoked_at__isnull=True, expires_at__gt=timezone.now())
        .exclude(house__isnull=False, uses__gte=1)
        .select_related("house", "created_by")
    )


def invitation_for_token(*, token: str) -> Invitation | None:
    """The invitation of this link, whatever its state (None: no such link)."""
    return Invitation.objects.select_related("campaign", "house", "created_by").filter(token=token).first()


def account_language_for_email(*, email: str) -> str | None:
    """The language of the account an e-mail goes to (its preference), None when no account with
    that address keeps one: the e-mail is then written in the sender's language."""
    user_ids = EmailAddress.objects.filter(email__iexact=email).values("user_id")
    preference = (
        AccountPreference.objects.filter(Q(user__in=user_ids) | Q(user__email__iexact=email))
        .order_by("pk")
        .first()
    )
    return preference.language if preference is not None else None
