from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import models

from baccarat.profiles import PROFILES, RulesSubmission
from pit.models import Pit


def profile_choices() -> list[tuple[str, str]]:
    """Every bundled rules profile, by name. A callable, so a new profile needs no migration."""
    return [(name, profile.title) for name, profile in PROFILES.items()]


class Table(models.Model):
    """A baccarat table in a pit, dealt under one Rules Submission (its profile)."""

    pit = models.ForeignKey(Pit, on_delete=models.PROTECT, related_name="tables")
    name = models.CharField(max_length=20, help_text='As on the table sign, e.g. "MB-1".')
    profile = models.CharField(max_length=50, choices=profile_choices)
    seat_count = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ("name",)
        constraints = (
            models.UniqueConstraint(fields=("pit", "name"), name="table_unique_name_per_pit"),
        )

    def __str__(self) -> str:
        return self.name

    @property
    def rules(self) -> RulesSubmission:
        """The Rules Submission this table is dealt under."""
        return PROFILES[self.profile]

    def clean(self) -> None:
        rules = PROFILES.get(self.profile)
        if rules is None or self.seat_count is None:
            return  # the field validators report these
        if not rules.min_seats <= self.seat_count <= rules.max_seats:
            raise ValidationError(
                {
                    "seat_count": (
                        f"{rules.title} is played with {rules.min_seats} to {rules.max_seats} "
                        f"seats, not {self.seat_count}."
                    )
                }
            )
