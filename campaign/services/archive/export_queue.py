"""The export queue: an export is requested, its task sent after the commit, written by the task
(after a trial import that must accept it), and sent again by beat's sweep when its sending failed
or its worker never wrote it; the owner may try again a stalled or failed export."""

from __future__ import annotations

import datetime
import logging
import os
import threading
from pathlib import Path

import redis
from django.conf import settings as django_settings
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import models, transaction
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy
from kombu.exceptions import KombuError

from campaign.models import (
    Campaign,
    CampaignExport,
)
from campaign.services.archive.export import archive_dumps, campaign_archive
from campaign.services.archive.format import (
    ARCHIVE_EXPORT_TOO_LARGE,
    ARCHIVE_MAX_BYTES,
    check_top,
)
from campaign.services.archive.restore import campaign_import
from campaign.services.common import Actor, in_english, message_data, record_event, task_named
from config.json_limits import json_loads_strict
from games.engines.kernel.messages import Message, gettext_noop, join

# Exports that cannot be lost: the request sends the task after its commit; a send that fails
# (Redis down) leaves the export pending with EXPORT_NOT_SENT, and beat's sweep sends it again;
# one sent but never written (its worker killed, the message lost) is sent again once stale; after
# CHRONICLE_EXPORT_MAX_ATTEMPTS sendings it fails with EXPORT_GAVE_UP. The page offers "Try again".
# An export's reasons are messages: the export keeps them (error_data) and each reader reads them
# in their language.
EXPORT_NOT_SENT = gettext_noop(
    "Not started yet: the background queue is unreachable. It is tried again automatically, "
    "or press Try again."
)
EXPORT_GAVE_UP = gettext_noop(
    "Not written after {attempts} attempts: no background worker ran it. "
    "Press Try again once the worker runs (see the status page)."
)
EXPORT_ALREADY_READY = gettext_lazy("This export is ready: download it below.")
EXPORT_WOULD_NOT_IMPORT = gettext_noop("Not offered: this export would not import again. {problem}")
EXPORT_IMPORT_CRASHED = gettext_noop("the import failed on it ({problem})")
EXPORT_SIZE = gettext_noop("{size} MB, the limit is {limit} MB")
EXPORT_NOT_JSON = gettext_lazy("The archive is damaged: it is not valid JSON ({problem}).")
EXPORT_STILL_RUNNING = gettext_lazy("This export is still being prepared: wait a moment before trying again.")
EXPORT_REQUESTED = gettext_noop("Campaign export requested")
EXPORT_RETRIED = gettext_noop("Campaign export tried again")
EXPORT_TASK = "campaign.tasks.campaign_export_task"  # the task writing an export (sent by name)
# Sending a task: a brief broker hiccup is retried at once; longer outages are the sweep's.
EXPORT_SEND_RETRY = {"max_retries": 2, "interval_start": 0, "interval_step": 0.2, "interval_max": 0.5}

logger = logging.getLogger(__name__)


def _broker_errors() -> tuple[type[BaseException], ...]:
    return (KombuError, redis.exceptions.RedisError, OSError)


def campaign_export_enqueue(*, export_id: int) -> bool:
    """Send a pending export's task (counted in ``attempts``); False when the broker refused it,
    the export then saying so (EXPORT_NOT_SENT) until the sweep or "Try again" sends it again."""
    pending = CampaignExport.objects.filter(pk=export_id, status=CampaignExport.Status.PENDING)
    if not pending.update(
        attempts=models.F("attempts") + 1, attempted_at=timezone.now(), error="", error_data=None
    ):
        return False  # written or failed meanwhile: nothing to send
    try:
        task_named(EXPORT_TASK).apply_async(args=[export_id], retry=True, retry_policy=EXPORT_SEND_RETRY)
    except _broker_errors() as error:
        logger.warning(
            "Export %s: its task could not be sent (%s); the sweep sends it again.", export_id, error
        )
        pending.update(error=EXPORT_NOT_SENT, error_data=message_data(EXPORT_NOT_SENT))
        return False
    return True


@transaction.atomic
def campaign_export_request(*, campaign: Campaign, requested_by: Actor = None) -> CampaignExport:
    requested_by = requested_by if isinstance(requested_by, User) else None
    export = CampaignExport.objects.create(campaign=campaign, requested_by=requested_by)
    record_event(campaign, "export_requested", EXPORT_REQUESTED, actor=requested_by)
    transaction.on_commit(lambda: campaign_export_enqueue(export_id=export.pk), robust=True)
    return export


@transaction.atomic
def campaign_export_retry(*, export: CampaignExport, actor: Actor = None) -> CampaignExport:
    """ "Try again" on a stalled or failed export: pending again, its attempts counted afresh, its
    task sent after the commit. A ready export, or one still being prepared, is refused."""
    export = CampaignExport.objects.select_for_update().get(pk=export.pk)
    if export.status == CampaignExport.Status.READY:
        raise ValidationError(EXPORT_ALREADY_READY)
    if not export.retryable:
        raise ValidationError(EXPORT_STILL_RUNNING)
    export.status, export.error, export.path, export.attempts = CampaignExport.Status.PENDING, "", "", 0
    export.error_data = None
    export.full_clean()
    export.save(update_fields=["status", "error", "error_data", "path", "attempts"])
    record_event(export.campaign, "export_retried", EXPORT_RETRIED, actor=actor)
    transaction.on_commit(lambda: campaign_export_enqueue(export_id=export.pk), robust=True)
    return export


