"""The CPU of one command in process: a round's taps through Django's whole request path.

The load simulator's dealer bot (``loadsim.dealer``) plays rounds at max pace at one table of each
bundled profile, in this process (no server, no socket, no query capture), and the request
thread's CPU time (``time.thread_time``: waiting for PostgreSQL is not counted) is summed over the
round's commands (open, wagers, no more bets, cards, House Money, the bank, settle): what the
floor's commands cost the web process, without the network's and the server's own noise (the
figure issue 41 halves). Each request is handed to Django's WSGI handler as gunicorn hands it,
with production's settings (``DEBUG`` off), signed in as the tablet is.

Written against what every version of the product has (the bot, its floor, the API's URLs), so
that one run can time two checkouts: ``--ab OTHER`` runs this file's copy in ``OTHER`` (a
checkout, with its own ``.venv`` or this one's) and here, alternately, each on a database of its
own, and prints both. Needs ``DATABASE_URL`` (PostgreSQL). Run:
``python bench/bench_commands.py [--rounds 30] [--ab ../base --pairs 3]``.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
#: The round's commands, by the start of their route (``/api/tables/<n>/`` cut off).
ROUND_COMMANDS = ("round/",)


def _measure(rounds: int, seed: int, warm: int) -> dict[str, Any]:
    """Play ``warm`` rounds a table, then ``rounds`` measured; the CPU of each round command."""
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    # Production's settings, over plain HTTP on 127.0.0.1 (as ``make bench``'s servers run).
    os.environ.update(
        DEBUG="false", SECRET_KEY="bench-" + "x" * 50, ALLOWED_HOSTS="127.0.0.1",
        SECURE_SSL_REDIRECT="false", SESSION_COOKIE_SECURE="false", CSRF_COOKIE_SECURE="false",
    )  # fmt: skip
    import django

    django.setup()
    from asgiref.sync import sync_to_async
    from django.conf import settings
    from django.contrib.auth.models import User
    from django.core.handlers.wsgi import WSGIHandler
    from django.test import Client
    from django.utils.crypto import get_random_string

    from baccarat.profiles import PROFILES
    from loadsim import floor as floor_db
    from loadsim.dealer import Answer, CommandLog, Dealer, Pace
    from loadsim.transport import InProcessTransport

    spent: dict[str, list[float]] = {}
    measuring = [False]
    handler = WSGIHandler()

    class Timed(InProcessTransport):
        """Each command as a WSGI server hands it to Django (``WSGIHandler``, as gunicorn does),
        signed in as the tablet is (session cookie and CSRF token), its thread's CPU time kept
        per route."""

        def __init__(self, tokens: dict[str, str]) -> None:
            super().__init__(tokens)
            self.signed_in: dict[str, dict[str, str]] = {}

        def _post(self, path: str, body: dict[str, Any], user: str, key: str) -> Answer:
            text = json.dumps(body).encode()
            if user not in self.signed_in:
                self.signed_in[user] = _signed_in(user)
            environ = {
                **self.signed_in[user],
                "REQUEST_METHOD": "POST", "PATH_INFO": path, "SCRIPT_NAME": "",
                "QUERY_STRING": "", "SERVER_NAME": "127.0.0.1", "SERVER_PORT": "80",
                "SERVER_PROTOCOL": "HTTP/1.1", "HTTP_HOST": "127.0.0.1",
                "CONTENT_TYPE": "application/json", "CONTENT_LENGTH": str(len(text)),
                "HTTP_IDEMPOTENCY_KEY": key, "wsgi.input": io.BytesIO(text),
                "wsgi.url_scheme": "http", "wsgi.errors": sys.stderr, "wsgi.version": (1, 0),
                "wsgi.multithread": True, "wsgi.multiprocess": True, "wsgi.run_once": False,
            }  # fmt: skip
            status: list[str] = []

            def start_response(given: str, headers: Any, *_: Any) -> Callable[[bytes], object]:
                status.append(given)
                return lambda _: None

            started = time.thread_time()
            answer = handler(environ, start_response)
            content = b"".join(answer)
            took = time.thread_time() - started
            code = int(status[0].split()[0])
            route = path.split("/", 4)[4]
            if measuring[0] and code == 200 and route.startswith(ROUND_COMMANDS):
                spent.setdefault(route.rstrip("/"), []).append(took)
            if code == 200:
                return Answer(200)
            return Answer(code, content.decode(errors="replace")[:300])

    def _signed_in(username: str) -> dict[str, str]:
        """The cookies and header of ``username``'s tablet: a session, a CSRF token."""
        client = Client()
        client.force_login(User.objects.get(username=username))
        session = client.cookies[settings.SESSION_COOKIE_NAME].value
        token = get_random_string(32)
        return {
            "HTTP_COOKIE": f"{settings.SESSION_COOKIE_NAME}={session}; "
            f"{settings.CSRF_COOKIE_NAME}={token}",
            "HTTP_X_CSRFTOKEN": token,
        }

    async def play() -> None:
        floor = await sync_to_async(floor_db.prepare_floor, thread_sensitive=True)(
            len(PROFILES), tables_per_pit=10
        )
        transport = Timed(floor.staff.tokens)
        rng = random.Random(seed)
        log = CommandLog()

        async def resync(table_id: int) -> Any:
            return await sync_to_async(floor_db.situation, thread_sensitive=True)(table_id)

        dealers = []
        for table in floor.tables:
            dealer = Dealer(
                table, transport, log, random.Random(rng.random()),
                pace=Pace(rng, real=False, rounds_per_hour=200), resync=resync,
            )  # fmt: skip
            await dealer.get_ready(await resync(table.id))
            dealers.append(dealer)
        for phase, count in ((False, warm), (True, rounds)):
            measuring[0] = phase
            for dealer in dealers:
                for _ in range(count):
                    await dealer.deal_round()
        if log.refusals:
            print(f"refused: {log.refusals[:3]}", file=sys.stderr)

    asyncio.run(play())
    every = [t for times in spent.values() for t in times]
    return {
        "commands": len(every),
        "ms per command": 1000 * sum(every) / len(every),
        "by route": {r: 1000 * statistics.mean(t) for r, t in sorted(spent.items())},
    }


