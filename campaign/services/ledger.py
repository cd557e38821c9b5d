"""Prestige and Crave: a ledger of entries, each with its reason and source."""

from __future__ import annotations

from collections.abc import Iterable

from django.core.exceptions import ValidationError
from django.db.models import Sum
from django.utils.translation import gettext_lazy

from campaign.models import (
    ChronicleGame,
    House,
    LedgerEntry,
)
from campaign.services.common import Actor, message_data, record_event
from games.engines.kernel.messages import Message, gettext_noop

LEDGER_KIND = gettext_lazy("Ledger entries are Prestige or Crave.")
PRESTIGE_BELOW_ZERO = gettext_lazy(
    "This correction would leave House {house} with {prestige} Prestige, and a House's Prestige never "
    "goes below 0: correct the entry that took Prestige away first."
)

# The history's line of an entry: its reason said as the app wrote it (a message) or as typed.
LEDGER_LINE = gettext_noop("House {house}: {amount:+d} {kind} ({reason})")
KIND_WORDS = {"prestige": gettext_noop("Prestige"), "crave": gettext_noop("Crave")}


def ledger_add(
    *,
    house: House,
    kind: str,
    amount: int,
    reason: str,
    source: str,
    game: ChronicleGame | None = None,
    actor: Actor = None,
) -> LedgerEntry | None:
    if kind not in LedgerEntry.Kind.values:
        raise ValidationError(LEDGER_KIND)
    if amount == 0:
        return None
    entry = LedgerEntry(
        house=house,
        kind=kind,
        amount=amount,
        reason=str(reason)[:200],
        reason_data=message_data(reason),
        source=source,
        game=game,
    )
    entry.full_clean()
    entry.save()
    said = reason if isinstance(reason, Message) else str(reason)
    record_event(
        house.campaign,
        "ledger",
        LEDGER_LINE.format(house=house.name, amount=amount, kind=KIND_WORDS[kind], reason=said),
        actor=actor,
        house=house,
        game=game,
        kind_=kind,
        amount=amount,
    )
    return entry


def prestige_check(*, houses: Iterable[House]) -> None:
    """After a correction, inside its transaction: no House left with Prestige below 0 (the
    engine would refuse to seat it, so the campaign could not start its next night)."""
    for house in {h.pk: h for h in houses}.values():
        prestige = house.ledger.filter(kind=LedgerEntry.Kind.PRESTIGE).aggregate(total=Sum("amount"))["total"]
        if (prestige or 0) < 0:
            raise ValidationError(PRESTIGE_BELOW_ZERO.format(house=house.name, prestige=prestige))
