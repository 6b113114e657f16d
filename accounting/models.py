"""The accounting department's rows: gaming days and their closing, table inventories, fills and
credits, drop counts, and the casino's accounting settings.

Every row is written by ``accounting.services`` in one transaction that also records its event;
nothing of a closed gaming day may change (``services.lock_open_day``). A count is never changed
once recorded: it is corrected by a new row that ``amends`` it, approved by a second person; the
reports read the ``current()`` counts, those no later row amends.
"""

from __future__ import annotations

from decimal import Decimal
from typing import TypedDict

from django.conf import settings
from django.db import models
from django.utils import timezone

from casino.models import Casino
from tablegame.models import Table, TableRules


class _Money(TypedDict):
    max_digits: int
    decimal_places: int


#: Accounting's money columns: up to 999,999,999,999.99 (a day's sums over many tables).
MONEY: _Money = {"max_digits": 14, "decimal_places": 2}

#: The largest variance threshold a casino may set (larger would flag nothing).
MOST_VARIANCE_THRESHOLD = Decimal("1000000.00")
#: The close delay's bounds, in hours after the gaming day ends: the count room needs time to count
#: the drop, and a day left open for more than three days is no longer being closed.
CLOSE_AFTER_HOURS = (1, 72)


class AccountingSettings(models.Model):
    """What the casino sets for its accounting: thresholds, variance bounds, when days close."""

    casino = models.OneToOneField(
        Casino, on_delete=models.PROTECT, related_name="accounting_settings"
    )
    variance_threshold = models.DecimalField(
        default=Decimal("100.00"),
        help_text="A table whose count-room win and wager-tracked result differ by more than "
        "this is flagged.",
        **MONEY,
    )
    hold_low = models.DecimalField(
        max_digits=6,
        decimal_places=2,
        default=Decimal("8.00"),
        help_text="Hold % below this is flagged for investigation.",
    )
    hold_high = models.DecimalField(
        max_digits=6,
        decimal_places=2,
        default=Decimal("30.00"),
        help_text="Hold % above this is flagged for investigation.",
    )
    close_after_hours = models.PositiveSmallIntegerField(
        default=10,
        help_text="The scheduled close takes a gaming day this many hours after it ends (the "
        "count room counts the drop first).",
    )

    class Meta:
        constraints = (
            models.CheckConstraint(
                condition=models.Q(
                    variance_threshold__gte=0, variance_threshold__lte=MOST_VARIANCE_THRESHOLD
                ),
                name="accounting_settings_threshold_in_bounds",
            ),
            models.CheckConstraint(
                condition=models.Q(
                    hold_low__gte=0, hold_low__lt=models.F("hold_high"), hold_high__lte=100
                ),
                name="accounting_settings_hold_bounds",
            ),
            models.CheckConstraint(
                condition=models.Q(
                    close_after_hours__gte=CLOSE_AFTER_HOURS[0],
                    close_after_hours__lte=CLOSE_AFTER_HOURS[1],
                ),
                name="accounting_settings_close_delay_in_bounds",
            ),
        )

    def __str__(self) -> str:
        return f"Accounting settings of {self.casino}"

    @classmethod
    def of(cls, casino: Casino) -> AccountingSettings:
        """The casino's settings, or the defaults (unsaved) when it has set none."""
        found = cls.objects.filter(casino=casino).first()
        return found or cls(casino=casino)


class GamingDay(models.Model):
    """A casino's gaming day as accounting keeps it: open until closed; a closed day is final."""

    class Status(models.TextChoices):
        OPEN = "open", "Open"
        CLOSED = "closed", "Closed"

    casino = models.ForeignKey(Casino, on_delete=models.PROTECT, related_name="gaming_days")
    day = models.DateField()
    status = models.CharField(max_length=6, choices=Status.choices, default=Status.OPEN)
    closed_at = models.DateTimeField(null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="Who closed it; empty when the scheduled task did.",
    )
    summarized_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When the closed day's play was summarized (WagerSummary, RoundSummary).",
    )

    class Meta:
        ordering = ("casino", "-day")
        constraints = (
            models.UniqueConstraint(fields=("casino", "day"), name="gaming_day_unique_per_casino"),
        )

    def __str__(self) -> str:
        return f"{self.casino} gaming day {self.day:%Y-%m-%d} ({self.status})"

    @property
    def is_closed(self) -> bool:
        return self.status == self.Status.CLOSED


