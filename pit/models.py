from __future__ import annotations

import datetime
import zoneinfo

from django.core.exceptions import ValidationError
from django.db import models


def validate_time_zone(value: str) -> None:
    """Refuse a name that is not an IANA time zone, such as ``America/New_York``."""
    try:
        zoneinfo.ZoneInfo(value)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError) as exc:
        raise ValidationError(
            f"'{value}' is not a time zone: use an IANA name such as America/New_York."
        ) from exc


class Casino(models.Model):
    """A licensed casino; its gaming day starts at a local time in its own time zone."""

    name = models.CharField(max_length=100, unique=True)
    gaming_day_start = models.TimeField(
        default=datetime.time(6, 0), help_text="Local time at which the gaming day begins."
    )
    time_zone = models.CharField(
        max_length=64, default="America/New_York", validators=[validate_time_zone]
    )

    class Meta:
        ordering = ("name",)

    def __str__(self) -> str:
        return self.name


class Pit(models.Model):
    """A group of tables supervised together on the casino floor."""

    casino = models.ForeignKey(Casino, on_delete=models.PROTECT, related_name="pits")
    name = models.CharField(max_length=50)

    class Meta:
        ordering = ("casino__name", "name")
        constraints = (
            models.UniqueConstraint(fields=("casino", "name"), name="pit_unique_name_per_casino"),
        )

    def __str__(self) -> str:
        return self.name
