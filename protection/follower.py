"""The follower: read each table's new events, keep its shoe's count, price each round.

``follow(table_ids)`` reads, for each table, the events recorded since it last read (one query
for all of them, only the kinds that move the count or name a round), replays them through
``shoe_count.read``, computes the exact edges of every round due a price with the rules
engine, and writes them (``Edge``, one statement for the batch) with how far it read
(``Follow``), in one transaction; then the alerts (``alerts.mark_tables``). The pit consoles of
the tables whose players' ratings moved are told after commit (``console.ratings_changed``).
Two followers may run: each table is read by one at a time (its ``Follow`` row is locked,
``skip_locked``), and a table another holds is left to it.

A table first followed is read from the start of its current shoe (its last ``decks_received``
or ``idle_respread``) or its last opening, whichever came first: what came before was never
priced live and is not now
(``manage.py protect --from-start`` reads a table's whole record).

``behind()`` names the tables whose record has moved past what was read: the sweep that makes
good a notice the channel layer dropped.
"""

from __future__ import annotations

import functools
import json
import logging
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.db import connection, transaction
from django.db.models import F, IntegerField, Max, OuterRef, Q, Subquery, Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from baccarat.composition import Composition
from baccarat.gamemath import analyse
from baccarat.profiles import RulesSubmission
from baccarat.royal9 import MustHit, Royal9Options
from baccarat.royal9_odds import must_hit_award, royal9_edges
from baccarat.wagertypes import WagerType
from casino.events import payload_of
from casino.models import Event
from protection import alerts, console
from protection.chairs import MUST_HIT, ROYAL9, priced_as
from protection.models import Edge, Follow
from protection.rules import RulesInForce
from protection.shoe_count import CountLost, Priced, ShoeCount, read
from protection.sittings import Sittings, examine_sessions
from tablegame import events
from tablegame.events import TableEvent
from tablegame.models import MustHitLink, ProgressiveMeter, Table
from tablegame.progressives.draw import configuration_of
from tablegame.progressives.ledger import ROYAL9_METERS
from tablegame.selectors import last_sequence_of_tables

log = logging.getLogger(__name__)

#: The kinds of event the follower reads: those that move a shoe's count or name a round to
#: price (``shoe_count.read``), those of players and their settled wagers (``sittings``), and
#: the Royal 9 meters' contributions and resets (what its personal awards pay).
#: Any other event only moves the follower's place in the chain.
READ_KINDS = tuple(
    kind.value
    for kind in (
        TableEvent.DECKS_RECEIVED,
        TableEvent.IDLE_RESPREAD,
        TableEvent.SHOE_ENDED,
        TableEvent.BURNED,
        TableEvent.ROUND_OPENED,
        TableEvent.CARD_DEALT,
        TableEvent.IRREGULARITY,
        TableEvent.CARD_CORRECTED,
        TableEvent.ROUND_SETTLED,
        TableEvent.ROUND_VOID,
        TableEvent.HOUSE_MONEY_SETTLED,
        TableEvent.PLAYER_SEATED,
        TableEvent.PLAYER_LEFT,
        TableEvent.TABLE_CLOSED,
        TableEvent.PROGRESSIVE_CONTRIBUTED,
        TableEvent.PROGRESSIVE_RESET,
    )
)
#: The kinds that start a shoe: a table first followed is read from the last of them.
SHOE_STARTS = (TableEvent.DECKS_RECEIVED.value, TableEvent.IDLE_RESPREAD.value)


@dataclass(slots=True)
class Progress:
    """What one ``follow`` did."""

    tables: int = 0
    events: int = 0
    priced: int = 0
    lost: list[str] = field(default_factory=list)


@functools.lru_cache(maxsize=4096)
def price(counts: tuple[int, ...], rules: RulesSubmission) -> dict[str, Fraction]:
    """The exact house edge of each wager ``rules`` offers, for the shoe ``counts`` leaves."""
    return analyse(Composition(counts), rules).house_edge


@functools.lru_cache(maxsize=4096)
def price_royal9(
    royals: tuple[int, ...],
    total: int,
    options: Royal9Options,
    meters: tuple[tuple[str, Decimal], ...],
    must_hit: MustHitMeter | None,
) -> dict[str, Fraction]:
    """The Royal 9 wager's exact house edge at each chair, named as ``Edge.edges`` keeps it;
    less what a lone wager can expect of the must-hit meter the table feeds, if any."""
    edges = royal9_edges(royals, total, options, dict(meters))
    award = (
        Fraction(0)
        if must_hit is None
        else must_hit_award(must_hit.amount, must_hit.config, options.wager)
    )
    wager = Fraction(options.wager)
    return {priced_as(ROYAL9, chair): edge - award / wager for chair, edge in edges.items()}


