"""Run every benchmark: ``make bench``. Writes what it measured to ``bench/RESULTS.md``.

Without services: the rules engine's (``bench_enumeration.py``, ``bench_gamemath.py``). With
PostgreSQL and Redis (``DATABASE_URL``, ``REDIS_URL``; ``make bench`` gives a database of its own,
made and migrated here if missing), also:

- the machine's own limits, in the same run: pgbench's single-row commits a second (4 clients, on
  a scratch database) and ``redis-benchmark``'s PUBLISH a second (4 clients);
- SQL queries per command type (``bench_queries.py``);
- the load sweep: ``manage.py simulate`` at each size of ``--sweep`` at real pace for
  ``--seconds``, then ``--max-tables`` tables as fast as the server answers.

    python bench/run.py [--sweep 25,100,300] [--seconds 60] [--max-tables 4] [--workers 1]
    python bench/run.py --quick      # 5 and 10 tables for 15 s: checks the bench itself

Only 127.0.0.1 is ever contacted; every step has a time limit. ``RESULTS.md`` keeps whatever is
written outside the part this script writes (between its two marker lines).
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import io
import json
import math
import os
import platform
import re
import runpy
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from results_file import RESULTS, write_block  # bench/, the script's own directory

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
BEGIN, END = "<!-- make bench: begin -->", "<!-- make bench: end -->"
#: The goal of issue 10: every screen within this of the card, with nothing lost.
GOAL_MS = 100.0
#: The longest one simulation may take, setup included (a first run makes every table ready).
RUN_LIMIT_SECONDS = 1800


def main() -> None:
    parser = argparse.ArgumentParser(description="Run every benchmark; write bench/RESULTS.md.")
    parser.add_argument("--sweep", default="25,100,300", help="Table counts at real pace.")
    parser.add_argument("--seconds", type=float, default=60.0, help="Measured window of each.")
    parser.add_argument("--max-tables", type=int, default=4, help="Tables at max pace (0: none).")
    parser.add_argument("--max-seconds", type=float, default=30.0)
    parser.add_argument(
        "--server", default="gunicorn+uvicorn", help="gunicorn+uvicorn, uvicorn or daphne."
    )
    parser.add_argument(
        "--workers", type=int, default=min(4, os.cpu_count() or 1), help="Server processes."
    )
    parser.add_argument(
        "--auth", default="session", help="How the bots sign in: session (as the tablet) or token."
    )
    parser.add_argument("--quick", action="store_true", help="5 and 10 tables for 15 s.")
    parser.add_argument("--no-write", action="store_true", help="Print only; keep RESULTS.md.")
    args = parser.parse_args()
    if args.quick:
        args.sweep, args.seconds, args.max_tables, args.max_seconds = "5,10", 15.0, 2, 10.0

    sections = [_machine(), _engine()]
    database, redis = os.environ.get("DATABASE_URL", ""), os.environ.get("REDIS_URL", "")
    if not database.startswith("postgres") or not redis:
        sections.append(
            "## The live floor\n\nNot measured: set DATABASE_URL (PostgreSQL) and REDIS_URL, "
            "as `make bench` does.\n"
        )
    else:
        _prepare_database(database)
        baselines = _baselines(database, redis)
        sections.append(_queries())
        runs = [
            _simulate(int(n), "real", args.seconds, args.server, args.workers, args.auth)
            for n in args.sweep.split(",")
            if n.strip()
        ]
        if args.max_tables:
            runs.append(
                _simulate(
                    args.max_tables, "max", args.max_seconds, args.server, args.workers, args.auth
                )
            )
        sections.insert(2, _floor(runs, baselines, args.server, args.workers, args.auth))
    text = "\n".join(sections)
    print(text)
    if not args.no_write:
        write_block(BEGIN, END, text, new_block_first=True)
        print(f"written to {RESULTS.relative_to(ROOT)}")


# -- the machine and the engine ------------------------------------------------------------


def _machine() -> str:
    cpu = next(
        (
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if line.startswith("model name")
        ),
        platform.processor() or "unknown",
    )
    memory_kb = int(Path("/proc/meminfo").read_text().split()[1])
    commit = _output(["git", "rev-parse", "--short", "HEAD"]) or "unknown"
    # The results file itself, written by the run before, is not a change to the code measured.
    status = _output(["git", "status", "--porcelain", "--", ".", ":!bench/RESULTS.md"])
    dirty = " with uncommitted changes" if status else ""
    postgres = _output(["postgres", "--version"]) or _output(["psql", "--version"]) or "?"
    redis = (_output(["redis-server", "--version"]) or "?").split(" sha=")[0]
    load = " ".join(Path("/proc/loadavg").read_text().split()[:3])
    return "\n".join(
        [
            "# Benchmarks",
            "",
            f"Measured {datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC by `make bench` "
            f"(`bench/run.py`) at commit {commit}{dirty}.",
            "",
            f"- machine: {os.cpu_count()} cores ({cpu}), {memory_kb / 1024 / 1024:.1f} GiB memory, "
            f"{platform.system()} {platform.release()}",
            f"- Python {platform.python_version()}; {postgres}; {redis}",
            f"- load average when the run began: {load} (anything else running on the machine "
            "shares its cores with the server, PostgreSQL, Redis and the load generator)",
            "",
        ]
    )


def _engine() -> str:
    parts = ["## The rules engine", ""]
    for script in ("bench_enumeration.py", "bench_gamemath.py"):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            runpy.run_path(str(HERE / script), run_name="__main__")
        print(f"== {script}\n{out.getvalue()}", file=sys.stderr)
        parts += [f"`{script}`:", "", "```", out.getvalue().rstrip(), "```", ""]
    return "\n".join(parts)


# -- services ------------------------------------------------------------------------------


def _prepare_database(url: str) -> None:
    """Make the bench's database if missing, and migrate it."""
    _create_database(url)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=ROOT,
        check=True,
        timeout=600,
    )


