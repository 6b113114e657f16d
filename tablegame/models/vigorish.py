"""Deferred vigorish markers, and the record that makes tablet commands idempotent."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from tablegame.models.rounds import MONEY, Round
from tablegame.models.shoes import Shoe
from tablegame.models.tables import Table


class VigorishMarker(models.Model):
    """Commission owed by the player at a seat number, marked on the layout (000 §12(d)(2))."""

    class Status(models.TextChoices):
        OPEN = "open", "Open"
        COLLECTED = "collected", "Collected"
        FORM_REQUESTED = "form_requested", "Complimentary Vigorish Form requested"

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="markers")
    shoe = models.ForeignKey(Shoe, on_delete=models.PROTECT, related_name="markers")
    round = models.ForeignKey(Round, on_delete=models.PROTECT, related_name="markers")
    seat = models.PositiveSmallIntegerField()
    player_name = models.CharField(max_length=100, blank=True)
    amount = models.DecimalField(**MONEY)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.OPEN)
    marked_at = models.DateTimeField(default=timezone.now)
    resolved_at = models.DateTimeField(null=True, blank=True)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    reason = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ("table", "-seat", "marked_at")

    def __str__(self) -> str:
        return f"{self.table} seat {self.seat}: {self.amount} ({self.status})"


class CommandRecord(models.Model):
    """A tablet command by its idempotency key: a repeat returns the first answer, unchanged."""

    key = models.CharField(max_length=100)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="+")
    command = models.CharField(max_length=40)
    status = models.PositiveSmallIntegerField()
    response = models.TextField(
        help_text="The answer as sent, JSON text: a repeat is answered with the same bytes."
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = (
            models.UniqueConstraint(fields=("user", "key"), name="command_unique_key_per_user"),
        )

    def __str__(self) -> str:
        return f"{self.command} {self.key}"


class TableSnapshot(models.Model):
    """The whole table state as of one event, kept so that a screen that joins or sees a gap is
    answered without rebuilding it; stale as soon as the table's record has a later event."""

    table = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="snapshot")
    sequence = models.PositiveIntegerField(help_text="The table's last event when it was taken.")
    state = models.TextField(help_text="The table state, JSON text as served.")
    expires_at = models.DateTimeField(
        null=True, blank=True, help_text="When the state changes with no event (decks fall due)."
    )

    def __str__(self) -> str:
        return f"{self.table} at event {self.sequence}"
