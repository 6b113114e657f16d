"""The fault run (issue 28): a floor plays at real pace while its processes are killed and its
PostgreSQL and Redis restarted; nothing may be lost or doubled, and the screens come back.

It starts and owns a PostgreSQL cluster (``--directory``/pg, port 55432) and a Redis (port
56379), never the machine's, the production process shape (gunicorn, uvicorn, a Celery worker
and beat, ``DEBUG=false``), and runs ``manage.py simulate``'s floor with the faults of
``loadsim.faults`` one after another, ``--every`` seconds apart. Then it reads the record and
prints (``--json``) or writes to ``bench/RESULTS.md`` (``--write``) per fault: the bots' taps
attempted, accepted, retried, lost and doubled, and the seconds until each kind of screen was
back (max and p95).

    python bench/faults.py --tables 10 --every 30 --write
    python bench/faults.py --tables 2 --every 12 --rounds-per-hour 1800 --json   # the test's
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import signal
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

from results_file import RESULTS, write_block  # bench/, the script's own directory

if TYPE_CHECKING:
    from loadsim.services import Services

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
BEGIN, END = "<!-- bench/faults.py: begin -->", "<!-- bench/faults.py: end -->"
DATABASE = "baccarat_faults"


def main() -> None:
    parser = argparse.ArgumentParser(description="Kill and restart the floor's parts as it plays.")
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--every", type=float, default=30.0, help="Seconds between two faults.")
    parser.add_argument("--rounds-per-hour", type=float, default=200.0)
    parser.add_argument("--workers", type=int, default=2, help="gunicorn and uvicorn processes.")
    parser.add_argument(
        "--directory", default=str(Path(tempfile.gettempdir()) / "faultpg"), help="The run's own."
    )
    parser.add_argument(
        "--faults",
        default="web worker,socket server,celery worker,celery beat,redis,postgresql",
        help="The faults in turn, by name, separated by commas (default: each once).",
    )
    parser.add_argument("--pg-port", type=int, default=55432, help="Its PostgreSQL's port.")
    parser.add_argument("--redis-port", type=int, default=56379, help="Its Redis' port.")
    parser.add_argument("--seed", type=int, default=28)
    parser.add_argument("--json", action="store_true", help="Print the figures as JSON.")
    parser.add_argument("--write", action="store_true", help="Write them to bench/RESULTS.md.")
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, _stop_now)  # what it started is stopped on the way out
    figures = run(args)
    if args.json:
        print(json.dumps(figures, indent=1))
    else:
        print(_table(figures))
    if args.write:
        write_block(BEGIN, END, _section(figures, args), new_block_first=False)
        print(f"written to {RESULTS.relative_to(ROOT)}", file=sys.stderr)
    problems = figures["problems"]
    if problems:
        print("\n".join(problems), file=sys.stderr)
        sys.exit(1)


def _stop_now(signum: int, frame: object) -> None:
    raise SystemExit(f"stopped by signal {signum}")


def run(args: argparse.Namespace) -> dict[str, Any]:
    from loadsim.services import Services

    directory = Path(args.directory)
    services = Services(directory, pg_port=args.pg_port, redis_port=args.redis_port)
    services.start(DATABASE)
    try:
        # One directory for its database's checkpoints, from run to run: they cover its record.
        checkpoints = directory / "checkpoints"
        os.environ.update(
            DATABASE_URL=services.database_url(DATABASE),
            REDIS_URL=services.redis_url,
            RECORD_CHECKPOINT_DIR=str(checkpoints),
            RECORD_SIGNING_KEY_FILE=str(directory / "record-signing-key.pem"),
            RECORD_CHECKPOINT_SECONDS="5",
            DJANGO_SETTINGS_MODULE="config.settings",
        )
        os.environ.setdefault("SECRET_KEY", "fault-run-" + os.urandom(16).hex())
        import django

        django.setup()
        return _play(args, services)
    finally:
        services.stop()


def _play(args: argparse.Namespace, services: Services) -> dict[str, Any]:
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connections

    from casino import checkpoints
    from loadsim.faults import FaultRun
    from loadsim.run import Options, simulate
    from loadsim.server import production_env
    from loadsim.services import Celery

    call_command("migrate", verbosity=0)
    # The checkpoints of a fresh record: the key made once, the directory the run's own.
    Path(os.environ["RECORD_CHECKPOINT_DIR"]).mkdir(parents=True, exist_ok=True)
    key = Path(os.environ["RECORD_SIGNING_KEY_FILE"])
    if not key.exists():
        checkpoints._generate(key)
    env = production_env(
        os.environ, database_url=os.environ["DATABASE_URL"], secret_key=settings.SECRET_KEY
    )
    directory = Path(args.directory)
    celery = Celery(
        env=env, cwd=ROOT, log=directory / "celery.log", schedule=directory / "celerybeat-schedule"
    )
    faults = FaultRun(
        services=services,
        celery=celery,
        env=env,
        cwd=ROOT,
        socket_workers=args.workers,
        every=args.every,
        faults=[name.strip() for name in args.faults.split(",")],
    )
    celery.start("celery worker")
    celery.start("celery beat")
    try:
        report = simulate(
            Options(
                tables=args.tables,
                pace="real",
                seconds=faults.window,
                workers=args.workers,
                seed=args.seed,
                rounds_per_hour=args.rounds_per_hour,
                accounting_every=0,
                faults=faults,
            ),
            say=lambda line: print(line, file=sys.stderr),
        )
    finally:
        celery.stop()
    connections.close_all()  # this process's, from before the restart
    figures = faults.check()
    written = [p.stat().st_mtime for p in Path(os.environ["RECORD_CHECKPOINT_DIR"]).iterdir()]
    restarted = [r.wall for r in faults.results if r.fault.startswith("celery")]
    # The worker and beat, started again, still checkpoint the record (None: not killed).
    figures["checkpoint_after_celery_restarts"] = (
        bool(written and max(written) > max(restarted)) if restarted else None
    )
    figures.update(
        tables=report.tables_playing,
        rounds=report.rounds,
        commands=report.commands,
        notices_lost=report.notices_lost,
        screens=report.screens,
        screens_refused=report.screens_refused,
        bots_gave_up=report.gave_up,
    )
    figures["problems"] = _problems(figures)
    return figures


def _problems(figures: dict[str, Any]) -> list[str]:
    """What must not happen: each in words."""
    out = []
    for row in [*figures["faults"], {"fault": "before the faults", **figures["before_faults"]}]:
        for what in ("lost", "doubled"):
            if row[what]:
                out.append(f"{row['fault']}: {row[what]} taps {what}")
        if row.get("not_back"):
            out.append(f"{row['fault']}: screens not back: {', '.join(row['not_back'][:5])}")
    if figures["events_of_two_commands"] or figures["events_of_no_command"]:
        out.append(
            f"events of two commands: {figures['events_of_two_commands']}, of none: "
            f"{figures['events_of_no_command']}"
        )
    if figures["rounds_settled_twice"]:
        out.append(f"rounds settled twice: {figures['rounds_settled_twice']}")
    if not figures["verify_record"]:
        out.append(f"verify_record failed: {figures['verify_record_said']}")
    if figures["checkpoint_after_celery_restarts"] is False:
        out.append("no checkpoint written after the Celery worker and beat were started again")
    if figures["bots_gave_up"] or figures["screens_refused"]:
        out.append(
            f"bots gave up: {figures['bots_gave_up']}; refused: {figures['screens_refused']}"
        )
    return out


def _table(figures: dict[str, Any]) -> str:
    lines = [
        "| fault | taps attempted | accepted | retried | lost | doubled | back in (s): "
        "max / p95 per screen |",
        "|---|---:|---:|---:|---:|---:|---|",
    ]
    for row in figures["faults"]:
        back = "; ".join(
            f"{kind} {b['max']:.1f} / {b['p95']:.1f}" for kind, b in row["back_seconds"].items()
        )
        if row["not_back"]:
            back += f"; {len(row['not_back'])} not back"
        lines.append(
            f"| {row['fault']} | {row['attempted']} | {row['accepted']} | {row['retried']} | "
            f"{row['lost']} | {row['doubled']} | {back} |"
        )
    lines += [
        "",
        f"{figures['tables']} tables, {figures['rounds']} rounds settled in the window, "
        f"{figures['commands']} commands; {figures['rounds_settled']} rounds in the record, "
        f"{figures['rounds_settled_twice']} settled twice; events of two commands "
        f"{figures['events_of_two_commands']}, of no command "
        f"{sum(figures['events_of_no_command'].values())}; `verify_record` "
        f"{'passes' if figures['verify_record'] else 'FAILS'}; a checkpoint written after the "
        f"Celery restarts: {_yes(figures['checkpoint_after_celery_restarts'])}.",
    ]
    return "\n".join(lines)


def _yes(done: bool | None) -> str:
    return "not killed" if done is None else "yes" if done else "NO"


def _section(figures: dict[str, Any], args: argparse.Namespace) -> str:
    cpu = next(
        (
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if line.startswith("model name")
        ),
        platform.processor() or "unknown",
    )
    load = " ".join(Path("/proc/loadavg").read_text().split()[:3])
    return "\n".join(
        [
            "## Faults (issue 28)",
            "",
            f"Measured {datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC by "
            f"`python bench/faults.py --tables {args.tables} --every {args.every:g} "
            f"--rounds-per-hour {args.rounds_per_hour:g} --write` on {os.cpu_count()} cores "
            f"({cpu}), load average {load} at the end. In turn, {args.every:g} s apart, while "
            "the bots deal at real pace and every screen listens: `kill -9` of a gunicorn "
            "worker, of the uvicorn socket server (started again on its port), of the Celery "
            "worker and of beat (each started again); Redis killed and started again with every "
            "socket open; PostgreSQL restarted (`pg_ctl restart -m fast`). A tap is a bot's "
            "command (sent again with the same Idempotency-Key when no answer came, as the "
            "tablet does); lost: answered 200 with no command record; doubled: its events also "
            "in another command's. A screen is back when, after the repair, it has heard a "
            "frame and knows each of its tables' sequence as the record had it then. Where a "
            "fault leaves the sockets alone (a web worker, Celery), that is the time until the "
            "next notice of a screen's table, a few seconds at real pace; a kind has at most "
            "as many screens as tables, so with few tables p95 is the worst. Taps not "
            "accepted were answered 503 while PostgreSQL restarted (the bot, as the tablet, "
            "reads the table again); retried: sent again with the same key after no answer "
            "(a kill that cut a request).",
            "",
            _table(figures),
            "",
        ]
    )


if __name__ == "__main__":
    main()
