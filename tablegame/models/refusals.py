"""A dealer's command refused for a reason surveillance must see (``tablegame.errors``: a card
not in the shoe, a wager after no more bets, a card not due, a wager over the limit), kept after
its transaction rolled back (``tablegame.refusals``). Not part of the table's chained record: a
refusal changed nothing."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from tablegame.errors import REFUSAL_LABELS
from tablegame.models.rounds import Round
from tablegame.models.tables import Table


class TableRefusal(models.Model):
    """Who was refused what at which table, in which round, told in which words, and when."""

    at = models.DateTimeField(default=timezone.now)
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="refusals")
    round = models.ForeignKey(
        Round, null=True, blank=True, on_delete=models.PROTECT, related_name="refusals"
    )
    round_number = models.PositiveIntegerField(null=True, blank=True)
    shoe_number = models.PositiveIntegerField(null=True, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    username = models.CharField(max_length=150, blank=True, help_text="As it was then.")
    command = models.CharField(max_length=40, help_text="The action: deal_card, place_wager.")
    kind = models.CharField(
        max_length=20, choices=[(k.value, label) for k, label in REFUSAL_LABELS.items()]
    )
    words = models.CharField(max_length=300, help_text="What the dealer was told.")
    given = models.JSONField(
        default=dict, blank=True, help_text="The command's input: card, seat, wager, amount."
    )
    more = models.PositiveIntegerField(
        default=0,
        help_text=(
            "Refusals alike (the same person, table and kind) in the same minute past those kept "
            "one by one (casino.refusals.KEPT_PER_MINUTE), counted on the last one kept."
        ),
    )

    class Meta:
        indexes = (
            models.Index(fields=("-at",), name="table_refusal_newest"),
            models.Index(fields=("table", "-at"), name="table_refusal_table_newest"),
        )

    def __str__(self) -> str:
        return f"{self.username or 'nobody'} refused {self.command} at table {self.table_id}"
