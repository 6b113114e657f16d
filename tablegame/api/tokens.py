"""API tokens: issued with an expiry, kept as a SHA-256 digest, revocable.

``Authorization: Token <key>`` as before (DRF's header), checked by
:class:`HashedTokenAuthentication` against ``ApiToken.digest``. A key is 43 random URL-safe
characters (256 bits) from ``secrets``: a plain SHA-256 suffices to keep it (no guessable
secret to stretch), and looking a token up by its digest costs one indexed query.
"""

from __future__ import annotations

import datetime
import hashlib
import secrets
from collections.abc import Iterable
from functools import cache

from django.conf import settings
from django.contrib.auth.models import User
from django.db import connection
from django.utils import timezone
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication

from casino import access, rows
from casino.roles import role_sql
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
    return token


class HashedTokenAuthentication(TokenAuthentication):
    """DRF's ``Token`` header, checked against the digests of tokens not expired or revoked.

    One statement, written once, reads the token, its user and the user's role (every tap
    carries a token: the ORM's two queries cost more to compile than to run)."""

    def authenticate_credentials(self, key: str) -> tuple[User, ApiToken]:
        with connection.cursor() as cursor:
            cursor.execute(_statement(), [digest(key)])
            row = cursor.fetchone()
        if row is None:
            raise exceptions.AuthenticationFailed("Invalid token.")
        width = len(rows.fields(ApiToken))
        token = rows.instance(ApiToken, row[:width])
        user = rows.instance(User, row[width:-1])
        assert token is not None and user is not None
        token._state.fields_cache["user"] = user
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
