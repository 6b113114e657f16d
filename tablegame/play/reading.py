"""The table's state in play, read in one statement: after its lock for a command, or as it stands
for a screen.

A command takes the table's row lock (``lock``: PostgreSQL's ``FOR NO KEY UPDATE``; SQLite's
transactions hold the whole database's write lock from their start), then reads everything else
in the next statement (``read``): under READ COMMITTED a statement that waited for the lock still
sees what was committed when it began, so the reads must start after the lock is held. The
statement is written once from the models' columns, the same on PostgreSQL and SQLite but for how
rows become JSON (``fastpath.rows.json_rows``), and makes the frozen rows of ``InPlay``.

The command's idempotency key is looked up in the same statement (``Read.done_id``).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any, TypeVar

from django.contrib.auth.models import User
from django.db import connection
from django.utils import timezone

from casino.models import GENESIS_HASH, Casino, Event, Pit
from casino.record import Head
from fastpath import rows
from tablegame.models import (
    Card,
    DealerAssignment,
    DeckChange,
    Irregularity,
    ProgressiveMeter,
    Round,
    Seat,
    SettlementStep,
    Shoe,
    Table,
    TableLimit,
    TableRules,
    VigorishMarker,
    Wager,
)
from tablegame.models.rounds import ACTIVE_ROUND_STATES, ENDED_ROUND_STATES
from tablegame.models.vigorish import CommandRecord
from tablegame.play.rows import (
    CasinoRow,
    PitRow,
    RoundRow,
    Row,
    RulesRow,
    ShoeRow,
    TableRow,
    from_json,
    made,
)
from tablegame.play.state import LISTS, InPlay
from tablegame.progressives.models import MustHitLink

R = TypeVar("R", bound=Row)


@dataclass(frozen=True)
class Locked:
    """The table's row, its pit and casino, locked until the transaction ends."""

    table: TableRow
    pit: PitRow
    casino: CasinoRow


@dataclass(frozen=True)
class Read:
    """What ``read`` found: the state in play, and the command record of the key if it was
    used by this user."""

    state: InPlay
    done_id: int | None


def lock(table_id: int) -> Locked | None:
    """The table row, locked until the transaction ends (None: no such table).

    Race: two tablets (or a double tap) acting on one table at once; the second waits here until
    the first commits, then reads its result."""
    return _table(lock_statement(), table_id)


def _table(statement: str, table_id: int) -> Locked | None:
    with rows.cursor() as cursor:
        cursor.execute(statement, [table_id])
        found = cursor.fetchone()
    if found is None:
        return None
    values = iter(found)
    table = _row(TableRow, values)
    pit = _row(PitRow, values)
    casino = _row(CasinoRow, values)
    assert table is not None and pit is not None and casino is not None
    return Locked(table, pit, casino)


@cache
def lock_statement() -> str:
    c, t, q = rows.column, rows.table, connection.ops.quote_name
    locking = " FOR NO KEY UPDATE OF tb" if connection.vendor == "postgresql" else ""
    return (
        f"SELECT {rows.columns('tb', Table)}, {rows.columns('p', Pit)}, "
        f"{rows.columns('ca', Casino)} FROM {t(Table)} tb "
        f"JOIN {t(Pit)} p ON p.{q('id')} = tb.{c(Table, 'pit')} "
        f"JOIN {t(Casino)} ca ON ca.{q('id')} = p.{c(Pit, 'casino')} "
        f"WHERE tb.{q('id')} = %s{locking}"
    )


def read(locked: Locked, *, user_id: int | None = None, key: str = "") -> Read:
    """The table's state in play in one statement (after ``lock`` for a command), and whether
    ``key`` was used by ``user_id`` already."""
    now = timezone.now()
    arguments = {
        "table": locked.table.id,
        "user": user_id,
        "key": key,
        "now": connection.ops.adapt_datetimefield_value(now),
    }
    with rows.cursor() as cursor:
        cursor.execute(_statement(), arguments)
        found = cursor.fetchone()
    assert found is not None, "read() reads a table that exists"
    values = iter(found)
    (
        done_id, head_sequence, head_hash, head_at, rounds_in_shoe, next_at, must_hit_id,
        shoes_dealt,
    ) = (next(values) for _ in range(8))  # fmt: skip
    rules_now = _row(RulesRow, values)
    round_rules = _row(RulesRow, values)
    shoe = _row(ShoeRow, values)
    game = _row(RoundRow, values)
    texts = dict(zip(LISTS, values, strict=True))
    state = InPlay(
        casino=locked.casino,
        pit=locked.pit,
        table=locked.table,
        head=Head(head_sequence or 0, head_hash or GENESIS_HASH),
        head_at=rows.converted(Event, "created_at", head_at),
        read_at=now,
        rules_now=rules_now,
        rules_next_at=rows.converted(TableRules, "effective_at", next_at),
        shoe=shoe,
        rounds_in_shoe=rounds_in_shoe or 0,
        round=game,
        round_rules=round_rules,
        must_hit_id=must_hit_id,
        shoes_dealt=shoes_dealt or 0,
        texts={name: text for name, text in texts.items() if text is not None},
    )
    return Read(state, done_id)


