"""The access policy's refusals that reached a person as a 403 (``casino.refusals``): part of the
record of sign-ins and refusals surveillance reads (``/surveillance/signins/``). Not part of the
casino's chained record: a refusal changed nothing."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone


class AccessRefusal(models.Model):
    """A person refused by ``casino.access.decide``, as they were told it (a page, the API, a
    socket): who, what they tried, where and when."""

    class Channel(models.TextChoices):
        PAGE = "page", "Page"
        API = "api", "API"
        SOCKET = "socket", "Socket"

    at = models.DateTimeField(default=timezone.now)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    username = models.CharField(max_length=150, blank=True, help_text="As it was then.")
    what = models.CharField(max_length=100, help_text="The policy's name for it: page:floor.")
    doing = models.CharField(max_length=200, help_text="In words: open the pit console.")
    channel = models.CharField(max_length=6, choices=Channel.choices)
    path = models.CharField(max_length=300, blank=True)
    address = models.GenericIPAddressField(null=True, blank=True)
    more = models.PositiveIntegerField(
        default=0,
        help_text=(
            "Refusals of the same person and thing in the same minute past those kept one by one "
            "(casino.refusals.KEPT_PER_MINUTE), counted on the last one kept."
        ),
    )

    class Meta:
        indexes = (models.Index(fields=("-at",), name="access_refusal_newest"),)

    def __str__(self) -> str:
        return f"{self.username or 'nobody'} refused {self.what}"
