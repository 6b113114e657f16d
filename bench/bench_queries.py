"""SQL queries per command type, counted in-process: one table per bundled profile.

The same dealer bot as ``manage.py simulate`` (``tablegame.simulation.dealer``) plays a few rounds
and readies a new shoe at the first simulated table of each profile, through Django's test client
in this process, and ``CaptureQueriesContext`` counts each command's queries (the server cannot
tell its client). Needs ``DATABASE_URL`` (PostgreSQL, migrated). Run:
``python bench/bench_queries.py [--rounds 5] [--json]``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django

django.setup()

from asgiref.sync import sync_to_async  # noqa: E402

from baccarat.profiles import PROFILES  # noqa: E402
from tablegame.simulation import floor as floor_db  # noqa: E402
from tablegame.simulation.dealer import CommandLog, Dealer, Pace  # noqa: E402
from tablegame.simulation.transport import InProcessTransport  # noqa: E402


async def count(rounds: int, seed: int) -> tuple[dict[str, list[int]], list[str]]:
    """Query counts by command route over ``rounds`` rounds and one new shoe per profile."""
    floor = await sync_to_async(floor_db.prepare_floor, thread_sensitive=True)(
        len(PROFILES), tables_per_pit=10
    )
    transport = InProcessTransport(floor.staff.tokens)
    log = CommandLog()
    rng = random.Random(seed)

    async def resync(table_id: int) -> floor_db.Situation:
        return await sync_to_async(floor_db.situation, thread_sensitive=True)(table_id)

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
        for _ in range(rounds):
            await dealer.deal_round()
        await dealer.change_shoe(end=True)
    return dict(transport.queries), log.refusals


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="Rounds per table (default 5).")
    parser.add_argument("--seed", type=int, default=20261121)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    queries, refusals = asyncio.run(count(args.rounds, args.seed))
    figures = {
        route: {"count": len(n), "min": min(n), "median": statistics.median(n), "max": max(n)}
        for route, n in sorted(queries.items())
    }
    if args.json:
        print(json.dumps({"queries": figures, "refusals": refusals}, indent=2))
        return
    print(
        f"queries per command, {len(PROFILES)} tables (one per profile), {args.rounds} rounds each"
    )
    print(f"{'command':28} {'runs':>5} {'min':>5} {'median':>7} {'max':>5}")
    for route, f in figures.items():
        print(f"{route:28} {f['count']:5} {f['min']:5} {f['median']:7} {f['max']:5}")
    for line in refusals:
        print(f"refused: {line}")


if __name__ == "__main__":
    main()
