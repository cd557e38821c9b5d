"""Restoring an archive as a new campaign (``campaign_import``): its top level and head checked,
every section read by the section importers in memory, with no transaction open (on SQLite every
transaction holds the write lock from its start), then everything written in one short transaction
of bulk inserts: a damaged archive is refused with a clear message and nothing is written, and no
half-written campaign is ever seen.

What does not travel: secrets and accounts. A restored session's seats get fresh join tokens (a
phone joins again with the new code; no account is linked to a seat); the read-only story links
(StoryLink) are not carried, live or revoked, since their tokens are secrets: a member makes a new
link in one click. The importer hosts the restored sessions, as they host the campaign."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

from campaign import legacy
from campaign.access import demo_adds_no_campaign
from campaign.models import (
    Campaign,
)
from campaign.services.archive.format import (
    ARCHIVE_UNKNOWN_KEYS,
    HEAD,
    check_top,
    damaged,
)
from campaign.services.archive.importer import Importer
from campaign.services.archive.section_importers import SECTION_IMPORTS
from campaign.services.archive.value_checks import (
    check_bool,
    check_campaign_ready,
    check_datetime,
    check_text,
)
from campaign.services.common import Actor, record_event
from games.engines.kernel.messages import gettext_noop
from games.engines.kernel.text import has_control_characters

# The copy's first line of history (a message, said in each reader's language).
CAMPAIGN_IMPORTED = gettext_noop("Campaign imported from an archive of {name}")


def _check_head(head: dict) -> dict:
    unknown = sorted(str(k) for k in head if k not in HEAD)
    if unknown:
        raise damaged("campaign", ARCHIVE_UNKNOWN_KEYS.format(keys=", ".join(unknown)))
    if head.get("name") is not None:
        check_text("campaign.name", head["name"], limit=Campaign._meta.get_field("name").max_length or 0)
    problems = legacy.settings_problems(head.get("settings", {}))
    if problems:
        raise damaged("campaign.settings", " ".join(problems))
    for flag in ("grand_finale_ready", "closed"):
        check_bool(f"campaign.{flag}", head.get(flag, False))
    created = head.get("created_at")
    if created is not None:
        created = check_datetime("campaign.created_at", created)
    return {**head, "created_at": created}


def _campaign_built(head: dict, owner: User | None, name: str | None) -> Campaign:
    if name is not None and has_control_characters(name):
        raise damaged("name", "must be a text without control characters")
    campaign = Campaign(
        name=name or str(head.get("name") or "Imported campaign"),
        created_by=owner,
        settings=head.get("settings") or {},
        grand_finale_ready=head.get("grand_finale_ready", False),
        closed=head.get("closed", False),
    )
    campaign.full_clean(exclude=["created_by"])
    return campaign


def campaign_import(*, archive: Any, owner: Actor = None, name: str | None = None) -> Campaign:
    """Import an archive into a new campaign (``owner`` becomes its owner). Every row is checked
    (types, the ranges of the rules, duplicates, links, the sessions' logs) in memory, with no
    transaction open; the first problem refuses the whole archive and nothing is written. Then
    everything is written in one short transaction of bulk inserts (on SQLite the write lock is
    held only for those), so no half-written campaign is ever seen; in it, the campaign as a whole
    is checked (it can start a night), and a refusal there rolls the whole write back. The demo
    account imports nothing (PermissionDenied, campaign/access.py)."""
    demo_adds_no_campaign(owner)
    owner = owner if isinstance(owner, User) else None
    version = check_top(archive)
    head = _check_head(archive["campaign"])
    campaign = _campaign_built(head, owner, name)
    run = Importer(campaign, version, owner)
    for section_import in SECTION_IMPORTS:
        section_import(run, archive)
    run.prepare()
    with transaction.atomic():
        run.write(head)
        check_campaign_ready(campaign)  # the Grand Finale flags; a night can start with every House
        record_event(
            campaign,
            "campaign_imported",
            CAMPAIGN_IMPORTED.format(name=repr(head.get("name"))),
            actor=owner,
        )
    return campaign
