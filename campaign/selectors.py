"""Read-only queries of a campaign. Each page's data comes from a fixed number of queries,
whatever the number of games (see tests/integration/campaign/test_query_counts.py)."""

from __future__ import annotations

from collections import defaultdict

from django.core.cache import cache
from django.db.models import IntegerField, OuterRef, Prefetch, Q, QuerySet, Subquery, Sum, Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from campaign import legacy
from campaign.access import is_demo
from campaign.charts import CHARTS, chart_cache_key, chart_stamp
from campaign.models import (
    RESOURCE_ROWS,
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
    StoryCard,
)
from games.models import GameSession
from games.selectors import seats_of_user

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
    return [{"row": row, "label": row.capitalize(), "spaces": spaces} for row, spaces in rows.items()]


def storylines(*, campaign: Campaign) -> list[dict]:
    """Story cards by storyline, highest order on top; only the top card's ability is active."""
    grouped: dict[str, list[StoryCard]] = defaultdict(list)
    for card in campaign.story_cards.select_related("signer").order_by("storyline", "-order"):
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


def sticker_history(*, campaign: Campaign, number: int) -> QuerySet[CampaignEvent]:
    """Answers 'who signed sticker 43, in which game?', with its corrections (by its number then
    or now) and its removal."""
    return campaign_history(campaign=campaign).filter(
        Q(kind="sticker_attached", data__number=number)
        | Q(kind__in=("sticker_corrected", "sticker_removed"))
        & (Q(data__number=number) | Q(data__was_number=number))
    )


def final_standings(*, campaign: Campaign) -> dict:
    houses = list(house_list(campaign=campaign))
    endings = campaign.story_cards.filter(is_ending=True)
    return {
        "houses": sorted(houses, key=lambda h: (h.prestige + h.crave, h.number), reverse=True),
        "cohesion": sum(card.cohesion for card in endings),
        "dissent": sum(card.dissent for card in endings),
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
    """The campaign's game night still running at the table (one at a time), or None."""
    running = (GameSession.Status.LOBBY, GameSession.Status.ACTIVE)
    nights = campaign.sessions.filter(game=NIGHT_GAME, status__in=running)
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


# ---- Members and invitations (issue 24) ----------------------------------------------------

ROLE_ORDER = {Membership.Role.OWNER: 0, Membership.Role.PLAYER: 1, Membership.Role.VIEWER: 2}


def campaign_members(*, campaign: Campaign) -> list[dict]:
    """Each member with their role and the House they play (None: none): owners first, then
    players, then viewers, each by name. Two queries."""
    houses = {h.user_id: h for h in campaign.houses.exclude(user=None)}
    members = [
        {"membership": m, "user": m.user, "role": m.role, "house": houses.get(m.user_id)}
        for m in campaign.memberships.select_related("user")
    ]
    return sorted(members, key=lambda m: (ROLE_ORDER[m["role"]], m["user"].get_username().lower()))


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
