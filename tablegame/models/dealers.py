"""Which dealer works which table: the floor assigns a dealer to a table and relieves them."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from casino.models import Assignment
from tablegame.models.tables import Table


class DealerAssignmentQuerySet(models.QuerySet["DealerAssignment"]):
    def current(self) -> DealerAssignmentQuerySet:
        """Assignments not yet relieved."""
        return self.filter(relieved_at__isnull=True)


class DealerAssignment(Assignment):
    """A dealer at a table, from the floor's assignment to their relief. A table has at most one
    dealer at a time, and a dealer works at most one table."""

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="dealer_assignments")
    dealer = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="table_assignments"
    )

    objects = DealerAssignmentQuerySet.as_manager()

    class Meta(Assignment.Meta):
        constraints = (
            models.UniqueConstraint(
                fields=("table",),
                condition=models.Q(relieved_at__isnull=True),
                name="one_dealer_per_table",
            ),
            models.UniqueConstraint(
                fields=("dealer",),
                condition=models.Q(relieved_at__isnull=True),
                name="one_table_per_dealer",
            ),
        )

    def __str__(self) -> str:
        return f"{self.dealer} at {self.table}"
