"""The live path's statements are prepared on their connection: PostgreSQL plans them once."""

from __future__ import annotations

import pytest
from django.db import connection

pytestmark = pytest.mark.django_db


def test_a_statement_run_five_times_is_prepared_on_the_connection() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("prepared statements are PostgreSQL's")
    statement = "SELECT count(*) FROM auth_user WHERE id > %s"
    with connection.cursor() as cursor:
        for _ in range(6):
            cursor.execute(statement, [0])
        cursor.execute(
            "SELECT count(*) FROM pg_prepared_statements WHERE statement LIKE %s",
            ["SELECT count(*) FROM auth_user WHERE id > $1%"],
        )
        (prepared,) = cursor.fetchone()
    assert prepared == 1
