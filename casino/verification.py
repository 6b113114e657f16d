"""What ``manage.py verify_record`` checks beyond the chains: checks the apps above the base add.

The base layer knows the record, not what the tables play; an app that keeps figures the record
vouches for (``tablegame``: the settled rounds and the day's tallies) registers a check here when
it is ready, and ``verify_record`` runs each for the days asked, reporting what it finds.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from casino.models import Casino


@dataclass(frozen=True)
class DayReport:
    """One check of one gaming day: what was checked, a summary, and each discrepancy in words."""

    subject: str
    """The casino and the day: ``Demo Casino, gaming day 2026-11-27``."""
    summary: str
    discrepancies: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return not self.discrepancies


#: A check: the casino and the gaming days to check (None: every day played) to its reports.
DayCheck = Callable[[Casino, Iterable[datetime.date] | None], Iterable[DayReport]]

_checks: dict[str, DayCheck] = {}


def register(name: str, check: DayCheck) -> None:
    """Add ``check`` to what ``verify_record`` runs (once per name)."""
    _checks[name] = check


def registered() -> dict[str, DayCheck]:
    return dict(_checks)
