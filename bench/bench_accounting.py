"""Accounting's day report on a generated gaming day, against a hand-written SQL aggregate.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/baccarat_bench \\
        python bench/bench_accounting.py [--tables 500] [--rounds-per-hour 200] [--hours 24]

The goal (issue 13): 500 tables at 200 rounds an hour for 24 hours (2.4 million rounds, three
wagers each: 7.2 million wagers and about 8 million settlement steps) reported in under 10 s,
and within 2x of a hand-written SQL aggregate over the same rows in the same run.

The data is made in PostgreSQL with ``INSERT ... SELECT ... generate_series`` (a few seconds per
million rows), never row by row: a casino of its own ("Bench Accounting", time zone UTC, gaming
day from 06:00) with ten tables a pit in the rules profiles in turn (every eighth a California
player-dealer table), one template row of each kind (a shoe, a round, a wager, a step) made
through the ORM in a casino of its own, whose columns the generated rows copy (so a column added
later is filled as the template has it), rounds dealt evenly over the day, 70 to a shoe, each
with a Banker, a Player and a Tie wager settled by a winner drawn from a hash of the round
(Banker 45.9 %, Player 44.6 %, Tie 9.5 %), with the steps the dealer takes (collect, pay,
commission, return), and each table's opener, closer, a fill, a credit and its drop. Then the
day's tallies, as the settlements would have written them
(``tablegame.tallies.writes.tally_from_rows``: an ``INSERT ... SELECT`` from the generated rows;
its time is printed, it is no part of the report).
And the day's record (``generate_record``): eight events a round in its table's chain (wagers,
no more bets, cards, settled: 19.2 million), the shoe passed by the rules at the big tables
whenever Banker did not win, a decision (a correction or an override) in every 3,000 rounds
and a void round in every 2,000, which the report lists among the day's exceptions.

Measured (best of ``--repeat`` runs, after one warm-up): ``accounting.reports.day_report``, every
query of the page, which reads the tallies; and the hand-written SQL over the raw rows: the same
aggregates as three statements (the wagers per table, rules, decks, type and result, with House
Money let ride on a losing wager; the rounds, voids and shoes per table; the player-dealer's fees
per hand), and the lists of the day's exceptions (the decisions with the round each is reviewed
in, and the void rounds). Both figures are printed, with the row counts, and the report's
wagers, amount and rounds are checked against the hand-written SQL's; the lists are timed on
their own as well, against their hand-written SQL, and their plans must read the indexes made
for them (``event_decisions``, ``round_void``). Then the day is closed, which writes its
summary (the same grouped rows, kept: a closed day's figures are final), and the closed day's
report is timed again.
``--keep`` reuses data generated before with the same size.
"""

from __future__ import annotations

import argparse
import datetime
import os
import sys
import time
from decimal import Decimal
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

CASINO = "Bench Accounting"
TEMPLATE_CASINO = "Bench Accounting template"
DAY = datetime.date(2026, 1, 15)
ROUNDS_PER_SHOE = 70
PROFILES = (
    "ma-mini", "ma-mini-ez", "s42-mini", "s42-mini-4", "mini-pairs", "ma-big", "s42-mini-tievig",
    "ca-commission-free",
)  # fmt: skip

HAND_SQL = {
    "wagers": """
        SELECT r.table_id, r.rules_id, s.decks, w.type, w.result, count(*), sum(w.amount),
               sum(w.payout), sum(w.vigorish), sum(w.returned), sum(w.fee),
               sum(CASE WHEN w.ridden > 0 THEN
                   CASE WHEN EXISTS (SELECT 1 FROM tablegame_wager m
                                     WHERE m.round_id = w.round_id AND m.seat = w.seat
                                       AND m.type = w.ride AND m.result = 'lose')
                   THEN w.ridden ELSE 0 END
                   ELSE 0 END)
        FROM tablegame_wager w
        JOIN tablegame_round r ON r.id = w.round_id
        JOIN tablegame_shoe s ON s.id = r.shoe_id
        WHERE r.table_id = ANY(%(tables)s) AND r.settled_at >= %(start)s
          AND r.settled_at < %(end)s AND r.state = 'settled'
        GROUP BY 1, 2, 3, 4, 5""",
    "rounds": """
        SELECT r.table_id, count(*) FILTER (WHERE r.state = 'settled'),
               count(*) FILTER (WHERE r.state = 'void'), count(DISTINCT r.shoe_id)
        FROM tablegame_round r
        WHERE r.table_id = ANY(%(tables)s) AND r.settled_at >= %(start)s
          AND r.settled_at < %(end)s
        GROUP BY 1""",
    "hand fees": """
        SELECT r.table_id, sum(st.amount)
        FROM tablegame_settlementstep st
        JOIN tablegame_round r ON r.id = st.round_id
        WHERE r.table_id = ANY(%(california)s) AND r.settled_at >= %(start)s
          AND r.settled_at < %(end)s AND r.state = 'settled'
          AND st.action = 'collect_fee' AND st.wager_type = ''
        GROUP BY 1""",
}


