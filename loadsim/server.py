"""The ASGI server under test, as a subprocess on 127.0.0.1, and CPU time read from ``/proc``.

By default uvicorn with several worker processes, as ``docker-compose.yml`` runs it (without the
nginx proxy in front), with production settings (DEBUG off) against the same PostgreSQL and Redis
as the simulation. Or daphne (``runserver``'s, and the production server before issue 10): with
``workers`` > 1, several daphne processes accept on one listening socket that this process opens
and hands to each (``--fd``), so the kernel spreads the connections without a proxy.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

#: How long the server may take to answer its first request.
START_SECONDS = 60.0
_TICKS = os.sysconf("SC_CLK_TCK")


@dataclass
class Server:
    url: str
    processes: list[subprocess.Popen[bytes]]
    log: Path
    ws_url: str = ""
    """Where the sockets are, when another server than ``url``'s serves them."""
    parts: dict[str, list[int]] = field(default_factory=dict)
    """When HTTP and sockets have servers of their own: each one's top processes."""

    def cpu_by_part(self) -> dict[str, float]:
        """CPU seconds of each part (``http``, ``sockets``), when they are apart."""
        return {
            part: sum(process_cpu(pid) for pid in descendants(pids))
            for part, pids in self.parts.items()
        }

    @property
    def sockets_url(self) -> str:
        return self.ws_url or self.url

    @property
    def pids(self) -> list[int]:
        """The server's processes and every process they started (uvicorn's workers)."""
        return descendants([p.pid for p in self.processes])

    def cpu_seconds(self) -> float:
        """User and system CPU of the server's processes so far."""
        return sum(process_cpu(pid) for pid in self.pids)

    def memory(self) -> dict[str, float]:
        """Resident memory of each of the server's processes, in MB, by a name that stays the
        same through a run (the part and the process's place in it: ``http 2``)."""
        named: dict[str, float] = {}
        parts = self.parts or {"server": [p.pid for p in self.processes]}
        for part, roots in parts.items():
            for n, pid in enumerate(sorted(descendants(roots)), start=1):
                named[f"{part} {n}"] = resident_mb(pid)
        return named

    def alive(self) -> bool:
        return all(p.poll() is None for p in self.processes)

    def stop(self) -> None:
        """Stop each process (SIGTERM, then SIGKILL after 10 s), and any worker left behind."""
        workers = [pid for pid in self.pids if pid not in {p.pid for p in self.processes}]
        for process in self.processes:
            if process.poll() is None:
                process.terminate()
        deadline = time.monotonic() + 10
        for process in self.processes:
            try:
                process.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        for pid in workers:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)

    def log_tail(self, lines: int = 30) -> str:
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""


def production_env(
    base: Mapping[str, str], *, database_url: str, secret_key: str
) -> dict[str, str]:
    """The server's environment: ours (REDIS_URL), with production settings.

    It uses this process's database and shares its ``secret_key``: the screens' sessions are
    made here, and a session (and its auth hash) is valid only under the key it was made with.
    """
    env = dict(base)
    env.update(
        DATABASE_URL=database_url,
        DEBUG="false",
        SECRET_KEY=secret_key,
        ALLOWED_HOSTS="127.0.0.1,localhost",
        # Plain HTTP on the loopback: no TLS in front of the server here.
        SECURE_SSL_REDIRECT="false",
        PYTHONUNBUFFERED="1",
    )
    return env


SERVERS = ("gunicorn+uvicorn", "uvicorn", "daphne")
#: Threads of each gunicorn process (``gunicorn+uvicorn``), as docker-compose.yml runs it.
GUNICORN_THREADS = int(os.environ.get("GUNICORN_THREADS", "4"))


def start_server(
    *, kind: str, workers: int, env: Mapping[str, str], log: Path, cwd: Path
) -> Server:
    """Start the server on a free port of 127.0.0.1 and wait until it answers."""
    if kind not in SERVERS:
        raise ValueError(f"The server is one of {', '.join(SERVERS)}.")
    out = log.open("ab")
    try:
        parts: dict[str, list[int]] = {}
        if kind == "gunicorn+uvicorn":
            http, http_port = _gunicorn(workers, env, cwd, out)
            sockets, sockets_port = _uvicorn(workers, env, cwd, out)
            processes, port, ws_url = http + sockets, http_port, f"http://127.0.0.1:{sockets_port}"
            parts = {"http": [p.pid for p in http], "sockets": [p.pid for p in sockets]}
        else:
            processes, port = (_uvicorn if kind == "uvicorn" else _daphne)(workers, env, cwd, out)
            ws_url = ""
    finally:
        out.close()
    server = Server(
        url=f"http://127.0.0.1:{port}", processes=processes, log=log, ws_url=ws_url, parts=parts
    )
    try:
        _wait_until_up(server)
    except BaseException:
        server.stop()
        raise
    return server


def _free_port() -> int:
    """A free port of 127.0.0.1 (nothing else binds a random loopback port meanwhile)."""
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = int(probe.getsockname()[1])
    probe.close()
    return port


