"""The live floor, this checkout against another, in one run on one machine: the largest floor
that holds card to every screen p99 under 100 ms.

At each table count, ``manage.py simulate --pace real`` (a dealer bot per table, every page a
floor has open sending its own requests, gunicorn and uvicorn as docker-compose.yml runs them)
runs in the other checkout, then in this one (then the other way round at the next count), each
on a database and a Redis database of its own, made and migrated here if missing. A floor holds
when its card to every screen p99 is under ``GOAL_MS``, no notice is lost, every command is done
and every table plays (``bench.run``'s verdict). Needs ``DATABASE_URL`` (PostgreSQL) and
``REDIS_URL``. Run: ``python bench/bench_floor_ab.py --ab ../base --tables 50,100,150,200``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

from bench.bench_commands import _database  # noqa: E402
from bench.run import _holds  # noqa: E402

LIMIT_SECONDS = 1800


def _simulate(checkout: Path, database: str, redis: str, tables: int, seconds: float) -> Any:
    python = checkout / ".venv" / "bin" / "python"
    env = {**os.environ, "DATABASE_URL": database, "REDIS_URL": redis}
    subprocess.run(
        [str(python), "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=checkout, env=env, check=True, capture_output=True,
    )  # fmt: skip
    command = [str(python), "manage.py", "simulate", "--tables", str(tables), "--pace", "real"]
    command += ["--seconds", str(seconds), "--seed", "1", "--json"]
    done = subprocess.run(
        command, cwd=checkout, env=env, capture_output=True, text=True, timeout=LIMIT_SECONDS
    )
    if done.returncode:
        return {"tables": tables, "error": done.stderr.strip().splitlines()[-1:]}
    return json.loads(done.stdout)


def _redis(url: str, db: int) -> str:
    return urlunsplit(urlsplit(url)._replace(path=f"/{db}"))


def _row(side: str, r: Any) -> str:
    if "error" in r:
        return f"| {r['tables']} | {side} | failed: {r['error']} | | | | |"
    c, k = r["command_latency"], r["card_to_every_screen"]
    cpu = r["cpu_ms_per_command"].get("server", float("nan"))
    verdict = "holds" if _holds(r) else "does not hold"
    return (
        f"| {r['tables']} | {side} | {c['p50']:.0f} / {c['p99']:.0f} | {k['p50']:.0f} / "
        f"{k['p99']:.0f} | {r['notices_lost']} | {cpu:.2f} | {verdict} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ab", type=Path, required=True, help="The other checkout.")
    parser.add_argument("--tables", default="50,100,150,200", help="Table counts, in order.")
    parser.add_argument("--seconds", type=float, default=45.0, help="Measured window of each.")
    args = parser.parse_args()
    url, redis = os.environ["DATABASE_URL"], os.environ["REDIS_URL"]
    sides = {
        "other": (args.ab.resolve(), _database(url, "baccarat_floor_other"), _redis(redis, 13)),
        "this": (ROOT, _database(url, "baccarat_floor_this"), _redis(redis, 14)),
    }
    print("| tables | checkout | command p50 / p99 ms | card to every screen p50 / p99 ms "
          "| notices lost | server CPU ms per command | under 100 ms |")  # fmt: skip
    print("|---:|---|---:|---:|---:|---:|---|")
    held: dict[str, int] = {"other": 0, "this": 0}
    for i, tables in enumerate(int(n) for n in args.tables.split(",")):
        for side in ("other", "this") if i % 2 == 0 else ("this", "other"):
            checkout, database, channel = sides[side]
            result = _simulate(checkout, database, channel, tables, args.seconds)
            print(_row(side, result), flush=True)
            if "error" not in result and _holds(result):
                held[side] = max(held[side], tables)
    print(f"\nlargest floor holding: other {held['other']}, this {held['this']} tables")


if __name__ == "__main__":
    main()
