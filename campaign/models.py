"""Everything the King's Dilemma box keeps between games. Models stay thin: the rules live in
services.py (writes), selectors.py (reads) and legacy.py (pure legacy rules)."""

import datetime
import secrets

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy, pgettext_lazy

from campaign.colours import house_colour
from games.engines.kernel.messages import gettext_noop
from games.engines.kings_dilemma.data import AGENDAS, ENVELOPE_COUNT, HOUSE_NUMBERS, RESOURCES, STICKER_COUNT
from games.engines.kings_dilemma.messages import AGENDA_NAMES
from games.translation import say_stored, say_to_reader

# The engine's data module owns the rule data; these names are the campaign's view of it.
RESOURCE_ROWS = list(RESOURCES)
SECRET_AGENDAS = list(AGENDAS)


class ResourceRow(models.TextChoices):
    INFLUENCE = "influence", gettext_lazy("Influence")
    WEALTH = "wealth", gettext_lazy("Wealth")
    MORALE = "morale", gettext_lazy("Morale")
    WELFARE = "welfare", gettext_lazy("Welfare")
    KNOWLEDGE = "knowledge", gettext_lazy("Knowledge")


class SecretAgenda(models.TextChoices):
    EXTREMIST = "extremist", gettext_lazy("Extremist")
    OPULENT = "opulent", gettext_lazy("Opulent")
    MODERATE = "moderate", gettext_lazy("Moderate")
    REBEL = "rebel", gettext_lazy("Rebel")
    OPPORTUNIST = "opportunist", gettext_lazy("Opportunist")
    GREEDY = "greedy", gettext_lazy("Greedy")


class GameEnd(models.TextChoices):
    KING_DIED = "king_died", gettext_lazy("The King died")
    ABDICATED_TOP = "abdicated_top", gettext_lazy("The King abdicated (Stability at the top)")
    ABDICATED_BOTTOM = "abdicated_bottom", gettext_lazy("The King abdicated (Stability at the bottom)")


class Campaign(models.Model):
    role: str | None  # the viewer's role, set by the API's campaign list
    name = models.CharField(max_length=120)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # Sixth Mystery sticker attached: Envelope 70 (the Grand Finale) is due, no new games.
    grand_finale_ready = models.BooleanField(default=False)
    closed = models.BooleanField(default=False)
    # Group corrections of DEFAULT data (row capacity, aging squares, tracks): see legacy.DEFAULT_SETTINGS.
    settings = models.JSONField(default=dict, blank=True)

    def __str__(self):
        return self.name


DISPLAY_NAME_MAX = 80  # a member's name in a campaign, as long as a House's player's name


class Membership(models.Model):
    class Role(models.TextChoices):
        # Ordered from most to least: the owner organises (members too), a player plays a House and
        # may host a night, a viewer reads.
        OWNER = "owner", pgettext_lazy("role", "Owner")
        PLAYER = "player", pgettext_lazy("role", "Player")
        VIEWER = "viewer", pgettext_lazy("role", "Viewer")

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.PLAYER)
    # The name the group knows them by in this campaign (accents and all), shown instead of the
    # username; empty: the username. Per campaign, as the owner types the players' names.
    display_name = models.CharField(max_length=DISPLAY_NAME_MAX, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["campaign", "user"], name="one_membership_per_user")]

    def __str__(self):
        return f"{self.user} in {self.campaign} ({self.role})"

    @property
    def name(self) -> str:
        """What the group calls them: their display name, else their username."""
        return self.display_name or self.user.get_username()


class House(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="houses")
    name = models.CharField(max_length=80)
    number = models.PositiveSmallIntegerField(
        validators=[MinValueValidator(1), MaxValueValidator(HOUSE_NUMBERS)]
    )
    player_name = models.CharField(max_length=80, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="houses"
    )

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "number"], name="house_number_unique_in_campaign"),
            models.CheckConstraint(
                condition=Q(number__gte=1, number__lte=HOUSE_NUMBERS), name="house_number_1_to_12"
            ),
        ]

    def __str__(self):
        return f"House {self.name}"

    @property
    def colour(self) -> str:
        return house_colour(self.number)


