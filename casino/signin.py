"""Sign-in: failed attempts are recorded and lock out, with django-axes, so no stranger can lock
out the staff.

django-axes (``axes`` in ``INSTALLED_APPS``, its middleware, :class:`SignInBackend` as the first
of ``AUTHENTICATION_BACKENDS``, :class:`SignInHandler` as ``AXES_HANDLER``) keeps every failed
sign-in (``AccessAttempt``, and the failure log ``AccessFailureLog``) from the login page and the
admin's. Failures count per username *and* address together (``AXES_LOCKOUT_PARAMETERS``): the
``SIGN_IN_FAILURES_BEFORE_LOCKOUT``-th (5) locks that username at that address only, so a
stranger's guesses never lock out a supervisor signing in from elsewhere; and
``SIGN_IN_FAILURES_PER_ADDRESS`` (20) failures from one address, whatever the usernames, lock
that address. A lock-out lasts ``SIGN_IN_LOCKOUT_SECONDS`` (15 minutes) after the last failure;
the sign-in forms say so and until when (:func:`lockout_page`, and the forms' own check).

The address is the client's (:func:`client_address`, ``AXES_CLIENT_IP_CALLABLE``): the socket's
peer, or, when that peer is one of ``TRUSTED_PROXIES`` (deploy/nginx.conf), the address the proxy
saw, the last of its ``X-Forwarded-For`` (else its ``X-Real-IP``). Anyone else's header is ignored.
Axes' ``user_locked_out`` signal puts a ``UserLockedOut`` event in the casino's own chain of the
deployment's casino (:func:`casino.record.deployment_casino`), once per lock-out: a username's, or
an address's, which names every username tried from that address within the window.

Refusals of the access policy (a 403 from a page, the API or a socket) are kept beside these, in
``casino.refusals``; surveillance reads both at ``/surveillance/signins/``.
"""

from __future__ import annotations

import datetime
import ipaddress
import logging
from typing import Any

from axes.backends import AxesBackend
from axes.handlers.database import AxesDatabaseHandler
from axes.models import AccessAttempt
from axes.signals import user_locked_out
from django.conf import settings
from django.contrib import admin
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db.models import Max, Q, Sum
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


def lockout_parameters(request: Any, credentials: dict[str, Any] | None = None) -> list[Any]:
    """What failures count together (axes' ``AXES_LOCKOUT_PARAMETERS``): a username at one address.
    The address's own limit, over every username, is :class:`SignInHandler`'s."""
    return [["username", "ip_address"]]


def _trusted(peer: str) -> bool:
    try:
        address = ipaddress.ip_address(peer)
    except ValueError:
        return False
    return any(address in network for network in settings.TRUSTED_PROXIES)


def _address(text: str) -> str | None:
    try:
        return str(ipaddress.ip_address(text.strip()))
    except ValueError:
        return None


def client_address(request: HttpRequest) -> str:
    """The client's address (``AXES_CLIENT_IP_CALLABLE``): the socket's peer, or the address a
    trusted proxy says it saw. nginx's ``$proxy_add_x_forwarded_for`` appends its peer last;
    what comes before it is what the client itself sent, and is never believed."""
    meta = request.META
    return seen_address(
        str(meta.get("REMOTE_ADDR") or ""),
        forwarded_for=str(meta.get("HTTP_X_FORWARDED_FOR") or ""),
        real_ip=str(meta.get("HTTP_X_REAL_IP") or ""),
    )


def seen_address(peer: str, *, forwarded_for: str = "", real_ip: str = "") -> str:
    """The client's address from the peer's and a proxy's headers (``client_address``; a
    socket's scope gives the same three)."""
    if not _trusted(peer):
        return peer
    seen = _address(forwarded_for.split(",")[-1]) or _address(real_ip)
    return seen or peer


def address_failures(address: str, now: datetime.datetime | None = None) -> tuple[int, Any]:
    """Failed sign-ins from ``address`` within the window, every username: (count, last)."""
    since = (now or timezone.now()) - lockout_window()
    found = AccessAttempt.objects.filter(ip_address=address, attempt_time__gt=since).aggregate(
        failures=Sum("failures_since_start"), last=Max("attempt_time")
    )
    return found["failures"] or 0, found["last"]


