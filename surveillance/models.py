"""The tamper-evident record of what happens at each table.

Every action at a table appends one :class:`Event`, written by ``surveillance.record.record_event``
in the same transaction as the change it describes. Events of a table form a hash chain: each
event's ``hash`` covers its contents and the previous event's hash, so editing or removing an
event breaks the chain at that point (``surveillance.record.verify_chain`` finds where). The
database itself refuses UPDATE, DELETE and TRUNCATE of the table (migration 0002).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from tablegame.models import Table

#: The ``prev_hash`` of a table's first event: there is nothing before it.
GENESIS_HASH = "0" * 64
ACTION_MAX_LENGTH = 50


class Event(models.Model):
    """One action at a table, numbered in its table's chain; never changed once written."""

    table = models.ForeignKey(
        Table,
        on_delete=models.PROTECT,
        related_name="events",
        help_text="The table the action happened at; each table has its own chain.",
    )
    sequence = models.PositiveIntegerField(
        help_text="Position in the table's chain: 1 for its first event, then gap-free."
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="Who acted; empty when the system did (a timer, a task).",
    )
    action = models.SlugField(
        max_length=ACTION_MAX_LENGTH,
        db_index=False,
        help_text='What was done, as a short slug such as "card_dealt".',
    )
    data = models.JSONField(
        help_text="The details of the action, as plain JSON (money as strings, no floats)."
    )
    created_at = models.DateTimeField(
        help_text="When it was recorded (UTC), set by the recorder; part of the hash."
    )
    prev_hash = models.CharField(
        max_length=64,
        help_text="The hash of the table's previous event (64 zeros for the first one).",
    )
    hash = models.CharField(
        max_length=64,
        help_text="SHA-256 (hex) of this event's contents and prev_hash.",
    )

    class Meta:
        constraints = (
            models.UniqueConstraint(
                fields=("table", "sequence"), name="event_unique_sequence_per_table"
            ),
            models.CheckConstraint(
                condition=models.Q(sequence__gte=1), name="event_sequence_from_1"
            ),
        )
        indexes = (models.Index(fields=("table", "created_at"), name="event_table_created_idx"),)

    def __str__(self) -> str:
        return f"{self.table} #{self.sequence} {self.action}"
