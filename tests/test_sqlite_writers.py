"""The embedded demo's SQLite (``make run``) with several writers at once: a dealer's tablet, the
screens and ``simulate``'s bots. A transaction takes the write lock when it begins and waits for
it (``config.env.SQLITE_OPTIONS``): one that read first and then wrote used to fail at once with
"database is locked" (a 503 to the tablet) or, worse, write over what another had just written.
"""

from __future__ import annotations

from pathlib import Path

from tests.record.test_sqlite_triggers import run

#: Three threads, each in its own transaction: read the tally, pause, write it plus one.
SCRIPT = """
import time
from concurrent.futures import ThreadPoolExecutor
from django.db import connection, transaction

with connection.cursor() as cursor:
    cursor.execute("CREATE TABLE tally (n integer)")
    cursor.execute("INSERT INTO tally VALUES (0)")

def bump(_):
    try:
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("SELECT n FROM tally")
            n = cursor.fetchone()[0]
            time.sleep(0.3)
            cursor.execute("UPDATE tally SET n = %s", [n + 1])
    except Exception as error:
        return str(error)
    finally:
        connection.close()

with ThreadPoolExecutor(3) as pool:
    errors = [error for error in pool.map(bump, range(3)) if error]
with connection.cursor() as cursor:
    cursor.execute("SELECT n FROM tally")
    print("tally", cursor.fetchone()[0])
print("errors", errors)
"""


def test_writers_at_once_on_the_demos_sqlite_wait_their_turn(tmp_path: Path) -> None:
    done = run("shell", "--no-imports", "-c", SCRIPT, database=tmp_path / "db.sqlite3")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["tally 3", "errors []"]
