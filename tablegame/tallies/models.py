"""Tallies: the day's play summed as it is settled, for the accounting reports.

The settlement of a round adds its figures here in the same transaction
(``tablegame.tallies.writes``), so a gaming day's report reads hundreds of rows, not millions. The
rows are keyed by table, gaming day and what the report groups by. They only grow by whole settled
rounds (the database refuses anything else, migration 0013) and are checked against the record's
settlement events (``tablegame.verification``).
"""

from __future__ import annotations

from decimal import Decimal

from django.db import models

from tablegame.models.shoes import Shoe
from tablegame.models.tables import Table, TableRules

ZERO = Decimal("0.00")


class WagerTally(models.Model):
    """The settled wagers of a gaming day at a table, per Rules Submission, decks, wager type,
    result and award: how many, and their figures as settlement wrote them. ``ride_back`` is
    House Money let ride on a wager that lost (collected with it)."""

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="+")
    day = models.DateField(help_text="The casino's gaming day the rounds were settled in.")
    rules = models.ForeignKey(TableRules, on_delete=models.PROTECT, related_name="+")
    decks = models.PositiveSmallIntegerField()
    type = models.CharField(max_length=30)
    result = models.CharField(max_length=5)
    award = models.CharField(max_length=40, blank=True)
    n = models.IntegerField(default=0)
    amount = models.DecimalField(max_digits=16, decimal_places=2, default=ZERO)
    payout = models.DecimalField(max_digits=16, decimal_places=2, default=ZERO)
    vigorish = models.DecimalField(max_digits=16, decimal_places=2, default=ZERO)
    returned = models.DecimalField(max_digits=16, decimal_places=2, default=ZERO)
    fee = models.DecimalField(max_digits=16, decimal_places=2, default=ZERO)
    ride_back = models.DecimalField(max_digits=16, decimal_places=2, default=ZERO)

    KEY = ("table", "day", "rules", "decks", "type", "result", "award")

    class Meta:
        constraints = (
            models.UniqueConstraint(
                fields=("day", "table", "rules", "decks", "type", "result", "award"),
                name="wagertally_unique_group",
            ),
        )

    def __str__(self) -> str:
        return f"{self.day} table {self.table_id}: {self.type} {self.result} x{self.n}"


class RoundTally(models.Model):
    """The rounds of a gaming day at a table from one shoe: settled, void, and the
    player-dealer's fees per hand (a step on no wager). The shoes of the day are its rows."""

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="+")
    day = models.DateField(help_text="The casino's gaming day the rounds were settled in.")
    shoe = models.ForeignKey(Shoe, on_delete=models.PROTECT, related_name="+")
    rounds = models.IntegerField(default=0)
    voids = models.IntegerField(default=0)
    hand_fees = models.DecimalField(max_digits=16, decimal_places=2, default=ZERO)

    KEY = ("table", "day", "shoe")

    class Meta:
        constraints = (
            models.UniqueConstraint(fields=("day", "table", "shoe"), name="roundtally_unique_shoe"),
        )

    def __str__(self) -> str:
        return f"{self.day} table {self.table_id} shoe {self.shoe_id}: {self.rounds} rounds"
