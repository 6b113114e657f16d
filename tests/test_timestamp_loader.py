"""Timestamps read from PostgreSQL are Django's (aware, in UTC, to the microsecond), parsed by
psycopg's C loader rather than Django's Python one (``fastpath.postgresql.base``)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.db.backends.postgresql.psycopg_any import BaseTzLoader
from psycopg import pq

from fastpath.postgresql import base

pytestmark = pytest.mark.django_db

VALUES = [
    "2026-11-26 06:40:12.123456+00",
    "2026-03-29 01:30:00+01",  # another zone: the same instant in UTC
    "1999-12-31 23:59:59.999999-05",
    "2000-02-29 00:00:00+00",
    "0001-01-01 00:00:00+00",
    "9999-12-31 23:59:59+00",
]


@pytest.fixture
def postgresql():
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL")


def test_the_connections_timestamp_loader_parses_with_psycopgs_in_c(postgresql):
    with connection.cursor() as cursor:
        loader = cursor.cursor.adapters.get_loader(1184, pq.Format.TEXT)
        parser = loader(1184, cursor.cursor)._parse
    assert issubclass(loader, base._TzLoader)
    assert loader.timezone is connection.timezone
    if pq.__impl__ != "python":  # psycopg[binary], as requirements.txt installs it
        assert type(parser.__self__).__module__ == "psycopg_binary._psycopg"


@pytest.mark.parametrize("text", VALUES)
def test_a_timestamp_reads_as_djangos_loader_reads_it(postgresql, text):
    with connection.cursor() as cursor:
        cursor.execute("SELECT %s::timestamptz, %s::timestamptz::text", [text, text])
        found, as_text = cursor.fetchone()

    # Django's loader as its register_tzloader() makes it for the connection's time zone.
    Djangos = type("Djangos", (BaseTzLoader,), {"timezone": connection.timezone})
    expected = Djangos(1184, cursor.cursor.connection).load(as_text.encode())
    assert found == expected
    assert found.tzinfo is dt.UTC
    assert (found.year, found.microsecond) == (expected.year, expected.microsecond)


def test_a_model_field_reads_back_the_instant_written(postgresql):
    from casino.models import SignInFailure

    written = dt.datetime(2026, 11, 26, 7, 1, 2, 345678, tzinfo=dt.timezone(dt.timedelta(hours=-8)))
    failure = SignInFailure.objects.create(username="dealer", at=written)
    read = SignInFailure.objects.get(pk=failure.pk).at
    assert read == written
    assert read.tzinfo is dt.UTC
    assert read.hour == 15