def campaign_export_sweep(*, now: datetime.datetime | None = None) -> dict[str, int]:
    """celery beat: send again every pending export whose task could not be sent or which was not
    written CHRONICLE_EXPORT_STALE_SECONDS after its last sending; fail (EXPORT_GAVE_UP) those sent
    CHRONICLE_EXPORT_MAX_ATTEMPTS times already. Returns how many were sent and failed."""
    now = now or timezone.now()
    cutoff = now - datetime.timedelta(seconds=django_settings.CHRONICLE_EXPORT_STALE_SECONDS)
    limit = django_settings.CHRONICLE_EXPORT_MAX_ATTEMPTS
    stalled = CampaignExport.objects.filter(status=CampaignExport.Status.PENDING).filter(
        models.Q(attempted_at__lt=cutoff)
        | models.Q(attempted_at__isnull=True, created_at__lt=cutoff)
        | ~models.Q(error="")
    )
    counts = {"sent": 0, "failed": 0}
    for export_id, attempts in stalled.values_list("pk", "attempts"):
        if attempts >= limit:
            gave_up = EXPORT_GAVE_UP.format(attempts=attempts)
            counts["failed"] += CampaignExport.objects.filter(
                pk=export_id, status=CampaignExport.Status.PENDING
            ).update(status=CampaignExport.Status.FAILED, error=gave_up, error_data=message_data(gave_up))
        elif campaign_export_enqueue(export_id=export_id):
            counts["sent"] += 1
    return counts


def _refusal_words(error: ValidationError) -> Message:
    """A refusal's words, one after the other: each a message where the refusal kept one (said in
    each reader's language), else its English (a lazy text's words keep no message id)."""
    items = getattr(error, "error_list", None) or [ValidationError(text) for text in error.messages]
    parts: list[str] = []
    for item in items:
        message = item.message
        if isinstance(message, Message) and not item.params:
            parts.append(message)
        else:
            english = in_english(message)
            parts.append(english % item.params if item.params else english)
    return join(parts, " ")


def _export_refusal(archive: dict, text: str) -> str | None:
    """Why the import would refuse this export (its size or a section's rows), or None."""
    size = len(text.encode("utf-8"))
    if size > ARCHIVE_MAX_BYTES:
        return ARCHIVE_EXPORT_TOO_LARGE.format(
            problem=EXPORT_SIZE.format(size=f"{size / 2**20:.1f}", limit=ARCHIVE_MAX_BYTES // 2**20)
        )
    try:
        with translation.override(
            "en"
        ):  # a refusal's words are kept in English (a task may run in a request)
            check_top(archive)
    except ValidationError as error:
        return ARCHIVE_EXPORT_TOO_LARGE.format(problem=_refusal_words(error))
    return None


class _DryRun(Exception):
    """Rolls a trial import back (``campaign_import_check``)."""


def campaign_import_check(*, text: str) -> None:
    """Import ``text`` as an uploaded archive is imported (read by the same strict decoder, every
    check of ``campaign_import``, the rows written and the campaign checked as a whole), then roll
    it all back: nothing stays. ValidationError: why the import would refuse it."""
    try:
        archive = json_loads_strict(text)
    except (ValueError, RecursionError) as error:
        raise ValidationError(EXPORT_NOT_JSON.format(problem=error)) from None
    try:
        with transaction.atomic():
            campaign_import(archive=archive, owner=None)
            raise _DryRun
    except _DryRun:
        pass


def _export_reread(text: str) -> str | None:
    """Why the import would refuse this export once written (None: it imports)."""
    try:
        with translation.override("en"):  # as above: the words the import refuses with, in English
            campaign_import_check(text=text)
    except ValidationError as error:
        return _refusal_words(error)
    except Exception as error:  # a crash of the import is a refusal too: never a "ready" file
        logger.exception("The trial import of an export failed")
        return EXPORT_IMPORT_CRASHED.format(problem=type(error).__name__)
    return None


def _export_failed(export: CampaignExport, error: str) -> str:
    CampaignExport.objects.filter(pk=export.pk).update(
        status=CampaignExport.Status.FAILED, error=str(error)[:300], error_data=message_data(error)
    )
    return ""


def campaign_export_write(*, export_id: int) -> str:
    """Write the archive file (idempotent: a ready export is not written again; the file is
    written to a temporary name and renamed, so a killed worker never leaves half a file). An
    archive the import would refuse is never written: it is imported first, in a transaction
    rolled back, and if refused the export fails and says why (the owner sees it on the page and
    in the API) instead of offering a file that would never restore."""
    export = CampaignExport.objects.select_related("campaign").get(pk=export_id)
    if export.status == CampaignExport.Status.READY and export.path:
        return export.path
    archive = campaign_archive(campaign=export.campaign)
    text = archive_dumps(archive)
    problem = _export_refusal(archive, text)
    if problem is not None:
        return _export_failed(export, problem)
    problem = _export_reread(text)
    if problem is not None:
        return _export_failed(export, EXPORT_WOULD_NOT_IMPORT.format(problem=problem))
    folder = Path(django_settings.MEDIA_ROOT) / "exports"
    folder.mkdir(parents=True, exist_ok=True)
    name = f"campaign-{export.campaign_id}-export-{export.pk}.json"
    tmp = folder / f".{name}.{os.getpid()}.{threading.get_ident()}.tmp"  # two runs never share one
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, folder / name)
    CampaignExport.objects.filter(pk=export.pk).update(
        status=CampaignExport.Status.READY, path=name, error="", error_data=None
    )
    return name
