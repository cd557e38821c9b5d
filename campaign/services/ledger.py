"""Prestige and Crave: a ledger of entries, each with its reason and source."""

from __future__ import annotations

from django.core.exceptions import ValidationError

from campaign.models import (
    ChronicleGame,
    House,
    LedgerEntry,
)
from campaign.services.common import record_event

LEDGER_KIND = "Ledger entries are Prestige or Crave."


def ledger_add(
    *,
    house: House,
    kind: str,
    amount: int,
    reason: str,
    source: str,
    game: ChronicleGame | None = None,
    actor=None,
) -> LedgerEntry | None:
    if kind not in LedgerEntry.Kind.values:
        raise ValidationError(LEDGER_KIND)
    if amount == 0:
        return None
    entry = LedgerEntry(house=house, kind=kind, amount=amount, reason=reason, source=source, game=game)
    entry.full_clean()
    entry.save()
    sign = "+" if amount > 0 else ""
    record_event(
        house.campaign,
        "ledger",
        f"House {house.name}: {sign}{amount} {kind.capitalize()} ({reason})",
        actor=actor,
        house=house,
        game=game,
        kind_=kind,
        amount=amount,
    )
    return entry
