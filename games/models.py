"""A game session at the table: its seats and the append-only log of actions (docs/architecture.md section 4).

The cached ``state`` is a fold of the log over the engine's setup; it can always be rebuilt
(``games.services.undo.session_replay``). Only ``games.services`` writes these models.
"""

import hashlib
import json
import secrets
from typing import Any, NamedTuple, Self

import orjson
from django.conf import settings
from django.db import models
from django.db.models import Q
from django.db.models.fields.json import KeyTransform
from django.utils import timezone


def new_seat_token() -> str:
    return secrets.token_urlsafe(24)


# The cached state in two columns: a top-level key whose JSON is this long or
# longer (a King's Dilemma night's cards met, its shortfalls) lives in ``state_kept``, written only
# when that part changed; the rest in ``state``, with KEPT_MARK naming the kept part's digest.
STATE_KEPT_FROM = 2048
KEPT_MARK = "__kept__"
KEPT_COLUMNS = ("state_kept", "state_kept_digest")
STATE_COLUMNS = ("state", *KEPT_COLUMNS)  # in the order of StateParts


class StateParts(NamedTuple):
    small: Any  # the ``state`` column: the small keys, and KEPT_MARK when some are kept
    kept: dict  # the ``state_kept`` column: the large keys
    digest: str  # the kept part's digest ("" when nothing is kept)


# Sorted: a value's digest ignores its keys' order. A state is a tree of JSON (the engines' contract):
# no reference cycle to look for. orjson encodes a long night's 200 KB ten times faster than json.
_SORTED = json.JSONEncoder(sort_keys=True, check_circular=False)


def _sorted_json(value: Any) -> str:
    try:
        return orjson.dumps(value, option=orjson.OPT_SORT_KEYS).decode()
    except TypeError:  # what orjson refuses (a key that is not a string, an integer past 64 bits)
        return _SORTED.encode(value)


class StateField(models.JSONField):
    """A JSONField read with orjson, several times faster than json on a long night's 200 KB of
    state. What orjson refuses to read (NaN, a document json accepts and it does not) is read by
    JSONField itself; integers stay integers within 64 bits, all the databases and the engines'
    bounds allow."""

    def from_db_value(self, value: Any, expression: Any, connection: Any) -> Any:
        if isinstance(value, str) and self.decoder is None and not isinstance(expression, KeyTransform):
            try:
                return orjson.loads(value)
            except orjson.JSONDecodeError:
                pass
        return super().from_db_value(value, expression, connection)


def state_parts(state: Any) -> StateParts:
    """``state`` split for its two columns; what is not a dict stays whole in ``state``."""
    if not isinstance(state, dict):
        return StateParts(state, {}, "")
    small, kept, texts = {}, {}, []
    for key, value in state.items():
        text = _sorted_json(value)
        if len(text) < STATE_KEPT_FROM:
            small[key] = value
        else:
            kept[key] = value
            texts.append(f"{json.dumps(key)}:{text}")
    if not kept:
        return StateParts(small, {}, "")
    digest = hashlib.blake2b(",".join(sorted(texts)).encode(), digest_size=16).hexdigest()
    return StateParts({**small, KEPT_MARK: digest}, kept, digest)


def state_joined(small: Any, kept: Any) -> Any:
    """The whole state from its two columns. A ``state`` column without KEPT_MARK holds the whole
    state (a row written before the split, or by ``QuerySet.update(state=...)``): it is the state."""
    if not isinstance(small, dict) or KEPT_MARK not in small:
        return small
    joined = {**kept, **small}
    del joined[KEPT_MARK]
    return joined


