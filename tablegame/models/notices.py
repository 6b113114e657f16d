"""Written notice to surveillance of a change of procedure, and surveillance's acknowledgement."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from tablegame.models.tables import Table, TableRules


class ProcedureNotice(models.Model):
    """The notice surveillance is given of a change of shuffle, commission or settlement
    procedure (002 (c)(5), (e)(2)(ii)B, (j)(3)(ii); 004 §5(a)(1)(ii)): filed with the Rules
    Submission that makes the change, at least 30 minutes before it takes effect; surveillance
    acknowledges each one (who, when)."""

    rules = models.OneToOneField(TableRules, on_delete=models.PROTECT, related_name="notice")
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="notices")
    changes = models.CharField(
        max_length=200, help_text='What changes, e.g. "settlement procedure and commission rate".'
    )
    before = models.CharField(max_length=300, blank=True, help_text="The procedure until then.")
    after = models.CharField(max_length=300, blank=True, help_text="The procedure from then on.")
    effective_at = models.DateTimeField()
    filed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    filed_at = models.DateTimeField(default=timezone.now)
    acknowledged_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    acknowledged_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("effective_at", "pk")
        constraints = (
            models.CheckConstraint(
                condition=models.Q(acknowledged_by__isnull=True, acknowledged_at__isnull=True)
                | models.Q(acknowledged_by__isnull=False, acknowledged_at__isnull=False),
                name="notice_acknowledged_by_someone_at_a_time",
            ),
        )

    def __str__(self) -> str:
        return f"{self.table}: {self.changes} from {self.effective_at:%Y-%m-%d %H:%M}"

    @property
    def is_acknowledged(self) -> bool:
        """Surveillance has acknowledged the notice."""
        return self.acknowledged_at is not None
