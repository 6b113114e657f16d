"""What the pit keeps of its own: the alerts raised by the periodic watch (``pit.alerts``)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from casino.models import Pit
from tablegame.models import Table


class Alert(models.Model):
    """Something at a table that needs a supervisor; it stays until one acknowledges it."""

    class Kind(models.TextChoices):
        DECKS_DUE = "decks_due", "Decks due for change"
        MARKERS_OPEN = "markers_open", "Markers open at the shoe's end"
        VERIFICATION_WAITING = "verification_waiting", "Verification waiting"
        PROCEDURE_CHANGE = "procedure_change", "Rules change about to take effect"
        MUST_HIT_NEAR_MAXIMUM = "must_hit_near_maximum", "Must-hit meter near its maximum"
        NO_DEALER = "no_dealer", "Table open with no dealer"

    pit = models.ForeignKey(Pit, on_delete=models.PROTECT, related_name="alerts")
    table = models.ForeignKey(
        Table, null=True, blank=True, on_delete=models.PROTECT, related_name="alerts"
    )
    kind = models.CharField(max_length=30, choices=Kind.choices)
    key = models.CharField(
        max_length=120, help_text="What it is about: raised once per key, e.g. decks_due:7:3."
    )
    message = models.CharField(max_length=300)
    raised_at = models.DateTimeField(default=timezone.now)
    cleared_at = models.DateTimeField(
        null=True, blank=True, help_text="When the watch last found the condition gone."
    )
    acknowledged_at = models.DateTimeField(null=True, blank=True)
    acknowledged_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        ordering = ("-raised_at", "-pk")
        constraints = (models.UniqueConstraint(fields=("key",), name="alert_raised_once_per_key"),)

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.message}"

    @property
    def is_open(self) -> bool:
        """Not yet acknowledged."""
        return self.acknowledged_at is None