class ChronicleGame(models.Model):
    """One Realm Chronicles table: one game of the campaign."""

    current_scores: "list[ChronicleScore]"  # set by campaign.selectors for the Realm Chronicles

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveSmallIntegerField()
    king_name = models.CharField(max_length=80)
    played_on = models.DateField()
    end = models.CharField(max_length=20, choices=GameEnd.choices, blank=True)
    recorded = models.BooleanField(default=False)
    # Resource Track rows (1-17) of each Resource marker when the game ended, for the charts.
    resources_final = models.JSONField(default=dict, blank=True)
    revision = models.PositiveSmallIntegerField(default=0)  # bumped by each correction
    # What the night played at the table could not write into the campaign (it conflicted with it),
    # kept as typed for a correction: [{"kind", "number", "message", "typed", "what"}], with
    # "message_data" and "what_data" the same words as messages (night_saves.py).
    conflicts = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["number"]
        constraints = [models.UniqueConstraint(fields=["campaign", "number"], name="game_number_unique")]

    def __str__(self):
        return f"Game {self.number}: King {self.king_name}"

    @property
    def said_conflicts(self) -> list[dict]:
        """What the night could not write, each item in the reader's language."""
        return [
            {
                "what": say_stored(item.get("what_data"), english=str(item.get("what", ""))),
                "message": say_stored(item.get("message_data"), english=str(item.get("message", ""))),
            }
            for item in self.conflicts
            if isinstance(item, dict)
        ]


class ChronicleScore(models.Model):
    """One House's row of a Realm Chronicles table, in one revision of it."""

    game = models.ForeignKey(ChronicleGame, on_delete=models.CASCADE, related_name="scores")
    revision = models.PositiveSmallIntegerField(default=0)
    house = models.ForeignKey(House, on_delete=models.PROTECT, related_name="scores")
    secret_agenda = models.CharField(max_length=12, choices=SecretAgenda.choices)
    agenda_points = models.IntegerField()
    open_agenda_points = models.IntegerField()
    coins_points = models.IntegerField()
    power_points = models.IntegerField()
    total = models.IntegerField()
    position = models.PositiveSmallIntegerField()
    last = models.BooleanField(default=False)
    prestige = models.PositiveSmallIntegerField(default=0)
    crave = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["position", "house__number"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "revision", "house"], name="one_score_per_house_and_revision"
            )
        ]

    def __str__(self):
        return f"{self.house} in {self.game}: {self.total}"


class LedgerEntry(models.Model):
    """Prestige and Crave are a ledger, never a bare counter."""

    class Kind(models.TextChoices):
        PRESTIGE = "prestige", gettext_lazy("Prestige")
        CRAVE = "crave", gettext_lazy("Crave")

    class Source(models.TextChoices):
        GAME_RESULT = "game_result", gettext_lazy("Realm Chronicles")
        ACHIEVEMENT = "achievement", gettext_lazy("Achievement")
        ALIGNMENT = "alignment", gettext_lazy("House Alignment")
        STORY = "story", gettext_lazy("Story card ability")
        MAJORITY_SIGNER = "majority_signer", gettext_lazy("Majority Signer Bonus")
        SECRET_AGENDA = "secret_agenda", gettext_lazy("Secret Agenda")
        CORRECTION = "correction", gettext_lazy("Correction")
        MANUAL = "manual", gettext_lazy("Card effect")

    house = models.ForeignKey(House, on_delete=models.CASCADE, related_name="ledger")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    amount = models.IntegerField()
    reason = models.CharField(max_length=200)
    # The reason as a message (games/engines/kernel/messages.py ``to_data``), said in each reader's
    # language; NULL for a reason a person typed, or one kept before messages were.
    reason_data = models.JSONField(null=True, blank=True, default=None)
    source = models.CharField(max_length=20, choices=Source.choices)
    game = models.ForeignKey(
        ChronicleGame, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]
        verbose_name_plural = gettext_lazy("ledger entries")

    def __str__(self):
        return f"{self.amount:+d} {self.kind} ({self.reason})"

    @property
    def said_reason(self) -> str:
        return say_stored(self.reason_data, english=self.reason)