class SignInHandler(AxesDatabaseHandler):  # type: ignore[misc]
    """Axes' database handler (``AXES_HANDLER``), with the address's own limit: once
    ``SIGN_IN_FAILURES_PER_ADDRESS`` failures came from it, every sign-in from it is locked."""

    def get_failures(self, request: Any, credentials: dict[str, Any] | None = None) -> int:
        failures: int = super().get_failures(request, credentials)
        from_address, _ = address_failures(request.axes_ip_address)
        if from_address >= settings.SIGN_IN_FAILURES_PER_ADDRESS:
            return max(failures, settings.SIGN_IN_FAILURES_BEFORE_LOCKOUT)
        return failures


def lockout_window() -> datetime.timedelta:
    """How long a lock-out lasts after the last failure (and how far back failures count)."""
    return datetime.timedelta(seconds=settings.SIGN_IN_LOCKOUT_SECONDS)


def locked_until(
    username: str, address: str, now: datetime.datetime | None = None
) -> datetime.datetime | None:
    """When the lock-out of ``username`` at ``address`` ends (its own, or the address's); None when
    it may sign in."""
    now = now or timezone.now()
    attempts = AccessAttempt.objects.filter(
        username=username, ip_address=address, attempt_time__gt=now - lockout_window()
    ).aggregate(failures=Sum("failures_since_start"), last=Max("attempt_time"))
    ends = []
    if attempts["last"] and attempts["failures"] >= settings.SIGN_IN_FAILURES_BEFORE_LOCKOUT:
        ends.append(attempts["last"] + lockout_window())
    from_address, last = address_failures(address, now)
    if last is not None and from_address >= settings.SIGN_IN_FAILURES_PER_ADDRESS:
        ends.append(last + lockout_window())
    return max(ends, default=None)


@receiver(user_locked_out)
def record_lock_out(
    sender: Any, request: HttpRequest | None = None, username: str | None = None, **kwargs: Any
) -> None:
    """Axes locked ``username`` out: the casino's own chain records it (once per lock-out). When
    it is the address that is locked (``SIGN_IN_FAILURES_PER_ADDRESS``), the event names the
    address and every username tried from it within the window, once per address."""
    if not username:
        return
    address = client_address(request) if request is not None else ""
    until = locked_until(username, address) or timezone.now() + lockout_window()
    since = until - lockout_window() - lockout_window()
    from_address, _ = address_failures(address) if address else (0, None)
    if from_address >= settings.SIGN_IN_FAILURES_PER_ADDRESS:
        told = Q(data__address=address)  # axes tells again of an address already locked out
        payload = UserLockedOut(
            username=username,
            failures=from_address,
            until=until.astimezone(datetime.UTC).isoformat(timespec="seconds"),
            address=address,
            usernames=tried_from(address),
        )
    else:
        told = Q(data__username=username)  # axes tells again of a username already locked out
        payload = UserLockedOut(
            username=username,
            failures=settings.SIGN_IN_FAILURES_BEFORE_LOCKOUT,
            until=until.astimezone(datetime.UTC).isoformat(timespec="seconds"),
        )
    if Event.objects.filter(told, action=UserLockedOut.kind.value, created_at__gt=since).exists():
        return
    casino = deployment_casino()
    if casino is None:
        logger.warning("No casino yet: %s not recorded", payload.describe())
    else:
        record_casino_event(casino, actor=None, payload=payload)


def tried_from(address: str, now: datetime.datetime | None = None) -> tuple[str, ...]:
    """Every username that failed to sign in from ``address`` within the window, first tried
    first."""
    since = (now or timezone.now()) - lockout_window()
    rows = AccessAttempt.objects.filter(ip_address=address, attempt_time__gt=since)
    names = rows.order_by("pk").values_list("username", flat=True)  # first tried first
    return tuple(dict.fromkeys(name or "" for name in names))


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
    request: HttpRequest | None
    locked_out = ""

    def clean(self) -> dict[str, Any]:
        username = self.cleaned_data.get("username")
        if username:
            self._refuse_if_locked(username)  # before authenticate(): no failure is counted
        cleaned: dict[str, Any] = super().clean()  # type: ignore[misc]
        return cleaned

    def _refuse_if_locked(self, username: str) -> None:
        if self.request is None:
            return
        until = locked_until(username, client_address(self.request))
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