def _run_in(checkout: Path, database: str, rounds: int, seed: int, warm: int) -> dict[str, Any]:
    """This file run in ``checkout`` on ``database`` (made and migrated if missing)."""
    python = checkout / ".venv" / "bin" / "python"
    if not python.exists():
        python = Path(sys.executable)
    env = {**os.environ, "DATABASE_URL": database}
    made = subprocess.run(
        [str(python), "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=checkout, env=env, capture_output=True, text=True,
    )  # fmt: skip
    if made.returncode:
        raise SystemExit(made.stderr)
    script = checkout / "bench" / "bench_commands.py"
    if not script.exists():  # an older checkout: this file's copy, run there
        script = checkout / ".bench_commands.py"
        script.write_text(Path(__file__).read_text())
    done = subprocess.run(
        [str(python), str(script), "--rounds", str(rounds), "--seed", str(seed),
         "--warm", str(warm), "--json", "--root", str(checkout)],
        cwd=checkout, env=env, capture_output=True, text=True,
    )  # fmt: skip
    if done.returncode:
        raise SystemExit(done.stderr)
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def _database(url: str, name: str) -> str:
    """``url`` with the database ``name``, made if missing."""
    base, _, _ = url.rpartition("/")
    import psycopg

    with psycopg.connect(f"{base}/postgres", autocommit=True) as admin:
        if not admin.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            admin.execute(f'CREATE DATABASE "{name}"')
    return f"{base}/{name}"


def main() -> None:
    global ROOT
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=30, help="Measured rounds a table.")
    parser.add_argument("--warm", type=int, default=3, help="Rounds a table before measuring.")
    parser.add_argument("--seed", type=int, default=20261207)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--root", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--ab", type=Path, help="Another checkout to time against this one.")
    parser.add_argument("--pairs", type=int, default=3, help="With --ab: runs of each.")
    args = parser.parse_args()
    if args.root:
        ROOT = args.root.resolve()
    if args.ab is None:
        result = _measure(args.rounds, args.seed, args.warm)
        if args.json:
            print(json.dumps(result))
            return
        print(f"{result['commands']} round commands: {result['ms per command']:.2f} ms CPU each")
        for route, ms in result["by route"].items():
            print(f"  {route:32} {ms:6.2f} ms")
        return
    url = os.environ["DATABASE_URL"]
    sides = {
        "other": (args.ab.resolve(), _database(url, "baccarat_bench_cmd_other")),
        "this": (ROOT, _database(url, "baccarat_bench_cmd_this")),
    }
    figures: dict[str, list[float]] = {"other": [], "this": []}
    for pair in range(args.pairs):
        for side in ("other", "this") if pair % 2 == 0 else ("this", "other"):
            checkout, database = sides[side]
            result = _run_in(checkout, database, args.rounds, args.seed + pair, args.warm)
            figures[side].append(result["ms per command"])
            print(f"{side:5} {checkout}: {result['ms per command']:.2f} ms CPU per round command "
                  f"({result['commands']} commands)", flush=True)  # fmt: skip
    other, this = statistics.median(figures["other"]), statistics.median(figures["this"])
    print(f"median: other {other:.2f} ms, this {this:.2f} ms: this is {this / other:.2f} of other")


if __name__ == "__main__":
    main()