# An alignment achievement's words: stored in English, said in each reader's language.
ALIGNMENT_WORDS = {
    "name": gettext_noop("Alignment: {agenda}"),
    "condition": gettext_noop("Play a game as {agenda}."),
}


class Achievement(models.Model):
    """An achievement of a House screen; alignment achievements carry their Secret Agenda."""

    class Kind(models.TextChoices):
        NARRATIVE = "narrative", pgettext_lazy("achievement", "Narrative")
        GAMEPLAY = "gameplay", pgettext_lazy("achievement", "Gameplay")
        ALIGNMENT = "alignment", gettext_lazy("House Alignment")

    house = models.ForeignKey(House, on_delete=models.CASCADE, related_name="achievements")
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.GAMEPLAY)
    agenda = models.CharField(max_length=12, choices=SecretAgenda.choices, blank=True)
    name = models.CharField(max_length=120)
    condition = models.TextField(blank=True)
    spaces = models.PositiveSmallIntegerField(validators=[MinValueValidator(1), MaxValueValidator(10)])
    marked = models.PositiveSmallIntegerField(default=0)
    # Structured effects: start_power, start_coins (each game) and prestige, crave, power, coins (once).
    effects = models.JSONField(default=dict, blank=True)
    ability_text = models.TextField(blank=True)
    unlocked_in = models.ForeignKey(
        ChronicleGame, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["house", "kind", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(marked__lte=models.F("spaces")), name="marks_within_spaces"),
        ]

    def __str__(self):
        return self.name

    @property
    def unlocked(self) -> bool:
        return self.marked >= self.spaces

    def words(self, field: str) -> str:
        """``name`` or ``condition``: an alignment's English as a message, any other as typed."""
        typed, agenda = getattr(self, field), AGENDA_NAMES.get(self.agenda)
        if agenda is None or self.kind != self.Kind.ALIGNMENT:
            return typed
        said = ALIGNMENT_WORDS[field].format(agenda=agenda)
        return said if said == typed else typed  # words the table or an archive typed read as typed

    said_name = property(lambda self: say_to_reader(self.words("name")))
    said_condition = property(lambda self: say_to_reader(self.words("condition")))


class ChronicleSticker(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="stickers")
    number = models.PositiveSmallIntegerField(
        validators=[MinValueValidator(1), MaxValueValidator(STICKER_COUNT)]
    )
    row = models.CharField(max_length=10, choices=ResourceRow.choices)
    positive = models.BooleanField()
    signer = models.ForeignKey(
        House, null=True, blank=True, on_delete=models.PROTECT, related_name="stickers"
    )
    title = models.CharField(max_length=120, blank=True)
    text = models.TextField(blank=True)
    slot = models.PositiveSmallIntegerField()
    marks = models.PositiveSmallIntegerField(default=0)
    covered = models.BooleanField(default=False)  # another sticker was attached over it
    covered_by = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="covers"
    )
    game = models.ForeignKey(
        ChronicleGame, null=True, blank=True, on_delete=models.SET_NULL, related_name="stickers"
    )
    attached_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["row", "slot"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "number"], name="sticker_number_unique"),
            models.UniqueConstraint(
                fields=["campaign", "row", "slot"],
                condition=Q(covered=False),
                name="one_visible_sticker_per_space",
            ),
        ]

    def __str__(self):
        return f"Sticker {self.number}"


