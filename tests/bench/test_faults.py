"""The fault run, short (``bench/faults.py``): two tables deal while a web worker, the socket
server, the Celery worker and beat are killed, Redis and PostgreSQL restarted, each once."""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: The run's own bound: setup, six faults 15 s apart, the checks (about 2 minutes).
LIMIT_SECONDS = 170


def _free_port() -> int:
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = int(probe.getsockname()[1])
    probe.close()
    return port


def test_no_tap_is_lost_or_doubled_and_every_screen_comes_back_after_each_fault():
    # Its own PostgreSQL cluster and Redis, on free ports: the machine's are never restarted.
    # (In /tmp itself: PostgreSQL's user must reach its directory, which pytest's are not.)
    directory = Path(tempfile.mkdtemp(prefix="faults-", dir="/tmp"))
    command = [sys.executable, str(ROOT / "bench" / "faults.py"), "--json"]
    command += ["--tables", "2", "--every", "15", "--rounds-per-hour", "1800"]
    command += ["--directory", str(directory)]
    command += ["--pg-port", str(_free_port()), "--redis-port", str(_free_port())]
    run = subprocess.Popen(
        command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        out, err = run.communicate(timeout=LIMIT_SECONDS)
    except subprocess.TimeoutExpired:
        run.terminate()  # it stops what it started (its servers, PostgreSQL, Redis) on SIGTERM
        out, err = run.communicate(timeout=60)
    finally:
        shutil.rmtree(directory, ignore_errors=True)
    assert run.returncode == 0, err[-3000:]
    figures = json.loads(out)

    assert figures["problems"] == []
    faults = {row["fault"]: row for row in figures["faults"]}
    assert list(faults) == [
        "web worker",
        "socket server",
        "celery worker",
        "celery beat",
        "redis",
        "postgresql",
    ]
    for name, row in faults.items():
        assert row["accepted"] > 0, name  # the floor dealt after each fault
        assert (row["lost"], row["doubled"]) == (0, 0), name
        assert row["not_back"] == [], name
        assert set(row["back_seconds"]) == {
            "tablet",
            "display",
            "pit console",
            "progressives",
            "surveillance",
        }, name
    assert figures["events_of_two_commands"] == 0
    assert figures["events_of_no_command"] == {}
    assert figures["rounds_settled_twice"] == 0
    assert figures["rounds_settled"] > 6
    assert figures["verify_record"], figures["verify_record_said"]
    assert figures["checkpoint_after_celery_restarts"]