@dataclass(frozen=True, slots=True)
class MustHitMeter:
    """A must-hit meter as its sign shows it (never its hidden hit value)."""

    name: str
    amount: Decimal
    config: MustHit


@dataclass(frozen=True, slots=True)
class Meters:
    """What a table's Royal 9 awards pay from: its meters as the record last showed them, and
    the must-hit meter it feeds, as it stands."""

    royal9: dict[str, str]
    must_hit: MustHitMeter | None


def _must_hit_meters(
    table_ids: list[int], rules: RulesInForce, now: datetime
) -> dict[int, MustHitMeter]:
    """The must-hit meter each table that offers Royal 9 feeds (one query, only when one of
    them does). The amount is the pit's meter now: its linked tables feed it too."""
    royal = [pk for pk in table_ids if rules.at(pk, now)[1].royal9 is not None]
    if not royal:
        return {}
    links = (
        MustHitLink.objects.filter(table_id__in=royal)
        .select_related("meter")
        .only("table_id", "meter__name", "meter__amount", "meter__reset", "meter__maximum",
              "meter__increment_rate")
    )  # fmt: skip
    return {
        link.table_id: MustHitMeter(
            link.meter.name, link.meter.amount, configuration_of(link.meter)
        )
        for link in links
    }


def follow(
    table_ids: Iterable[int], *, from_start: bool = False, pacer: console.Pacer | None = None
) -> Progress:
    """Read the tables' new events, price the rounds they make due, raise or clear the alerts.

    Queries: the follows made (one insert, conflicts ignored), then in one transaction the
    follows locked, the tables with their heads and Rules Submissions (two), the new events
    (one), the edges written (one upsert) and the follows saved (one update); the start of a
    table's shoe once, when it is first followed; the alerts' marks only where they change."""
    ids = sorted(set(table_ids))
    progress = Progress()
    if not ids:
        return progress
    _begin_follows(ids)
    with transaction.atomic():
        follows = {
            f.table_id: f
            for f in Follow.objects.select_for_update(skip_locked=True).filter(table_id__in=ids)
        }
        if not follows:
            return progress
        tables = {
            t.pk: t
            for t in Table.objects.filter(pk__in=list(follows))
            .select_related("pit__casino")
            .annotate(head=last_sequence_of_tables())
        }
        first = [
            f for f in follows.values() if f.sequence == 0 and f.shoe is None and not from_start
        ]
        for follow_row in first:
            follow_row.sequence = _shoe_start(tables[follow_row.table_id].chain_id)
        _meters_now(first)
        moved = [f for f in follows.values() if tables[f.table_id].head > f.sequence]
        if not moved:
            return progress
        by_chain = {tables[f.table_id].chain_id: f for f in moved}
        rows = _new_events({c: (f.sequence, tables[f.table_id].head) for c, f in by_chain.items()})
        edges: dict[tuple[int, int, int], Edge] = {}
        now = timezone.now()
        events_by_chain: dict[int, list[tuple[int, str, dict[str, Any], datetime]]] = {}
        for chain, sequence, action, data, created_at in rows:
            events_by_chain.setdefault(chain, []).append((sequence, action, data, created_at))
        rules = RulesInForce(tables.values())
        sittings = Sittings.of(tables, rules)
        must_hit = _must_hit_meters([f.table_id for f in moved], rules, now)
        for chain, f in by_chain.items():
            table = tables[f.table_id]
            count, shoe = _count_of(f), f.shoe
            for sequence, action, data, created_at in events_by_chain.get(chain, ()):
                progress.events += 1
                payload = payload_of(action, data)
                shoe = _shoe_of(payload, shoe)
                _read_meters(f, payload)
                sittings.read(table, payload, created_at, sequence, shoe)
                try:
                    count, due = read(count, payload)
                except CountLost as error:
                    f.lost = str(error)[:200]
                    progress.lost.append(f.lost)
                    log.warning("protection: table %s: %s", table.pk, error)
                    count = None
                    continue
                if count is not None and action in SHOE_STARTS:
                    f.lost = ""
                if due is None or count is None:
                    continue
                if count.pricing(due.round) == count.priced:
                    continue  # opened on the count it was priced on after the last round
                edges[(table.pk, due.shoe, due.round)] = _edge(
                    table,
                    due,
                    count,
                    rules.at(table.pk, created_at),
                    Meters(f.meters, must_hit.get(table.pk)),
                    sequence,
                    now,
                )
                count.priced = count.pricing(due.round)
            _keep(f, count, shoe, tables[f.table_id].head, now)
        if edges:
            Edge.objects.bulk_create(
                list(edges.values()),
                update_conflicts=True,
                unique_fields=["table", "shoe", "round"],
                update_fields=["rules", "counts", "royals", "meters", "seen", "edges",
                               "favourable", "priced_at", "sequence"],
            )  # fmt: skip
        examined = examine_sessions(sittings.save(edges))
        console.ratings_changed(sittings.tables_changed(), tables, pacer)
        alerts.mark_tables(moved, tables, edges.values())
        alerts.mark_findings(tables, sittings, examined)
        _save(moved)
    progress.tables, progress.priced = len(moved), len(edges)
    return progress


