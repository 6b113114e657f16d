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


def test_a_long_statement_of_many_parameters_is_parsed_once_per_process() -> None:
    """A command's one write runs with 60 to 200 parameters: psycopg parses its placeholders
    once (``fastpath.rows.keep_statements_parsed``), not at every run."""
    from psycopg import _queries

    values = list(range(120))
    statement = "SELECT " + " + ".join(["%s::int"] * len(values))
    before = _queries._query2pg.cache_info()
    with connection.cursor() as cursor:
        for _ in range(3):
            cursor.execute(statement, values)
            assert cursor.fetchone() == (sum(values),)
    after = _queries._query2pg.cache_info()
    assert after.misses - before.misses == 1
    assert after.hits - before.hits == 2
    assert after.maxsize is not None and after.maxsize >= 512
