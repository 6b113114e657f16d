from __future__ import annotations

from pathlib import Path

import pytest

from config.env import (
    celery_from_env,
    channel_layers_from_env,
    database_from_env,
    env_bool,
    env_list,
)

BASE = Path("/srv/app")


def test_database_defaults_to_sqlite_in_var() -> None:
    db = database_from_env({}, base_dir=BASE)
    assert db["ENGINE"] == "django.db.backends.sqlite3"
    assert db["NAME"] == "/srv/app/var/db.sqlite3"


def test_database_url_chooses_postgresql() -> None:
    db = database_from_env(
        {"DATABASE_URL": "postgres://postgres@127.0.0.1:5432/baccarat"}, base_dir=BASE
    )
    assert db["ENGINE"] == "django.db.backends.postgresql"
    assert (db["NAME"], db["USER"], db["HOST"], db["PORT"]) == (
        "baccarat",
        "postgres",
        "127.0.0.1",
        5432,
    )


def test_without_redis_url_channels_stay_in_memory_and_celery_runs_eagerly() -> None:
    assert channel_layers_from_env({})["default"]["BACKEND"] == (
        "channels.layers.InMemoryChannelLayer"
    )
    celery = celery_from_env({"REDIS_URL": ""})
    assert celery["task_always_eager"] is True
    assert celery["broker_url"] == "memory://"


def test_redis_url_moves_channels_and_celery_onto_redis() -> None:
    env = {"REDIS_URL": "redis://cache.internal:6380/2"}
    layer = channel_layers_from_env(env)["default"]
    assert layer["BACKEND"] == "channels_redis.core.RedisChannelLayer"
    assert layer["CONFIG"]["hosts"] == ["redis://cache.internal:6380/2"]
    assert celery_from_env(env) == {
        "broker_url": "redis://cache.internal:6380/2",
        "result_backend": "redis://cache.internal:6380/2",
        "task_always_eager": False,
    }


def test_env_bool_refuses_a_value_it_cannot_read() -> None:
    assert env_bool({"DEBUG": "False"}, "DEBUG", default=True) is False
    assert env_bool({}, "DEBUG", default=True) is True
    with pytest.raises(ValueError, match="DEBUG='maybe'"):
        env_bool({"DEBUG": "maybe"}, "DEBUG", default=True)


def test_env_list_splits_on_commas() -> None:
    env = {"ALLOWED_HOSTS": "tables.example, .casino.test,"}
    assert env_list(env, "ALLOWED_HOSTS", default=[]) == ["tables.example", ".casino.test"]
    assert env_list({}, "ALLOWED_HOSTS", default=["x"]) == ["x"]
