"""The fault run's own PostgreSQL cluster and Redis, and its Celery worker and beat: the parts
``loadsim.faults`` kills and starts again (no Django here: they start before it is set up)."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from loadsim.server import descendants

POSTGRES_BIN = Path("/usr/lib/postgresql/15/bin")
#: How long a started process may take to answer.
RESTART_SECONDS = 60.0
POLL = 0.1


@dataclass
class Services:
    """A PostgreSQL cluster (in ``directory``) and a Redis of the run's own, on ports no other
    run uses: restarting them touches nobody else's."""

    directory: Path
    pg_port: int = 55432
    redis_port: int = 56379
    redis: subprocess.Popen[bytes] | None = None

    @property
    def data(self) -> Path:
        return self.directory / "pg"

    def database_url(self, name: str) -> str:
        return f"postgres://postgres@127.0.0.1:{self.pg_port}/{name}"

    @property
    def redis_url(self) -> str:
        return f"redis://127.0.0.1:{self.redis_port}/0"

    def start(self, database: str) -> None:
        """Both started (the cluster made if missing), and ``database`` made if missing."""
        self.directory.mkdir(parents=True, exist_ok=True)
        _as_postgres_owner(self.directory)  # its log is written there
        if not (self.data / "PG_VERSION").exists():
            shutil.rmtree(self.data, ignore_errors=True)
            self.data.mkdir()
            _as_postgres_owner(self.data)
            self._pg("initdb", "-D", str(self.data), "-U", "postgres", "-A", "trust")
        self._pg_ctl("start")
        found = self._pg(
            "psql", *self._where(), "-tAc", f"select 1 from pg_database where datname='{database}'"
        )
        if found.strip() != "1":
            self._pg("createdb", *self._where(), database)
        self.start_redis()

    def _where(self) -> list[str]:
        return ["-h", "127.0.0.1", "-p", str(self.pg_port), "-U", "postgres"]

    def _pg(self, program: str, *args: str) -> str:
        command = [str(POSTGRES_BIN / program), *args]
        if os.geteuid() == 0:  # PostgreSQL runs as no superuser
            command = ["runuser", "-u", "postgres", "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
        if done.returncode:
            raise RuntimeError(f"{program} failed: {done.stderr.strip() or done.stdout.strip()}")
        return done.stdout

    def _pg_ctl(self, action: str, *args: str) -> None:
        options = f"-p {self.pg_port} -k {self.data} -c listen_addresses=127.0.0.1"
        options += " -c max_connections=200"
        log = str(self.directory / "postgresql.log")
        self._pg(
            "pg_ctl",
            action,
            "-D",
            str(self.data),
            "-w",
            "-t",
            "60",
            "-l",
            log,
            *args,
            "-o",
            options,
        )

    def restart_postgres(self) -> None:
        """Every connection ended, the server stopped and started again."""
        self._pg_ctl("restart", "-m", "fast")

    def start_redis(self) -> None:
        command = ["redis-server", "--port", str(self.redis_port), "--bind", "127.0.0.1"]
        command += ["--save", "", "--appendonly", "no"]
        with (self.directory / "redis.log").open("ab") as out:
            self.redis = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
        wait_until(lambda: _answers(self.redis_port), "Redis did not start")

    def kill_redis(self) -> None:
        if self.redis is not None and self.redis.poll() is None:
            self.redis.kill()
            self.redis.wait()

    def stop(self) -> None:
        self.kill_redis()
        with contextlib.suppress(RuntimeError, subprocess.TimeoutExpired):
            self._pg("pg_ctl", "stop", "-D", str(self.data), "-m", "fast", "-w")


def _as_postgres_owner(path: Path) -> None:
    if os.geteuid() == 0:
        shutil.chown(path, "postgres", "postgres")


def _answers(port: int) -> bool:
    with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.5):
        return True
    return False


def wait_until(ready: Callable[[], bool], failure: str, seconds: float = RESTART_SECONDS) -> None:
    deadline = time.monotonic() + seconds
    while not ready():
        if time.monotonic() > deadline:
            raise RuntimeError(failure)
        time.sleep(POLL)


@dataclass
class Celery:
    """A Celery worker and beat, as ``docker-compose.yml`` runs them."""

    env: Mapping[str, str]
    cwd: Path
    log: Path
    schedule: Path
    processes: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)

    def command(self, part: str) -> list[str]:
        celery = [str(Path(sys.executable).with_name("celery")), "--app", "config"]
        if part == "celery worker":
            return [*celery, "worker", "--loglevel", "info", "--concurrency", "2"]
        return [*celery, "beat", "--loglevel", "info", "--schedule", str(self.schedule)]

    def start(self, part: str) -> None:
        with self.log.open("ab") as out:
            self.processes[part] = subprocess.Popen(
                self.command(part),
                cwd=self.cwd,
                env={**self.env, "DATABASE_POOL": "false"},
                stdout=out,
                stderr=subprocess.STDOUT,
            )

    def kill(self, part: str) -> None:
        """``kill -9`` of the part and every process it started (a container's end)."""
        process = self.processes[part]
        kill_tree(process.pid)
        process.wait()

    def stop(self) -> None:
        for process in self.processes.values():
            if process.poll() is None:
                process.terminate()
        for process in self.processes.values():
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                kill_tree(process.pid)
                process.wait()


def kill_tree(pid: int) -> None:
    for each in descendants([pid]):
        with contextlib.suppress(ProcessLookupError):
            os.kill(each, signal.SIGKILL)
