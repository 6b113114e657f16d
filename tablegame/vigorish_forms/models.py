"""Complimentary Vigorish Forms: the series received, and each form from preparation to
accounting (002 (c)(3)(ii)-(iv)).

A series of serially pre-numbered forms is received by the pit clerk and used in order: the next
form of a pit is the next number of its oldest series with forms left, taken under the pit row's
lock, so that no number is skipped or used twice. Each number ends as a form documenting a
marker, or VOID; the series' numbers are accounted for as used, void or unused.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from casino.models import Pit
from tablegame.models.rounds import MONEY
from tablegame.models.tables import Table
from tablegame.models.vigorish import VigorishMarker

#: How a form's number is printed: ``004501``.
NUMBER_DIGITS = 6


def form_number(number: int) -> str:
    """The number as printed on the form."""
    return f"{number:0{NUMBER_DIGITS}d}"


class VigorishFormSeries(models.Model):
    """A series of pre-numbered forms received by the pit, ``first_number`` to ``last_number``."""

    pit = models.ForeignKey(Pit, on_delete=models.PROTECT, related_name="vigorish_form_series")
    first_number = models.PositiveIntegerField()
    last_number = models.PositiveIntegerField()
    next_number = models.PositiveIntegerField(
        help_text="The next form of the series to use; last number + 1 once all are used."
    )
    received_at = models.DateTimeField(default=timezone.now)
    received_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        ordering = ("pit", "received_at", "pk")
        constraints = (
            models.CheckConstraint(
                condition=models.Q(last_number__gte=models.F("first_number")),
                name="form_series_in_order",
            ),
            models.CheckConstraint(
                condition=models.Q(next_number__gte=models.F("first_number"))
                & models.Q(next_number__lte=models.F("last_number") + 1),
                name="form_series_next_within",
            ),
        )

    def __str__(self) -> str:
        return f"Forms {form_number(self.first_number)}-{form_number(self.last_number)}"

    @property
    def size(self) -> int:
        """How many forms the series holds."""
        return self.last_number - self.first_number + 1

    @property
    def unused(self) -> int:
        """Forms of the series not yet used."""
        return self.last_number + 1 - self.next_number


class VigorishForm(models.Model):
    """One numbered Complimentary Vigorish Form (original and duplicate), or a VOID one."""

    class Status(models.TextChoices):
        PREPARED = "prepared", "Prepared: signatures wanted"
        SIGNED = "signed", "Signed: original to the drop box"
        DEPOSITED = "deposited", "Original in the drop box"
        VOID = "void", "VOID"

    series = models.ForeignKey(VigorishFormSeries, on_delete=models.PROTECT, related_name="forms")
    number = models.PositiveIntegerField()
    pit = models.ForeignKey(Pit, on_delete=models.PROTECT, related_name="vigorish_forms")
    gaming_day = models.DateField(help_text="The casino's gaming day the form was used in.")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PREPARED)
    # What the form documents (blank on a spoiled blank voided before use).
    marker = models.ForeignKey(
        VigorishMarker, null=True, blank=True, on_delete=models.PROTECT, related_name="forms"
    )
    table = models.ForeignKey(
        Table, null=True, blank=True, on_delete=models.PROTECT, related_name="vigorish_forms"
    )
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    amount = models.DecimalField(null=True, blank=True, **MONEY)
    patron_name = models.CharField(max_length=100, blank=True)
    reason = models.CharField(max_length=200, blank=True, help_text="Why it was not collected.")
    prepared_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    prepared_at = models.DateTimeField(default=timezone.now)
    # The signatures, each given by the person on their own screen.
    dealer = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    dealer_signed_at = models.DateTimeField(null=True, blank=True)
    pit_boss = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    pit_boss_signed_at = models.DateTimeField(null=True, blank=True)
    clerk = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    clerk_signed_at = models.DateTimeField(null=True, blank=True)
    # The patron's signature, or the statement why it could not be had.
    patron_signature = models.CharField(
        max_length=100, blank=True, help_text="The patron's name as they signed it."
    )
    no_signature_statement = models.CharField(max_length=200, blank=True)
    patron_part_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    patron_part_at = models.DateTimeField(null=True, blank=True)
    # The original into the drop box by the dealer, before the pit boss and clerk who signed.
    deposited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    deposited_at = models.DateTimeField(null=True, blank=True)
    deposit_pit_boss_at = models.DateTimeField(null=True, blank=True)
    deposit_clerk_at = models.DateTimeField(null=True, blank=True)
    # VOID: the clerk's and the pit boss's signatures.
    void_reason = models.CharField(max_length=200, blank=True)
    voided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    voided_at = models.DateTimeField(null=True, blank=True)
    void_pit_boss = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    void_pit_boss_signed_at = models.DateTimeField(null=True, blank=True)
    # The duplicate, kept by the clerk and forwarded to accounting at the end of the gaming day.
    forwarded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    forwarded_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("pit", "number")
        constraints = (
            models.UniqueConstraint(fields=("series", "number"), name="form_unique_number"),
            models.CheckConstraint(
                condition=models.Q(amount__isnull=True) | models.Q(amount__gt=0),
                name="form_amount_positive",
            ),
        )

    def __str__(self) -> str:
        return f"Complimentary Vigorish Form {self.printed_number}"

    @property
    def printed_number(self) -> str:
        """The number as printed."""
        return form_number(self.number)

    @property
    def is_void(self) -> bool:
        return self.status == self.Status.VOID

    @property
    def patron_part_done(self) -> bool:
        """The patron signed, or the statement why not is on the form."""
        return bool(self.patron_signature or self.no_signature_statement)

    @property
    def fully_signed(self) -> bool:
        """Dealer, pit boss and clerk signed, and the patron's part is done."""
        return bool(self.dealer_id and self.pit_boss_id and self.clerk_id and self.patron_part_done)

    @property
    def void_complete(self) -> bool:
        """VOID, signed by the clerk and the pit boss."""
        return self.is_void and bool(self.voided_by_id and self.void_pit_boss_id)

    @property
    def ready_for_accounting(self) -> bool:
        """The original is in the drop box, or the form is VOID with both signatures."""
        return self.status == self.Status.DEPOSITED or self.void_complete
