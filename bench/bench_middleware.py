"""What Django's own sessions and authentication middleware would cost a tablet's tap.

``casino.sessions`` reads a tap's session, its user and their role in one statement. Issue 29
asked for it to be measured ("prefer Django's own middleware where the measured cost is small";
its message middleware, whose copy saved about 1 %, is Django's again): a signed-in dealer reads
their table's state (``GET /api/tables/<id>/``, the read every tablet makes after a change it
missed) through Django's test client in this process, under two stacks, interleaved so that the
machine's drift falls on both alike:

- ``ours``: the settings as they are;
- ``django sessions``: Django's database sessions and ``AuthenticationMiddleware`` in place of
  ours: the session, the user and the role each read by a query.

Needs ``DATABASE_URL`` (PostgreSQL); seeds the demo floor if missing. Run:
``python bench/bench_middleware.py [--requests 2000] [--rounds 5]``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client, override_settings  # noqa: E402
from django.test.utils import CaptureQueriesContext, setup_test_environment  # noqa: E402

from tablegame.models import Table  # noqa: E402

OURS = "ours"
DJANGO_SESSIONS = "django sessions"
_REPLACED = {
    "casino.sessions.AuthenticationMiddleware": (
        "django.contrib.auth.middleware.AuthenticationMiddleware"
    ),
}


def stack(name: str) -> dict[str, object]:
    """The settings of the stack ``name``."""
    if name == OURS:
        return {}
    changes: dict[str, object] = {"SESSION_ENGINE": "django.contrib.sessions.backends.db"}
    changes["MIDDLEWARE"] = [_REPLACED.get(m, m) for m in settings.MIDDLEWARE]
    return changes


def signed_in(name: str) -> Client:
    """A dealer's client signed in under the stack ``name`` (its session made by that stack)."""
    client = Client()
    with override_settings(**stack(name)):  # type: ignore[arg-type]
        client.force_login(_dealer())
    return client


def _dealer():  # type: ignore[no-untyped-def]
    from django.contrib.auth.models import User

    return User.objects.get(username="dealer")


def time_requests(name: str, client: Client, url: str, requests: int) -> float:
    """Microseconds per request, over ``requests`` reads of ``url``."""
    with override_settings(**stack(name)):  # type: ignore[arg-type]
        started = time.perf_counter()
        for _ in range(requests):
            response = client.get(url)
        elapsed = time.perf_counter() - started
    assert response.status_code == 200, (name, response.status_code)
    return 1e6 * elapsed / requests


def queries(name: str, client: Client, url: str) -> int:
    """The statements one read of ``url`` sends under the stack ``name``."""
    with override_settings(**stack(name)), CaptureQueriesContext(connection) as seen:  # type: ignore[arg-type]
        assert client.get(url).status_code == 200
    return len(seen)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    setup_test_environment()
    call_command("seed_demo", verbosity=0)
    table = Table.objects.get(name="MB-1")
    url = f"/api/tables/{table.pk}/"
    stacks = (OURS, DJANGO_SESSIONS)
    clients = {name: signed_in(name) for name in stacks}
    for name in stacks:  # warm: each stack's first request compiles what it keeps
        time_requests(name, clients[name], url, 3)
    counted = {name: queries(name, clients[name], url) for name in stacks}
    times: dict[str, list[float]] = {name: [] for name in stacks}
    for _ in range(args.rounds):
        for name in stacks:
            times[name].append(time_requests(name, clients[name], url, args.requests))
    ours = statistics.median(times[OURS])
    print(f"GET {url} as a signed-in dealer, {args.rounds} x {args.requests} requests each")
    print(f"{'stack':<18}{'queries':>8}{'µs/request':>13}{'vs ours':>10}")
    for name in stacks:
        median = statistics.median(times[name])
        print(f"{name:<18}{counted[name]:>8}{median:>13.0f}{(median / ours - 1):>+10.1%}")


if __name__ == "__main__":
    main()
