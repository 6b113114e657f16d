"""The pool lends a connection given back less than a second ago unchecked (no round trip), and
checks one that sat idle longer: a broken one (PostgreSQL restarted) is replaced, and the request
that borrows it never sees the error."""

from __future__ import annotations

import pytest
from django.db import connection
from psycopg_pool import ConnectionPool

from fastpath.postgresql import base

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def pooled():
    if connection.vendor != "postgresql" or not connection.settings_dict["OPTIONS"].get("pool"):
        pytest.skip("PostgreSQL with a pool")
    settings = dict(connection.settings_dict)
    settings["OPTIONS"] = {**settings["OPTIONS"], "pool": {"min_size": 1, "max_size": 1}}
    wrapper = base.DatabaseWrapper(settings, alias="pool-checks")  # one connection, lent again
    yield wrapper
    wrapper.close()
    wrapper.close_pool()


@pytest.fixture
def checks(monkeypatch):
    done: list[object] = []
    check = ConnectionPool.check_connection

    def counted(conn):
        done.append(conn)
        check(conn)

    monkeypatch.setattr(ConnectionPool, "check_connection", staticmethod(counted))
    return done


def backend_pid(wrapper) -> int:
    with wrapper.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        result: int = cursor.fetchone()[0]
        return result


def test_a_connection_just_given_back_is_lent_again_unchecked(pooled, checks):
    first = backend_pid(pooled)
    pooled.close()
    checks.clear()  # a new connection is checked once
    assert backend_pid(pooled) == first
    assert checks == []


def test_a_connection_that_sat_idle_is_checked_and_a_broken_one_replaced(pooled, checks):
    first = backend_pid(pooled)
    pooled.close()
    with connection.cursor() as cursor:  # PostgreSQL ends that session, as a restart would
        cursor.execute("SELECT pg_terminate_backend(%s)", [first])
    (waiting,) = pooled.pool._pool  # the connection waiting in the pool, given back ...
    waiting._returned_at -= base.CHECK_AFTER_IDLE + 1  # ... over a second ago

    again = backend_pid(pooled)  # no error: the broken connection was thrown away

    assert again != first
    assert checks, "the idle connection was checked before it was lent"