def read_table(table_id: int) -> InPlay | None:
    """The table's state as it stands (a screen's read: no lock, no key)."""
    locked = _unlocked(table_id)
    return None if locked is None else read(locked).state


def _unlocked(table_id: int) -> Locked | None:
    return _table(lock_statement().removesuffix(" FOR NO KEY UPDATE OF tb"), table_id)


def _row(row_type: type[R], values: Iterator[Any]) -> R | None:
    return made(row_type, [next(values) for _ in rows.fields(row_type.MODEL)])


def _rows(row_type: type[R], text: str) -> tuple[R, ...]:
    return tuple(from_json(row_type, data) for data in rows.decoded(text))


@cache
def _statement() -> str:
    """The one statement, written from the models (a new column is read without a change)."""
    c, t, q = rows.column, rows.table, connection.ops.quote_name
    pk = q("id")
    active = ", ".join(f"'{state}'" for state in ACTIVE_ROUND_STATES)
    ended = ", ".join(f"'{state}'" for state in ENDED_ROUND_STATES)
    in_force = (
        f"SELECT t0.{pk} FROM {t(TableRules)} t0 WHERE t0.{c(TableRules, 'table')} = tb.{pk} "
        f"AND t0.{c(TableRules, 'effective_at')} <= %(now)s "
        f"ORDER BY t0.{c(TableRules, 'effective_at')} DESC, t0.{pk} DESC LIMIT 1"
    )
    lists = _lists()
    assert tuple(lists) == LISTS, "the statement reads the state's lists in their order"
    return f"""
SELECT
  (SELECT d.{pk} FROM {t(CommandRecord)} d
    WHERE d.{c(CommandRecord, "user")} = %(user)s AND d.{c(CommandRecord, "key")} = %(key)s
    LIMIT 1),
  h.{c(Event, "sequence")}, h.{c(Event, "hash")}, h.{c(Event, "created_at")},
  (SELECT max(x.{c(Round, "number")}) FROM {t(Round)} x WHERE x.{c(Round, "shoe")} = s.{pk}),
  (SELECT min(n.{c(TableRules, "effective_at")}) FROM {t(TableRules)} n
    WHERE n.{c(TableRules, "table")} = tb.{pk} AND n.{c(TableRules, "effective_at")} > %(now)s),
  (SELECT ml.{c(MustHitLink, "meter")} FROM {t(MustHitLink)} ml
    WHERE ml.{c(MustHitLink, "table")} = tb.{pk}),
  (SELECT max(sd.{c(Shoe, "number")}) FROM {t(Shoe)} sd WHERE sd.{c(Shoe, "table")} = tb.{pk}),
  {rows.columns("tr", TableRules)},
  {rows.columns("rr", TableRules)},
  {rows.columns("s", Shoe)},
  {rows.columns("r", Round)},
  {", ".join(lists.values())}
FROM {t(Table)} tb
LEFT JOIN {t(Event)} h ON h.{pk} = (
  SELECT e.{pk} FROM {t(Event)} e WHERE e.{c(Event, "chain")} = tb.{c(Table, "chain")}
  ORDER BY e.{c(Event, "sequence")} DESC LIMIT 1)
LEFT JOIN {t(Shoe)} s ON s.{pk} = (
  SELECT s0.{pk} FROM {t(Shoe)} s0
  WHERE s0.{c(Shoe, "table")} = tb.{pk} AND s0.{c(Shoe, "state")} <> 'finished'
  ORDER BY s0.{c(Shoe, "number")} DESC LIMIT 1)
LEFT JOIN {t(Round)} r ON r.{pk} = coalesce((
  SELECT r0.{pk} FROM {t(Round)} r0
  WHERE r0.{c(Round, "table")} = tb.{pk} AND r0.{c(Round, "state")} IN ({active})
  ORDER BY r0.{pk} DESC LIMIT 1), (
  SELECT r1.{pk} FROM {t(Round)} r1 WHERE r1.{c(Round, "shoe")} = s.{pk}
  ORDER BY r1.{c(Round, "settled_at")} DESC NULLS LAST, r1.{c(Round, "number")} DESC LIMIT 1))
LEFT JOIN {t(TableRules)} tr ON tr.{pk} = ({in_force})
LEFT JOIN {t(TableRules)} rr ON rr.{pk} = r.{c(Round, "rules")}
LEFT JOIN {t(Round)} p ON p.{pk} = (
  SELECT p0.{pk} FROM {t(Round)} p0
  WHERE (r.{pk} IS NULL OR r.{c(Round, "state")} NOT IN ({active}))
    AND tb.{c(Table, "player_dealer_seat")} IS NOT NULL
    AND tb.{c(Table, "player_dealer_hands")} > 0
    AND p0.{c(Round, "table")} = tb.{pk} AND p0.{c(Round, "state")} IN ({ended})
    AND NOT p0.{c(Round, "simulated")}
  ORDER BY p0.{c(Round, "settled_at")} DESC, p0.{pk} DESC LIMIT 1)
WHERE tb.{pk} = %(table)s
"""


