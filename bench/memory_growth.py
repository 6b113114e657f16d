"""Where a server process's memory goes as it serves commands: the dealer bot (as in
``manage.py simulate``) plays rounds at the bundled profiles' tables through Django's test
client in this process, and tracemalloc compares what is allocated after a warm-up with what is
allocated after many more rounds. Memory that a long-running process keeps growing shows as
the lines that grew; the harness's own bookkeeping (its logs) is left out. Needs
``DATABASE_URL`` (PostgreSQL, migrated). Run: ``python bench/memory_growth.py [--rounds 40]``.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import sys
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from bench_queries import ready_dealers  # noqa: E402

from baccarat.profiles import PROFILES  # noqa: E402
from loadsim.dealer import CommandLog  # noqa: E402

HARNESS = ("loadsim/dealer.py", "loadsim/transport.py", "tracemalloc", "asyncio/")


async def play(rounds: int, warmup: int, seed: int) -> tuple[tracemalloc.Snapshot, ...]:
    log = CommandLog()
    transport, dealers = await ready_dealers(log, seed)
    snapshots = []
    for n in range(rounds):
        if n == warmup or n == rounds - 1:
            log.sent.clear()
            transport.queries.clear()
            gc.collect()
            snapshots.append(tracemalloc.take_snapshot())
        for dealer in dealers:
            await dealer.deal_round()
    return tuple(snapshots)


def owner(traceback: tracemalloc.Traceback) -> str:
    """The project's innermost frame of an allocation, else the package it happened in."""
    for frame in reversed(traceback):  # innermost last in tracemalloc's order
        if str(ROOT) in frame.filename and "/.venv/" not in frame.filename:
            return f"{os.path.relpath(frame.filename, ROOT)}:{frame.lineno}"
    inner = traceback[-1].filename
    return inner.split("site-packages/")[-1].split("/")[0] if "site-packages/" in inner else inner


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=40, help="Rounds per table (default 40).")
    parser.add_argument("--warmup", type=int, default=10)
    parser.add_argument("--seed", type=int, default=20261128)
    args = parser.parse_args()
    tracemalloc.start(8)
    before, after = asyncio.run(play(args.rounds, args.warmup, args.seed))
    keep = [tracemalloc.Filter(False, f"*{h}*") for h in HARNESS]
    grown = after.filter_traces(keep).compare_to(before.filter_traces(keep), "traceback")
    total = sum(s.size_diff for s in grown)
    played = (args.rounds - 1 - args.warmup) * len(PROFILES)
    print(f"{played} rounds after the warm-up: {total / 1024:.0f} KiB more allocated")
    owners: dict[str, int] = {}
    for stat in grown:
        owners[owner(stat.traceback)] = owners.get(owner(stat.traceback), 0) + stat.size_diff
    print("by whose code allocated it (the innermost frame of the project, else of a package):")
    for name, size in sorted(owners.items(), key=lambda item: -item[1])[:15]:
        print(f"{size / 1024:8.1f} KiB  {name}")
    for stat in grown[:12]:
        if stat.size_diff <= 0:
            break
        print(f"{stat.size_diff / 1024:8.1f} KiB in {stat.count_diff:+d} blocks")
        for line in stat.traceback.format()[-8:]:
            print("    " + line)


if __name__ == "__main__":
    main()
