"""Sessions: one statement reads a tap's session, its user and their role; and sessions end when
idle.

Every tap of a tablet carries its session. Django's database sessions read the session, then the
user, then (``casino.access``) their role: three queries before the command's first. Here the
session row also holds the user it signs in (``casino.models.StaffSession``), and
:class:`SessionStore` reads the session, that user and their role in one statement;
:class:`AuthenticationMiddleware` takes the user from it when Django's own checks pass (the
backend is the password's, the user is active, the session's hash is the user's). Anything else
is left to Django's ``get_user``, which then reads the user again and decides. Nothing is kept
between requests: signing out, a changed password or an inactive user take effect at the next
tap, in every process.

Sessions end when idle: ``SESSION_COOKIE_AGE`` (= ``SESSION_IDLE_SECONDS``, 30 minutes) counted
from the last request, not from sign-in.

Django's ``SESSION_SAVE_EVERY_REQUEST`` would write the session on every request (a query on each
tablet tap); instead the expiry is renewed at most once a minute, so a session ends between
``SESSION_IDLE_SECONDS`` less a minute and ``SESSION_IDLE_SECONDS`` after its last request. A
session made without signing in (none of ours) is not renewed: it ends ``SESSION_COOKIE_AGE``
after it was made.
"""

from __future__ import annotations

import copy
import time
from collections.abc import Callable
from functools import cache, lru_cache, partial
from typing import TYPE_CHECKING, Any, cast

from django.conf import settings
from django.contrib import auth
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.middleware import AuthenticationMiddleware as DjangoAuthentication
from django.contrib.auth.models import AnonymousUser, User
from django.contrib.auth.signals import user_logged_in
from django.contrib.sessions.backends import db
from django.core import signing
from django.db import DatabaseError, connection
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.utils.crypto import constant_time_compare
from django.utils.functional import SimpleLazyObject

from casino import access
from casino.roles import role_sql
from fastpath import rows

if TYPE_CHECKING:
    from casino.models import StaffSession


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


class SessionStore(db.SessionStore):
    """Django's database sessions, each row with the user it signs in; reading a session reads
    that user and their role in the same statement (``signed_in``)."""

    def __init__(self, session_key: str | None = None) -> None:
        super().__init__(session_key)
        #: The user the session's row names, and their role, as read with it (None: none read).
        self.signed_in: tuple[User, str | None] | None = None

    @classmethod
    def get_model_class(cls) -> type[StaffSession]:
        from casino.models import StaffSession

        return StaffSession

    def _get_session_from_db(self) -> StaffSession | None:
        self.signed_in = None
        if self.session_key is None:
            return None
        with connection.cursor() as cursor:
            now = connection.ops.adapt_datetimefield_value(timezone.now())
            cursor.execute(_statement(), [self.session_key, now])
            row = cursor.fetchone()
        if row is None:
            self._session_key = None
            return None
        model = self.get_model_class()
        width = len(rows.fields(model))
        session = rows.instance(model, row[:width])
        user = rows.instance(User, row[width:-1])
        if user is not None:
            self.signed_in = (user, row[-1])
        return session

    def decode(self, session_data: bytes | str) -> dict[str, Any]:
        """Django's, with the signature checked once per session data a process (``_decoded``):
        every tap of a tablet sends the same data until it changes."""
        try:
            found = _decoded(
                session_data,
                self.key_salt,
                self.serializer,
                settings.SECRET_KEY,
                tuple(settings.SECRET_KEY_FALLBACKS),
            )
        except Exception:  # a bad signature or data: as Django's (which logs the one)
            return super().decode(session_data)
        return {k: copy.deepcopy(v) if isinstance(v, dict | list) else v for k, v in found.items()}

    def create_model_instance(self, data: dict[str, Any]) -> StaffSession:
        session = cast("StaffSession", super().create_model_instance(data))
        user_id = data.get(SESSION_KEY)
        session.user_id = None if user_id is None else User._meta.pk.to_python(user_id)
        return session


@lru_cache(maxsize=4096)
def _decoded(
    data: bytes | str, salt: str, serializer: type, secret: str, fallbacks: tuple[str, ...]
) -> dict[str, Any]:
    """A session's data, its signature checked (``signing.BadSignature`` if it does not
    match); kept by the data and the keys it was checked with, so that one changed is checked
    again. Not kept when refused."""
    loaded: dict[str, Any] = signing.loads(
        data if isinstance(data, str) else data.decode(),
        key=secret,
        salt=salt,
        serializer=serializer,
        fallback_keys=list(fallbacks),
    )
    return loaded


@cache
def _statement() -> str:
    from casino.models import StaffSession

    user_id = f"u.{connection.ops.quote_name('id')}"
    return (
        f"SELECT {rows.columns('s', StaffSession)}, {rows.columns('u', User)}, "
        f"{role_sql(user_id)} FROM {rows.table(StaffSession)} s LEFT JOIN {rows.table(User)} u "
        f"ON {user_id} = s.{rows.column(StaffSession, 'user')} "
        f"WHERE s.{rows.column(StaffSession, 'session_key')} = %s "
        f"AND s.{rows.column(StaffSession, 'expire_date')} > %s"
    )


@cache
def _gets_users_as_model_backend(path: str) -> bool:
    """Whether the backend's ``get_user`` is Django's ``ModelBackend``'s (the user by id, if
    active), which the user read with the session stands for."""
    backend = type(auth.load_backend(path))
    return (
        backend.get_user is ModelBackend.get_user
        and getattr(backend, "user_can_authenticate", None) is ModelBackend.user_can_authenticate
    )


class AuthenticationMiddleware(DjangoAuthentication):
    """Django's, but ``request.user`` is the user read with the session where Django's checks
    pass; otherwise Django's ``get_user`` decides."""

    def process_request(self, request: HttpRequest) -> None:
        super().process_request(request)  # the session is there, or ImproperlyConfigured
        request.user = SimpleLazyObject(partial(signed_in_user, request))  # type: ignore[assignment]


def signed_in_user(request: HttpRequest) -> User | AnonymousUser:
    """The request's user (kept on the request, as Django's ``get_user`` keeps it)."""
    if not hasattr(request, "_cached_user"):
        request._cached_user = _read_with_session(request) or auth.get_user(request)  # type: ignore[attr-defined]
    return request._cached_user  # type: ignore[attr-defined, no-any-return]


def _read_with_session(request: HttpRequest) -> User | None:
    """The user the session signs in, as read with it, if Django's ``get_user`` would answer that
    user; None leaves it to ``get_user``."""
    session = request.session
    try:
        user_id = session[SESSION_KEY]
    except KeyError:
        return None
    found: tuple[User, str | None] | None = getattr(session, "signed_in", None)
    if found is None:
        return None
    user, role = found
    backend = session.get(BACKEND_SESSION_KEY)
    if (
        str(user.pk) != str(user_id)
        or backend not in settings.AUTHENTICATION_BACKENDS
        or not _gets_users_as_model_backend(backend)
        or not user.is_active
    ):
        return None
    signed = session.get(HASH_SESSION_KEY)
    if not signed or not constant_time_compare(signed, user.get_session_auth_hash()):
        return None  # get_user tries the fallback secrets, or signs the session out
    access.remember_role(user, role)
    return user
