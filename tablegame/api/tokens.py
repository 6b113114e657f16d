"""API tokens: issued with an expiry, kept as a SHA-256 digest, revocable.

``Authorization: Token <key>`` as before (DRF's header), checked by
:class:`HashedTokenAuthentication` against ``ApiToken.digest``. A key is 43 random URL-safe
characters (256 bits) from ``secrets``: a plain SHA-256 suffices to keep it (no guessable
secret to stretch), and looking a token up by its digest costs one indexed query.

Every tap of a bot or a tablet carries its token, so each process keeps what it read of a token
for ``RECHECK_SECONDS``: a token used again within them costs no query. Its expiry is checked
on every use; a token revoked, or its user made inactive or given another role, takes effect in
the process that revoked it at once and in every other within ``RECHECK_SECONDS``.
"""

from __future__ import annotations

import datetime
import hashlib
import secrets
import time
from collections.abc import Iterable
from functools import cache
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import connection
from django.utils import timezone
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication

from casino import access
from casino.roles import role_sql
from fastpath import rows
from fastpath.related import relate
from tablegame.models import ApiToken


def digest(key: str) -> str:
    """What is stored of a key."""
    return hashlib.sha256(key.encode()).hexdigest()


def _new_token(user: User, *, days: int | None, label: str) -> tuple[ApiToken, str]:
    """A token for ``user``, not yet saved, and its key."""
    key = secrets.token_urlsafe(32)
    lifetime = datetime.timedelta(days=settings.API_TOKEN_DAYS if days is None else days)
    token = ApiToken(
        user=user,
        label=label[:100],
        prefix=key[:8],
        digest=digest(key),
        expires_at=timezone.now() + lifetime,
    )
    return token, key


def issue_api_token(
    user: User, *, days: int | None = None, label: str = ""
) -> tuple[ApiToken, str]:
    """A new token for ``user`` and its key (shown this once; only its digest is kept)."""
    token, key = _new_token(user, days=days, label=label)
    token.save()
    return token, key


def issue_api_tokens(
    users: Iterable[User], *, days: int | None = None, label: str = ""
) -> dict[int, str]:
    """A new token for each of ``users``, in one INSERT (a simulated floor's hundreds of
    dealers); their keys by user id."""
    made = [_new_token(user, days=days, label=label) for user in users]
    ApiToken.objects.bulk_create([token for token, _ in made])
    return {token.user_id: key for token, key in made}


def revoke_api_token(token: ApiToken, *, actor: User | None) -> ApiToken:
    """The token stops working now."""
    if token.revoked_at is None:
        token.revoked_at, token.revoked_by = timezone.now(), actor
        token.save(update_fields=["revoked_at", "revoked_by"])
    _read.pop(token.digest, None)
    return token


#: Seconds a token read from the database is taken as read by this process.
RECHECK_SECONDS = 5.0
#: Tokens kept at most (a floor's dealers, bots and tablets); past it all are read again.
MOST_KEPT = 10_000
#: digest -> (when it was read, ``time.monotonic()``; the token's row, its user's and role).
_read: dict[str, tuple[float, tuple[Any, ...]]] = {}
_clock = time.monotonic


def _row(found: str) -> tuple[Any, ...] | None:
    """The row of the token whose digest is ``found``, as read less than ``RECHECK_SECONDS``
    ago, or read now."""
    now = _clock()
    kept = _read.get(found)
    if kept is not None and now - kept[0] < RECHECK_SECONDS:
        return kept[1]
    with connection.cursor() as cursor:
        cursor.execute(_statement(), [found])
        fetched = cursor.fetchone()
    if fetched is None:
        return None
    row = tuple(fetched)
    if len(_read) >= MOST_KEPT:
        _read.clear()
    _read[found] = (now, row)
    return row


class HashedTokenAuthentication(TokenAuthentication):
    """DRF's ``Token`` header, checked against the digests of tokens not expired or revoked.

    One statement, written once, reads the token, its user and the user's role (every tap
    carries a token: the ORM's two queries cost more to compile than to run), at most once every
    ``RECHECK_SECONDS`` per token and process."""

    def authenticate_credentials(self, key: str) -> tuple[User, ApiToken]:
        row = _row(digest(key))
        if row is None:
            raise exceptions.AuthenticationFailed("Invalid token.")
        width = len(rows.fields(ApiToken))
        token = rows.instance(ApiToken, row[:width])
        user = rows.instance(User, row[width:-1])
        assert token is not None and user is not None
        relate(token, "user", user)
        refusal = token.refusal()
        if refusal:
            raise exceptions.AuthenticationFailed(refusal)
        if not user.is_active:
            raise exceptions.AuthenticationFailed("User inactive or deleted.")
        access.remember_role(user, row[-1])
        return user, token


@cache
def _statement() -> str:
    user_id = f"u.{connection.ops.quote_name('id')}"
    return (
        f"SELECT {rows.columns('k', ApiToken)}, {rows.columns('u', User)}, {role_sql(user_id)} "
        f"FROM {rows.table(ApiToken)} k JOIN {rows.table(User)} u "
        f"ON {user_id} = k.{rows.column(ApiToken, 'user')} "
        f"WHERE k.{rows.column(ApiToken, 'digest')} = %s"
    )