def _create_database(url: str) -> None:
    import psycopg

    parts = urlparse(url)
    name = parts.path.lstrip("/")
    admin = parts._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        if conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            return
        conn.execute(f'CREATE DATABASE "{name}"')


def _baselines(database: str, redis: str) -> dict[str, float]:
    """pgbench's single-row commits a second and Redis's PUBLISH a second, measured now."""
    parts = urlparse(database)
    scratch = f"{parts.path.lstrip('/')}_pgbench"
    _create_database(parts._replace(path=f"/{scratch}").geturl())
    connect = ["-h", parts.hostname or "127.0.0.1", "-p", str(parts.port or 5432)]
    connect += ["-U", parts.username or "postgres"]
    env = {**os.environ, "PGPASSWORD": parts.password or ""}
    out: dict[str, float] = {}
    subprocess.run(
        ["pgbench", "-i", "-q", "-s", "1", *connect, scratch],
        env=env,
        check=True,
        capture_output=True,
        timeout=300,
    )
    with tempfile.NamedTemporaryFile("w", suffix=".sql", delete=False) as script:
        script.write(
            "\\set aid random(1, 100000)\n"
            "INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) "
            "VALUES (1, 1, :aid, 1, now());\n"
        )
    try:
        run = subprocess.run(
            [
                "pgbench",
                "-n",
                "-c",
                "4",
                "-j",
                "2",
                "-T",
                "5",
                "-f",
                script.name,
                *connect,
                scratch,
            ],
            env=env,
            check=True,
            capture_output=True,
            text=True,
            timeout=120,
        )
    finally:
        os.unlink(script.name)
    tps = re.search(r"tps = ([\d.]+)", run.stdout)
    out["pgbench commits/s"] = float(tps.group(1)) if tps else math.nan
    r = urlparse(redis)
    publish = ["-c", "4", "-n", "100000", "-q", "PUBLISH", "bench.publish", "a-notice"]
    run = subprocess.run(
        ["redis-benchmark", "-h", r.hostname or "127.0.0.1", "-p", str(r.port or 6379), *publish],
        check=True,
        capture_output=True,
        text=True,
        timeout=120,
    )
    rate = re.findall(r"([\d.]+) requests per second", run.stdout)
    out["redis PUBLISH/s"] = float(rate[-1]) if rate else math.nan
    print(f"baselines: {out}", file=sys.stderr)
    return out