class DayReopening(models.Model):
    """A closed gaming day opened again: by one person, approved by a second, senior one."""

    gaming_day = models.ForeignKey(GamingDay, on_delete=models.PROTECT, related_name="reopenings")
    reopened_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    reason = models.CharField(max_length=200)
    at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"{self.gaming_day} reopened at {self.at:%Y-%m-%d %H:%M}"


def _amendment_constraints(prefix: str, made_by: str) -> tuple[models.BaseConstraint, ...]:
    """A count first recorded has no approver and no reason; an amendment has both, and its
    approver is not the person who made it."""
    return (
        models.CheckConstraint(
            condition=models.Q(amends__isnull=True, approved_by__isnull=True, reason="")
            | (models.Q(amends__isnull=False, approved_by__isnull=False) & ~models.Q(reason="")),
            name=f"{prefix}_amendment_approved_with_reason",
        ),
        models.CheckConstraint(
            condition=~models.Q(approved_by=models.F(made_by)),
            name=f"{prefix}_amendment_approved_by_another",
        ),
    )


class InventoryQuerySet(models.QuerySet["TableInventory"]):
    def current(self) -> InventoryQuerySet:
        """The counts that stand: those no later row amends."""
        return self.filter(amendment__isnull=True)


class TableInventory(models.Model):
    """The chips in a table's tray at the start (opener) or end (closer) of a gaming day; or an
    amendment of such a count (``amends``), approved by a second person."""

    class Kind(models.TextChoices):
        OPENER = "opener", "Opener"
        CLOSER = "closer", "Closer"

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="inventories")
    day = models.DateField(help_text="The gaming day.")
    kind = models.CharField(max_length=6, choices=Kind.choices)
    chips = models.JSONField(help_text='Pieces by denomination: {"25": 40, "100": 12}.')
    total = models.DecimalField(**MONEY)
    dealer = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    floorperson = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="Who entered the count, or made the amendment.",
    )
    recorded_at = models.DateTimeField(default=timezone.now)
    amends = models.OneToOneField(
        "self",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="amendment",
        help_text="The count this one corrects (same table, day and kind); empty for a count "
        "as first recorded.",
    )
    approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="The second person who approved the amendment.",
    )
    reason = models.CharField(max_length=200, blank=True, help_text="Why the count was amended.")

    objects = InventoryQuerySet.as_manager()

    class Meta:
        ordering = ("table", "day", "kind", "recorded_at")
        constraints = (
            models.UniqueConstraint(
                fields=("table", "day", "kind"),
                condition=models.Q(amends__isnull=True),
                name="inventory_one_per_table_day_kind",
            ),
            models.CheckConstraint(condition=models.Q(total__gte=0), name="inventory_total_ge_0"),
            *_amendment_constraints("inventory", "recorded_by"),
        )

    def __str__(self) -> str:
        return f"{self.table} {self.get_kind_display()} {self.day:%Y-%m-%d}: {self.total}"


class SerialCounter(models.Model):
    """The last serial number given to a casino's fills or credits; its row lock orders them."""

    casino = models.ForeignKey(Casino, on_delete=models.PROTECT, related_name="+")
    kind = models.CharField(max_length=6)
    last = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = (
            models.UniqueConstraint(fields=("casino", "kind"), name="serial_counter_unique"),
        )

    def __str__(self) -> str:
        return f"{self.casino} {self.kind}: {self.last}"


class Slip(models.Model):
    """A fill (chips brought to a table) or credit (chips taken from it), serially numbered."""

    class Kind(models.TextChoices):
        FILL = "fill", "Fill"
        CREDIT = "credit", "Credit"

    casino = models.ForeignKey(Casino, on_delete=models.PROTECT, related_name="slips")
    kind = models.CharField(max_length=6, choices=Kind.choices)
    serial = models.PositiveIntegerField(
        help_text="Numbered per casino and kind, from 1, in order."
    )
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="slips")
    day = models.DateField(help_text="The gaming day it was issued in.")
    chips = models.JSONField(help_text='Pieces by denomination: {"25": 40, "100": 12}.')
    total = models.DecimalField(**MONEY)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    carried_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    received_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    requested_at = models.DateTimeField(default=timezone.now)
    voided_at = models.DateTimeField(null=True, blank=True)
    voided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    void_witness = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    void_reason = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ("casino", "kind", "serial")
        constraints = (
            models.UniqueConstraint(fields=("casino", "kind", "serial"), name="slip_unique_serial"),
            models.CheckConstraint(condition=models.Q(total__gt=0), name="slip_total_positive"),
        )
        indexes = (models.Index(fields=("day", "table"), name="slip_day_table_idx"),)

    def __str__(self) -> str:
        return f"{self.get_kind_display()} #{self.serial} {self.table}: {self.total}"

    @property
    def is_void(self) -> bool:
        return self.voided_at is not None