#: The lists of the day's exceptions, hand-written: the decisions (with the same condition as
#: the index of decisions, and the round to review each in, as the report finds it) and the void
#: rounds.
HAND_LISTS = {
    "decisions": """
        SELECT e.created_at, t.name, e.action, e.data, u.username,
               CASE WHEN e.data ? 'round' THEN (
                   SELECT r.id FROM tablegame_round r
                   WHERE r.table_id = t.id AND r.number = (e.data ->> 'round')::int
                     AND r.opened_at <= e.created_at ORDER BY r.opened_at DESC LIMIT 1)
               ELSE COALESCE(
                   (SELECT x.id FROM (
                        SELECT r.id, r.opened_at, r.settled_at FROM tablegame_round r
                        WHERE r.table_id = t.id AND r.opened_at <= e.created_at
                        ORDER BY r.opened_at DESC LIMIT 5) x
                    WHERE x.settled_at IS NULL OR x.settled_at >= e.created_at
                    ORDER BY x.opened_at DESC LIMIT 1),
                   (SELECT r.id FROM tablegame_round r
                    WHERE r.table_id = t.id AND r.opened_at >= e.created_at
                      AND r.opened_at < %(end)s ORDER BY r.opened_at LIMIT 1),
                   (SELECT r.id FROM tablegame_round r
                    WHERE r.table_id = t.id AND r.opened_at >= %(start)s
                      AND r.opened_at < e.created_at ORDER BY r.opened_at DESC LIMIT 1))
               END
        FROM casino_event e
        JOIN tablegame_table t ON t.chain_id = e.chain_id
        LEFT JOIN auth_user u ON u.id = e.actor_id
        WHERE t.id = ANY(%(tables)s) AND e.created_at >= %(start)s AND e.created_at < %(end)s
          AND {decision}
        ORDER BY e.created_at, e.id""",
    "voids": """
        SELECT r.settled_at, t.name, s.number, r.number, r.void_reason, r.id
        FROM tablegame_round r
        JOIN tablegame_table t ON t.id = r.table_id
        JOIN tablegame_shoe s ON s.id = r.shoe_id
        WHERE r.table_id = ANY(%(tables)s) AND r.settled_at >= %(start)s
          AND r.settled_at < %(end)s AND r.state = 'void'
        ORDER BY r.settled_at""",
}


def _columns(model: Any) -> list[str]:
    return [f.column for f in model._meta.concrete_fields if not f.primary_key]


def _copy(cursor: Any, model: Any, overrides: dict[str, str], source: str, **params: Any) -> int:
    """INSERT INTO model's table SELECT, each column from ``overrides`` or the template ``tpl``."""
    columns = _columns(model)
    select = ", ".join(overrides.get(c, f"tpl.{c}") for c in columns)
    cursor.execute(
        f"INSERT INTO {model._meta.db_table} ({', '.join(columns)}) SELECT {select} {source}",
        params,
    )
    return int(cursor.rowcount)


