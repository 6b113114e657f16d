"""API tokens: REST framework's, read with their user and the user's role in one statement."""

from __future__ import annotations

from functools import cache

from django.contrib.auth.models import User
from django.db import connection
from django.utils.translation import gettext_lazy as _
from rest_framework import authentication, exceptions
from rest_framework.authtoken.models import Token

from casino import access, rows
from casino.roles import role_sql


class TokenAuthentication(authentication.TokenAuthentication):
    """``Authorization: Token <key>``: one statement written once for the token, its user and
    the user's role, on every tap (the ORM's two queries cost more to compile than to run)."""

    def authenticate_credentials(self, key: str) -> tuple[User, Token]:
        with connection.cursor() as cursor:
            cursor.execute(_statement(), [key])
            row = cursor.fetchone()
        if row is None:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        width = len(rows.fields(Token))
        token = rows.instance(Token, row[:width])
        user = rows.instance(User, row[width:-1])
        assert token is not None and user is not None
        if not user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        token._state.fields_cache["user"] = user
        access.remember_role(user, row[-1])
        return user, token


@cache
def _statement() -> str:
    user_id = f"u.{connection.ops.quote_name('id')}"
    return (
        f"SELECT {rows.columns('k', Token)}, {rows.columns('u', User)}, {role_sql(user_id)} "
        f"FROM {rows.table(Token)} k JOIN {rows.table(User)} u "
        f"ON {user_id} = k.{rows.column(Token, 'user')} WHERE k.{rows.column(Token, 'key')} = %s"
    )
