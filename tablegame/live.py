"""What a command on one table reads, in one statement after the table's lock.

A dealer's tap (a wager, a card, "no more bets") needs the round in play with its Rules
Submission, shoe, wagers and cards, the occupied seats, the table's limits, the dealer
assignments that concern the tap (``tablegame.dealers``), the head of the table's chain and
whether the command's idempotency key was used already. Read one by one through the ORM that was
ten queries, each compiled anew; here it is one SQL statement, written once from the models'
columns (``fastpath.rows``), whose rows become model instances as the ORM would make them:

- the round's ``wagers``, ``cards`` and ``irregularities`` are its prefetched relations
  (``game.wagers.all()`` reads no more), kept as the action changes them by the command's unit
  of work (``tablegame.work``: ``add_to``, ``keep``, ``forget``);
- ``live(table)`` answers the actions' questions (``round``, ``shoe``, ``seats``, ``limit``);
- ``shoe.last_round_number()`` answers from what was read here;
- between rounds at a California table whose player-dealer has banked a hand in the position,
  the round it banked last, with its settlement steps (``Live.banked``): what its bank carries
  from, for the round the next command may open;
- between rounds, the rules record in force now, and when the table's last event was recorded:
  rules filed for later that took effect since (``Live.rules_since_last_event``) are recorded in
  force with the command (``tablegame.actions.tables.record_rules_taken_effect``).

Run after ``SELECT ... FOR NO KEY UPDATE`` of the table, in its own statement: under READ
COMMITTED a statement that waited for the lock still sees what was committed when it began, so
these reads must start after the lock is held (``locked_tables``).

An action run outside the API (tests, management commands, the console) finds nothing read on
its table: ``live(table)`` reads each part through the ORM when first asked for. A command reads
the same statement on PostgreSQL and on SQLite (the embedded demo), so that what it keeps of
the state in play, and answers from, is the same on both.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache, cached_property
from typing import Any, TypeVar

from django.contrib.auth.models import User
from django.db import connection, models
from django.db.models import QuerySet
from django.utils import timezone

from baccarat.profiles import RulesSubmission
from casino.models import GENESIS_HASH, Event, Pit
from casino.record import Head
from fastpath import rows
from fastpath.related import prefetch, relate
from tablegame.models import (
    Card,
    DealerAssignment,
    Irregularity,
    Round,
    Seat,
    SettlementStep,
    Shoe,
    Table,
    TableLimit,
    TableRules,
    Wager,
)
from tablegame.models.rounds import ACTIVE_ROUND_STATES, ENDED_ROUND_STATES
from tablegame.models.vigorish import CommandRecord

M = TypeVar("M", bound=models.Model)

#: Where the facts are kept on the table instance of the command.
_ATTRIBUTE = "_live"


class Live:
    """The table's state in play: as read after its lock, or else read when first asked for."""

    def __init__(self, table: Table) -> None:
        self.table = table

    @property
    def round(self) -> Round | None:
        """The round in play, with its rules record, shoe, wagers and cards."""
        game = self.last_round
        return game if game is not None and game.state in ACTIVE_ROUND_STATES else None

    @round.setter
    def round(self, game: Round | None) -> None:
        self.__dict__["last_round"] = game

    @cached_property
    def last_round(self) -> Round | None:
        return self.table.active_round()

    @cached_property
    def banked(self) -> Banked | None:
        """Between rounds, at a table whose player-dealer has banked a hand in the position
        (``Table.player_dealer_hands``; taking or moving the position starts it at none): the
        table's last round that ended, settled or void, whatever its shoe (simulated rounds
        aside), with its steps. None otherwise."""
        table = self.table
        if table.player_dealer_seat is None or not table.player_dealer_hands:
            return None
        ended = table.rounds.filter(state__in=ENDED_ROUND_STATES, simulated=False)
        game = ended.select_related("shoe").order_by("-settled_at", "-pk").first()
        if game is None:
            return None
        prefetch(game, "steps", list(game.steps.all()))
        seat = game.player_dealer_seat
        same_player = (
            seat is not None
            and table.seats.filter(number=seat, occupied_since__lte=game.opened_at).exists()
        )
        return Banked(game, shoe=game.shoe.number, same_player=same_player)

    @cached_property
    def shoe(self) -> Shoe | None:
        """The shoe in play (the latest not finished)."""
        return self.table.current_shoe()

    @cached_property
    def rules_record(self) -> TableRules | None:
        """The Rules Submission record in force now (read after the lock when no round is in
        play: what a new round is dealt under)."""
        return self.table.rules_record()

    @property
    def rules_in_force(self) -> RulesSubmission:
        """The Rules Submission the table is dealt under now (``Table.rules``), from
        ``rules_record``."""
        return self.table.submission(self.rules_record)

    @cached_property
    def seats(self) -> list[int]:
        """Numbers of the occupied seats, in order."""
        return self.table.occupied_seats()

    @cached_property
    def limits(self) -> dict[str, TableLimit]:
        """The table's limits by wager type (read after the lock as JSON, made into rows only
        when a command asks: a wager does, a card does not)."""
        found: Iterable[TableLimit]
        if self.limits_json is not None:
            found = [rows.from_json(TableLimit, data) for data in rows.decoded(self.limits_json)]
        else:
            found = self.table.limits.all()
        return {limit.wager_type: limit for limit in found}

    limits_json: str | None = None
    """When read after the lock: the table's limits, as PostgreSQL wrote them."""

    def limit(self, wager_type: str) -> TableLimit | None:
        return self.limits.get(wager_type)

    head_at: datetime.datetime | None = None
    """When read after the lock: when the table's last event was recorded (None: none yet)."""

    def rules_since_last_event(self) -> TableRules | None:
        """Read after the lock between rounds: the rules record in force, if it took effect
        after the table's last event (rules filed for later, not yet recorded in force: the
        screens still show the rules before them). None otherwise, and when not read after the
        lock (nothing is read for this)."""
        if self.head_at is None or "rules_record" not in self.__dict__:
            return None
        found: TableRules | None = self.__dict__["rules_record"]
        return found if found is not None and found.effective_at > self.head_at else None

    user_id: int | None = None
    """Whose command read the facts (``assignments`` are of this user)."""
    assignments: list[tuple[int, int, str, str]] | None = None
    """When read after the lock: the dealer assignments in force of the command's user or of
    this table, as ``(dealer id, table id, table name, dealer's username)``."""


