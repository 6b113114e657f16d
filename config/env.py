"""Settings read from the environment, as plain functions of a mapping so tests can call them.

``config/settings.py`` calls these with ``os.environ``; nothing here imports Django settings.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

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


def database_from_env(env: Mapping[str, str], *, base_dir: Path) -> dict[str, Any]:
    """The default database: ``DATABASE_URL``, or SQLite at ``var/db.sqlite3``."""
    default = f"sqlite:///{base_dir / 'var' / 'db.sqlite3'}"
    return dict(dj_database_url.parse(env.get("DATABASE_URL") or default))


def channel_layers_from_env(env: Mapping[str, str]) -> dict[str, Any]:
    """Redis channel layer when ``REDIS_URL`` is set, else one process's in-memory layer."""
    redis_url = env.get("REDIS_URL")
    if not redis_url:
        return {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    return {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [redis_url]},
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