def _templates(user: Any) -> dict[str, int]:
    """One row of each generated kind, made through the ORM, whose columns the rows copy."""
    from casino.models import Casino, Pit
    from tablegame.models import Round, SettlementStep, Shoe, Table, TableRules, Wager

    casino, _ = Casino.objects.get_or_create(name=TEMPLATE_CASINO, defaults={"time_zone": "UTC"})
    pit, _ = Pit.objects.get_or_create(casino=casino, name="Template")
    table = Table.objects.filter(pit=pit).first() or Table.objects.create(
        pit=pit, name="TPL", profile="ma-mini", seat_count=7
    )
    rules = TableRules.objects.filter(table=table).first() or TableRules.objects.create(
        table=table, profile="ma-mini"
    )
    shoe = Shoe.objects.filter(table=table).first() or Shoe.objects.create(
        table=table, number=1, state="finished", decks=8
    )
    game = Round.objects.filter(table=table).first() or Round.objects.create(
        table=table, shoe=shoe, number=1, rules=rules, state="settled"
    )
    wager = Wager.objects.filter(round=game).first() or Wager.objects.create(
        round=game, seat=1, type="banker", amount=Decimal(100), placed_by=user
    )
    step = SettlementStep.objects.filter(round=game).first() or SettlementStep.objects.create(
        round=game, index=1, phase="round", action="collect", seat=1, amount=Decimal(100)
    )
    return {"shoe": shoe.pk, "round": game.pk, "wager": wager.pk, "step": step.pk}