def _begin_follows(ids: list[int]) -> None:
    """A ``Follow`` row for each table that has none, at its defaults: on PostgreSQL one
    statement of the ids (Django's ``bulk_create`` builds every row's values in Python, for
    rows that almost always exist already)."""
    if connection.vendor != "postgresql":
        Follow.objects.bulk_create([Follow(table_id=pk) for pk in ids], ignore_conflicts=True)
        return
    sql = (
        f"INSERT INTO {Follow._meta.db_table} (table_id, sequence, shoe, decks, counts, held, "
        "royals, meters, seen, priced, lost, alerted, read_at) SELECT t, 0, NULL, NULL, '[]', "
        "'', '[]', '{}', 0, '[]', '', '{}', now() FROM unnest(%s::bigint[]) AS t "
        "ON CONFLICT (table_id) DO NOTHING"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [ids])


def _new_events(
    ranges: dict[int, tuple[int, int]],
) -> Iterable[tuple[int, int, str, dict[str, Any], datetime]]:
    """The events of ``READ_KINDS`` of each chain after its first number and up to its second,
    in chain and sequence order: on PostgreSQL one statement joining the ranges as a list of
    values (Django would build an OR of them in Python, most of a batch's time); elsewhere
    (SQLite: the embedded demo) the ORM's OR."""
    if connection.vendor != "postgresql":
        return (
            Event.objects.filter(
                functools.reduce(
                    Q.__or__,
                    (
                        Q(chain_id=chain, sequence__gt=after, sequence__lte=head)
                        for chain, (after, head) in ranges.items()
                    ),
                ),
                action__in=READ_KINDS,
            )
            .order_by("chain_id", "sequence")
            .values_list("chain_id", "sequence", "action", "data", "created_at")
        )
    table = Event._meta.db_table
    values = ", ".join(["(%s, %s, %s)"] * len(ranges))
    sql = (
        f"SELECT e.chain_id, e.sequence, e.action, e.data, e.created_at FROM {table} e "
        f"JOIN (VALUES {values}) AS r(chain_id, after, head) ON e.chain_id = r.chain_id "
        "AND e.sequence > r.after AND e.sequence <= r.head "
        "WHERE e.action = ANY(%s) ORDER BY e.chain_id, e.sequence"
    )
    params: list[Any] = [v for chain, (after, head) in ranges.items() for v in (chain, after, head)]
    with connection.cursor() as cursor:
        cursor.execute(sql, [*params, list(READ_KINDS)])
        found: list[tuple[int, int, str, Any, datetime]] = cursor.fetchall()
    # Django has psycopg hand JSON over as text (its fields decode it): so must a raw read.
    return [
        (chain, sequence, action, json.loads(data) if isinstance(data, str) else data, at)
        for chain, sequence, action, data, at in found
    ]


def behind() -> list[int]:
    """The tables whose record has events the follower has not read (one query)."""
    read_to = Follow.objects.filter(table_id=OuterRef("pk")).values("sequence")[:1]
    return list(
        Table.objects.annotate(
            head=last_sequence_of_tables(),
            read_to=Coalesce(Subquery(read_to), Value(0), output_field=IntegerField()),
        )
        .filter(head__gt=F("read_to"))
        .values_list("pk", flat=True)
    )


def _shoe_start(chain_id: int) -> int:
    """The sequence just before the table's current shoe started or it last opened, whichever
    came first (0: read it all): the count needs the shoe from its start, the ratings the players
    seated since the table opened."""
    found = Event.objects.filter(chain_id=chain_id).aggregate(
        shoe=Max("sequence", filter=Q(action__in=SHOE_STARTS)),
        opened=Max("sequence", filter=Q(action=TableEvent.TABLE_OPENED.value)),
    )
    starts = [v for v in found.values() if v is not None]
    return min(starts) - 1 if starts else 0


def _count_of(f: Follow) -> ShoeCount | None:
    if f.shoe is None or f.decks is None or f.lost:
        return None
    return ShoeCount(
        shoe=f.shoe,
        decks=f.decks,
        counts=list(f.counts),
        royals=list(f.royals) if f.royals else None,
        held=f.held,
        seen=f.seen,
        priced=tuple(f.priced),
    )


#: What ``_save`` writes of a follow, in its statement's order.
SAVED = ("sequence", "shoe", "decks", "counts", "royals", "meters", "held", "seen", "priced",
         "lost", "alerted", "read_at")  # fmt: skip


