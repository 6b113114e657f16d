"""A mark on a table: open until cleared; the rows are kept, so its history is the alerts' log."""

from __future__ import annotations

from django.db import models
from django.utils import timezone

from tablegame.models.tables import Table


class TableMark(models.Model):
    """Something a watcher must look at on a table, from ``raised_at`` until ``cleared_at``.

    One open mark per table, source and key: raising it again restates it (new words, the round
    it now names), so the wall shows one line per concern, not one per round."""

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="marks")
    source = models.CharField(max_length=30, help_text='Who raised it: "protection".')
    key = models.CharField(
        max_length=60, help_text='What it is about, e.g. "favourable" or "player:Ann Lee".'
    )
    shoe = models.PositiveIntegerField(null=True, blank=True, help_text="The shoe's number.")
    round = models.PositiveIntegerField(
        null=True, blank=True, help_text="The round it names, by its number in the shoe."
    )
    words = models.CharField(max_length=300, help_text="What a watcher reads on the wall.")
    link = models.CharField(
        max_length=200, blank=True, help_text="A page of this site that says more (a path)."
    )
    raised_at = models.DateTimeField(default=timezone.now)
    restated_at = models.DateTimeField(default=timezone.now)
    restated = models.PositiveIntegerField(default=0, help_text="Times raised again while open.")
    cleared_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("-raised_at", "-pk")
        constraints = (
            models.UniqueConstraint(
                fields=("table", "source", "key"),
                condition=models.Q(cleared_at__isnull=True),
                name="mark_one_open_per_key",
            ),
        )
        indexes = (models.Index(fields=("table", "cleared_at"), name="mark_table_open_idx"),)

    def __str__(self) -> str:
        return f"{self.table_id}: {self.words}"

    @property
    def is_open(self) -> bool:
        return self.cleared_at is None
