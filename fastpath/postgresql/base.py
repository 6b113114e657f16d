"""Django's PostgreSQL backend; from its pool, a connection is checked only after it sat idle.

Django's pool checks every connection it lends (``CONN_HEALTH_CHECKS``): one more round trip to
PostgreSQL on every request, which on a busy floor costs more than the dealer's tap it serves
(bench/RESULTS.md). A connection given back less than ``CHECK_AFTER_IDLE`` seconds ago was
working then; one that sat idle longer is checked before it is lent, and a broken one (the
server restarted, a proxy closed it) is thrown away and another taken, so a restart still costs
no request an error. Without a pool Django's own checks apply (``config/env.py``).

Timestamps are read by psycopg's own loader (in C where psycopg has its C part): Django registers
one of its own, in Python, to set the time zone it wants, and psycopg swaps in its C loaders
only for its own classes (``_TzLoader``).
"""

from __future__ import annotations

import time
from datetime import datetime, tzinfo
from functools import lru_cache
from typing import Any

import psycopg
from django.db.backends.postgresql import base
from psycopg import Error, abc, adapt, postgres, pq

#: Seconds a connection may rest in the pool and be lent again unchecked.
CHECK_AFTER_IDLE = 1.0

TIMESTAMPTZ = postgres.types["timestamptz"].oid
#: psycopg's own ``timestamptz`` loader: its C class where psycopg has its C part.
PSYCOPGS_TZ_LOADER = psycopg.adapters.get_loader(TIMESTAMPTZ, pq.Format.TEXT)


class DatabaseWrapper(base.DatabaseWrapper):
    def get_connection_params(self) -> dict[str, Any]:
        params: dict[str, Any] = super().get_connection_params()
        if "context" in params:
            params["context"] = _with_psycopgs_tz_loader(params["context"], self.timezone)
        return params

    def get_new_connection(self, conn_params: dict[str, Any]) -> Any:
        if not self.pool:
            return super().get_new_connection(conn_params)
        for _ in range(self.pool.max_size):
            connection = super().get_new_connection(conn_params)
            if time.monotonic() - getattr(connection, "_returned_at", 0.0) < CHECK_AFTER_IDLE:
                return connection
            try:
                self.pool.check_connection(connection)
            except Error:
                self.pool.putconn(connection)  # broken: the pool closes it and opens another
                continue
            return connection
        return super().get_new_connection(conn_params)  # every one broken: the last, unchecked

    def _close(self) -> None:
        if self.pool and self.connection is not None:
            self.connection._returned_at = time.monotonic()
        super()._close()  # type: ignore[misc]  # not in django-stubs


class _TzLoader(adapt.Loader):
    """Django's ``timestamptz`` loader (the value in ``timezone``; None: naive), parsed by
    psycopg's own: in C, about a third of the time of Django's, which parses in Python."""

    timezone: tzinfo | None = None  # Django's cursors compare it with the connection's

    def __init__(self, oid: int, context: abc.AdaptContext | None = None) -> None:
        super().__init__(oid, context)
        assert PSYCOPGS_TZ_LOADER is not None
        self._parse = PSYCOPGS_TZ_LOADER(oid, context).load

    def load(self, data: Any) -> datetime:
        found: datetime = self._parse(data)
        return found.replace(tzinfo=self.timezone)


@lru_cache
def _with_psycopgs_tz_loader(
    template: adapt.AdaptersMap, timezone: tzinfo | None
) -> adapt.AdaptersMap:
    """Django's adapters with psycopg's ``timestamptz`` parser, made once per time zone."""
    adapters = adapt.AdaptersMap(template)
    loader = type("TzLoader", (_TzLoader,), {"timezone": timezone})
    adapters.register_loader(TIMESTAMPTZ, loader)
    return adapters
