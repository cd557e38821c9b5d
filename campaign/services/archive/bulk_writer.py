"""The raw-SQL bulk writer of an import: the sections no row links to are made ready for the
database before the write transaction (``Prepared``), so the transaction only fills in the ids they
link to and runs one ``executemany`` per ARCHIVE_BATCH rows; the others are bulk-created with each
value as the object holds it (``AsGiven``)."""

from __future__ import annotations

from typing import Any

from django.db import connection, models
from django.db.backends.utils import CursorWrapper

from campaign.services.archive.format import (
    ARCHIVE_BATCH,
)


class AsGiven(models.QuerySet):
    """``bulk_create`` that writes each value as the object holds it, as ``loaddata`` does (a raw
    insert): the archive's dates, where an ordinary insert would stamp "now" (auto_now_add) and a
    second pass would have to put them back."""

    def _insert(self, *args: Any, **kwargs: Any) -> Any:
        kwargs["raw"] = True
        return super()._insert(*args, **kwargs)  # type: ignore[misc]


# The sections no row links to: their rows are made ready for the database before the write
# transaction begins (``Prepared``), and inserted in it with one statement per ARCHIVE_BATCH rows.
LEAVES = (
    "achievements",
    "scores",
    "ledger",
    "story_cards",
    "dilemma_cards",
    "mystery_stickers",
    "events",
    "seats",
    "actions",
)


class Prepared:
    """One section's INSERT and its rows, each value already as the database takes it, but for
    the ids of the rows it links to (written in the same transaction, just before): the work left
    for the write transaction is filling those in and ``executemany``."""

    def __init__(self, model: type[models.Model], objs: list[models.Model]):
        fields: list[Any] = [f for f in model._meta.concrete_fields if not f.primary_key]
        ops = connection.ops
        self.sql = "INSERT INTO {} ({}) VALUES ({})".format(
            ops.quote_name(model._meta.db_table),
            ", ".join(ops.quote_name(str(f.column)) for f in fields),
            ", ".join(["%s"] * len(fields)),
        )
        self.links = [i for i, f in enumerate(fields) if f.is_relation]
        self.rows = [
            [
                (f.get_cached_value(obj, None) if f.is_cached(obj) else getattr(obj, f.attname))
                if f.is_relation
                else f.get_db_prep_save(getattr(obj, f.attname), connection)
                for f in fields
            ]
            for obj in objs
        ]

    def execute(self, cursor: CursorWrapper) -> None:
        for row in self.rows:
            for i in self.links:
                if isinstance(row[i], models.Model):
                    row[i] = row[i].pk
        for start in range(0, len(self.rows), ARCHIVE_BATCH):
            cursor.executemany(self.sql, self.rows[start : start + ARCHIVE_BATCH])


# In dependency order: each section links only to sections before it.
WRITE_ORDER = (
    "houses",
    "games",
    "envelopes",
    "achievements",
    "scores",
    "ledger",
    "stickers",
    "story_cards",
    "dilemma_cards",
    "mystery_stickers",
    "events",
    "sessions",
    "seats",
    "actions",
)
