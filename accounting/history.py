"""What was corrected and changed, as the pages and reports show it: the counts amended on a
gaming day, each count of a table's day with the amendments that corrected it, and the changes of
the accounting settings as the record holds them. Reads only."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from decimal import Decimal

from accounting.events import SettingChange, SettingsChanged
from accounting.models import DropCount, TableInventory
from casino.models import Casino, Chain, Event
from tablegame.models import Table


@dataclass(frozen=True)
class Amendment:
    """A count corrected by a new row, approved by a second person."""

    table: str
    table_id: int
    count: str
    """What was counted: "Opener", "Closer" or "Drop"."""
    before: Decimal
    """The total of the count it corrects."""
    after: Decimal
    made_by: str
    approved_by: str
    reason: str
    at: datetime.datetime

    @property
    def text(self) -> str:
        return (
            f"{self.count} amended from ${self.before} to ${self.after} by {self.made_by}, "
            f"approved by {self.approved_by}: {self.reason}"
        )


def _inventory_amendment(row: TableInventory) -> Amendment:
    assert row.amends is not None and row.approved_by is not None
    return Amendment(
        table=row.table.name,
        table_id=row.table_id,
        count=row.get_kind_display(),
        before=row.amends.total,
        after=row.total,
        made_by=row.recorded_by.get_username(),
        approved_by=row.approved_by.get_username(),
        reason=row.reason,
        at=row.recorded_at,
    )


def _drop_amendment(row: DropCount) -> Amendment:
    assert row.amends is not None and row.approved_by is not None
    return Amendment(
        table=row.table.name,
        table_id=row.table_id,
        count="Drop",
        before=row.amends.total,
        after=row.total,
        made_by=row.counted_by.get_username(),
        approved_by=row.approved_by.get_username(),
        reason=row.reason,
        at=row.counted_at,
    )


def day_amendments(casino: Casino, day: datetime.date) -> list[Amendment]:
    """Every count of ``casino``'s gaming day ``day`` that was amended, in the order amended."""
    inventories = TableInventory.objects.filter(
        table__pit__casino=casino, day=day, amends__isnull=False
    ).select_related("table", "amends", "recorded_by", "approved_by")
    drops = DropCount.objects.filter(
        table__pit__casino=casino, day=day, amends__isnull=False
    ).select_related("table", "amends", "counted_by", "approved_by")
    found = [_inventory_amendment(row) for row in inventories]
    found += [_drop_amendment(row) for row in drops]
    return sorted(found, key=lambda a: (a.at, a.table))


@dataclass(frozen=True)
class CountRow:
    """One row of a count's history: the count as first recorded, or an amendment."""

    at: datetime.datetime
    total: Decimal
    by: str
    """Who recorded it (and who signed or witnessed it), or who made the amendment."""
    approved_by: str
    """The second person who approved an amendment; empty for the count first recorded."""
    reason: str
    stands: bool
    """Whether it is the count that stands (no later row amends it)."""


@dataclass(frozen=True)
class CountHistory:
    """One count of a table's day: the row that stands, and the rows in the order recorded."""

    count: str
    """One of "opener", "closer" or "drop"."""
    current: TableInventory | DropCount
    rows: list[CountRow]

    @property
    def amended(self) -> bool:
        return len(self.rows) > 1


def _row(row: TableInventory | DropCount, stands: bool) -> CountRow:
    approved = row.approved_by.get_username() if row.approved_by else ""
    if isinstance(row, DropCount):
        by = row.counted_by.get_username()
        if not row.amends_id:
            by += f" and {row.witnessed_by.get_username()}"
        return CountRow(row.counted_at, row.total, by, approved, row.reason, stands)
    by = row.recorded_by.get_username()
    if not row.amends_id:
        by += f", signed by {row.dealer.get_username()} and {row.floorperson.get_username()}"
    return CountRow(row.recorded_at, row.total, by, approved, row.reason, stands)


def table_day_counts(table: Table, day: datetime.date) -> dict[str, CountHistory]:
    """The opener, closer and drop of ``table`` for ``day`` that were counted ("opener",
    "closer", "drop"), each with its amendments."""
    rows: dict[str, list[TableInventory | DropCount]] = {}
    for inventory in TableInventory.objects.filter(table=table, day=day).select_related(
        "dealer", "floorperson", "recorded_by", "approved_by"
    ):
        rows.setdefault(inventory.kind, []).append(inventory)
    for drop in DropCount.objects.filter(table=table, day=day).select_related(
        "counted_by", "witnessed_by", "approved_by"
    ):
        rows.setdefault("drop", []).append(drop)
    out = {}
    for count, found in rows.items():
        ordered = _in_order(found)
        current = ordered[-1]
        out[count] = CountHistory(
            count, current, [_row(row, row.pk == current.pk) for row in ordered]
        )
    return out


def _in_order(rows: list[TableInventory | DropCount]) -> list[TableInventory | DropCount]:
    """A count's rows from the first recorded to the one that stands (each amends the one
    before)."""
    by_amended = {row.amends_id: row for row in rows}
    ordered = [by_amended[None]]
    while ordered[-1].pk in by_amended:
        ordered.append(by_amended[ordered[-1].pk])
    return ordered


#: How the settings page names each setting, and how it writes its value.
SETTING_LABELS = {
    "variance_threshold": ("Variance threshold", "${}"),
    "hold_low": ("Lowest hold", "{}%"),
    "hold_high": ("Highest hold", "{}%"),
    "close_after_hours": ("Close delay", "{} hours"),
}


@dataclass(frozen=True)
class SettingsChange:
    at: datetime.datetime
    by: str
    changes: tuple[SettingChange, ...]

    @property
    def lines(self) -> list[str]:
        """Each change in words: "Lowest hold 8.00% → 5.00%"."""
        out = []
        for change in self.changes:
            label, unit = SETTING_LABELS.get(change.setting, (change.setting, "{}"))
            out.append(f"{label} {unit.format(change.before)} → {unit.format(change.after)}")
        return out


def settings_changes(casino: Casino, limit: int = 50) -> list[SettingsChange]:
    """The latest changes of ``casino``'s accounting settings, from its chain of the record."""
    found = (
        Event.objects.filter(
            chain__casino=casino, chain__scope=Chain.Scope.CASINO, **SettingsChanged.lookup()
        )
        .select_related("actor")
        .order_by("-created_at", "-sequence")[:limit]
    )
    return [
        SettingsChange(
            at=event.created_at,
            by=event.actor.get_username() if event.actor else "the system",
            changes=SettingsChanged.from_data(event.data).changes,
        )
        for event in found
    ]