class GameSessionQuerySet(models.QuerySet):
    """``only("state")`` reads the kept part with it, ``defer("state")`` leaves it too."""

    def only(self, *fields: Any) -> Self:
        return super().only(*fields, *(KEPT_COLUMNS if "state" in fields else ()))

    def defer(self, *fields: Any) -> Self:
        return super().defer(*fields, *(("state_kept",) if "state" in fields else ()))


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
    state = StateField(default=dict, blank=True, help_text="Cached fold of the action log.")
    # The large keys of the state, and their digest (``state_parts``): ``session.state`` is whole.
    state_kept = StateField(default=dict, blank=True, help_text="The large keys of the cached state.")
    state_kept_digest = models.CharField(
        max_length=32, blank=True, default="", help_text="Digest of the large keys of the cached state."
    )
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
    # the row itself (games.services.taps.session_locked): the sequence number of the last logged action (undone
    # ones included: undo never removes an action), and whether a bot plays a seat (fixed when the
    # session is created).
    last_seq = models.PositiveIntegerField(default=0, help_text="Sequence number of the last logged action.")
    has_bots = models.BooleanField(default=False, help_text="A bot plays one of the seats.")

    objects = GameSessionQuerySet.as_manager()

    class Meta:
        ordering = ["-last_activity"]
        indexes = [models.Index(fields=["status", "last_activity"])]

    def __str__(self) -> str:
        return f"{self.game} #{self.pk} ({self.status}, v{self.version})"

    def save(self, **kwargs: Any) -> None:
        """``state`` written in its two columns (``state_parts``), the kept part only when its digest
        differs from the one stored (read with the row, also when it was read without its state)."""
        fields = kwargs.get("update_fields")
        if "state" not in self.__dict__ or (fields is not None and "state" not in fields):
            return super().save(**kwargs)
        whole = self.state
        parts = state_parts(whole)
        if not self._state.adding and not kwargs.get("force_insert"):
            kwargs["update_fields"] = self._written(fields, changed=parts.digest != self.state_kept_digest)
        before = {name: self.__dict__[name] for name in STATE_COLUMNS if name in self.__dict__}
        self.__dict__.update(zip(STATE_COLUMNS, parts, strict=True))
        try:
            super().save(**kwargs)
        except BaseException:  # the object as it was (a column it had not read stays unread)
            for name in STATE_COLUMNS:
                self.__dict__.pop(name, None)
            self.__dict__.update(before)
            raise
        self.state = whole

    @classmethod
    def from_db(cls, db: str | None, field_names: Any, values: Any, **kwargs: Any) -> Self:
        """The row with its whole ``state`` (``state_joined``)."""
        session = super().from_db(db, field_names, values, **kwargs)
        small = session.__dict__.get("state")
        if isinstance(small, dict) and KEPT_MARK in small:
            if "state_kept" not in session.__dict__:  # read without it (a plain ``only``): one query
                session.state_kept = (
                    cls._base_manager.using(db).values_list("state_kept", flat=True).get(pk=session.pk)
                )
            session.state = state_joined(small, session.state_kept)
        return session

    def refresh_from_db(
        self, using: str | None = None, fields: Any = None, from_queryset: Any = None
    ) -> None:
        """``state`` (the deferred loading of it too) is read with its kept part."""
        if fields is not None and "state" in fields:
            fields = {*fields, *KEPT_COLUMNS}
        super().refresh_from_db(using=using, fields=fields, from_queryset=from_queryset)

    def state_columns(self, state: Any) -> dict[str, Any]:
        """The columns an UPDATE writes for ``state`` over this row as read (``QuerySet.update``):
        the kept part only when its digest differs from the one read."""
        parts = state_parts(state)
        if parts.digest == self.state_kept_digest:
            return {"state": parts.small}
        return dict(zip(STATE_COLUMNS, parts, strict=True))

    def _written(self, fields: Any, *, changed: bool) -> set[str]:
        """The fields a save of this row writes: those named (all it read when none are), with the
        kept part's columns when it changed, without them when it did not."""
        if fields is None:
            fields = {
                f.attname
                for f in self._meta.concrete_fields
                if not f.primary_key and f.attname in self.__dict__
            }
        return {*fields, *KEPT_COLUMNS} if changed else set(fields) - set(KEPT_COLUMNS)

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

    # No index of its own: the unique (session, seq) index serves every lookup by session, and with
    # a second one the planner may read a long night's every action and sort them to find its last.
    session = models.ForeignKey(GameSession, on_delete=models.CASCADE, related_name="actions", db_index=False)
    seq = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Seat index; empty = table.")
    payload = models.JSONField()
    # A sentence, then one line per consequence (a game may say them: the King's Dilemma does).
    label = models.TextField(max_length=1000)
    # The same words as a message (games/engines/kernel/messages.py ``to_data``), said again in each
    # reader's language (games.translation.say_stored). NULL: logged before messages were kept, or
    # words an engine gave as plain text; the English ``label`` is read then.
    label_data = models.JSONField(
        null=True,
        blank=True,
        default=None,
        help_text="The label as a message, said in each reader's language.",
    )
    # NULL (not ""): requests without a key stay outside the unique constraint below.
    idempotency_key = models.CharField(max_length=100, null=True, blank=True)  # noqa: DJ001
    version = models.PositiveIntegerField(help_text="Session version right after this action.")
    undone = models.BooleanField(default=False)
    # Asked of the engine as the action was applied (games.services.taps._undoable): False once it
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
    """The state after one logged action, kept every ``games.services.taps.SNAPSHOT_EVERY`` actions so
    an undo replays from the nearest one, not from the setup: a long night undoes as fast as a
    short one. A cache of the log, never its truth: dropped when an undo reaches back past it,
    never exported (an imported night replays from its setup once). A reader's fold of the log (the
    night's story) is kept beside the state it was folded with (``told``)."""

    session = models.ForeignKey(GameSession, on_delete=models.CASCADE, related_name="snapshots")
    seq = models.PositiveIntegerField(help_text="The sequence number of the action it follows.")
    state = StateField()
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

    def __str__(self) -> str:
        return f"Session {self.session_id} after action {self.seq}"