def generate(tables: int, per_hour: int, hours: int) -> Any:
    """The bench casino's day; returns the casino. Replaces any earlier bench casino's rows."""
    from django.contrib.auth.models import User
    from django.db import connection, transaction

    from accounting.models import DropCount, Slip, TableInventory
    from casino.models import Casino, Pit
    from tablegame.models import Round, SettlementStep, Shoe, Table, TableRules, Wager

    user, _ = User.objects.get_or_create(username="bench-accounting")
    tpl = _templates(user)
    rounds_per_table = per_hour * hours
    shoes_per_table = -(-rounds_per_table // ROUNDS_PER_SHOE)
    step_seconds = (hours * 3600) / rounds_per_table
    with transaction.atomic():
        casino = Casino.objects.create(
            name=f"{CASINO} {time.time_ns()}", time_zone="UTC", gaming_day_start=datetime.time(6, 0)
        )
        start, _end = casino.gaming_day_bounds(DAY)
        made: list[Table] = []
        for i in range(tables):
            pit, _ = Pit.objects.get_or_create(casino=casino, name=f"Pit {i // 10 + 1}")
            profile = PROFILES[i % len(PROFILES)]
            made.append(
                Table.objects.create(
                    pit=pit,
                    name=f"T{i + 1:03d}",
                    profile=profile,
                    seat_count=14 if profile.startswith("ma-big") else 7,
                )
            )
        TableRules.objects.bulk_create(
            TableRules(table=t, profile=t.profile, effective_at=start - datetime.timedelta(days=1))
            for t in made
        )
        ids = [t.pk for t in made]
        day_before = DAY - datetime.timedelta(days=1)
        counts = []
        for n, t in enumerate(made):
            sign = {"dealer": user, "floorperson": user, "recorded_by": user}
            counts += [
                TableInventory(table=t, day=day_before, kind="closer", chips={"100": 500},
                               total=Decimal(50000), **sign),
                TableInventory(table=t, day=DAY, kind="closer", chips={"100": 520},
                               total=Decimal(52000), **sign),
            ]  # fmt: skip
            del n
        TableInventory.objects.bulk_create(counts)
        slips = []
        for n, t in enumerate(made):
            for kind, total in (("fill", Decimal(5000)), ("credit", Decimal(2500))):
                slips.append(
                    Slip(casino=casino, kind=kind, serial=n + 1, table=t, day=DAY,
                         chips={"100": int(total / 100)}, total=total, requested_by=user,
                         carried_by=user, received_by=user)
                )  # fmt: skip
        Slip.objects.bulk_create(slips)
        DropCount.objects.bulk_create(
            DropCount(table=t, day=DAY, currency={"100": 300}, currency_total=Decimal(30000),
                      counted_by=user, witnessed_by=user)
            for t in made
        )  # fmt: skip
    with connection.cursor() as cursor:
        params = {"tables": ids, "tpl": tpl["shoe"], "shoes": shoes_per_table}
        shoes = _copy(
            cursor,
            Shoe,
            {"table_id": "t.id", "number": "g.n", "state": "'finished'", "decks": "8"},
            "FROM tablegame_shoe tpl, tablegame_table t, generate_series(1, %(shoes)s) g(n) "
            "WHERE tpl.id = %(tpl)s AND t.id = ANY(%(tables)s)",
            **params,
        )
        winner = "(CASE WHEN h.x < 459 THEN 'banker' WHEN h.x < 905 THEN 'player' ELSE 'tie' END)"
        opened = "%(start)s::timestamptz + make_interval(secs => (g.k - 1) * %(step)s)"
        rounds = _copy(
            cursor,
            Round,
            {
                "table_id": "t.id",
                "shoe_id": "sh.id",
                "number": f"((g.k - 1) %% {ROUNDS_PER_SHOE}) + 1",
                "state": "'settled'",
                "rules_id": "tr.id",
                "opened_at": opened,
                "no_more_bets_at": f"{opened} + interval '20 seconds'",
                "completed_at": f"{opened} + interval '30 seconds'",
                "settled_at": "%(start)s::timestamptz "
                "+ make_interval(secs => (g.k - 0.2) * %(step)s)",
                "winner": winner,
                "player_total": "(h.x %% 10)",
                "banker_total": "((h.x / 10) %% 10)",
            },
            "FROM tablegame_round tpl, tablegame_table t "
            "JOIN tablegame_tablerules tr ON tr.table_id = t.id "
            "CROSS JOIN generate_series(1, %(rounds)s) g(k) "
            "CROSS JOIN LATERAL "
            "(SELECT abs(hashtext(t.id::text || ':' || g.k::text)) %% 1000 AS x) h "
            f"JOIN tablegame_shoe sh ON sh.table_id = t.id "
            f"AND sh.number = ((g.k - 1) / {ROUNDS_PER_SHOE}) + 1 "
            "WHERE tpl.id = %(tpl)s AND t.id = ANY(%(tables)s)",
            tables=ids, tpl=tpl["round"], rounds=rounds_per_table, start=start, step=step_seconds,
        )  # fmt: skip
        result = (
            "(CASE WHEN r.winner = 'tie' AND v.type <> 'tie' THEN 'push' "
            "WHEN r.winner = v.type THEN 'win' ELSE 'lose' END)"
        )
        amount = "(v.base * (1 + r.number %% 4))"
        ca = "(t.profile = 'ca-commission-free')"
        wagers = _copy(
            cursor,
            Wager,
            {
                "round_id": "r.id",
                "seat": "v.seat",
                "type": "v.type",
                "amount": amount,
                "placed_at": "r.opened_at",
                "result": result,
                "payout": f"(CASE WHEN r.winner = v.type THEN {amount} * v.pays ELSE 0 END)",
                "vigorish": f"(CASE WHEN r.winner = v.type AND v.type = 'banker' AND NOT {ca} "
                f"THEN {amount} * 0.05 ELSE 0 END)",
                "fee": f"(CASE WHEN {ca} THEN 1 ELSE 0 END)",
            },
            "FROM tablegame_wager tpl, tablegame_round r "
            "JOIN tablegame_table t ON t.id = r.table_id "
            "CROSS JOIN (VALUES (1, 'banker', 100, 1), (2, 'player', 50, 1), (3, 'tie', 10, 8)) "
            "v(seat, type, base, pays) "
            "WHERE tpl.id = %(tpl)s AND r.table_id = ANY(%(tables)s)",
            tables=ids, tpl=tpl["wager"],
        )  # fmt: skip
        action = (
            "(CASE w.result WHEN 'win' THEN 'pay' WHEN 'lose' THEN 'collect' ELSE 'return' END)"
        )
        step_amount = "(CASE w.result WHEN 'win' THEN w.payout ELSE w.amount END)"
        steps = _copy(
            cursor,
            SettlementStep,
            {"round_id": "w.round_id", "index": "w.seat + 1", "phase": "'round'",
             "action": action, "seat": "w.seat", "wager_type": "w.type", "amount": step_amount},
            "FROM tablegame_settlementstep tpl, tablegame_wager w "
            "JOIN tablegame_round r ON r.id = w.round_id "
            "WHERE tpl.id = %(tpl)s AND r.table_id = ANY(%(tables)s)",
            tables=ids, tpl=tpl["step"],
        )  # fmt: skip
        steps += _copy(
            cursor,
            SettlementStep,
            {"round_id": "w.round_id", "index": "w.seat + 10", "phase": "'round'",
             "action": "'collect_vigorish'", "seat": "w.seat", "wager_type": "w.type",
             "amount": "w.vigorish"},
            "FROM tablegame_settlementstep tpl, tablegame_wager w "
            "JOIN tablegame_round r ON r.id = w.round_id "
            "WHERE tpl.id = %(tpl)s AND r.table_id = ANY(%(tables)s) AND w.vigorish > 0",
            tables=ids, tpl=tpl["step"],
        )  # fmt: skip
        steps += _copy(
            cursor,
            SettlementStep,
            {"round_id": "w.round_id", "index": "w.seat + 20", "phase": "'fees'",
             "action": "'collect_fee'", "seat": "w.seat", "wager_type": "w.type",
             "amount": "w.fee"},
            "FROM tablegame_settlementstep tpl, tablegame_wager w "
            "JOIN tablegame_round r ON r.id = w.round_id "
            "WHERE tpl.id = %(tpl)s AND r.table_id = ANY(%(tables)s) AND w.fee > 0",
            tables=ids, tpl=tpl["step"],
        )  # fmt: skip
        cursor.execute("ANALYZE tablegame_round, tablegame_wager, tablegame_settlementstep")
    print(f"generated: {tables} tables, {shoes} shoes, {rounds} rounds, {wagers} wagers, ", end="")
    print(f"{steps} steps")
    return casino


#: The events of a round, in order (the noise the day's decisions are found among): two wagers
#: placed (the third rides on the first's event in this count), no more bets, four cards, settled.
ROUND_EVENTS = (
    "wager_placed", "wager_placed", "no_more_bets", "card_dealt", "card_dealt", "card_dealt",
    "card_dealt", "round_settled",
)  # fmt: skip
#: One void round in this many.
VOID_EVERY = 2000
#: One decision in this many rounds, of a kind drawn in turn from ``_decisions()``.
DECISION_EVERY = 3000


def _decisions() -> list[tuple[str, str]]:
    """The decisions the bench records, as (kind, data) of their payloads."""
    import json

    from baccarat.outcome import Hand
    from baccarat.wagertypes import WagerType
    from tablegame import events as ev

    payloads = (
        ev.CardCorrected(round=1, position=2, hand=Hand.BANKER, entered="8C", card="9C",
                         approved_by="bench-accounting", reason="Keyed 8"),
        ev.LimitSet(wager=WagerType.BANKER, minimum=Decimal(25), maximum=Decimal(5000),
                    reason="High roller"),
        ev.RecutOrdered(shoe=1, reason="The cut card went in crooked"),
        ev.SeatsSet(seats=6, before=7, reason="Seat 7 broken"),
        ev.ShoePassed(seat=1, ordered=True, reason="Slow play, floor's call"),
        ev.CardsRelinquished(round=1, hand=Hand.PLAYER, seat=1, now=None),
    )  # fmt: skip
    return [(p.kind.value, json.dumps(p.as_data())) for p in payloads]


#: The settlement events, as settling writes them (``tablegame.events.RoundSettled``,
#: ``RoundVoid``): every wager and step of the round, so that the close's check of the day's
#: play against the record (``tablegame.verification``) has the whole day to read.
_STEPS = (
    "COALESCE((SELECT jsonb_agg(jsonb_build_object('action', st.action, 'seat', st.seat, "
    "'wager', NULLIF(st.wager_type, ''), 'amount', st.amount::text, 'phase', st.phase) "
    'ORDER BY st."index") FROM tablegame_settlementstep st WHERE st.round_id = r.id), '
    "'[]'::jsonb)"
)
SETTLED_DATA = (
    "jsonb_build_object('round', r.number, 'winner', r.winner, 'player_total', r.player_total, "
    "'banker_total', r.banker_total, 'tags', '[]'::jsonb, 'announcement', '', "
    f"'steps', {_STEPS}, 'wagers', COALESCE((SELECT jsonb_agg(jsonb_build_object("
    "'seat', w.seat, 'wager', w.type, 'result', w.result, 'payout', w.payout::text, "
    "'vigorish', w.vigorish::text, 'returned', w.returned::text, 'ridden', w.ridden::text, "
    "'fee', w.fee::text, 'award', NULLIF(w.award, ''), 'ride', NULLIF(w.ride, ''), "
    "'amount', w.amount::text)) FROM tablegame_wager w WHERE w.round_id = r.id), '[]'::jsonb))"
)
VOID_DATA = f"jsonb_build_object('round', r.number, 'reason', r.void_reason, 'steps', {_STEPS})"


def generate_record(casino: Any, user: Any) -> dict[str, int]:
    """A void round in every ``VOID_EVERY`` (its wagers stay as generated: no figure reads a void
    round's wagers), and the day's record at the bench casino's tables: ``ROUND_EVENTS`` per
    round, a decision
    in every ``DECISION_EVERY`` rounds, and at the big tables the shoe passed by the rules
    whenever Banker did not win (about half their rounds: no decision, and out of the index).
    Hash columns hold generated values (nothing here verifies the chains); each round has ten
    sequence numbers of its table's chain (the eight, a decision, a pass)."""
    from django.db import connection

    from tablegame.models import Table

    tables = list(Table.objects.filter(pit__casino=casino).values_list("pk", flat=True))
    kinds = _decisions()
    made: dict[str, int] = {}
    rounds = (
        "FROM tablegame_round r JOIN tablegame_table t ON t.id = r.table_id "
        "JOIN tablegame_shoe sh ON sh.id = r.shoe_id "
    )
    k = f"((sh.number - 1) * {ROUNDS_PER_SHOE} + r.number)"
    columns = "chain_id, sequence, actor_id, action, data, created_at, prev_hash, hash"
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE tablegame_round r SET state = 'void', void_reason = 'Card dropped' "
            "WHERE r.table_id = ANY(%(tables)s) AND abs(hashtext(r.id::text || ':v')) %% %(n)s = 0",
            {"tables": tables, "n": VOID_EVERY},
        )
        made["voids"] = cursor.rowcount
        # A void round's wagers are returned: its steps, as the void writes them.
        cursor.execute(
            "DELETE FROM tablegame_settlementstep st USING tablegame_round r "
            "WHERE st.round_id = r.id AND r.state = 'void' AND r.table_id = ANY(%(tables)s)",
            {"tables": tables},
        )
        cursor.execute(
            "INSERT INTO tablegame_settlementstep "
            '(round_id, "index", phase, action, seat, wager_type, amount) '
            "SELECT w.round_id, row_number() OVER (PARTITION BY w.round_id ORDER BY w.seat DESC, "
            "w.type), 'round', 'return', w.seat, w.type, w.amount FROM tablegame_wager w "
            "JOIN tablegame_round r ON r.id = w.round_id "
            "WHERE r.state = 'void' AND r.table_id = ANY(%(tables)s)",
            {"tables": tables},
        )
        cursor.execute(
            f"INSERT INTO casino_event ({columns}) "
            f"SELECT t.chain_id, ({k} - 1) * 10 + j, %(dealer)s, "
            "CASE WHEN j = 8 AND r.state = 'void' THEN 'round_void' "
            "ELSE (%(actions)s::text[])[j] END, "
            "CASE WHEN j <= 2 THEN jsonb_build_object('round', r.number, 'seat', j, "
            "    'wager', (ARRAY['banker', 'player'])[j], 'amount', '100') "
            "  WHEN j = 3 THEN jsonb_build_object('round', r.number) "
            "  WHEN j <= 7 THEN jsonb_build_object('round', r.number, 'position', j - 3, "
            "    'hand', (ARRAY['player', 'banker'])[1 + j %% 2], 'card', '9H') "
            f"  WHEN r.state = 'void' THEN {VOID_DATA} ELSE {SETTLED_DATA} END, "
            "CASE WHEN j = 8 THEN r.settled_at ELSE r.opened_at + make_interval(secs => j * 3) "
            "END, repeat('0', 64), "
            "lpad(to_hex(r.id * 10 + j), 64, '0') "
            f"{rounds} CROSS JOIN generate_series(1, {len(ROUND_EVENTS)}) j "
            "WHERE r.table_id = ANY(%(tables)s)",
            {"dealer": user.pk, "actions": list(ROUND_EVENTS), "tables": tables},
        )
        made["play"] = cursor.rowcount
        cursor.execute(
            f"INSERT INTO casino_event ({columns}) "
            f"SELECT t.chain_id, ({k} - 1) * 10 + 9, %(floor)s, (%(kinds)s::text[])[1 + d.i], "
            "CASE WHEN (%(data)s::jsonb[])[1 + d.i] ? 'round' "
            "  THEN jsonb_set((%(data)s::jsonb[])[1 + d.i], '{round}', to_jsonb(r.number)) "
            "  WHEN (%(kinds)s::text[])[1 + d.i] = 'recut_ordered' "
            "  THEN jsonb_set((%(data)s::jsonb[])[1 + d.i], '{shoe}', to_jsonb(sh.number)) "
            "  ELSE (%(data)s::jsonb[])[1 + d.i] END, "
            "r.opened_at + interval '25 seconds', repeat('0', 64), "
            "lpad(to_hex(r.id * 10 + 9), 64, '0') "
            f"{rounds} CROSS JOIN LATERAL (SELECT abs(hashtext(r.id::text || ':d')) AS h) x "
            "CROSS JOIN LATERAL (SELECT (x.h / %(every)s) %% %(n)s AS i) d "
            "WHERE r.table_id = ANY(%(tables)s) AND x.h %% %(every)s = 0",
            {"floor": user.pk, "kinds": [kind for kind, _ in kinds],
             "data": [data for _, data in kinds], "n": len(kinds), "every": DECISION_EVERY,
             "tables": tables},
        )  # fmt: skip
        made["decisions"] = cursor.rowcount
        passed = '{"seat": 1, "ordered": false, "reason": "Banker\'s hand lost"}'
        cursor.execute(
            f"INSERT INTO casino_event ({columns}) "
            f"SELECT t.chain_id, ({k} - 1) * 10 + 10, NULL, 'shoe_passed', %(passed)s::jsonb, "
            "r.settled_at + interval '1 second', repeat('0', 64), "
            "lpad(to_hex(r.id * 10 + 10), 64, '0') "
            f"{rounds} WHERE r.table_id = ANY(%(tables)s) AND t.profile = 'ma-big' "
            "AND r.winner <> 'banker'",
            {"passed": passed, "tables": tables},
        )
        made["rules' passes"] = cursor.rowcount
        cursor.execute("ANALYZE casino_event, tablegame_round")
    return made