@dataclass(frozen=True)
class Banked:
    """The round a player-dealer banked last (``Live.banked``)."""

    game: Round
    """Settled or void, with its settlement steps (``game.steps.all()`` reads no more)."""
    shoe: int
    """The number of its shoe."""
    same_player: bool
    """Whoever sits at its player-dealer seat sat there when it opened (nobody else sat down
    there since)."""


@dataclass(frozen=True)
class Facts:
    """What ``read_after_lock`` found besides the table's state."""

    done_id: int | None
    """The command record of this user's key, if the key was used."""
    head: Head
    """The head of the table's chain."""


def live(table: Table) -> Live:
    """The table's state in play, as the command read it after its lock, or read when asked."""
    found: Live | None = table.__dict__.get(_ATTRIBUTE)
    if found is None:
        found = table.__dict__[_ATTRIBUTE] = Live(table)
    return found


def locked_tables() -> QuerySet[Table]:
    """Tables to lock: the row only (``of=self``), with its pit, ``FOR NO KEY UPDATE``.

    Commands on one table wait for each other; a row that refers to the table (its snapshot,
    stored by a screen's read of the state) is still written meanwhile, since that takes only a
    key-share lock, which ``FOR UPDATE`` would block: a busy table's own state stays readable.

    Nothing else is read in the locking statement: under READ COMMITTED a statement that waited
    for the lock still sees what was committed when it began, so what it read besides the row
    (the chain's head, a command record) could predate the transaction it waited for. Read
    those in the next statement (``read_after_lock``)."""
    return Table.objects.select_for_update(of=("self",), no_key=True).select_related("pit")


def lock(table_id: int) -> Table | None:
    """The table row, locked until the transaction ends, with its pit (None: no such table).

    Race: two tablets (or a double tap) acting on one table at once; the second waits here until
    the first commits, then sees its result. One statement written once, the same on every
    database but for the lock itself: PostgreSQL's ``FOR NO KEY UPDATE`` of the row; SQLite (the
    embedded demo) has none to take, its transactions taking the whole database's write lock as
    they begin (``config.env.SQLITE_OPTIONS``)."""
    with rows.cursor() as cursor:
        cursor.execute(_lock_statement(), [table_id])
        row = cursor.fetchone()
    if row is None:
        return None
    width = len(rows.fields(Table))
    table = rows.instance(Table, list(row[:width]))
    pit = rows.instance(Pit, list(row[width:]))
    assert table is not None and pit is not None
    relate(table, "pit", pit)
    return table


@cache
def _lock_statement() -> str:
    c, q = rows.column, connection.ops.quote_name
    locking = " FOR NO KEY UPDATE OF t" if connection.vendor == "postgresql" else ""
    return (
        f"SELECT {rows.columns('t', Table)}, {rows.columns('p', Pit)} FROM {rows.table(Table)} t "
        f"JOIN {rows.table(Pit)} p ON p.{q('id')} = t.{c(Table, 'pit')} "
        f"WHERE t.{q('id')} = %s{locking}"
    )


