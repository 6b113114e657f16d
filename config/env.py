"""Settings read from the environment, as plain functions of a mapping so tests can call them.

``config/settings.py`` calls these with ``os.environ``; nothing here imports Django settings.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import dj_database_url

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_bool(env: Mapping[str, str], name: str, *, default: bool) -> bool:
    """Read a yes/no variable; anything else is refused rather than guessed."""
    raw = env.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ValueError(f"{name}={raw!r}: write true or false")


def env_list(env: Mapping[str, str], name: str, *, default: list[str]) -> list[str]:
    """Read a comma-separated list, ignoring blanks."""
    raw = env.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


def env_number(env: Mapping[str, str], name: str, *, default: float, least: float = 0) -> float:
    """Read a number of at least ``least``; anything else is refused rather than guessed."""
    raw = env.get(name)
    if raw is None or not raw.strip():
        return default
    try:
        value = float(raw)
    except ValueError:
        raise ValueError(f"{name}={raw!r}: write a number") from None
    if not value >= least:  # also refuses NaN
        raise ValueError(f"{name}={raw!r}: write a number of at least {least:g}")
    return value


#: A process's PostgreSQL connections by default: README "Scaling" adds them up per machine.
POOL_MIN_SIZE, POOL_MAX_SIZE, POOL_TIMEOUT = 2, 8, 5.0
#: Runs of one statement on a connection after which psycopg prepares it.
PREPARE_THRESHOLD = 5
#: Seconds a statement waits for a row lock, and runs at most, on the application's connections:
#: a transaction that holds a table's row never holds the threads of a floor waiting behind it
#: (the wait fails, and ``config.middleware`` answers 503 "the table is busy").
LOCK_TIMEOUT, STATEMENT_TIMEOUT = 2.0, 30.0


#: SQLite (the embedded ``make run``), where a tablet, the screens and ``simulate``'s bots write at
#: once: a transaction takes the write lock when it begins and waits for it up to ``timeout``
#: seconds (a DEFERRED one that read first fails at once on its first write, "database is
#: locked", a 503), and readers go on while one writes (WAL).
SQLITE_OPTIONS: dict[str, Any] = {
    "transaction_mode": "IMMEDIATE",
    "timeout": 20,
    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL",
}


def database_from_env(env: Mapping[str, str], *, base_dir: Path) -> dict[str, Any]:
    """The default database: ``DATABASE_URL``, or SQLite at ``var/db.sqlite3``.

    PostgreSQL connections come from a pool in each process (Django's psycopg pool): a request
    or a socket borrows one and gives it back, so no request pays for opening one, and a process
    never holds more than ``DATABASE_POOL_MAX_SIZE`` however many screens it serves; a request
    that finds none free waits up to ``DATABASE_POOL_TIMEOUT`` seconds, then fails. Where a pool
    cannot be used (behind PgBouncer in transaction mode, which pools already),
    ``DATABASE_POOL=false`` keeps one connection per thread for ``DATABASE_CONN_MAX_AGE`` seconds
    instead. Either way a connection is checked before use (from the pool, only one that sat
    idle over a second: ``fastpath/postgresql``), so a restarted PostgreSQL costs no request an
    error.
    """
    default = f"sqlite:///{base_dir / 'var' / 'db.sqlite3'}"
    database: dict[str, Any] = dict(dj_database_url.parse(env.get("DATABASE_URL") or default))
    if database["ENGINE"] == "django.db.backends.sqlite3":
        database["OPTIONS"] = {**SQLITE_OPTIONS, **database.get("OPTIONS", {})}
        name = str(database.get("NAME") or "")
        if name and name != ":memory:" and not name.startswith("file:"):
            # Tests on SQLite (``make test``'s second pass) on a file beside it, as the demo's
            # own: a live server's threads and the test share it, with the demo's WAL and waits.
            test_name = Path(name).with_name(f"test_{Path(name).name}")
            database["TEST"] = {"NAME": str(test_name), **database.get("TEST", {})}
    if database["ENGINE"] != "django.db.backends.postgresql":
        return database
    database["CONN_HEALTH_CHECKS"] = True
    # Parameters bound by the server, not pasted into the text by psycopg, and a statement run
    # five times on a connection prepared there (psycopg's ``prepare_threshold``, which Django
    # turns off unless asked): PostgreSQL then plans it no more. The live path runs the same few
    # statements all day, and planning them cost PostgreSQL more than running them (bench/
    # RESULTS.md). DATABASE_SERVER_SIDE_BINDING=false where neither can be (a PgBouncer in
    # transaction mode older than 1.21).
    server_side = env_bool(env, "DATABASE_SERVER_SIDE_BINDING", default=True)
    database["OPTIONS"] = {
        **database.get("OPTIONS", {}),
        "server_side_binding": server_side,
        "prepare_threshold": PREPARE_THRESHOLD if server_side else None,
    }
    _add_timeouts(env, database)
    if env_bool(env, "DATABASE_POOL", default=True):
        low = int(env_number(env, "DATABASE_POOL_MIN_SIZE", default=POOL_MIN_SIZE))
        high = int(env_number(env, "DATABASE_POOL_MAX_SIZE", default=POOL_MAX_SIZE, least=1))
        if low > high:
            raise ValueError(f"DATABASE_POOL_MIN_SIZE={low} is more than DATABASE_POOL_MAX_SIZE")
        database["CONN_MAX_AGE"] = 0  # the pool keeps connections; Django refuses both at once
        # Django's backend, whose pool checks a connection only after it sat idle (Django's
        # checks every one it lends: a round trip per request).
        database["ENGINE"], database["CONN_HEALTH_CHECKS"] = "fastpath.postgresql", False
        database["OPTIONS"] = {
            **database.get("OPTIONS", {}),
            "pool": {
                "min_size": low,
                "max_size": high,
                "timeout": env_number(env, "DATABASE_POOL_TIMEOUT", default=POOL_TIMEOUT),
            },
        }
    else:
        database["CONN_MAX_AGE"] = int(env_number(env, "DATABASE_CONN_MAX_AGE", default=60))
    return database


def _add_timeouts(env: Mapping[str, str], database: dict[str, Any]) -> None:
    """PostgreSQL's ``lock_timeout`` and ``statement_timeout`` set when each connection starts
    (libpq's ``options``), from ``DATABASE_LOCK_TIMEOUT`` and ``DATABASE_STATEMENT_TIMEOUT`` in
    seconds; ``0`` leaves PostgreSQL's own (``migrate`` as the tables' owner; behind PgBouncer,
    which refuses startup options, both ``0`` and the role's settings instead)."""
    settings = []
    for name, parameter, default in (
        ("DATABASE_LOCK_TIMEOUT", "lock_timeout", LOCK_TIMEOUT),
        ("DATABASE_STATEMENT_TIMEOUT", "statement_timeout", STATEMENT_TIMEOUT),
    ):
        milliseconds = round(env_number(env, name, default=default) * 1000)
        if milliseconds:
            settings.append(f"-c {parameter}={milliseconds}")
    given = database["OPTIONS"].get("options", "")
    if settings:
        database["OPTIONS"]["options"] = " ".join([given, *settings]).strip()


#: Seconds to wait for Redis to accept a connection, and for any answer. The request never waits
#: on Redis (``tablegame.broadcast``): these bound the notice sender's thread, and a socket's
#: subscribe, when Redis hangs.
REDIS_CONNECT_TIMEOUT, REDIS_SOCKET_TIMEOUT = 0.5, 2.0
#: Seconds a quiet Redis connection may go unchecked (a PING) before it is used again.
REDIS_HEALTH_CHECK_INTERVAL = 15


def channel_layers_from_env(env: Mapping[str, str]) -> dict[str, Any]:
    """Redis pub/sub channel layer when ``REDIS_URL`` is set, else one process's in-memory layer.

    The pub/sub layer rather than channels_redis's core layer (bench/RESULTS.md "Notices"): a
    group message is one PUBLISH, which Redis hands to each server process listening, pipelined
    by the notice sender; no per-channel queue of 100 that drops silently when full; no blocking
    read (core's 5 s BZPOPMIN against redis-py's 5 s socket timeout closed idle sockets with 1011),
    a server process polls its subscriptions every 0.1 s instead. Pub/sub channels belong to the
    whole Redis server, not to one of its databases, so the prefix names the database: two
    deployments (or test runs) on one Redis with different database numbers do not hear each
    other, as on the core layer.
    """
    redis_url = env.get("REDIS_URL")
    if not redis_url:
        return {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    database = urlsplit(redis_url).path.strip("/") or "0"
    return {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {
                "hosts": [
                    {
                        "address": redis_url,
                        "socket_connect_timeout": REDIS_CONNECT_TIMEOUT,
                        "socket_timeout": REDIS_SOCKET_TIMEOUT,
                        "socket_keepalive": True,
                        "health_check_interval": REDIS_HEALTH_CHECK_INTERVAL,
                    }
                ],
                "prefix": f"asgi.db{database}.",
            },
        }
    }


def celery_from_env(env: Mapping[str, str]) -> dict[str, Any]:
    """Celery settings (without the ``CELERY_`` prefix).

    With ``REDIS_URL``: broker and results on Redis. Without: tasks run eagerly in the caller,
    on an in-memory broker, so the embedded run needs no worker.
    """
    redis_url = env.get("REDIS_URL")
    if not redis_url:
        return {
            "broker_url": "memory://",
            "result_backend": "cache+memory://",
            "task_always_eager": True,
        }
    return {"broker_url": redis_url, "result_backend": redis_url, "task_always_eager": False}
