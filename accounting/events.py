"""Accounting's kinds of event in the record: a gaming day closed or reopened, the accounting
settings changed (the casino's chain); a table inventory counted or amended, a fill or credit
issued or voided, a drop counted or amended (the table's pit's chain: accounting never writes
into a table's own chain, which the table's screens follow)."""

from __future__ import annotations

import dataclasses
from decimal import Decimal
from enum import StrEnum

from casino.events import Payload, event_kind


class AccountingEvent(StrEnum):
    GAMING_DAY_CLOSED = "gaming_day_closed"
    GAMING_DAY_REOPENED = "gaming_day_reopened"
    INVENTORY_COUNTED = "table_inventory_counted"
    SLIP_ISSUED = "slip_issued"
    SLIP_VOIDED = "slip_voided"
    DROP_COUNTED = "drop_counted"
    INVENTORY_AMENDED = "table_inventory_amended"
    DROP_AMENDED = "drop_amended"
    SETTINGS_CHANGED = "accounting_settings_changed"


@event_kind
@dataclasses.dataclass(frozen=True)
class GamingDayClosed(Payload):
    kind = AccountingEvent.GAMING_DAY_CLOSED
    title = "Gaming day closed"

    day: str
    """ISO date of the gaming day."""
    drop: Decimal
    win: Decimal
    tables: int
    """Tables with a figure that day."""

    def describe(self) -> str:
        return f"Gaming day {self.day} closed: drop ${self.drop}, win ${self.win}"


@event_kind
@dataclasses.dataclass(frozen=True)
class GamingDayReopened(Payload):
    kind = AccountingEvent.GAMING_DAY_REOPENED
    title = "Gaming day reopened"

    day: str
    approved_by: str
    """The second, senior person's username (the actor is the first)."""
    reason: str

    def describe(self) -> str:
        return f"Gaming day {self.day} reopened, approved by {self.approved_by}: {self.reason}"


@event_kind
@dataclasses.dataclass(frozen=True)
class InventoryCounted(Payload):
    kind = AccountingEvent.INVENTORY_COUNTED
    title = "Table inventory counted"

    table: str
    day: str
    inventory: str = dataclasses.field(metadata={"key": "count"})
    """``opener`` or ``closer``; stored as ``count``."""
    chips: dict[str, int]
    total: Decimal
    dealer: str
    floorperson: str

    def describe(self) -> str:
        return (
            f"{self.table} {self.inventory} of {self.day}: ${self.total}, signed by "
            f"{self.dealer} and {self.floorperson}"
        )


@event_kind
@dataclasses.dataclass(frozen=True)
class SlipIssued(Payload):
    kind = AccountingEvent.SLIP_ISSUED
    title = "Fill or credit issued"

    slip: str
    """``fill`` or ``credit``."""
    serial: int
    table: str
    day: str
    chips: dict[str, int]
    total: Decimal
    carried_by: str
    received_by: str

    def describe(self) -> str:
        return (
            f"{self.slip.title()} #{self.serial} for {self.table}: ${self.total}, carried by "
            f"{self.carried_by}, received by {self.received_by}"
        )


@event_kind
@dataclasses.dataclass(frozen=True)
class SlipVoided(Payload):
    kind = AccountingEvent.SLIP_VOIDED
    title = "Fill or credit voided"

    slip: str
    serial: int
    table: str
    witness: str
    reason: str

    def describe(self) -> str:
        return (
            f"{self.slip.title()} #{self.serial} ({self.table}) void, witnessed by {self.witness}"
        )


@event_kind
@dataclasses.dataclass(frozen=True)
class DropCounted(Payload):
    kind = AccountingEvent.DROP_COUNTED
    title = "Drop counted"

    table: str
    day: str
    currency: dict[str, int]
    currency_total: Decimal
    other_total: Decimal
    forms: tuple[int, ...]
    witness: str

    def describe(self) -> str:
        return (
            f"{self.table} drop of {self.day}: ${self.currency_total + self.other_total}, counted "
            f"with {self.witness}"
        )


@event_kind
@dataclasses.dataclass(frozen=True)
class InventoryAmended(Payload):
    kind = AccountingEvent.INVENTORY_AMENDED
    title = "Table inventory amended"

    table: str
    day: str
    inventory: str = dataclasses.field(metadata={"key": "count"})
    """``opener`` or ``closer``; stored as ``count``."""
    chips: dict[str, int]
    total: Decimal
    previous_total: Decimal
    """The total of the count it corrects."""
    approved_by: str
    """The second person's username (the actor made the amendment)."""
    reason: str

    def describe(self) -> str:
        return (
            f"{self.table} {self.inventory} of {self.day} amended from ${self.previous_total} to "
            f"${self.total}, approved by {self.approved_by}: {self.reason}"
        )


@event_kind
@dataclasses.dataclass(frozen=True)
class DropAmended(Payload):
    kind = AccountingEvent.DROP_AMENDED
    title = "Drop amended"

    table: str
    day: str
    currency: dict[str, int]
    currency_total: Decimal
    other_total: Decimal
    forms: tuple[int, ...]
    previous_total: Decimal
    """The drop of the count it corrects."""
    approved_by: str
    """The second person's username (the actor made the amendment)."""
    reason: str

    def describe(self) -> str:
        return (
            f"{self.table} drop of {self.day} amended from ${self.previous_total} to "
            f"${self.currency_total + self.other_total}, approved by {self.approved_by}: "
            f"{self.reason}"
        )


@dataclasses.dataclass(frozen=True)
class SettingChange:
    setting: str
    """The field's name: ``variance_threshold``, ``hold_low``, ``hold_high``,
    ``close_after_hours``."""
    before: str
    after: str


@event_kind
@dataclasses.dataclass(frozen=True)
class SettingsChanged(Payload):
    kind = AccountingEvent.SETTINGS_CHANGED
    title = "Accounting settings changed"

    changes: tuple[SettingChange, ...]
    """Each setting that changed, with its old and new value."""

    def describe(self) -> str:
        return "; ".join(
            f"{c.setting.replace('_', ' ')} {c.before} → {c.after}" for c in self.changes
        )
