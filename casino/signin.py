"""Sign-in: failed attempts are recorded and lock the username out, with django-axes.

django-axes (``axes`` in ``INSTALLED_APPS``, its middleware, and :class:`SignInBackend`, axes'
backend, as the ``AUTHENTICATION_BACKENDS``) keeps every failed sign-in (``AccessAttempt``, and
the failure log ``AccessFailureLog``) from the login page and the admin's. The
``SIGN_IN_FAILURES_BEFORE_LOCKOUT``-th failure (5; ``AXES_FAILURE_LIMIT``) locks the username
(``AXES_LOCKOUT_PARAMETERS``) for ``SIGN_IN_LOCKOUT_SECONDS`` (15 minutes; ``AXES_COOLOFF_TIME``)
after the last failure: it is refused even with the right password, and the sign-in forms say so
and until when (:func:`lockout_page`, axes' ``AXES_LOCKOUT_CALLABLE``, and the forms' own check).
Axes' ``user_locked_out`` signal puts a ``UserLockedOut`` event in the casino's own chain (no pit,
no table) of the deployment's casino, the first by pk (:func:`casino.record.deployment_casino`),
once per lock-out. Attempts while locked are refused without counting.
"""

from __future__ import annotations

import datetime
import logging
from typing import Any

from axes.backends import AxesBackend
from axes.models import AccessAttempt
from axes.signals import user_locked_out
from django.conf import settings
from django.contrib import admin
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db.models import Max, Sum
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.utils import timezone

from casino.events import UserLockedOut
from casino.models import Event
from casino.record import deployment_casino, record_casino_event

logger = logging.getLogger(__name__)


class SignInBackend(AxesBackend):  # type: ignore[misc]
    """Axes' lock-out check (the password is checked by Django's ``ModelBackend``, next in
    ``AUTHENTICATION_BACKENDS``). A sign-in with no request (the test client's ``login()``, a
    shell) has no client to count failures for: it is left to the password check alone."""

    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> User | None:
        if request is None:
            return None
        super().authenticate(request, username=username, password=password, **kwargs)
        return None  # allowed: the next backend checks the password


def lockout_parameters(request: Any, credentials: dict[str, Any] | None = None) -> list[str]:
    """What a lock-out locks (axes' ``AXES_LOCKOUT_PARAMETERS``): the account, its failures counted
    across every address and browser, so rotating them gains a guesser nothing. Not the address:
    the floor's tablets reach the server through one proxy and would lock each other out."""
    return ["username"]


def lockout_window() -> datetime.timedelta:
    """How long a lock-out lasts after the last failure (and how far back failures count)."""
    return datetime.timedelta(seconds=settings.SIGN_IN_LOCKOUT_SECONDS)


def locked_until(username: str, now: datetime.datetime | None = None) -> datetime.datetime | None:
    """When the username's lock-out ends; None when it may sign in."""
    now = now or timezone.now()
    attempts = AccessAttempt.objects.filter(
        username=username, attempt_time__gt=now - lockout_window()
    ).aggregate(failures=Sum("failures_since_start"), last=Max("attempt_time"))
    failures, last = attempts["failures"] or 0, attempts["last"]
    if last is None or failures < settings.SIGN_IN_FAILURES_BEFORE_LOCKOUT:
        return None
    until: datetime.datetime = last + lockout_window()
    return until


@receiver(user_locked_out)
def record_lock_out(
    sender: Any, request: HttpRequest | None = None, username: str | None = None, **kwargs: Any
) -> None:
    """Axes locked ``username`` out: the casino's own chain records it (once per lock-out)."""
    if not username:
        return
    until = locked_until(username) or timezone.now() + lockout_window()
    since = until - lockout_window() - lockout_window()
    if Event.objects.filter(
        action=UserLockedOut.kind.value, data__username=username, created_at__gt=since
    ).exists():
        return  # axes tells again of a username already locked out
    payload = UserLockedOut(
        username=username,
        failures=settings.SIGN_IN_FAILURES_BEFORE_LOCKOUT,
        until=until.astimezone(datetime.UTC).isoformat(timespec="seconds"),
    )
    casino = deployment_casino()
    if casino is None:
        logger.warning("No casino yet: %s not recorded", payload.describe())
    else:
        record_casino_event(casino, actor=None, payload=payload)


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
            self._refuse_if_locked(username)  # before authenticate(): no failure is counted
        cleaned: dict[str, Any] = super().clean()  # type: ignore[misc]
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


def lockout_page(
    request: HttpRequest,
    original_response: HttpResponse | None = None,
    credentials: dict[str, Any] | None = None,
) -> HttpResponseBase:
    """Axes' answer to the failure that locks a username out (``AXES_LOCKOUT_CALLABLE``): the same
    sign-in page again, whose form now says until when."""
    page: HttpResponseBase
    if request.path.startswith("/admin/"):
        page = admin.site.login(request)
    else:
        page = auth_views.LoginView.as_view(authentication_form=SignInForm)(request)
    # Returned by axes' middleware after the view, past Django's rendering of template responses.
    render = getattr(page, "render", None)
    rendered: HttpResponseBase = render() if callable(render) else page
    return rendered