class Envelope(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="envelopes")
    number = models.PositiveSmallIntegerField(validators=[MaxValueValidator(ENVELOPE_COUNT - 1)])
    special = models.BooleanField(default=False)
    opened_at = models.DateTimeField(auto_now_add=True)
    opened_by = models.ForeignKey(House, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    game = models.ForeignKey(
        ChronicleGame, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["number"]
        constraints = [models.UniqueConstraint(fields=["campaign", "number"], name="envelope_opened_once")]

    def __str__(self):
        return f"Envelope {self.number:02d}"


class StoryCard(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="story_cards")
    number = models.PositiveSmallIntegerField()
    storyline = models.CharField(max_length=40)
    title = models.CharField(max_length=120, blank=True)
    text = models.TextField(blank=True)
    signer = models.ForeignKey(
        House, null=True, blank=True, on_delete=models.SET_NULL, related_name="story_cards"
    )
    envelope = models.ForeignKey(
        Envelope, null=True, blank=True, on_delete=models.SET_NULL, related_name="story_cards"
    )
    # The order its storyline received it; the setup puts the highest number on top (selectors.storylines).
    order = models.PositiveSmallIntegerField()
    is_ending = models.BooleanField(default=False)
    cohesion = models.PositiveSmallIntegerField(default=0)
    dissent = models.PositiveSmallIntegerField(default=0)
    # Ending cards: {"prestige": n, "crave": n} for the Majority Signer Bonus.
    majority_signer_bonus = models.JSONField(default=dict, blank=True)
    # Ability effects for the Signer: start_power, start_coins while on top; prestige/crave once.
    effects = models.JSONField(default=dict, blank=True)
    ability_text = models.TextField(blank=True)
    game = models.ForeignKey(
        ChronicleGame, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["storyline", "order"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "number"], name="story_card_unique"),
            models.UniqueConstraint(fields=["campaign", "storyline", "order"], name="story_order_unique"),
        ]

    def __str__(self):
        return f"Story card {self.number}"


class DilemmaCard(models.Model):
    """A Dilemma, Trigger or Event card and where it lies between games (its save slot)."""

    class Kind(models.TextChoices):
        DILEMMA = "dilemma", gettext_lazy("Dilemma card")
        TRIGGER = "trigger", gettext_lazy("Trigger card")
        EVENT = "event", gettext_lazy("Event card")

    class Place(models.TextChoices):
        DECK = "deck", gettext_lazy("Dilemma save slot")
        EVENT_AREA = "event_area", gettext_lazy("Event area")
        STORY_SLOT = "story_slot", gettext_lazy("Story save slot")
        TRASH = "trash", pgettext_lazy("save slot", "Trash")

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="dilemma_cards")
    number = models.PositiveIntegerField()
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.DILEMMA)
    place = models.CharField(max_length=12, choices=Place.choices, default=Place.DECK)
    title = models.CharField(max_length=120, blank=True)
    # What the players typed from the card once met: {"aye": {...}, "nay": {...}, "lightning": bool}.
    outcomes = models.JSONField(default=dict, blank=True)
    envelope = models.ForeignKey(
        Envelope, null=True, blank=True, on_delete=models.SET_NULL, related_name="cards"
    )
    resolved_in = models.ForeignKey(
        ChronicleGame, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["number"]
        constraints = [models.UniqueConstraint(fields=["campaign", "number"], name="dilemma_card_unique")]

    def __str__(self):
        return f"{self.get_kind_display()} {self.number}"


class MysterySticker(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="mystery_stickers")
    letter = models.CharField(max_length=1)
    storyline = models.CharField(max_length=40, blank=True)
    game = models.ForeignKey(
        ChronicleGame, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    attached_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["attached_at", "id"]
        constraints = [models.UniqueConstraint(fields=["campaign", "letter"], name="mystery_letter_once")]

    def __str__(self):
        return f"Mystery sticker {self.letter}"


class CampaignEvent(models.Model):
    """The history: every change to a campaign, with who, when and in which game."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="events")
    kind = models.CharField(max_length=40)
    summary = models.CharField(max_length=300)
    # The summary as a message (games/engines/kernel/messages.py ``to_data``), said in each reader's
    # language; NULL for an event kept before messages were (its English ``summary`` is read then).
    summary_data = models.JSONField(null=True, blank=True, default=None)
    data = models.JSONField(default=dict, blank=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # An imported event's actor who has no account here: kept by name, linked to nobody.
    actor_name = models.CharField(max_length=150, blank=True)
    house = models.ForeignKey(House, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    game = models.ForeignKey(
        ChronicleGame, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["campaign", "-created_at"])]

    def __str__(self):
        return self.summary

    @property
    def said(self) -> str:
        """The summary in the reader's language."""
        return say_stored(self.summary_data, english=self.summary)


class CampaignExport(models.Model):
    """A requested archive: written by a Celery task, then downloadable."""

    class Status(models.TextChoices):
        PENDING = "pending", pgettext_lazy("export", "Being prepared")
        READY = "ready", pgettext_lazy("export", "Ready")
        FAILED = "failed", pgettext_lazy("export", "Failed")

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="exports")
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    path = models.CharField(max_length=300, blank=True)
    error = models.CharField(max_length=300, blank=True)
    error_data = models.JSONField(null=True, blank=True, default=None)  # the error as a message
    created_at = models.DateTimeField(auto_now_add=True)
    # How often the task was sent (the request, then each sweep or "Try again"), and when last:
    # a pending export not written long after its last sending is stale (campaign_export_sweep).
    attempts = models.PositiveSmallIntegerField(default=0)
    attempted_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self):
        return f"Export of {self.campaign} ({self.status})"

    @property
    def said_error(self) -> str:
        return say_stored(self.error_data, english=self.error)

    @property
    def stalled(self) -> bool:
        """Pending, and either its task could not be sent (``error`` says why) or it has not been
        written within CHRONICLE_EXPORT_STALE_SECONDS of its last sending."""
        if self.status != self.Status.PENDING:
            return False
        if self.error:
            return True
        since = self.attempted_at or self.created_at
        stale = datetime.timedelta(seconds=settings.CHRONICLE_EXPORT_STALE_SECONDS)
        return since is not None and timezone.now() - since > stale

    @property
    def retryable(self) -> bool:
        """The page offers "Try again": a stalled export, or one that failed."""
        return self.stalled or self.status == self.Status.FAILED


