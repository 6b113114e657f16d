"""API tokens that expire, are stored hashed, and can be revoked (``tablegame.api.tokens``)."""

from __future__ import annotations

import datetime

from django.conf import settings
from django.db import models
from django.utils import timezone


class ApiToken(models.Model):
    """A tablet's or a script's API token. Only the SHA-256 digest of its key is kept: the key is
    shown once, when issued. It stops working at ``expires_at``, or once revoked."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    label = models.CharField(max_length=100, blank=True, help_text='What uses it, e.g. "MB-1".')
    prefix = models.CharField(max_length=8, help_text="The key's first characters, to tell it.")
    digest = models.CharField(max_length=64, unique=True, editable=False)
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField()
    revoked_at = models.DateTimeField(null=True, blank=True)
    revoked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        ordering = ("-created_at",)
        verbose_name = "API token"

    def __str__(self) -> str:
        return f"{self.prefix}… of {self.user}"

    def refusal(self, now: datetime.datetime | None = None) -> str | None:
        """Why the token no longer works, or None while it does."""
        if self.revoked_at is not None:
            return "This API token was revoked: ask for a new one."
        if (now or timezone.now()) >= self.expires_at:
            return "This API token has expired: ask for a new one."
        return None