def _save(follows: list[Follow]) -> None:
    """Write the follows read: one statement sent for all of them (``executemany``: psycopg
    pipelines it). Not ``bulk_update``, whose CASE WHEN of every row and field Django builds in
    Python: most of the follower's time on a full floor."""
    fields = {f.name: f for f in Follow._meta.concrete_fields}
    columns = ", ".join(f"{fields[name].column} = %s" for name in SAVED)
    sql = f"UPDATE {Follow._meta.db_table} SET {columns} WHERE table_id = %s"
    with connection.cursor() as cursor:
        cursor.executemany(
            sql,
            [
                [
                    *(
                        fields[name].get_db_prep_save(getattr(f, name), connection)
                        for name in SAVED
                    ),
                    f.table_id,
                ]
                for f in follows
            ],
        )


def _shoe_of(payload: object, shoe: int | None) -> int | None:
    """The number of the shoe in play after ``payload``: what the wagers of a round are rated
    in, whether or not its count could be kept."""
    match payload:
        case events.DecksReceived(shoe=number) | events.IdleRespread(next_shoe=number):
            return number
        case events.ShoeEnded():
            return None
    return shoe


def _keep(f: Follow, count: ShoeCount | None, shoe: int | None, head: int, now: datetime) -> None:
    f.sequence, f.read_at = head, now
    if count is None:
        f.shoe, f.decks = shoe, None
        f.counts, f.royals, f.held, f.seen, f.priced = [], [], "", 0, []
        return
    f.shoe, f.decks, f.counts = count.shoe, count.decks, list(count.counts)
    f.royals = [] if count.royals is None else list(count.royals)
    f.held, f.seen, f.priced = count.held, count.seen, list(count.priced)


def _meters_now(first: list[Follow]) -> None:
    """The Royal 9 meters of tables followed for the first time, as they stand (one query, for
    tables that have any): their record before the follower's start is not read."""
    if not first:
        return
    by_table = {f.table_id: f for f in first}
    for table_id, name, amount in ProgressiveMeter.objects.filter(
        table_id__in=list(by_table), name__in=ROYAL9_METERS
    ).values_list("table_id", "name", "amount"):
        by_table[table_id].meters = {**by_table[table_id].meters, name: str(amount)}


def _read_meters(f: Follow, payload: object) -> None:
    """Keep the Royal 9 meters' amounts as the record shows them change."""
    match payload:
        case events.ProgressiveContributed(meters=changes):
            for change in changes:
                if change.meter in ROYAL9_METERS:
                    f.meters = {**f.meters, change.meter: str(change.amount)}
        case events.ProgressiveReset(meter=name, amount=amount) if name in ROYAL9_METERS:
            f.meters = {**f.meters, name: str(amount)}


def _edge(
    table: Table,
    due: Priced,
    count: ShoeCount,
    in_force: tuple[int | None, RulesSubmission],
    meters: Meters,
    sequence: int,
    now: datetime,
) -> Edge:
    """The round's pricing. Royal 9 at each chair when the table offers it and the shoe was
    counted by suit, its personal awards paying the meters as the record last showed them
    (a meter it has not shown: its reseed, as settlement pays it), with what a lone wager can
    expect of the must-hit meter; the round's own contributions, cents on the meters, are not
    known until its wagers are."""
    rules_id, submission = in_force
    edges = price(tuple(count.counts), submission)
    royals: list[int] = []
    shown: dict[str, Any] = {}
    options = submission.royal9
    if options is not None and submission.offers(WagerType.ROYAL9) and count.royals is not None:
        shown_now = meters.royal9
        amounts = {
            name: Decimal(shown_now[name])
            if name in shown_now
            else options.progressive(name).reseed
            for name in ROYAL9_METERS
        }
        must_hit = meters.must_hit
        try:
            edges = edges | price_royal9(
                tuple(count.royals),
                sum(count.counts),
                options,
                tuple(sorted(amounts.items())),
                must_hit,
            )
        except ValueError as error:  # a must-hit meter the pit must look at: Royal 9 unpriced
            log.warning("protection: table %s: Royal 9 not priced: %s", table.pk, error)
        else:
            royals, shown = list(count.royals), {name: str(a) for name, a in amounts.items()}
            if must_hit is not None:
                shown[MUST_HIT] = {
                    "name": must_hit.name,
                    "amount": str(must_hit.amount),
                    "maximum": str(must_hit.config.maximum),
                    "increment_rate": str(must_hit.config.increment_rate),
                }
    return Edge(
        table_id=table.pk,
        shoe=due.shoe,
        round=due.round,
        rules_id=rules_id,
        counts=list(count.counts),
        royals=royals,
        meters=shown,
        seen=count.seen,
        edges={wager: f"{edge.numerator}/{edge.denominator}" for wager, edge in edges.items()},
        favourable=[wager for wager, edge in edges.items() if edge < 0],
        priced_at=now,
        sequence=sequence,
    )