def read_after_lock(table: Table, *, user_id: int | None, key: str) -> Facts:
    """Read the table's state in play in one statement, keep it on ``table`` (``live``), and
    answer whether ``key`` was used by this user and where the table's chain ends. The same
    statement and the same state on PostgreSQL and on SQLite (the embedded demo)."""
    with rows.cursor() as cursor:
        now = connection.ops.adapt_datetimefield_value(timezone.now())
        arguments = {"table": table.pk, "user": user_id, "key": key, "now": now}
        cursor.execute(_statement(), arguments)
        row = cursor.fetchone()
    assert row is not None, "read_after_lock() runs on a table that exists (it is locked)"
    values = iter(row)
    done_id, head_sequence, head_hash, head_at = (next(values) for _ in range(4))
    game = rows.instance(Round, [next(values) for _ in rows.fields(Round)])
    rules = rows.instance(TableRules, [next(values) for _ in rows.fields(TableRules)])
    shoe = rows.instance(Shoe, [next(values) for _ in rows.fields(Shoe)])
    rounds_dealt, wagers, cards, irregularities, seats, limits, assignments = (
        next(values) for _ in range(7)
    )
    banked = rows.instance(Round, [next(values) for _ in rows.fields(Round)])
    banked_steps, banked_shoe, same_player = (next(values) for _ in range(3))
    if shoe is not None:
        shoe.__dict__["_last_round_number"] = rounds_dealt
    facts = live(table)
    if game is None:  # no round in play: the rules are the record in force (``rules_record``)
        facts.__dict__["rules_record"] = rules
    else:
        relate(game, "table", table)
        if rules is not None:
            relate(game, "rules", rules)
        if shoe is not None and shoe.pk == game.shoe_id:
            relate(game, "shoe", shoe)
        prefetch(game, "wagers", _children(Wager, rows.decoded(wagers), game))
        prefetch(game, "cards", _children(Card, rows.decoded(cards), game))
        prefetch(
            game, "irregularities", _children(Irregularity, rows.decoded(irregularities), game)
        )
    facts.user_id, facts.head_at = user_id, _head_at(head_at)
    facts.assignments = [(a[0], a[1], a[2], a[3]) for a in rows.decoded(assignments)]
    facts.__dict__.update(
        last_round=game,
        shoe=shoe,
        seats=list(rows.decoded(seats)),
        limits_json=limits,
        banked=None
        if banked is None
        else _banked(banked, rows.decoded(banked_steps), banked_shoe, bool(same_player)),
    )
    head = Head(head_sequence or 0, head_hash or GENESIS_HASH)
    return Facts(done_id=done_id, head=head)


def _head_at(value: Any) -> datetime.datetime | None:
    """When the table's last event was recorded, as the statement read it (SQLite: text)."""
    at: datetime.datetime | None = rows.converted(Event, "created_at", value)
    return at


