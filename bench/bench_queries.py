"""SQL queries per command type, counted in-process: one table per bundled profile.

The same dealer bot as ``manage.py simulate`` (``loadsim.dealer``) plays a few rounds
and readies a new shoe at the first simulated table of each profile, through Django's test client
in this process, and ``CaptureQueriesContext`` counts each command's queries (the server cannot
tell its client). Needs ``DATABASE_URL`` (PostgreSQL, migrated). Run:
``python bench/bench_queries.py [--rounds 5] [--profile] [--json]``; with ``--profile``, where each
command's time goes (cProfile in the request's thread; the query capture's own cost included).
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import os
import pstats
import random
import statistics
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from asgiref.sync import sync_to_async  # noqa: E402

from baccarat.profiles import PROFILES  # noqa: E402
from loadsim import floor as floor_db  # noqa: E402
from loadsim.dealer import CommandLog, Dealer, Pace  # noqa: E402
from loadsim.transport import InProcessTransport  # noqa: E402


async def ready_dealers(
    log: CommandLog, seed: int, *, profile: bool = False
) -> tuple[InProcessTransport, list[Dealer]]:
    """A simulated table of each bundled profile, each with its dealer bot at max pace through
    Django's test client in this process, between rounds with a shoe in play."""
    floor = await sync_to_async(floor_db.prepare_floor, thread_sensitive=True)(
        len(PROFILES), tables_per_pit=10
    )
    transport = InProcessTransport(floor.staff.tokens, profile=profile)
    rng = random.Random(seed)

    async def resync(table_id: int) -> floor_db.Situation:
        return await sync_to_async(floor_db.situation, thread_sensitive=True)(table_id)

    dealers = []
    for table in floor.tables:
        dealer = Dealer(
            table,
            transport,
            log,
            random.Random(rng.random()),
            pace=Pace(rng, real=False, rounds_per_hour=200),
            resync=resync,
        )
        await dealer.get_ready(await resync(table.id))
        dealers.append(dealer)
    return transport, dealers


async def count(rounds: int, seed: int, *, profile: bool) -> InProcessTransport:
    """Query counts by command route over ``rounds`` rounds and one new shoe per profile."""
    log = CommandLog()
    transport, dealers = await ready_dealers(log, seed, profile=profile)
    for dealer in dealers:
        for _ in range(rounds):
            await dealer.deal_round()
        await dealer.change_shoe(end=True)
    transport.refusals = log.refusals
    return transport


def hottest(profiler: cProfile.Profile, commands: int, top: int = 15) -> dict[str, list[Any]]:
    """The functions that cost most per command: the project's own by cumulative time (the
    path), and any by their own time (where it is spent)."""
    stats = pstats.Stats(profiler)
    rows = []
    for (filename, line, name), (_, calls, own, cumulative, _) in stats.stats.items():  # type: ignore[attr-defined]
        where = os.path.relpath(filename, ROOT) if filename.startswith(str(ROOT)) else filename
        rows.append(
            {
                "function": f"{where}:{line} {name}",
                "calls per command": calls / commands,
                "own ms per command": 1000 * own / commands,
                "cumulative ms per command": 1000 * cumulative / commands,
                "project": filename.startswith(str(ROOT)) and "/.venv/" not in filename,
            }
        )
    path = sorted((r for r in rows if r["project"]), key=lambda r: -r["cumulative ms per command"])
    spent = sorted(rows, key=lambda r: -r["own ms per command"])
    total = 1000 * stats.total_tt / commands  # type: ignore[attr-defined]
    return {"total ms per command": total, "path": path[:top], "spent": spent[:top]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="Rounds per table (default 5).")
    parser.add_argument("--seed", type=int, default=20261121)
    parser.add_argument(
        "--profile", action="store_true", help="Profile the commands (cProfile, per command)."
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    transport = asyncio.run(count(args.rounds, args.seed, profile=args.profile))
    queries, refusals = transport.queries, transport.refusals
    figures = {
        route: {"count": len(n), "min": min(n), "median": statistics.median(n), "max": max(n)}
        for route, n in sorted(queries.items())
    }
    commands = sum(len(n) for n in queries.values())
    profile = hottest(transport.profiler, commands) if transport.profiler else None
    if args.json:
        print(json.dumps({"queries": figures, "refusals": refusals, "profile": profile}, indent=2))
        return
    print(
        f"queries per command, {len(PROFILES)} tables (one per profile), {args.rounds} rounds each"
    )
    print(f"{'command':28} {'runs':>5} {'min':>5} {'median':>7} {'max':>5}")
    for route, f in figures.items():
        print(f"{route:28} {f['count']:5} {f['min']:5} {f['median']:7} {f['max']:5}")
    for line in refusals:
        print(f"refused: {line}")
    if profile:
        print(f"\nprofiled: {profile['total ms per command']:.1f} ms per command in all")
        for title, key in (("path", "cumulative"), ("spent", "own")):
            print(f"\nms per command, {key}:")
            for r in profile[title]:
                print(f"{r[key + ' ms per command']:8.2f}  {r['function']}")


if __name__ == "__main__":
    main()