def _gunicorn(
    workers: int, env: Mapping[str, str], cwd: Path, out: IO[bytes]
) -> tuple[list[subprocess.Popen[bytes]], int]:
    """HTTP as docker-compose.yml serves it (less the proxy): gunicorn's threaded workers over
    ``config.wsgi``."""
    port = _free_port()
    command = [str(Path(sys.executable).with_name("gunicorn")), "config.wsgi:application"]
    command += ["--bind", f"127.0.0.1:{port}", "--workers", str(workers)]
    command += ["--worker-class", "gthread", "--threads", str(GUNICORN_THREADS)]
    command += ["--keep-alive", "75"]
    process = subprocess.Popen(
        command, cwd=cwd, env=dict(env), stdout=out, stderr=subprocess.STDOUT
    )
    return [process], port


def restart_sockets(server: Server, *, workers: int, env: Mapping[str, str], cwd: Path) -> None:
    """The sockets' server started again on its port, as ``restart: always`` does once it is
    gone (``kill -9``), and waited for until it answers."""
    port = int(server.sockets_url.rsplit(":", 1)[1])
    gone = set(server.parts["sockets"])
    with server.log.open("ab") as out:
        started, _ = _uvicorn(workers, env, cwd, out, port=port)
    server.processes = [p for p in server.processes if p.pid not in gone] + started
    server.parts["sockets"] = [p.pid for p in started]
    _wait_for(server, server.sockets_url, time.monotonic() + START_SECONDS)


def _uvicorn(
    workers: int, env: Mapping[str, str], cwd: Path, out: IO[bytes], *, port: int = 0
) -> tuple[list[subprocess.Popen[bytes]], int]:
    """As docker-compose.yml runs it (less the proxy): one uvicorn supervising ``workers``."""
    port = port or _free_port()
    command = [str(Path(sys.executable).with_name("uvicorn")), "config.asgi:application"]
    command += ["--host", "127.0.0.1", "--port", str(port), "--lifespan", "off"]
    command += ["--no-access-log", "--workers", str(workers), "--ws-per-message-deflate", "false"]
    process = subprocess.Popen(
        command, cwd=cwd, env=dict(env), stdout=out, stderr=subprocess.STDOUT
    )
    return [process], port


def _daphne(
    workers: int, env: Mapping[str, str], cwd: Path, out: IO[bytes]
) -> tuple[list[subprocess.Popen[bytes]], int]:
    """``workers`` daphne processes accepting on one socket opened here (``--fd``)."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(1024)
    port = int(listener.getsockname()[1])
    daphne = Path(sys.executable).with_name("daphne")
    processes: list[subprocess.Popen[bytes]] = []
    try:
        for _ in range(workers):
            processes.append(
                subprocess.Popen(
                    [str(daphne), "--fd", str(listener.fileno()), "config.asgi:application"],
                    pass_fds=(listener.fileno(),),
                    cwd=cwd,
                    env=dict(env),
                    stdout=out,
                    stderr=subprocess.STDOUT,
                    preexec_fn=_stop_with_parent,
                )
            )
    finally:
        listener.close()  # the children hold it now
    return processes, port


def _stop_with_parent() -> None:
    """In the child: SIGTERM when the simulation's process ends, however it ends (Linux)."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


PR_SET_PDEATHSIG = 1


def _wait_until_up(server: Server) -> None:
    deadline = time.monotonic() + START_SECONDS
    for url in dict.fromkeys([server.url, server.sockets_url]):
        _wait_for(server, url, deadline)


def _wait_for(server: Server, url: str, deadline: float) -> None:
    while time.monotonic() < deadline:
        if not server.alive():
            raise RuntimeError(f"The server stopped at start:\n{server.log_tail()}")
        try:
            with urllib.request.urlopen(url + "/login/", timeout=5) as answer:
                if answer.status == 200:
                    return
        except urllib.error.HTTPError:
            return  # it answers
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(0.2)
    raise RuntimeError(
        f"The server did not answer within {START_SECONDS:.0f} s:\n{server.log_tail()}"
    )


def process_cpu(pid: int) -> float:
    """User and system CPU seconds of a process and its waited-for children (0 if gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    # After the name: state is field 3, so utime (14), stime (15), cutime (16), cstime (17).
    return sum(int(f) for f in fields[11:15]) / _TICKS


def resident_mb(pid: int) -> float:
    """A process's resident memory (``VmRSS``) in MB (0 if gone)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return round(int(line.split()[1]) / 1024, 1)
    except (OSError, ValueError, IndexError):
        pass
    return 0.0


def descendants(roots: Iterable[int]) -> list[int]:
    """``roots`` and every living process below them."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(parent, []).append(int(entry.name))
    found, todo = [], list(roots)
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(children.get(pid, ()))
    return found


def named_processes_cpu(names: Iterable[str]) -> float:
    """CPU seconds of every process with one of these names (PostgreSQL's, Redis')."""
    wanted = set(names)
    total = 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            text = (entry / "stat").read_text()
        except OSError:
            continue
        name = text[text.find("(") + 1 : text.rfind(")")]
        if name in wanted:
            # Its children's too: PostgreSQL's postmaster has waited for the backends that ended.
            total += sum(int(f) for f in text.rsplit(")", 1)[1].split()[11:15]) / _TICKS
    return total
