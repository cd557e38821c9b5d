"""A game session at the table: its seats and the append-only log of actions (docs/architecture.md section 4).

The cached ``state`` is a fold of the log over the engine's setup; it can always be rebuilt
(``games.services.session_replay``). Only ``games.services`` writes these models.
"""

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone


def new_seat_token() -> str:
    return secrets.token_urlsafe(24)


class GameSession(models.Model):
    class Status(models.TextChoices):
        LOBBY = "lobby", "Lobby"
        ACTIVE = "active", "Active"
        FINISHED = "finished", "Finished"
        ABANDONED = "abandoned", "Abandoned"

    game = models.CharField(max_length=40, help_text="Engine slug in games.engines.kernel.registry.")
    config = models.JSONField(default=dict, blank=True)
    seed = models.BigIntegerField()
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.LOBBY)
    version = models.PositiveIntegerField(default=0, help_text="Grows by one with every change.")
    state = models.JSONField(default=dict, blank=True, help_text="Cached fold of the action log.")
    host = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="hosted_sessions",
    )
    campaign = models.ForeignKey(
        "campaign.Campaign",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="sessions",
    )
    chronicle_game = models.ForeignKey(
        "campaign.ChronicleGame",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="sessions",
    )
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)
    last_activity = models.DateTimeField(default=timezone.now)
    # Facts about the log and the seats kept on the row a submit locks, so the lock reads them with
    # the row itself (games.services._lock): the sequence number of the last logged action (undone
    # ones included: undo never removes an action), and whether a bot plays a seat (fixed when the
    # session is created).
    last_seq = models.PositiveIntegerField(default=0, help_text="Sequence number of the last logged action.")
    has_bots = models.BooleanField(default=False, help_text="A bot plays one of the seats.")

    class Meta:
        ordering = ["-last_activity"]
        indexes = [models.Index(fields=["status", "last_activity"])]

    def __str__(self) -> str:
        return f"{self.game} #{self.pk} ({self.status}, v{self.version})"

    @property
    def is_running(self) -> bool:
        return self.status == self.Status.ACTIVE


class Seat(models.Model):
    session = models.ForeignKey(GameSession, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=80)  # a House name fits (campaign.House.name)
    colour = models.CharField(max_length=20, blank=True)
    token = models.CharField(max_length=64, unique=True, default=new_seat_token, editable=False)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="seats",
    )
    is_bot = models.BooleanField(default=False)
    joined_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When a phone first opened the seat with its token; empty: the table shows its code.",
    )

    class Meta:
        ordering = ["session", "index"]
        constraints = [
            models.UniqueConstraint(fields=["session", "index"], name="games_seat_unique_index"),
        ]

    def __str__(self) -> str:
        return f"{self.name} (seat {self.index} of session {self.session_id})"


class SessionAction(models.Model):
    """One applied action. Append-only: undo marks ``undone``, nothing is ever deleted."""

    session = models.ForeignKey(GameSession, on_delete=models.CASCADE, related_name="actions")
    seq = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Seat index; empty = table.")
    payload = models.JSONField()
    # A sentence, then one line per consequence (a game may say them: the King's Dilemma does).
    label = models.TextField(max_length=1000)
    # NULL (not ""): requests without a key stay outside the unique constraint below.
    idempotency_key = models.CharField(max_length=100, null=True, blank=True)  # noqa: DJ001
    version = models.PositiveIntegerField(help_text="Session version right after this action.")
    undone = models.BooleanField(default=False)
    # Asked of the engine as the action was applied (games.services._undoable): False once it
    # revealed something hidden. NULL: logged before this was recorded; asked of a replay instead.
    undoable = models.BooleanField(
        null=True,
        blank=True,
        help_text="Whether the host may undo it: never once it revealed hidden information.",
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["session", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["session", "seq"], name="games_action_unique_seq"),
            models.UniqueConstraint(
                fields=["session", "idempotency_key"],
                condition=Q(idempotency_key__isnull=False),
                name="games_action_unique_idempotency_key",
            ),
        ]

    def __str__(self) -> str:
        return f"#{self.seq} {self.label}{' (undone)' if self.undone else ''}"


class SessionSnapshot(models.Model):
    """The state after one logged action, kept every ``games.services.SNAPSHOT_EVERY`` actions so
    an undo replays from the nearest one, not from the setup: a long night undoes as fast as a
    short one. A cache of the log, never its truth: dropped when an undo reaches back past it,
    never exported (an imported night replays from its setup once). A reader's fold of the log (the
    night's story) is kept beside the state it was folded with (``told``)."""

    session = models.ForeignKey(GameSession, on_delete=models.CASCADE, related_name="snapshots")
    seq = models.PositiveIntegerField(help_text="The sequence number of the action it follows.")
    state = models.JSONField()
    # A reader's fold of the log up to the same action (the King's Dilemma's night story), kept so
    # the next reader resumes here with ``state``; empty until a reader folded that far. Pure data
    # an engine's fold returns, never read by the rules.
    told = models.JSONField(
        null=True,
        blank=True,
        help_text="What a reader folded from the log up to this action (a night's story so far).",
    )

    class Meta:
        ordering = ["session", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["session", "seq"], name="games_snapshot_unique_seq"),
        ]

    def __str__(self):
        return f"Session {self.session_id} after action {self.seq}"
