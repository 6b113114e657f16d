"""The gaming day of an instant, as SQL: ``Casino.gaming_day`` for a statement that writes it.

A settlement writes its tallies under the gaming day it falls in without reading the casino's
row first: the statement reads the casino's setting itself.
"""

from __future__ import annotations

import datetime
from typing import Any

from casino.models import Casino
from fastpath import rows


def gaming_day_sql(casino_id: int, at: datetime.datetime) -> tuple[str, list[Any]]:
    """An SQL expression (PostgreSQL) of ``Casino.gaming_day(at)``, and its parameters: the local
    wall time at the casino, less the gaming day's start, as a date."""
    return (
        f"(SELECT (timezone(c.{rows.column(Casino, 'time_zone')}, CAST(%s AS timestamptz)) "
        f"- c.{rows.column(Casino, 'gaming_day_start')})::date "
        f"FROM {rows.table(Casino)} c WHERE c.{rows.column(Casino, 'id')} = %s)",
        [at, casino_id],
    )
