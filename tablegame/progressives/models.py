"""The progressives' records: a table's Royal 9 meters, must-hit meters, their links and wins,
and the controller's ledger (004 §13(i)-(j)).

A table's Royal 9 meters (Star, Spade, Heart) are ``ProgressiveMeter`` rows. A must-hit meter
belongs to a pit and is fed by one table (standalone) or several tables of that pit (linked). Its
hit value is drawn at every reset and is never shown: no page, API, admin or event carries it until
it is won. The database guards the meters (migration ``0005_progressive_guards``): an amount
goes down only with a win (``hits`` + 1, back to its reset), parameters change only while the meter
is not live or at a win, and the ledger is never changed or removed. The app is ``tablegame``
(``tablegame.models`` exports these names, and Django finds them there).
"""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.db import models
from django.utils import timezone

from casino.models import Pit
from tablegame.models.rounds import MONEY, Round
from tablegame.models.tables import Table


class ProgressiveMeter(models.Model):
    """A Royal 9 progressive meter at a table: Star, Spade or Heart (004 §13(i))."""

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="meters")
    name = models.CharField(max_length=10)
    amount = models.DecimalField(**MONEY)
    updated_at = models.DateTimeField(default=timezone.now)
    # The controller's parameters and counters (``tablegame.progressives.settlement``; the
    # database refuses a meter that goes down except when won, or new parameters while it is live).
    reseed = models.DecimalField(**MONEY, default=Decimal(0))
    contribution = models.DecimalField(max_digits=5, decimal_places=4, default=Decimal(0))
    hits = models.PositiveIntegerField(default=0, help_text="Times won in full and reseeded.")
    live = models.BooleanField(default=False, help_text="It has taken a contribution.")
    next_reseed = models.DecimalField(**MONEY, null=True, blank=True)
    next_contribution = models.DecimalField(
        max_digits=5, decimal_places=4, null=True, blank=True, help_text="From the next reseed."
    )

    class Meta:
        ordering = ("table", "name")
        constraints = (
            models.UniqueConstraint(fields=("table", "name"), name="meter_unique_name"),
            models.CheckConstraint(
                condition=models.Q(amount__gte=models.F("reseed")), name="meter_at_least_reseed"
            ),
        )

    def __str__(self) -> str:
        return f"{self.table} {self.name}: {self.amount}"


class MustHitProgressive(models.Model):
    """A must-hit progressive meter: its configuration (004 §13(j) Table 1), amount and wins."""

    pit = models.ForeignKey(Pit, on_delete=models.PROTECT, related_name="must_hit_meters")
    name = models.CharField(max_length=40, help_text='As on the sign, e.g. "Stax".')
    configuration = models.PositiveSmallIntegerField(help_text="1, 2 or 3 of Table 1.")
    reset = models.DecimalField(**MONEY)
    maximum = models.DecimalField(**MONEY)
    increment_rate = models.DecimalField(max_digits=5, decimal_places=4)
    amount = models.DecimalField(**MONEY)
    hit_value = models.DecimalField(
        **MONEY, help_text="Drawn at each reset; secret until won. Never shown."
    )
    hit_nonce = models.CharField(
        max_length=64, help_text="With the hit value, the commitment recorded at the reset."
    )
    hits = models.PositiveIntegerField(default=0)
    live = models.BooleanField(default=False, help_text="It has taken a contribution.")
    next_configuration = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Takes effect at the next reset (the meter is live)."
    )
    tables = models.ManyToManyField(Table, through="MustHitLink", related_name="must_hit_meters")
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ("pit", "name")
        constraints = (
            models.UniqueConstraint(fields=("pit", "name"), name="must_hit_unique_name"),
            models.CheckConstraint(
                condition=models.Q(reset__gt=0)
                & models.Q(maximum__gt=models.F("reset"))
                & models.Q(increment_rate__gt=0)
                & models.Q(increment_rate__lte=1),
                name="must_hit_configuration",
            ),
            models.CheckConstraint(
                condition=models.Q(amount__gte=models.F("reset"))
                & models.Q(amount__lt=models.F("hit_value"))
                & models.Q(hit_value__lte=models.F("maximum")),
                name="must_hit_below_hit_value",
            ),
        )

    def __str__(self) -> str:
        return f"{self.name} ({self.pit})"


class MustHitLink(models.Model):
    """A table feeding a must-hit meter; a table feeds at most one."""

    meter = models.ForeignKey(MustHitProgressive, on_delete=models.PROTECT, related_name="links")
    table = models.OneToOneField(Table, on_delete=models.PROTECT, related_name="must_hit_link")
    linked_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"{self.table} feeds {self.meter}"


class MustHitWin(models.Model):
    """A must-hit meter won at a table's round: queued, paid in the order won."""

    class Status(models.TextChoices):
        PENDING = "pending", "Pending payment"
        PAID = "paid", "Paid"

    meter = models.ForeignKey(MustHitProgressive, on_delete=models.PROTECT, related_name="wins")
    number = models.PositiveIntegerField(help_text="The meter's hits, counted from 1.")
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="must_hit_wins")
    round = models.ForeignKey(Round, on_delete=models.PROTECT, related_name="must_hit_wins")
    seat = models.PositiveSmallIntegerField()
    participants = models.JSONField(default=list, help_text="The seats it was drawn among.")
    amount = models.DecimalField(**MONEY)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    won_at = models.DateTimeField(default=timezone.now)
    paid_at = models.DateTimeField(null=True, blank=True)
    paid_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        ordering = ("meter", "number")
        constraints = (
            models.UniqueConstraint(fields=("meter", "number"), name="must_hit_win_unique_number"),
        )

    def __str__(self) -> str:
        return f"{self.meter} win {self.number}: {self.amount} ({self.status})"


class ProgressiveEntry(models.Model):
    """One line of the controller's ledger: a meter's amount before and after a contribution, a
    win, a reset or a parameter change. Append-only (the database refuses UPDATE and DELETE)."""

    class Kind(models.TextChoices):
        CONTRIBUTION = "contribution", "Contribution"
        HIT = "hit", "Hit"
        RESET = "reset", "Reset"
        PARAMETERS = "parameters", "Parameters changed"
        PAID = "paid", "Paid"

    royal9 = models.ForeignKey(
        ProgressiveMeter, null=True, blank=True, on_delete=models.PROTECT, related_name="entries"
    )
    must_hit = models.ForeignKey(
        MustHitProgressive,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="entries",
    )
    kind = models.CharField(max_length=12, choices=Kind.choices)
    table = models.ForeignKey(
        Table, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    round = models.ForeignKey(
        Round, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    wagered = models.DecimalField(**MONEY, default=Decimal(0))
    before = models.DecimalField(**MONEY)
    after = models.DecimalField(**MONEY)
    note = models.CharField(max_length=200, blank=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ("pk",)
        verbose_name_plural = "progressive entries"
        constraints = (
            models.CheckConstraint(
                condition=models.Q(royal9__isnull=True, must_hit__isnull=False)
                | models.Q(royal9__isnull=False, must_hit__isnull=True),
                name="progressive_entry_one_meter",
            ),
        )

    def __str__(self) -> str:
        return f"{self.kind} {self.before} -> {self.after}"