def timed(call: Any, repeat: int) -> tuple[float, Any]:
    call()  # warm-up: the caches of PostgreSQL and of the game math
    best, answer = float("inf"), None
    for _ in range(repeat):
        t0 = time.perf_counter()
        answer = call()
        best = min(best, time.perf_counter() - t0)
    return best, answer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--rounds-per-hour", type=int, default=200)
    parser.add_argument("--hours", type=int, default=24)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--keep", action="store_true", help="reuse the last bench casino")
    args = parser.parse_args()

    import django

    django.setup()
    from django.contrib.auth.models import User
    from django.core.management import call_command
    from django.db import connection

    from accounting.models import GamingDay
    from accounting.reports import _decisions, _voids, day_report, day_rounds
    from accounting.services import close_gaming_day
    from casino.models import Casino, Event
    from tablegame import decisions
    from tablegame.models import Round, Table, WagerTally
    from tablegame.tallies.writes import tally_from_rows

    if connection.vendor != "postgresql":
        sys.exit("bench_accounting: set DATABASE_URL to a PostgreSQL database")
    call_command("migrate", verbosity=0)
    with connection.cursor() as cursor:
        # The generated day is loaded as a restore would be: past the triggers that keep settled
        # play final (tablegame 0013), which only a superuser may do.
        cursor.execute("SET session_replication_role = replica")
    casino = None
    wanted = args.tables * args.rounds_per_hour * args.hours
    if args.keep:
        casino = Casino.objects.filter(name__startswith=f"{CASINO} 1").order_by("-pk").first()
        if casino is not None:
            start, end = casino.gaming_day_bounds(DAY)
            have = Round.objects.filter(table__pit__casino=casino).count()
            casino = casino if have == wanted else None
    if casino is None:
        t0 = time.perf_counter()
        casino = generate(args.tables, args.rounds_per_hour, args.hours)
        print(f"generation took {time.perf_counter() - t0:.1f} s")
    if not Event.objects.filter(chain__table__pit__casino=casino).exists():
        t0 = time.perf_counter()
        user, _ = User.objects.get_or_create(username="bench-accounting")
        made = generate_record(casino, user)
        print(f"record: {', '.join(f'{n} {what}' for what, n in made.items())}", end="")
        print(f" (generated in {time.perf_counter() - t0:.1f} s)")
    start, end = casino.gaming_day_bounds(DAY)
    ids = list(Table.objects.filter(pit__casino=casino).values_list("pk", flat=True))
    california = list(
        Table.objects.filter(pit__casino=casino, profile="ca-commission-free").values_list(
            "pk", flat=True
        )
    )

    t0 = time.perf_counter()
    if WagerTally.objects.filter(table__pit__casino=casino, day=DAY).exists():
        print("tallies: written by an earlier run (--keep)")
    else:  # as the settlements would have written them
        groups, shoes = tally_from_rows(casino, DAY)
        tallied_s = time.perf_counter() - t0
        print(f"tallies: {groups} wager groups, {shoes} shoes, written in {tallied_s:.1f} s")
    GamingDay.objects.filter(casino=casino, day=DAY).update(status="open", summarized_at=None)
    report_s, report = timed(lambda: day_report(casino, DAY), args.repeat)
    assert not report.frozen

    with connection.cursor() as cursor:
        cursor.execute("RESET session_replication_role")
    params = {"tables": ids, "california": california, "start": start, "end": end}
    decision = decisions.predicate("postgresql", "e")
    hand_lists = [sql.replace("{decision}", decision) for sql in HAND_LISTS.values()]

    def hand(statements: list[str]) -> list[Any]:
        rows = []
        with connection.cursor() as cursor:
            for sql in statements:
                cursor.execute(sql, params)
                rows.append(cursor.fetchall())
        return rows

    def lists() -> tuple[Any, Any]:
        return _decisions(ids, start, end), _voids(day_rounds(ids, start, end))

    lists_s, ((corrections, overrides), voids) = timed(lists, args.repeat)
    hand_lists_s, (decided, voided) = timed(lambda: hand(hand_lists), args.repeat)
    events = Event.objects.filter(chain__table__pit__casino=casino).count()
    print(
        f"exceptions: {len(corrections)} corrections, {len(overrides)} overrides and "
        f"{len(voids)} voids among {events} events of the record; the hand SQL: {len(decided)} "
        f"decisions, {len(voided)} voids"
    )
    assert len(decided) == len(corrections) + len(overrides) and len(voided) == len(voids)
    assert all(line.round_id for line in [*corrections, *overrides, *voids])
    plans = {
        "decisions": decisions.decided(ids, start, end).explain(),
        "voids": day_rounds(ids, start, end).filter(state="void").explain(),
    }
    for name, index in (("decisions", decisions.INDEX), ("voids", "round_void")):
        assert index in plans[name], plans[name]
        read = next(line for line in plans[name].splitlines() if index in line)
        print(f"plan of the {name}: {read.strip().removeprefix('->  ')}")

    hand_s, rows = timed(lambda: hand([*HAND_SQL.values(), *hand_lists]), args.repeat)
    total = report.total
    hand_rounds = sum(r[1] for r in rows[1])
    print(
        f"day: {args.tables} tables x {args.rounds_per_hour} rounds/h x {args.hours} h = "
        f"{total.rounds} rounds ({hand_rounds} by the hand SQL), {total.wagers} wagers"
    )
    print(
        f"report: drop {total.drop}, win {total.win}, hold {total.hold}%, "
        f"wager-tracked {total.tracked}, theoretical {total.theoretical}"
    )
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"machine: {os.cpu_count()} cores, load average {load} (others' work shares them)")
    print(f"day_report (every query of the page, from the tallies): {report_s:.2f} s (goal < 10 s)")
    print(f"hand-written SQL aggregate over the raw rows, and lists: {hand_s:.2f} s")
    print(f"ratio: {report_s / hand_s:.2f}x (goal <= 2x)")
    print(f"the exceptions' lists (decisions and voids) of the report: {lists_s:.3f} s")
    print(f"the same lists, hand-written SQL:                         {hand_lists_s:.3f} s")
    print(f"ratio: {lists_s / hand_lists_s:.2f}x")

    t0 = time.perf_counter()
    close_gaming_day(casino, DAY)
    close_s = time.perf_counter() - t0
    closed_s, closed = timed(lambda: day_report(casino, DAY), args.repeat)
    assert closed.frozen and closed.total.tracked == total.tracked
    assert closed.total.theoretical == total.theoretical
    print(f"closing the day (writes its summary):  {close_s:.2f} s")
    print(
        f"day_report of the closed day:         {closed_s:.2f} s (same figures, from the summary)"
    )


if __name__ == "__main__":
    main()
