"""Campaigns, members, Houses and their achievements (alignment included)."""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy

from campaign import legacy
from campaign.models import (
    ALIGNMENT_WORDS,
    SECRET_AGENDAS,
    Achievement,
    Campaign,
    ChronicleGame,
    House,
    LedgerEntry,
    Membership,
)
from campaign.selectors import campaign_setting
from campaign.services.common import (
    NAME_CONTROL_CHARACTERS,
    UNKNOWN_AGENDA,
    Actor,
    check_effects,
    record_event,
)
from campaign.services.ledger import ledger_add
from games.engines.kernel.messages import gettext_noop, ngettext_lazy
from games.engines.kernel.text import has_control_characters
from games.engines.kings_dilemma.data import HOUSE_NUMBERS
from games.engines.kings_dilemma.messages import AGENDA_NAMES

MAX_HOUSES = HOUSE_NUMBERS  # one House per screen


CAMPAIGN_NAME_REQUIRED = gettext_lazy("A campaign needs a name.")


HOUSE_LIMIT = format_lazy(gettext_lazy("A campaign has at most {count} Houses."), count=MAX_HOUSES)


HOUSE_NUMBER_RANGE = format_lazy(gettext_lazy("A House number is between 1 and {last}."), last=HOUSE_NUMBERS)


HOUSE_NUMBER_TAKEN = gettext_lazy("House number {number} is already used in this campaign.")


HOUSE_NAME_REQUIRED = gettext_lazy("A House needs a name.")


ACHIEVEMENT_SPACES = gettext_lazy("An achievement has between 1 and 10 spaces.")


ACHIEVEMENT_FULL = gettext_lazy("{name} has only {spaces} spaces: {marked} are already marked.")


MARKS_POSITIVE = gettext_lazy("Mark at least one space.")


# The history's sentences (kept as messages, so each reader reads them in their language).
CAMPAIGN_BEGINS = gettext_noop("Campaign {campaign} begins")
MEMBER_JOINED = gettext_noop("{user} joined the campaign")
HOUSE_JOINS = gettext_noop("House {house} (number {number}) joins")
ACHIEVEMENT_LISTED = gettext_noop("House {house} lists achievement {achievement}")
ACHIEVEMENT_MARKED = ngettext_lazy(
    "House {house} marked {count} space of {achievement} ({marked}/{spaces})",
    "House {house} marked {count} spaces of {achievement} ({marked}/{spaces})",
    "count",
)
ACHIEVEMENT_UNLOCKED = gettext_noop("House {house} unlocked {achievement}")
# The ledger's reason for an achievement's one-time Prestige or Crave.
ACHIEVEMENT_REASON = gettext_noop("{achievement} unlocked")


@transaction.atomic
def campaign_create(*, name: str, created_by: User | AnonymousUser | None = None) -> Campaign:
    if not name or not name.strip():
        raise ValidationError(CAMPAIGN_NAME_REQUIRED)
    if has_control_characters(name):
        raise ValidationError(NAME_CONTROL_CHARACTERS)
    created_by = created_by if isinstance(created_by, User) else None
    campaign = Campaign(name=name.strip(), created_by=created_by)
    campaign.full_clean()
    campaign.save()
    if created_by is not None:
        Membership.objects.create(campaign=campaign, user=created_by, role=Membership.Role.OWNER)
    record_event(
        campaign, "campaign_created", CAMPAIGN_BEGINS.format(campaign=campaign.name), actor=created_by
    )
    return campaign


@transaction.atomic
def membership_add(
    *, campaign: Campaign, user: User, role: str = Membership.Role.PLAYER, actor: Actor = None
) -> Membership:
    membership, _ = Membership.objects.get_or_create(campaign=campaign, user=user, defaults={"role": role})
    record_event(campaign, "member_added", MEMBER_JOINED.format(user=str(user)), actor=actor)
    return membership


