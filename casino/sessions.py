"""Sessions end when idle: ``SESSION_COOKIE_AGE`` (= ``SESSION_IDLE_SECONDS``, 30 minutes) counted
from the last request, not from sign-in.

Django's ``SESSION_SAVE_EVERY_REQUEST`` would write the session on every request (a query on each
tablet tap); instead the expiry is renewed at most once a minute, so a session ends between
``SESSION_IDLE_SECONDS`` less a minute and ``SESSION_IDLE_SECONDS`` after its last request. A
session made without signing in (none of ours) is not renewed: it ends ``SESSION_COOKIE_AGE``
after it was made.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from django.contrib.auth.signals import user_logged_in
from django.db import DatabaseError
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse

#: Seconds between two renewals of a session's expiry, at most.
RENEW_EVERY = 60
SEEN = "_casino_seen"


class IdleSessionMiddleware:
    """Renews the expiry of a signed-in session that is in use."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        session = getattr(request, "session", None)
        # Only a session the request read already; ``SEEN`` is there once signed in. A request the
        # database did not answer stays the 503 it is.
        if session is None or not session.accessed:
            return response
        now = int(time.time())
        try:
            seen = session.get(SEEN)
        except DatabaseError:  # the session could not be read: nothing to renew
            return response
        if seen is not None and now - int(seen) >= RENEW_EVERY:
            session[SEEN] = now  # the session is saved with a new expiry
        return response


@receiver(user_logged_in)
def start_idle_clock(sender: Any, request: HttpRequest, **kwargs: Any) -> None:
    """A new sign-in: the session starts with its whole idle time (saved with the login)."""
    session = getattr(request, "session", None)
    if session is not None:
        session[SEEN] = int(time.time())
