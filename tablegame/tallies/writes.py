"""The day's tallies written from the rounds, for a day that has none.

A settlement adds its round's figures (``tablegame.tallies.figures``) to the rows of its gaming
day with its other changes (``tablegame.play.settlement``: ``INSERT ... ON CONFLICT``, by the
one writer). A settled round is final (a card is corrected, or a round voided, only before
settlement), so a tally only grows.

The database lets a tally only grow by whole rounds (migration 0013), and
``tablegame.verification`` checks a day's tallies against the record's settlement events
(``manage.py verify_record``, the day's close). ``tally_from_rows`` writes the tallies of a day
that has none from its rounds and wagers (``INSERT ... SELECT``). The migration that made
the tallies (``0010_day_tallies``) wrote those of the days settled before them with its own
copy of these statements, so that a later change here cannot change what it does.
"""

from __future__ import annotations

import datetime
from typing import Any

from django.db import connection, transaction

from casino.models import Casino, Pit
from fastpath import rows
from tablegame.models import Round, SettlementStep, Shoe, Table, Wager
from tablegame.tallies.figures import SUMS
from tablegame.tallies.models import RoundTally, WagerTally

# --- Written from the rows, for a day that has none -----------------------------------------------


def _wagers_sql() -> str:
    t, c = rows.table, rows.column
    target = ", ".join(
        c(WagerTally, f)
        for f in ("table", "day", "rules", "decks", "type", "result", "award", "n", *SUMS)
    )
    wager = {f: f"w.{c(Wager, f)}" for f in ("amount", "payout", "vigorish", "returned", "fee")}
    ride_lost = (
        f"SELECT 1 FROM {t(Wager)} m WHERE m.{c(Wager, 'round')} = w.{c(Wager, 'round')} "
        f"AND m.{c(Wager, 'seat')} = w.{c(Wager, 'seat')} "
        f"AND m.{c(Wager, 'type')} = w.{c(Wager, 'ride')} AND m.{c(Wager, 'result')} = 'lose'"
    )
    group = (
        f"r.{c(Round, 'table')}, r.{c(Round, 'rules')}, s.{c(Shoe, 'decks')}, "
        f"w.{c(Wager, 'type')}, w.{c(Wager, 'result')}, w.{c(Wager, 'award')}"
    )
    return (
        f"INSERT INTO {t(WagerTally)} ({target}) "
        f"SELECT r.{c(Round, 'table')}, %(day)s, r.{c(Round, 'rules')}, s.{c(Shoe, 'decks')}, "
        f"w.{c(Wager, 'type')}, w.{c(Wager, 'result')}, w.{c(Wager, 'award')}, COUNT(*), "
        + ", ".join(f"SUM({wager[f]})" for f in wager)
        + f", SUM(CASE WHEN w.{c(Wager, 'ridden')} > 0 AND EXISTS ({ride_lost}) "
        f"THEN w.{c(Wager, 'ridden')} ELSE 0 END) "
        f"FROM {t(Wager)} w JOIN {t(Round)} r ON r.{c(Round, 'id')} = w.{c(Wager, 'round')} "
        f"JOIN {t(Shoe)} s ON s.{c(Shoe, 'id')} = r.{c(Round, 'shoe')} "
        f"WHERE {_of_the_day('r')} AND r.{c(Round, 'state')} = 'settled' GROUP BY {group}"
    )


def _rounds_sql() -> str:
    t, c = rows.table, rows.column
    state, step = f"r.{c(Round, 'state')}", SettlementStep
    fees = (
        f"SELECT COALESCE(SUM(st.{c(step, 'amount')}), 0) FROM {t(step)} st "
        f"WHERE st.{c(step, 'round')} = r.{c(Round, 'id')} "
        f"AND st.{c(step, 'action')} = 'collect_fee' AND st.{c(step, 'wager_type')} = ''"
    )
    target = ", ".join(
        c(RoundTally, f) for f in ("table", "day", "shoe", "rounds", "voids", "hand_fees")
    )
    return (
        f"INSERT INTO {t(RoundTally)} ({target}) "
        f"SELECT r.{c(Round, 'table')}, %(day)s, r.{c(Round, 'shoe')}, "
        f"SUM(CASE WHEN {state} = 'settled' THEN 1 ELSE 0 END), "
        f"SUM(CASE WHEN {state} = 'void' THEN 1 ELSE 0 END), "
        # The fee steps looked up only at a player-dealer table's rounds (a CASE is lazy).
        f"COALESCE(SUM(CASE WHEN {state} = 'settled' AND r.{c(Round, 'player_dealer_seat')} "
        f"IS NOT NULL THEN ({fees}) ELSE 0 END), 0) "
        f"FROM {t(Round)} r WHERE {_of_the_day('r')} "
        f"AND {state} IN ('settled', 'void') "
        f"GROUP BY r.{c(Round, 'table')}, r.{c(Round, 'shoe')}"
    )


def _of_the_day(alias: str) -> str:
    """The rounds of the casino's tables settled (or voided) within the gaming day's bounds."""
    t, c = rows.table, rows.column
    return (
        f"{alias}.{c(Round, 'table')} IN (SELECT tt.{c(Table, 'id')} FROM {t(Table)} tt "
        f"JOIN {t(Pit)} p ON p.{c(Pit, 'id')} = tt.{c(Table, 'pit')} "
        f"WHERE p.{c(Pit, 'casino')} = %(casino)s) "
        f"AND {alias}.{c(Round, 'settled_at')} >= %(start)s "
        f"AND {alias}.{c(Round, 'settled_at')} < %(end)s"
    )


class AlreadyTallied(Exception):
    """The day has tallies: they only grow as rounds settle, and are checked, never rewritten."""


@transaction.atomic
def tally_from_rows(casino: Casino, day: datetime.date) -> tuple[int, int]:
    """Write the tallies of a gaming ``day`` that has none from its rounds and wagers (play
    loaded without settling it, as the accounting benchmark does); returns how many wager groups
    and shoes they hold. A day that has tallies is refused: they are checked against the record
    (``tablegame.verification``), never written again."""
    start, end = casino.gaming_day_bounds(day)
    tables = Table.objects.filter(pit__casino=casino)
    if (
        WagerTally.objects.filter(table__in=tables, day=day).exists()
        or RoundTally.objects.filter(table__in=tables, day=day).exists()
    ):
        raise AlreadyTallied(
            f"{casino}: gaming day {day} is tallied already; `manage.py verify_record` checks "
            "its tallies against the record."
        )
    params: dict[str, Any] = {"casino": casino.pk, "day": day, "start": start, "end": end}
    with connection.cursor() as cursor:
        cursor.execute(_wagers_sql(), params)
        groups = cursor.rowcount
        cursor.execute(_rounds_sql(), params)
        shoes = cursor.rowcount
    return groups, shoes


def days_played(casino: Casino) -> list[datetime.date]:
    """The gaming days in which ``casino``'s tables settled or voided a round."""
    instants = Round.objects.filter(table__pit__casino=casino, settled_at__isnull=False)
    first = instants.order_by("settled_at").values_list("settled_at", flat=True).first()
    last = instants.order_by("-settled_at").values_list("settled_at", flat=True).first()
    if first is None or last is None:
        return []
    day, final, days = casino.gaming_day(first), casino.gaming_day(last), []
    while day <= final:
        start, end = casino.gaming_day_bounds(day)
        if instants.filter(settled_at__gte=start, settled_at__lt=end).exists():
            days.append(day)
        day += datetime.timedelta(days=1)
    return days