class DropCountQuerySet(models.QuerySet["DropCount"]):
    def current(self) -> DropCountQuerySet:
        """The counts that stand: those no later row amends."""
        return self.filter(amendment__isnull=True)


class DropCount(models.Model):
    """One table's drop box for a gaming day, counted in the count room by two people; or an
    amendment of such a count (``amends``): made by ``counted_by``, approved by a second person
    (``approved_by``, who is also its ``witnessed_by``)."""

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="drop_counts")
    day = models.DateField(help_text="The gaming day whose drop the box holds.")
    currency = models.JSONField(help_text='Banknotes by denomination: {"100": 12, "20": 40}.')
    currency_total = models.DecimalField(**MONEY)
    forms = models.JSONField(
        default=list, blank=True, help_text="Serial numbers of the form originals in the box."
    )
    other = models.JSONField(
        default=list,
        blank=True,
        help_text='Anything else the box held: [{"item": "chips", "amount": "25.00"}].',
    )
    other_total = models.DecimalField(default=Decimal("0.00"), **MONEY)
    counted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    witnessed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    counted_at = models.DateTimeField(default=timezone.now)
    amends = models.OneToOneField(
        "self",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="amendment",
        help_text="The count this one corrects (same table and day); empty for a count as first "
        "recorded.",
    )
    approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="The second person who approved the amendment.",
    )
    reason = models.CharField(max_length=200, blank=True, help_text="Why the count was amended.")

    objects = DropCountQuerySet.as_manager()

    class Meta:
        ordering = ("day", "table", "counted_at")
        constraints = (
            models.UniqueConstraint(
                fields=("table", "day"),
                condition=models.Q(amends__isnull=True),
                name="drop_one_per_table_day",
            ),
            *_amendment_constraints("drop", "counted_by"),
        )

    def __str__(self) -> str:
        return f"{self.table} drop {self.day:%Y-%m-%d}: {self.total}"

    @property
    def total(self) -> Decimal:
        """The drop: currency and the value of anything else the box held."""
        return self.currency_total + self.other_total


class WagerSummary(models.Model):
    """A closed day's settled wagers, grouped as the report reads them: written when the day
    closes (its figures are final), removed when it is reopened."""

    gaming_day = models.ForeignKey(
        GamingDay, on_delete=models.CASCADE, related_name="wager_summaries"
    )
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="+")
    rules = models.ForeignKey(TableRules, on_delete=models.PROTECT, related_name="+")
    decks = models.PositiveSmallIntegerField()
    type = models.CharField(max_length=30)
    result = models.CharField(max_length=5)
    award = models.CharField(max_length=40, blank=True)
    n = models.PositiveIntegerField()
    amount = models.DecimalField(**MONEY)
    payout = models.DecimalField(**MONEY)
    vigorish = models.DecimalField(**MONEY)
    returned = models.DecimalField(**MONEY)
    fee = models.DecimalField(**MONEY)
    ride_back = models.DecimalField(**MONEY)

    def __str__(self) -> str:
        return f"{self.gaming_day}: {self.table_id} {self.type} {self.result} x{self.n}"


class RoundSummary(models.Model):
    """A closed day's rounds at one table: dealt, void, shoes, the player-dealer's hand fees."""

    gaming_day = models.ForeignKey(
        GamingDay, on_delete=models.CASCADE, related_name="round_summaries"
    )
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="+")
    rounds = models.PositiveIntegerField()
    voids = models.PositiveIntegerField()
    shoes = models.PositiveIntegerField()
    hand_fees = models.DecimalField(default=Decimal("0.00"), **MONEY)

    def __str__(self) -> str:
        return f"{self.gaming_day}: {self.table_id} {self.rounds} rounds"
