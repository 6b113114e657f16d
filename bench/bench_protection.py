"""Game protection beside the live floor: the floor's latencies with the follower running and
without, how late each round is priced, and how many rounds a second the follower can price.

    DATABASE_URL=... REDIS_URL=... python bench/bench_protection.py [--tables 300] [--seconds 60]

1. ``manage.py simulate`` at ``--tables`` tables, real pace, without the follower;
2. the same with ``manage.py protect`` running beside it (as ``make run`` and compose run it),
   and, from the record, how long after each round's event the follower priced it
   (``Edge.priced_at`` less the event's ``created_at``);
3. the same without the follower again: a floor's runs drift from one to the next on a shared
   machine (a later run is slower: the record has grown, the cores' speed changes), so the run
   with the follower is judged against the runs before and after it;
4. catch-up: the follower's state put back as it was before run 2 and the edges of run 2 taken
   out, then every table read again as fast as it goes (``follower.follow``, 200 tables a batch):
   rounds priced a second, the follower's capacity on this machine (the issue's goal: 95).

Prints JSON (``--json``) or a Markdown block for ``bench/RESULTS.md`` ("Game protection").
"""

from __future__ import annotations

import argparse
import json
import os
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


def lateness(since: Any) -> dict[str, float]:
    """How long after its event each round was priced, in ms, for the events since ``since``
    (the rounds of the run with the follower; not the backlog it read on starting)."""
    with connection.cursor() as cursor:
        cursor.execute(
            """
            SELECT percentile_cont(ARRAY[0.5, 0.99]) WITHIN GROUP (ORDER BY
                   extract(epoch FROM e.priced_at - ev.created_at) * 1000),
                   max(extract(epoch FROM e.priced_at - ev.created_at) * 1000), count(*)
              FROM protection_edge e
              JOIN tablegame_table t ON t.id = e.table_id
              JOIN casino_event ev ON ev.chain_id = t.chain_id AND ev.sequence = e.sequence
             WHERE e.priced_at >= %s AND ev.created_at >= %s
            """,
            [since, since],
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=300)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--workers", type=int, default=min(4, os.cpu_count() or 1))
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    without = simulate(args.tables, args.seconds, args.workers)
    before = list(Follow.objects.values())
    since = timezone.now()
    follower = subprocess.Popen(
        [sys.executable, "manage.py", "protect"], cwd=ROOT, stdout=subprocess.DEVNULL
    )
    try:
        with_it = simulate(args.tables, args.seconds, args.workers)
        time.sleep(2 * 0.25 + 1)  # the follower's last batch window, and its transaction
    finally:
        follower.terminate()
        follower.wait(timeout=30)
    late = lateness(since)
    head = Edge.objects.aggregate(last=Max("priced_at"))["last"]
    after = simulate(args.tables, args.seconds, args.workers)
    capacity = catch_up(before, since)
    figures = {
        "tables": args.tables,
        "seconds": args.seconds,
        "without": _spreads(without),
        "with": _spreads(with_it),
        "without_after": _spreads(after),
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
    def row(name: str, r: dict[str, Any]) -> str:
        c, s = r["command_latency"], r["card_to_every_screen"]
        return (
            f"| {name} | {r['rounds_per_second']:.1f} | {r['commands_per_second']:.0f} | "
            f"{c['p50']:.1f} / {c['p99']:.1f} | {s['p50']:.1f} / {s['p99']:.1f} | "
            f"{r['notices_lost']} | {sum(r['failed_commands'].values())} |"
        )

    late, cap = f["priced_late"], f["catch_up"]
    return "\n".join(
        [
            f"{f['tables']} tables at real pace, {f['seconds']:.0f} s measured each:",
            "",
            "| Follower | rounds/s | commands/s | command p50 / p99 ms | card to every screen "
            "p50 / p99 ms | notices lost | commands failed |",
            "|---|---|---|---|---|---|---|",
            row("not running", f["without"]),
            row("running", f["with"]),
            row("not running, after", f["without_after"]),
            "",
            f"Priced after its event: p50 {late['p50_ms']:.0f} ms, p99 {late['p99_ms']:.0f} ms, "
            f"max {late['max_ms']:.0f} ms ({late['rounds']} rounds).",
            f"Catch-up, as fast as it goes: {cap['rounds']} rounds ({cap['events']} events) in "
            f"{cap['seconds']:.2f} s: **{cap['rounds_per_second']:.0f} rounds a second**.",
        ]
    )


if __name__ == "__main__":
    main()
