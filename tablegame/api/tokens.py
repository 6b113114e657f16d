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

from django.conf import settings
from django.contrib.auth.models import User
from django.utils import timezone
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication

from tablegame.models import ApiToken


def digest(key: str) -> str:
    """What is stored of a key."""
    return hashlib.sha256(key.encode()).hexdigest()


def issue_api_token(
    user: User, *, days: int | None = None, label: str = ""
) -> tuple[ApiToken, str]:
    """A new token for ``user`` and its key (shown this once; only its digest is kept)."""
    key = secrets.token_urlsafe(32)
    lifetime = datetime.timedelta(days=settings.API_TOKEN_DAYS if days is None else days)
    token = ApiToken.objects.create(
        user=user,
        label=label[:100],
        prefix=key[:8],
        digest=digest(key),
        expires_at=timezone.now() + lifetime,
    )
    return token, key


def revoke_api_token(token: ApiToken, *, actor: User | None) -> ApiToken:
    """The token stops working now."""
    if token.revoked_at is None:
        token.revoked_at, token.revoked_by = timezone.now(), actor
        token.save(update_fields=["revoked_at", "revoked_by"])
    return token


class HashedTokenAuthentication(TokenAuthentication):
    """DRF's ``Token`` header, checked against the digests of tokens not expired or revoked."""

    def authenticate_credentials(self, key: str) -> tuple[User, ApiToken]:
        token = ApiToken.objects.select_related("user").filter(digest=digest(key)).first()
        if token is None:
            raise exceptions.AuthenticationFailed("Invalid token.")
        refusal = token.refusal()
        if refusal:
            raise exceptions.AuthenticationFailed(refusal)
        if not token.user.is_active:
            raise exceptions.AuthenticationFailed("User inactive or deleted.")
        return token.user, token