def new_story_token() -> str:
    return secrets.token_urlsafe(32)


class StoryLink(models.Model):
    """A read-only link to the story of one night: anyone holding it may read that story and
    nothing else, until a member revokes it."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="story_links")
    game = models.ForeignKey(ChronicleGame, on_delete=models.CASCADE, related_name="story_links")
    token = models.CharField(max_length=64, unique=True, default=new_story_token, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["game"], condition=Q(revoked_at__isnull=True), name="one_live_story_link_per_game"
            )
        ]

    def __str__(self):
        return f"Story link of {self.game}"


def new_invitation_token() -> str:
    return secrets.token_urlsafe(32)


INVITATION_DAYS_DEFAULT = 7
INVITATION_DAYS_MAX = 30


def invitation_expiry() -> datetime.datetime:
    return timezone.now() + datetime.timedelta(days=INVITATION_DAYS_DEFAULT)


class Invitation(models.Model):
    """A link that makes whoever opens it (signed up or logged in) a member of the campaign, as a
    player or a viewer (never an owner). One for a House is used once: that House gets its player;
    one without a House serves everyone who opens it until it expires or is revoked
    (docs/rules-decisions.md, "Invitations")."""

    class Role(models.TextChoices):
        PLAYER = Membership.Role.PLAYER.value, pgettext_lazy("role", "Player")
        VIEWER = Membership.Role.VIEWER.value, pgettext_lazy("role", "Viewer")

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="invitations")
    token = models.CharField(max_length=64, unique=True, default=new_invitation_token, editable=False)
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.PLAYER)
    house = models.ForeignKey(
        House, null=True, blank=True, on_delete=models.CASCADE, related_name="invitations"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField(default=invitation_expiry)
    revoked_at = models.DateTimeField(null=True, blank=True)
    uses = models.PositiveIntegerField(default=0)  # people who joined (or took the House) by it

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self):
        return f"Invitation to {self.campaign} as {self.role}"


class AccountPreference(models.Model):
    """What a person reads Chronicle in: their language and time zone, beside their account (set at
    sign-up from the browser, changed on the account page). The account's, not a campaign's: no
    archive carries it."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="preference")
    language = models.CharField(max_length=10, default=settings.LANGUAGE_CODE)
    time_zone = models.CharField(max_length=64, blank=True)  # blank: the browser's, as it says

    def __str__(self):
        return f"{self.user}: {self.language} {self.time_zone or '(browser)'}"
