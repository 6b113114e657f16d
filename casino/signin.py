"""Sign-in: a username is locked out after too many failed attempts, and that is recorded.

Every failed sign-in (Django's ``user_login_failed`` signal, sent by ``authenticate()`` from the
login page, the admin's and the API's) is kept as a :class:`~casino.models.SignInFailure`. The
``SIGN_IN_FAILURES_BEFORE_LOCKOUT``-th failure (5) within ``SIGN_IN_LOCKOUT`` (15 minutes) locks
the username for ``SIGN_IN_LOCKOUT``: :class:`LockoutBackend` then refuses it even with the right
password, the sign-in forms say so and until when, and a ``UserLockedOut`` event goes into the
casino's own chain (no pit, no table) of the deployment's casino, the first by pk
(:func:`casino.record.deployment_casino`). Attempts while locked are refused without counting.
"""

from __future__ import annotations

import datetime
import logging
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.models import User
from django.contrib.auth.signals import user_login_failed
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.dispatch import receiver
from django.http import HttpRequest
from django.utils import timezone

from casino.events import UserLockedOut
from casino.models import Casino, SignInFailure, SignInLock
from casino.record import deployment_casino, record_casino_event

logger = logging.getLogger(__name__)
USERNAME_MAX_LENGTH = SignInLock._meta.get_field("username").max_length or 150


def lockout_window() -> datetime.timedelta:
    """How far back failures count, and how long a lock-out lasts."""
    return datetime.timedelta(seconds=settings.SIGN_IN_LOCKOUT_SECONDS)


def locked_until(username: str, now: datetime.datetime | None = None) -> datetime.datetime | None:
    """When the username's lock-out ends; None when it may sign in."""
    now = now or timezone.now()
    return (
        SignInLock.objects.filter(username=username[:USERNAME_MAX_LENGTH], until__gt=now)
        .values_list("until", flat=True)
        .first()
    )


def note_failure(username: str, now: datetime.datetime | None = None) -> datetime.datetime | None:
    """Count a failed sign-in; lock the username out (and record it) if that makes too many.
    Returns the end of the lock-out the username is under, if any."""
    now = now or timezone.now()
    username = username[:USERNAME_MAX_LENGTH]
    casino = deployment_casino()
    with transaction.atomic():
        if casino is not None:
            # One failure at a time: two at once would both see the fifth and lock twice.
            list(Casino.objects.select_for_update().filter(pk=casino.pk).values_list("pk"))
        until = locked_until(username, now)
        if until is not None:
            return until
        since = now - lockout_window()
        SignInFailure.objects.filter(at__lte=since).delete()  # the window has moved past them
        SignInFailure.objects.create(username=username, at=now)
        failures = SignInFailure.objects.filter(username=username, at__gt=since).count()
        if failures < settings.SIGN_IN_FAILURES_BEFORE_LOCKOUT:
            return None
        until = now + lockout_window()
        SignInLock.objects.update_or_create(username=username, defaults={"until": until})
        SignInFailure.objects.filter(username=username).delete()
        payload = UserLockedOut(
            username=username,
            failures=failures,
            until=until.astimezone(datetime.UTC).isoformat(timespec="seconds"),
        )
        if casino is None:
            logger.warning("No casino yet: %s not recorded", payload.describe())
        else:
            record_casino_event(casino, actor=None, payload=payload)
        return until


@receiver(user_login_failed)
def count_failed_sign_in(
    sender: Any, credentials: dict[str, Any], request: HttpRequest | None = None, **kwargs: Any
) -> None:
    username = credentials.get("username")
    if isinstance(username, str) and username:
        note_failure(username)


class LockoutBackend(ModelBackend):
    """Django's username and password check, refusing a username that is locked out."""

    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> User | None:
        if username and locked_until(username) is not None:
            raise PermissionDenied(f"{username} is locked out")  # stops every other backend
        return super().authenticate(request, username=username, password=password, **kwargs)

    async def aauthenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> User | None:
        if username and await sync_to_async(locked_until)(username) is not None:
            raise PermissionDenied(f"{username} is locked out")
        return await super().aauthenticate(request, username=username, password=password, **kwargs)


def lockout_message(username: str, until: datetime.datetime) -> str:
    """What the sign-in page says to a locked-out username."""
    casino = deployment_casino()
    zone = casino.zone if casino is not None else datetime.UTC
    return (
        f"Too many failed sign-ins: {username} is locked out until "
        f"{until.astimezone(zone):%H:%M} ({zone}). Try again then, or ask a supervisor."
    )


class LockoutFormMixin:
    """For a sign-in form: refuse a locked-out username, saying until when (also in
    ``form.locked_out``, for the page to show apart from a wrong password)."""

    cleaned_data: dict[str, Any]
    locked_out = ""

    def clean(self) -> dict[str, Any]:
        username = self.cleaned_data.get("username")
        if username:
            self._refuse_if_locked(username)
        try:
            cleaned: dict[str, Any] = super().clean()  # type: ignore[misc]
        except ValidationError:
            if username:
                self._refuse_if_locked(username)  # the failure that just locked it says so
            raise
        return cleaned

    def _refuse_if_locked(self, username: str) -> None:
        until = locked_until(username)
        if until is not None:
            self.locked_out = lockout_message(username, until)
            raise ValidationError(self.locked_out, code="locked_out")


class SignInForm(LockoutFormMixin, AuthenticationForm):
    """The login page's form."""


class AdminSignInForm(LockoutFormMixin, AdminAuthenticationForm):
    """The admin's login form."""
