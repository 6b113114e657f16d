"""The embedded SQLite database (``make run``) refuses to change or remove an event too."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent

SCRIPT = """
from django.db import DatabaseError, connection, transaction
from casino.models import Casino, Pit
from casino.models import Event
from casino.record import record_event, verify_chain
from tablegame.models import Table

pit = Pit.objects.create(casino=Casino.objects.create(name="C"), name="P")
table = Table.objects.create(pit=pit, name="MB-1", profile="ma-mini", seat_count=7)
for card in ("AS", "KD"):
    with transaction.atomic():
        locked = Table.objects.select_for_update().get(pk=table.pk)
        record_event(chain_id=locked.chain_id, actor=None, action="card_dealt", data={"card": card})
attempts = {
    "orm update": lambda: Event.objects.update(action="card_burned"),
    "orm delete": lambda: Event.objects.first().delete(),
    "sql update": lambda: connection.cursor().execute("UPDATE casino_event SET data = '{}'"),
    "sql delete": lambda: connection.cursor().execute("DELETE FROM casino_event"),
}
for name, attempt in attempts.items():
    try:
        with transaction.atomic():
            attempt()
    except DatabaseError as exc:
        print(name, "refused:", exc)
    else:
        print(name, "ALLOWED")
print(Event.objects.count(), verify_chain(table.chain_id).reason)
"""


def run(*args: str, database: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{database}"}
    env.pop("REDIS_URL", None)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_sqlite_refuses_update_and_delete_of_an_event(tmp_path: Path) -> None:
    database = tmp_path / "db.sqlite3"
    migrated = run("migrate", "--noinput", database=database)
    assert migrated.returncode == 0, migrated.stderr
    done = run("shell", "--no-imports", "-c", SCRIPT, database=database)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "orm update refused: casino_event is append-only: UPDATE refused",
        "orm delete refused: casino_event is append-only: DELETE refused",
        "sql update refused: casino_event is append-only: UPDATE refused",
        "sql delete refused: casino_event is append-only: DELETE refused",
        "2 chain intact",
    ]