def _queries() -> str:
    run = subprocess.run(
        [sys.executable, str(HERE / "bench_queries.py"), "--profile", "--json"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
        timeout=900,
    )
    data = json.loads(run.stdout)
    lines = [
        "## Queries per command",
        "",
        "SQL queries each command made, counted in-process (`bench/bench_queries.py`: the "
        "simulation's dealer bot through Django's test client, one table per bundled profile, "
        "5 rounds and a new shoe each).",
        "",
        "| command | runs | min | median | max |",
        "|---|---:|---:|---:|---:|",
    ]
    for route, f in data["queries"].items():
        lines.append(f"| `{route}` | {f['count']} | {f['min']} | {f['median']:g} | {f['max']} |")
    lines += [f"\nRefused: {r}" for r in data["refusals"]]
    profile = data.get("profile")
    if profile:
        lines += [
            "",
            "## Where a command's time goes",
            "",
            "The same commands profiled (cProfile of the request thread's CPU time, Django's test "
            "client: no server, and the query capture's and the profiler's own cost included, "
            "which inflate many small calls): "
            f"{profile['total ms per command']:.1f} ms of Python per command in all.",
            "",
            "The project's functions by cumulative time (the hot path), ms per command:",
            "",
            "| ms | function |",
            "|---:|---|",
            *(
                f"| {r['cumulative ms per command']:.2f} | `{r['function']}` |"
                for r in profile["path"]
            ),
            "",
            "Any function by its own time (where the time is spent), ms per command:",
            "",
            "| ms | function |",
            "|---:|---|",
            *(f"| {r['own ms per command']:.2f} | `{r['function']}` |" for r in profile["spent"]),
        ]
    return "\n".join(lines) + "\n"


# -- the floor -----------------------------------------------------------------------------


def _simulate(
    tables: int, pace: str, seconds: float, server: str, workers: int, auth: str
) -> dict[str, Any]:
    command = [sys.executable, "manage.py", "simulate", "--tables", str(tables), "--pace", pace]
    command += ["--seconds", str(seconds), "--server", server, "--workers", str(workers)]
    command += ["--auth", auth]
    command += ["--seed", "1", "--json"]
    print(f"== simulate {tables} tables, {pace} pace, {seconds:.0f} s", file=sys.stderr)
    core_ms = _core_speed()
    began = time.monotonic()
    with subprocess.Popen(
        command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    ) as run:
        try:
            stdout, stderr = run.communicate(timeout=RUN_LIMIT_SECONDS)
        except subprocess.TimeoutExpired:
            run.terminate()  # SIGTERM: it stops its server before it goes
            run.communicate(timeout=60)
            return {"tables": tables, "pace": pace, "error": f"over {RUN_LIMIT_SECONDS} s"}
    sys.stderr.write(stderr[-3000:])
    if run.returncode != 0:
        return {"tables": tables, "pace": pace, "error": stderr.strip().splitlines()[-1:]}
    report: dict[str, Any] = json.loads(stdout)
    report["wall_seconds"] = time.monotonic() - began
    report["core_reference_ms"] = core_ms
    return report


def _core_speed() -> float:
    """Milliseconds of the engine's plain-Python reference (``bench_enumeration``'s, on the same
    shoe), the best of three, timed in a process of its own just before a run: how fast the
    cores are then. A virtual machine's cores change speed with its neighbours' load (seen
    here: 84 to 257 ms from one day to the next, and a third slower within an hour), and the
    server's CPU per command follows them."""
    probe = "from bench.bench_enumeration import reference_seconds as r; print(1000 * r(3))"
    out = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    try:
        return float(out.stdout.strip())
    except ValueError:
        return math.nan


def _servers(server: str, workers: int) -> str:
    processes = f"{workers} process{'es' if workers > 1 else ''}"
    if server == "gunicorn+uvicorn":
        return (
            f"gunicorn ({processes} of 4 threads, WSGI) while the sockets are on uvicorn "
            f"({processes}, ASGI), as docker-compose.yml runs them"
        )
    return f"{server} ({processes})"


def _floor(
    runs: list[dict[str, Any]], baselines: dict[str, float], server: str, workers: int, auth: str
) -> str:
    signed_in = (
        "signed in with its session and CSRF token, as the tablet is"
        if auth == "session"
        else "signed in with an API token, as a script is"
    )
    commits, publishes = baselines["pgbench commits/s"], baselines["redis PUBLISH/s"]
    lines = [
        "## The live floor",
        "",
        "`python manage.py simulate --tables N --pace real|max --seconds S`: a dealer bot per "
        "table plays real rounds (random wagers of every type the table offers) over HTTP, "
        f"{signed_in}, straight to {_servers(server, workers)} (production settings, no "
        "proxy in front) while every page a floor has open is open: each table's tablet and "
        "display, each pit's console and progressives page (10 tables a pit, its "
        "floorperson's), the surveillance wall, and accounting reading the day's report every "
        "minute; each page sends the requests its script sends (`loadsim/pages.py`). Real pace "
        "is about 200 rounds an hour per table. Card to every screen: from sending the card to "
        "its notice on the last of its table's five screens. Lost: notices a screen never got, "
        "of those the record says it should have. Page reads: the pages' requests in the "
        "window, a second. CPU per command done; PostgreSQL's and Redis' CPU include anything "
        "else using them at the time.",
        "",
        f"Measured in the same run: pgbench {commits:,.0f} single-row commits/s (4 clients), "
        f"redis-benchmark {publishes:,.0f} PUBLISH/s (4 clients).",
        "",
        "| tables | pace | rounds/s | commands/s | command p50 / p99 ms | card to every screen "
        "p50 / p99 ms | notices lost | not done | page reads/s | CPU ms per command: server / "
        "load gen / PostgreSQL / Redis | commits, % of pgbench | publishes, % of Redis |",
        "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in runs:
        if "error" in r:
            lines.append(f"| {r['tables']} | {r['pace']} | failed: {r['error']} |" + " |" * 9)
            continue
        cpu = r["cpu_ms_per_command"]
        c, k = r["command_latency"], r["card_to_every_screen"]
        per_second = r["commands_per_second"]
        lines.append(
            f"| {r['tables']} | {r['pace']} | {r['rounds_per_second']:.2f} | {per_second:.1f} "
            f"| {c['p50']:.0f} / {c['p99']:.0f} | {k['p50']:.0f} / {k['p99']:.0f} "
            f"| {r['notices_lost']} of {r['notices_expected']} "
            f"| {sum(r['failed_commands'].values())} "
            f"| {r.get('page_reads_per_second', math.nan):.1f} "
            f"| {cpu.get('server', math.nan):.1f} / {cpu.get('load generator', math.nan):.1f} / "
            f"{cpu.get('postgresql', math.nan):.1f} / {cpu.get('redis', math.nan):.2f} "
            f"| {100 * per_second / commits:.2f} % | {100 * 3 * per_second / publishes:.2f} % |"
        )
    lines += [
        "",
        _verdict(runs),
        "",
        "Card to each kind of screen, p50 / p99 ms, and how busy the server and the whole "
        "machine were (CPU seconds per second of the window: the server; the server, the load "
        f"generator, PostgreSQL and Redis; the machine has {os.cpu_count()} cores for "
        "everything), with how fast the cores were just before the run (the engine's "
        "plain-Python reference, one shoe: the lower the faster; the CPU per command follows "
        "it):",
        "",
        "| tables | pace | tablet | display | pit console | progressives page | surveillance "
        "wall | server cores busy | load generator's loop lag p99 ms | machine cores busy | the "
        "cores' speed before the run: plain-Python reference ms |",
        "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in runs:
        if "error" in r:
            continue
        kinds = r["card_to_screen_by_kind"]
        cells = [
            f"{kinds[k]['p50']:.0f} / {kinds[k]['p99']:.0f}" if k in kinds else "-"
            for k in ("tablet", "display", "pit console", "progressives", "surveillance")
        ]
        busy = r["cpu_seconds"].get("server", math.nan) / r["seconds"]
        everything = sum(
            r["cpu_seconds"].get(part, math.nan)
            for part in ("server", "load generator", "postgresql", "redis")
        )
        lines.append(
            f"| {r['tables']} | {r['pace']} | {' | '.join(cells)} | {busy:.2f} "
            f"| {r['loop_lag']['p99']:.1f} | {everything / r['seconds']:.2f} "
            f"| {r.get('core_reference_ms', math.nan):.0f} |"
        )
    lines.append("")
    for r in runs:
        if "error" in r:
            continue
        lines += [
            f"<details><summary>{r['tables']} tables, {r['pace']} pace: every figure</summary>",
            "",
            "```",
            _details(r),
            "```",
            "</details>",
            "",
        ]
    return "\n".join(lines)


def _verdict(runs: list[dict[str, Any]]) -> str:
    real = sorted((r for r in runs if r["pace"] == "real"), key=lambda r: r["tables"])
    held = [r["tables"] for r in real if _holds(r)]
    broke = next((r for r in real if not _holds(r)), None)
    said = (
        f"At real pace the goal (p99 card to every screen under {GOAL_MS:.0f} ms, no notice "
        f"lost, every command done) held up to {max(held)} tables"
        if held
        else f"At real pace the goal (p99 card to every screen under {GOAL_MS:.0f} ms, no notice "
        "lost, every command done) held at none of the sizes measured"
    )
    if broke is None:
        return said + "."
    if "error" in broke:
        return f"{said}; at {broke['tables']} the run failed: {broke['error']}."
    k = broke["card_to_every_screen"]
    return (
        f"{said}; at {broke['tables']} tables the p99 was {k['p99']:.0f} ms, "
        f"{broke['notices_lost']} notices were lost and "
        f"{sum(broke['failed_commands'].values())} commands not done."
    )


def _holds(r: dict[str, Any]) -> bool:
    if "error" in r:
        return False
    p99 = r["card_to_every_screen"]["p99"]
    return (
        r["card_to_every_screen"]["count"] > 0
        and p99 == p99  # not NaN
        and p99 < GOAL_MS
        and r["notices_lost"] == 0
        and not r["failed_commands"]
        and r["tables_playing"] == r["tables"]
    )


def _details(r: dict[str, Any]) -> str:
    keep = {k: v for k, v in r.items() if k not in ("by_route",)}
    routes = "\n".join(
        f"  {route:28} {s['count']:6}x  p50 {s['p50']:7.1f}  p99 {s['p99']:7.1f} ms"
        for route, s in r.get("by_route", {}).items()
    )
    return json.dumps(keep, indent=1, default=str) + "\nby command:\n" + routes


# -- helpers -------------------------------------------------------------------------------


def _output(command: list[str]) -> str:
    try:
        return subprocess.run(
            command, cwd=ROOT, capture_output=True, text=True, timeout=30
        ).stdout.strip()
    except (OSError, subprocess.TimeoutExpired):
        return ""


if __name__ == "__main__":
    main()
