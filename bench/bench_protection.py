"""Game protection beside the live floor: the floor's latencies with the follower running and
without, how late each round is priced, and how many rounds a second the follower can price.

    DATABASE_URL=... REDIS_URL=... python bench/bench_protection.py \
        [--tables 300] [--seconds 60] [--pairs 3]

1. ``manage.py simulate`` at ``--tables`` tables, real pace, without the follower;
2. the same with ``manage.py protect`` running beside it (as ``make run`` and compose run it),
   and, from the record, how long after each round's event the follower priced it
   (``Edge.priced_at`` less the event's ``created_at``);
3. the same without the follower again, and 2 and 3 again ``--pairs`` times in all: a floor's
   runs drift from one to the next on a shared machine (a later run is slower: the record has
   grown, the cores' speed changes), so each run with the follower is judged against the mean
   of the runs without it before and after it (the follower brought up to date before each run
   with it, not measured: it measures its steady pace, not a backlog);
4. catch-up: the follower's state put back as it was before run 2 and the edges of run 2 taken
   out, then every table read again as fast as it goes (``follower.follow``, 200 tables a batch):
   rounds priced a second, the follower's capacity on this machine (the issue's goal: 95).

Prints JSON (``--json``) or a Markdown block for ``bench/RESULTS.md`` ("Game protection").
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402
from django.db.models import Max  # noqa: E402
from django.utils import timezone  # noqa: E402

from protection.follower import follow  # noqa: E402
from protection.models import Edge, Follow, PlayerSession, Wagered  # noqa: E402
from protection.worker import BATCH_TABLES  # noqa: E402
from tablegame.models import Table  # noqa: E402


def simulate(tables: int, seconds: float, workers: int) -> dict[str, Any]:
    command = [sys.executable, "manage.py", "simulate", "--tables", str(tables), "--pace", "real"]
    command += ["--seconds", str(seconds), "--workers", str(workers), "--seed", "1", "--json"]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=1800)
    if done.returncode != 0:
        raise SystemExit(f"simulate failed: {done.stderr[-2000:]}")
    report: dict[str, Any] = json.loads(done.stdout)
    return report


def lateness(windows: list[tuple[Any, Any]]) -> dict[str, float]:
    """How long after its event each round was priced, in ms, for the events of the runs with
    the follower (``windows``: each run's start and end; not the rounds of the runs without it,
    read between the runs)."""
    with connection.cursor() as cursor:
        cursor.execute(
            """
            SELECT percentile_cont(ARRAY[0.5, 0.99]) WITHIN GROUP (ORDER BY
                   extract(epoch FROM e.priced_at - ev.created_at) * 1000),
                   max(extract(epoch FROM e.priced_at - ev.created_at) * 1000), count(*)
              FROM protection_edge e
              JOIN tablegame_table t ON t.id = e.table_id
              JOIN casino_event ev ON ev.chain_id = t.chain_id AND ev.sequence = e.sequence
             WHERE EXISTS (SELECT 1 FROM unnest(%s::timestamptz[], %s::timestamptz[]) AS w(s, e)
                            WHERE ev.created_at BETWEEN w.s AND w.e)
            """,
            [[w[0] for w in windows], [w[1] for w in windows]],
        )
        (p50, p99), most, count = cursor.fetchone()
    return {"p50_ms": p50 or 0.0, "p99_ms": p99 or 0.0, "max_ms": most or 0.0, "rounds": count}


def catch_up(before: list[dict[str, Any]], since: Any) -> dict[str, float]:
    """Put the follows back as ``before``, take out the edges priced since ``since``, and read
    every table again as fast as it goes."""
    Edge.objects.filter(priced_at__gte=since).delete()
    Wagered.objects.filter(settled_at__gte=since).delete()
    PlayerSession.objects.filter(seated_at__gte=since).delete()
    Follow.objects.all().delete()
    Follow.objects.bulk_create([Follow(**row) for row in before])
    ids = list(Table.objects.order_by("pk").values_list("pk", flat=True))
    began = time.perf_counter()
    priced = events = 0
    for start in range(0, len(ids), BATCH_TABLES):
        progress = follow(ids[start : start + BATCH_TABLES])
        priced += progress.priced
        events += progress.events
    seconds = time.perf_counter() - began
    return {
        "rounds": priced,
        "events": events,
        "seconds": seconds,
        "rounds_per_second": priced / seconds if seconds else 0.0,
    }


def read_all() -> None:
    """Every table read up to its last event (between runs, not measured)."""
    ids = list(Table.objects.order_by("pk").values_list("pk", flat=True))
    for start in range(0, len(ids), BATCH_TABLES):
        follow(ids[start : start + BATCH_TABLES])


def differences(runs: list[tuple[bool, dict[str, Any]]]) -> dict[str, Any]:
    """Each run with the follower against the mean of the runs without it just before and
    after (the drift between runs cancels to first order): its command p99 less theirs."""
    deltas = []
    for i, (on, report) in enumerate(runs):
        if not on:
            continue
        around = [runs[j][1]["command_latency"]["p99"] for j in (i - 1, i + 1)]
        deltas.append(report["command_latency"]["p99"] - sum(around) / 2)
    return {
        "p99_ms": deltas,
        "median_p99_ms": statistics.median(deltas) if deltas else None,
        "spread_without_ms": _spread_without(runs),
    }


def _spread_without(runs: list[tuple[bool, dict[str, Any]]]) -> float:
    """How far apart the runs without the follower are (p99, largest less smallest): the noise
    a difference must stand above."""
    p99s = [float(r["command_latency"]["p99"]) for on, r in runs if not on]
    return max(p99s) - min(p99s)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=300)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--workers", type=int, default=min(4, os.cpu_count() or 1))
    parser.add_argument("--pairs", type=int, default=3, help="runs with the follower")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    floor = (args.tables, args.seconds, args.workers)

    runs: list[tuple[bool, dict[str, Any]]] = [(False, simulate(*floor))]
    before: list[dict[str, Any]] = [dict(row) for row in Follow.objects.values()]
    since = timezone.now()
    windows: list[tuple[Any, Any]] = []
    for _ in range(args.pairs):
        read_all()  # the follower up to date first: each run with it measures its steady pace
        follower = subprocess.Popen(
            [sys.executable, "manage.py", "protect"], cwd=ROOT, stdout=subprocess.DEVNULL
        )
        try:
            began = timezone.now()
            runs.append((True, simulate(*floor)))
            windows.append((began, timezone.now()))
            time.sleep(2 * 0.25 + 1)  # the follower's last batch window, and its transaction
        finally:
            follower.terminate()
            follower.wait(timeout=30)
        runs.append((False, simulate(*floor)))
    late = lateness(windows)
    head = Edge.objects.aggregate(last=Max("priced_at"))["last"]
    capacity = catch_up(before, since)
    figures = {
        "tables": args.tables,
        "seconds": args.seconds,
        "runs": [{"follower": on, **_spreads(report)} for on, report in runs],
        "differences": differences(runs),
        "priced_late": late,
        "last_priced": str(head),
        "catch_up": capacity,
    }
    if args.json:
        print(json.dumps(figures, indent=2))
        return
    print(markdown(figures))


def _spreads(report: dict[str, Any]) -> dict[str, Any]:
    return {
        "rounds_per_second": report["rounds_per_second"],
        "commands_per_second": report["commands_per_second"],
        "command_latency": report["command_latency"],
        "card_to_every_screen": report["card_to_every_screen"],
        "notices_lost": report["notices_lost"],
        "failed_commands": report["failed_commands"],
    }


def markdown(f: dict[str, Any]) -> str:
    def row(n: int, r: dict[str, Any]) -> str:
        c, s = r["command_latency"], r["card_to_every_screen"]
        name = "running" if r["follower"] else "not running"
        return (
            f"| {n} | {name} | {r['rounds_per_second']:.1f} | {r['commands_per_second']:.0f} | "
            f"{c['p50']:.1f} / {c['p99']:.1f} | {s['p50']:.1f} / {s['p99']:.1f} | "
            f"{r['notices_lost']} | {sum(r['failed_commands'].values())} |"
        )

    late, cap, d = f["priced_late"], f["catch_up"], f["differences"]
    return "\n".join(
        [
            f"{f['tables']} tables at real pace, {f['seconds']:.0f} s measured each, in this "
            "order:",
            "",
            "| Run | Follower | rounds/s | commands/s | command p50 / p99 ms | card to every "
            "screen p50 / p99 ms | notices lost | commands failed |",
            "|---|---|---|---|---|---|---|---|",
            *(row(n, r) for n, r in enumerate(f["runs"], start=1)),
            "",
            "Command p99 of each run with the follower less the mean of the runs beside it: "
            + ", ".join(f"{x:+.1f} ms" for x in d["p99_ms"])
            + f" (median {d['median_p99_ms']:+.1f} ms); the runs without it span "
            f"{d['spread_without_ms']:.1f} ms of p99.",
            f"Priced after its event: p50 {late['p50_ms']:.0f} ms, p99 {late['p99_ms']:.0f} ms, "
            f"max {late['max_ms']:.0f} ms ({late['rounds']} rounds).",
            f"Catch-up, as fast as it goes: {cap['rounds']} rounds ({cap['events']} events) in "
            f"{cap['seconds']:.2f} s: **{cap['rounds_per_second']:.0f} rounds a second**.",
        ]
    )


if __name__ == "__main__":
    main()