@cache
def _statement() -> str:
    """The one statement, written from the models (new columns are read without a change), the
    same on PostgreSQL and SQLite but for how rows become JSON (``rows.json_rows``)."""
    c, t, q = rows.column, rows.table, connection.ops.quote_name
    pk = q("id")
    states = ", ".join(f"'{state}'" for state in ACTIVE_ROUND_STATES)
    ended = ", ".join(f"'{state}'" for state in ENDED_ROUND_STATES)
    dealer, at_table = c(DealerAssignment, "dealer"), c(DealerAssignment, "table")
    array = "json_build_array" if connection.vendor == "postgresql" else "json_array"
    occupied = (
        f"{t(Seat)} st WHERE st.{c(Seat, 'table')} = tb.{pk} "
        f"AND (st.{c(Seat, 'player_name')} <> '' OR st.{c(Seat, 'player_card')} <> '')"
    )
    assigned = (
        f"{t(DealerAssignment)} a JOIN {t(Table)} dt ON dt.{pk} = a.{at_table} "
        f"JOIN {t(User)} du ON du.{pk} = a.{dealer} "
        f"WHERE a.{c(DealerAssignment, 'relieved_at')} IS NULL "
        f"AND (a.{dealer} = %(user)s OR a.{at_table} = tb.{pk})"
    )
    assignment = f"{array}(a.{dealer}, a.{at_table}, dt.{c(Table, 'name')}, du.{q('username')})"
    return f"""
SELECT
  (SELECT d.{pk} FROM {t(CommandRecord)} d
    WHERE d.{c(CommandRecord, "user")} = %(user)s AND d.{c(CommandRecord, "key")} = %(key)s
    LIMIT 1),
  h.{c(Event, "sequence")}, h.{c(Event, "hash")}, h.{c(Event, "created_at")},
  {rows.columns("r", Round)},
  {rows.columns("tr", TableRules)},
  {rows.columns("s", Shoe)},
  (SELECT coalesce(max(x.{c(Round, "number")}), 0) FROM {t(Round)} x
    WHERE x.{c(Round, "shoe")} = s.{pk}),
  {
        rows.json_rows(
            Wager,
            "w",
            f"w.{c(Wager, 'round')} = r.{pk}",
            f"w.{c(Wager, 'seat')} DESC, w.{c(Wager, 'type')}",
        )
    },
  {rows.json_rows(Card, "k", f"k.{c(Card, 'round')} = r.{pk}", f"k.{c(Card, 'position')}")},
  {rows.json_rows(Irregularity, "i", f"i.{c(Irregularity, 'round')} = r.{pk}", f"i.{pk}")},
  {rows.json_list(f"st.{c(Seat, 'number')}", occupied, f"st.{c(Seat, 'number')}")},
  {rows.json_rows(TableLimit, "l", f"l.{c(TableLimit, 'table')} = tb.{pk}", f"l.{pk}")},
  {rows.json_list(assignment, assigned, f"a.{pk}", json_values=True)},
  {rows.columns("p", Round)},
  {
        rows.json_rows(
            SettlementStep,
            "x",
            f"x.{c(SettlementStep, 'round')} = p.{pk}",
            f"x.{c(SettlementStep, 'index')}",
        )
    },
  (SELECT ps.{c(Shoe, "number")} FROM {t(Shoe)} ps WHERE ps.{pk} = p.{c(Round, "shoe")}),
  EXISTS (SELECT 1 FROM {t(Seat)} pst
    WHERE pst.{c(Seat, "table")} = tb.{pk}
      AND pst.{c(Seat, "number")} = p.{c(Round, "player_dealer_seat")}
      AND pst.{c(Seat, "occupied_since")} <= p.{c(Round, "opened_at")})
FROM {t(Table)} tb
LEFT JOIN {t(Event)} h ON h.{pk} = (
  SELECT e.{pk} FROM {t(Event)} e WHERE e.{c(Event, "chain")} = tb.{c(Table, "chain")}
  ORDER BY e.{c(Event, "sequence")} DESC LIMIT 1)
LEFT JOIN {t(Round)} r ON r.{pk} = (
  SELECT r0.{pk} FROM {t(Round)} r0
  WHERE r0.{c(Round, "table")} = tb.{pk} AND r0.{c(Round, "state")} IN ({states})
  ORDER BY r0.{pk} DESC LIMIT 1)
LEFT JOIN {t(TableRules)} tr ON tr.{pk} = coalesce(r.{c(Round, "rules")}, (
  SELECT t0.{pk} FROM {t(TableRules)} t0
  WHERE t0.{c(TableRules, "table")} = tb.{pk} AND t0.{c(TableRules, "effective_at")} <= %(now)s
  ORDER BY t0.{c(TableRules, "effective_at")} DESC, t0.{pk} DESC LIMIT 1))
LEFT JOIN {t(Shoe)} s ON s.{pk} = (
  SELECT s0.{pk} FROM {t(Shoe)} s0
  WHERE s0.{c(Shoe, "table")} = tb.{pk} AND s0.{c(Shoe, "state")} <> 'finished'
  ORDER BY s0.{c(Shoe, "number")} DESC LIMIT 1)
LEFT JOIN {t(Round)} p ON p.{pk} = (
  SELECT p0.{pk} FROM {t(Round)} p0
  WHERE r.{pk} IS NULL AND tb.{c(Table, "player_dealer_seat")} IS NOT NULL
    AND tb.{c(Table, "player_dealer_hands")} > 0
    AND p0.{c(Round, "table")} = tb.{pk} AND p0.{c(Round, "state")} IN ({ended})
    AND NOT p0.{c(Round, "simulated")}
  ORDER BY p0.{c(Round, "settled_at")} DESC, p0.{pk} DESC LIMIT 1)
WHERE tb.{pk} = %(table)s
"""


def _banked(game: Round, steps: list[dict[str, Any]], shoe: int, same_player: bool) -> Banked:
    """``Live.banked`` as the statement read it: the round, its steps, its shoe's number and
    whether its player-dealer's seat has had the same player since."""
    prefetch(game, "steps", _children(SettlementStep, steps, game))
    return Banked(game, shoe=shoe, same_player=same_player)


def _children(model: type[M], read: list[dict[str, Any]], parent: Round) -> list[M]:
    found = [rows.from_json(model, data) for data in read]
    for row in found:
        relate(row, "round", parent)
    return found