def _lists() -> dict[str, str]:
    """The state's lists (``LISTS``), each a scalar subquery of JSON text: ``r`` the shown
    round, ``tb`` the table, ``p`` the round a California player-dealer banked last."""
    c, t, q = rows.column, rows.table, connection.ops.quote_name
    pk = q("id")
    dealer, at_table = c(DealerAssignment, "dealer"), c(DealerAssignment, "table")
    assigned = (
        f"{t(DealerAssignment)} a JOIN {t(Table)} dt ON dt.{pk} = a.{at_table} "
        f"JOIN {t(User)} du ON du.{pk} = a.{dealer} "
        f"WHERE a.{c(DealerAssignment, 'relieved_at')} IS NULL "
        f"AND (a.{dealer} = %(user)s OR a.{at_table} = tb.{pk})"
    )
    assignment = (
        f"{rows.json_array()}(a.{dealer}, a.{at_table}, dt.{c(Table, 'name')}, du.{q('username')})"
    )
    last_settled = (
        f"SELECT ls.{pk} FROM {t(Round)} ls WHERE ls.{c(Round, 'table')} = tb.{pk} "
        f"AND ls.{c(Round, 'state')} = 'settled' AND NOT ls.{c(Round, 'simulated')} "
        f"ORDER BY ls.{c(Round, 'settled_at')} DESC, ls.{pk} DESC LIMIT 1"
    )

    def wagers(alias: str, of_round: str) -> str:
        order = f"{alias}.{c(Wager, 'seat')} DESC, {alias}.{c(Wager, 'type')}"
        return rows.json_rows(Wager, alias, f"{alias}.{c(Wager, 'round')} = {of_round}", order)

    def steps(alias: str, of_round: str) -> str:
        where = f"{alias}.{c(SettlementStep, 'round')} = {of_round}"
        return rows.json_rows(SettlementStep, alias, where, f"{alias}.{c(SettlementStep, 'index')}")

    marker = VigorishMarker
    banked_steps = rows.as_json(steps("px", f"p.{pk}"))
    banked = (
        f"(SELECT {rows.json_array()}({rows.json_row(Round, 'p')}, {banked_steps}, "
        f"(SELECT ps.{c(Shoe, 'number')} FROM {t(Shoe)} ps WHERE ps.{pk} = p.{c(Round, 'shoe')}), "
        f"EXISTS (SELECT 1 FROM {t(Seat)} pst WHERE pst.{c(Seat, 'table')} = tb.{pk} "
        f"AND pst.{c(Seat, 'number')} = p.{c(Round, 'player_dealer_seat')} "
        f"AND pst.{c(Seat, 'occupied_since')} <= p.{c(Round, 'opened_at')})) "
        f"WHERE p.{pk} IS NOT NULL)"
    )
    if connection.vendor == "postgresql":
        banked = f"({banked})::text"
    return {
        "seats": rows.json_rows(
            Seat, "st", f"st.{c(Seat, 'table')} = tb.{pk}", f"st.{c(Seat, 'number')}"
        ),
        "limits": rows.json_rows(
            TableLimit, "l", f"l.{c(TableLimit, 'table')} = tb.{pk}", f"l.{pk}"
        ),
        "wagers": wagers("w", f"r.{pk}"),
        "cards": rows.json_rows(
            Card, "k", f"k.{c(Card, 'round')} = r.{pk}", f"k.{c(Card, 'position')}"
        ),
        "steps": steps("x", f"r.{pk}"),
        "irregularities": rows.json_rows(
            Irregularity, "i", f"i.{c(Irregularity, 'round')} = r.{pk}", f"i.{pk}"
        ),
        "markers": rows.json_rows(
            marker,
            "m",
            f"m.{c(marker, 'table')} = tb.{pk} AND m.{c(marker, 'status')} = 'open'",
            f"m.{c(marker, 'seat')} DESC, m.{c(marker, 'marked_at')}, m.{pk}",
        ),
        "deck_change": rows.json_rows(
            DeckChange, "dc", f"dc.{c(DeckChange, 'table')} = tb.{pk}", f"dc.{pk}"
        ),
        "meters": rows.json_rows(
            ProgressiveMeter,
            "pm",
            f"pm.{c(ProgressiveMeter, 'table')} = tb.{pk}",
            f"pm.{c(ProgressiveMeter, 'name')}",
        ),
        "assignments": rows.json_list(assignment, assigned, f"a.{pk}", json_values=True),
        "banked": banked,
        "repeat": wagers("rw", f"({last_settled})"),
    }