@transaction.atomic
def house_create(
    *,
    campaign: Campaign,
    name: str,
    number: int,
    player_name: str = "",
    user: User | None = None,
    actor: Actor = None,
) -> House:
    campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)
    if not name or not name.strip():
        raise ValidationError(HOUSE_NAME_REQUIRED)
    if has_control_characters(name) or has_control_characters(player_name or ""):
        raise ValidationError(NAME_CONTROL_CHARACTERS)
    if not isinstance(number, int) or not 1 <= number <= HOUSE_NUMBERS:
        raise ValidationError(HOUSE_NUMBER_RANGE)
    if campaign.houses.count() >= MAX_HOUSES:
        raise ValidationError(HOUSE_LIMIT)
    if campaign.houses.filter(number=number).exists():
        raise ValidationError(HOUSE_NUMBER_TAKEN.format(number=number))
    house = House(campaign=campaign, name=name.strip(), number=number, player_name=player_name, user=user)
    house.full_clean()
    house.save()
    if user is not None:
        Membership.objects.get_or_create(campaign=campaign, user=user)
    spaces = campaign_setting(campaign, "alignment_spaces")
    for agenda, (kind, amount) in legacy.alignment_rewards(number).items():
        Achievement.objects.create(
            house=house,
            kind=Achievement.Kind.ALIGNMENT,
            agenda=agenda,
            name=str(ALIGNMENT_WORDS["name"].format(agenda=AGENDA_NAMES[agenda])),
            condition=str(ALIGNMENT_WORDS["condition"].format(agenda=AGENDA_NAMES[agenda])),
            spaces=spaces,
            effects={kind: amount},
        )
    joins = HOUSE_JOINS.format(house=house.name, number=number)
    record_event(campaign, "house_created", joins, actor=actor, house=house)
    return house


@transaction.atomic
def achievement_create(
    *,
    house: House,
    name: str,
    spaces: int,
    kind: str = Achievement.Kind.GAMEPLAY,
    condition: str = "",
    effects: dict | None = None,
    ability_text: str = "",
    actor: Actor = None,
) -> Achievement:
    if not isinstance(spaces, int) or not 1 <= spaces <= 10:
        raise ValidationError(ACHIEVEMENT_SPACES)
    achievement = Achievement(
        house=house,
        name=name,
        spaces=spaces,
        kind=kind,
        condition=condition,
        effects=check_effects(effects or {}),
        ability_text=ability_text,
    )
    achievement.full_clean()
    achievement.save()
    record_event(
        house.campaign,
        "achievement_created",
        ACHIEVEMENT_LISTED.format(house=house.name, achievement=achievement.words("name")),
        actor=actor,
        house=house,
    )
    return achievement


def _apply_one_time_effects(achievement: Achievement, game: ChronicleGame | None, actor: Actor) -> None:
    effects = achievement.effects
    source = (
        LedgerEntry.Source.ALIGNMENT
        if achievement.kind == Achievement.Kind.ALIGNMENT
        else LedgerEntry.Source.ACHIEVEMENT
    )
    for kind in ("prestige", "crave"):
        if effects.get(kind):
            ledger_add(
                house=achievement.house,
                kind=kind,
                amount=effects[kind],
                reason=ACHIEVEMENT_REASON.format(achievement=achievement.words("name")),
                source=source,
                game=game,
                actor=actor,
            )


@transaction.atomic
def achievement_mark(
    *, achievement: Achievement, count: int = 1, game: ChronicleGame | None = None, actor: Actor = None
) -> Achievement:
    """'House Achievements': mark spaces; marking the last one unlocks the ability and applies its
    one-time effects (Prestige/Crave go to the ledger; one-time Power/Coins are recorded in the history)."""
    achievement = (
        Achievement.objects.select_for_update().select_related("house__campaign").get(pk=achievement.pk)
    )
    if count < 1:
        raise ValidationError(MARKS_POSITIVE)
    if achievement.marked + count > achievement.spaces:
        raise ValidationError(
            ACHIEVEMENT_FULL.format(
                name=achievement.said_name, spaces=achievement.spaces, marked=achievement.marked
            )
        )
    achievement.marked += count
    house = achievement.house
    record_event(
        house.campaign,
        "achievement_marked",
        ACHIEVEMENT_MARKED.format(
            house=house.name,
            count=count,
            achievement=achievement.words("name"),
            marked=achievement.marked,
            spaces=achievement.spaces,
        ),
        actor=actor,
        house=house,
        game=game,
    )
    if achievement.unlocked:
        achievement.unlocked_in = game
        record_event(
            house.campaign,
            "achievement_unlocked",
            ACHIEVEMENT_UNLOCKED.format(house=house.name, achievement=achievement.words("name")),
            actor=actor,
            house=house,
            game=game,
            effects=achievement.effects,
        )
        _apply_one_time_effects(achievement, game, actor)
    achievement.save()
    return achievement


@transaction.atomic
def alignment_mark(
    *, house: House, agenda: str, game: ChronicleGame | None = None, actor: Actor = None
) -> Achievement | None:
    """'Update House Alignment': one space for the Secret Agenda played; none if already unlocked."""
    if agenda not in SECRET_AGENDAS:
        raise ValidationError(UNKNOWN_AGENDA.format(agenda=agenda))
    achievement = house.achievements.filter(kind=Achievement.Kind.ALIGNMENT, agenda=agenda).first()
    if achievement is None or achievement.unlocked:
        return None
    return achievement_mark(achievement=achievement, game=game, actor=actor)
