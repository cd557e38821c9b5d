"""The importer of one archive, in two steps. Reading (``Importer.row`` and ``Importer.build``)
checks each row against the format and keeps the new objects in memory, linked to one another;
nothing touches the database. ``Importer.write`` then inserts them section by section with bulk
inserts (bulk_writer.py), in one short transaction."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import connection, models
from django.utils import timezone

from campaign.models import (
    Campaign,
    ChronicleSticker,
    Membership,
)
from campaign.services.archive.bulk_writer import LEAVES, WRITE_ORDER, AsGiven, Prepared
from campaign.services.archive.format import (
    ARCHIVE_BATCH,
    ARCHIVE_TWICE,
    ARCHIVE_UNKNOWN_KEYS,
    DATES,
    FIELDS,
    KEYS,
    LINK_TARGETS,
    LINKS,
    REQUIRED_LINKS,
    damaged,
    fields_of,
    houses_mapped,
    is_int,
)
from campaign.services.archive.value_checks import check_effects as check_effect_values
from campaign.services.archive.value_checks import (
    check_field,
)
from campaign.services.common import EFFECT_KEYS
from games.models import state_parts


def _is_stamp(field: object) -> bool:
    return bool(getattr(field, "auto_now", False) or getattr(field, "auto_now_add", False))


class Importer:
    """One import in two steps. Reading (``row`` and ``build``) checks each row and keeps the new
    objects in memory, linked to one another; nothing touches the database. ``write`` then inserts
    them section by section with bulk inserts, in one short transaction."""

    def __init__(self, campaign: Campaign, version: int, owner: User | None) -> None:

        self.campaign, self.version, self.owner = campaign, version, owner
        self.tables: dict[str, dict] = {
            "houses": {},
            "games": {},
            "envelopes": {},
            "stickers": {},
            "sessions": {},
        }
        self.seen: dict[str, set] = {}
        self.dated: dict[type[models.Model], tuple[list, set]] = {}
        self.new: dict[str, list] = {section: [] for section in FIELDS}
        self.covers: list[tuple[ChronicleSticker, ChronicleSticker]] = []
        self.prepared: dict[str, Prepared] = {}

    def once(self, where: str, key: str, value: object, what: str) -> None:
        seen = self.seen.setdefault(key, set())
        if value in seen:
            raise damaged(where, ARCHIVE_TWICE.format(what=what))
        seen.add(value)

    def link(
        self, where: str, data: dict, field: str, table: str, what: str, *, optional: bool = True
    ) -> Any:
        key = data.get(field)
        if key is None and optional:
            return None
        if not is_int(key):
            raise damaged(f"{where}.{field}", f"must be the number of a {what}")
        if key not in self.tables[table]:
            raise damaged(where, f"refers to {what} {key!r}, which is not in the archive")
        return self.tables[table][key]

    def row(self, section: str, index: int, data: Any, **extra: Any) -> Any:
        """One row of ``section``, its links to Houses, games, Envelopes and sessions resolved first."""
        where = f"{section}[{index}]"
        links = {
            field: self.link(
                where, data, field, *LINK_TARGETS[field], optional=(section, field) not in REQUIRED_LINKS
            )
            for field in LINKS[section]
            if field in LINK_TARGETS and isinstance(data, dict)
        }
        model = FIELDS[section][0]
        if any(f.name == "campaign" for f in model._meta.get_fields()):
            links["campaign"] = self.campaign
        return self.build(section, index, data, **links, **extra)

    def build(self, section: str, index: int, data: Any, **links: Any) -> Any:
        """The new object of one row, checked (types, the model's validators), kept to be written.
        Its links were resolved by ``row`` to objects of this archive: not written yet, they are
        left out of ``full_clean`` (which would look them up in the database)."""
        model, fields = FIELDS[section][0], fields_of(section, self.version)
        where = f"{section}[{index}]"
        if not isinstance(data, dict):
            raise damaged(where, "not an object")
        dates = DATES.get(section, []) if self.version >= 2 else []
        allowed = set(fields) | set(LINKS[section]) | set(DATES.get(section, [])) | set(KEYS.get(section, []))
        unknown = sorted(str(k) for k in data if k not in allowed)
        if unknown:
            raise damaged(where, ARCHIVE_UNKNOWN_KEYS.format(keys=", ".join(unknown)))
        missing = [f for f in [*fields, *dates, *KEYS.get(section, [])] if f not in data]
        if missing:
            raise damaged(where, f"missing {', '.join(missing)}")
        values: dict[str, object] = {}
        for name in [*fields, *(d for d in DATES.get(section, []) if d in data)]:
            field = model._meta.get_field(name)
            if data[name] is None and field.null:
                values[name] = None
                continue
            values[name] = check_field(section, f"{where}.{name}", field, data[name])
        stamps = {d: values.pop(d) for d in DATES.get(section, []) if d in values}
        obj = model(**values, **links)
        related = [name for name in links if model._meta.get_field(name).is_relation]
        try:
            obj.full_clean(exclude=related, validate_unique=False, validate_constraints=False)
        except ValidationError as error:
            raise damaged(where, error) from None
        if stamps:
            objs, names = self.dated.setdefault(model, ([], set()))
            objs.append((obj, stamps))
            names.update(stamps)
        self.new[section].append(obj)
        return obj

    def restore_dates(self) -> None:
        """Put the archive's dates on the new objects (``write`` inserts them as they are: no date
        is set to "now" then corrected); a date an older archive does not carry is now."""
        for _model, (objs, _names) in self.dated.items():
            for obj, stamps in objs:
                for name, value in stamps.items():
                    setattr(obj, name, value)
        now = timezone.now()
        for section, objs in self.new.items():
            stamped = [f.attname for f in FIELDS[section][0]._meta.concrete_fields if _is_stamp(f)]
            for obj in objs:
                for name in stamped:
                    if getattr(obj, name) is None:
                        setattr(obj, name, now)

    def effects(self, where: str, name: str, value: dict) -> None:
        check_effect_values(f"{where}.{name}", value, EFFECT_KEYS)

    def prepare(self) -> None:
        """Before the write transaction: the dates put back, and the rows of the sections no row
        links to made ready for the database (only the ids they link to wait for the write)."""
        self.restore_dates()
        self.prepared = {
            section: Prepared(FIELDS[section][0], self.new[section])
            for section in LEAVES
            if self.new[section]
        }

    def write(self, head: dict) -> None:
        """Everything read, in one transaction of bulk inserts: a number of statements that grows
        with the rows only by one per ``ARCHIVE_BATCH`` of them (``prepare`` first)."""
        campaign, owner = self.campaign, self.owner
        campaign.save()
        if head["created_at"] is not None:
            Campaign.objects.filter(pk=campaign.pk).update(created_at=head["created_at"])
            campaign.created_at = head["created_at"]
        if owner is not None:
            Membership.objects.create(campaign=campaign, user=owner, role=Membership.Role.OWNER)
        houses = self.tables["houses"]
        with connection.cursor() as cursor:
            for section in WRITE_ORDER:
                objs = self.new[section]
                if section in self.prepared:
                    self.prepared[section].execute(cursor)
                    continue
                if section == "sessions":
                    for session in objs:  # the engine keeps House ids: this campaign's new ones
                        session.config = houses_mapped(session.config, lambda n: houses[n].pk)
                        state = houses_mapped(session.state, lambda n: houses[n].pk)
                        # Its columns as save() writes them (a raw insert writes the attributes).
                        session.state, session.state_kept, session.state_kept_digest = state_parts(state)
                if objs:
                    AsGiven(model=FIELDS[section][0]).bulk_create(objs, batch_size=ARCHIVE_BATCH)
        for sticker, over in self.covers:
            sticker.covered_by = over
        if self.covers:
            ChronicleSticker.objects.bulk_update(
                [sticker for sticker, _ in self.covers], ["covered_by"], batch_size=ARCHIVE_BATCH
            )
