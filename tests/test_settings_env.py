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
    assert db["ENGINE"] == "fastpath.postgresql"  # Django's, its pool checked when idle
    assert (db["NAME"], db["USER"], db["HOST"], db["PORT"]) == (
        "baccarat",
        "postgres",
        "127.0.0.1",
        5432,
    )


def test_postgresql_connections_come_from_a_pool_sized_by_the_environment() -> None:
    url = "postgres://app@db:5432/baccarat"
    db = database_from_env({"DATABASE_URL": url}, base_dir=BASE)
    assert db["OPTIONS"]["pool"] == {"min_size": 2, "max_size": 8, "timeout": 5.0}
    # The pool's lends are checked by fastpath.postgresql, after a connection sat idle.
    assert (db["ENGINE"], db["CONN_MAX_AGE"], db["CONN_HEALTH_CHECKS"]) == (
        "fastpath.postgresql",
        0,
        False,
    )
    sized = {
        "DATABASE_URL": url,
        "DATABASE_POOL_MIN_SIZE": "1",
        "DATABASE_POOL_MAX_SIZE": "20",
        "DATABASE_POOL_TIMEOUT": "2.5",
    }
    pool = database_from_env(sized, base_dir=BASE)["OPTIONS"]["pool"]
    assert pool == {"min_size": 1, "max_size": 20, "timeout": 2.5}


def test_without_a_pool_postgresql_connections_persist_and_are_checked() -> None:
    env = {"DATABASE_URL": "postgres://app@pgbouncer:6432/baccarat", "DATABASE_POOL": "false"}
    db = database_from_env(env, base_dir=BASE)
    assert "pool" not in db.get("OPTIONS", {})
    assert (db["CONN_MAX_AGE"], db["CONN_HEALTH_CHECKS"]) == (60, True)


def test_sqlite_gets_no_pool() -> None:
    assert "pool" not in database_from_env({}, base_dir=BASE).get("OPTIONS", {})


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("DATABASE_POOL_MAX_SIZE", "0"),
        ("DATABASE_POOL_MAX_SIZE", "lots"),
        ("DATABASE_POOL_TIMEOUT", "NaN"),
        ("DATABASE_POOL_MIN_SIZE", "50"),
    ],
)
def test_it_refuses_a_pool_setting_it_cannot_use(name: str, value: str) -> None:
    env = {"DATABASE_URL": "postgres://app@db:5432/baccarat", name: value}
    with pytest.raises(ValueError, match=name):
        database_from_env(env, base_dir=BASE)


def test_redis_pub_sub_channels_are_kept_apart_by_database_number() -> None:
    def prefix(url: str) -> str:
        config = channel_layers_from_env({"REDIS_URL": url})["default"]["CONFIG"]
        return str(config["prefix"])

    assert prefix("redis://redis:6379/0") == prefix("redis://redis:6379") == "asgi.db0."
    assert prefix("redis://redis:6379/7") == "asgi.db7."


def test_redis_timeouts_let_idle_sockets_be_and_a_hung_redis_fail_fast() -> None:
    host = channel_layers_from_env({"REDIS_URL": "redis://redis:6379/0"})["default"]["CONFIG"][
        "hosts"
    ][0]
    assert host["socket_connect_timeout"] <= 1
    assert host["socket_timeout"] <= 2
    assert host["socket_keepalive"] is True


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
    assert layer["BACKEND"] == "channels_redis.pubsub.RedisPubSubChannelLayer"
    assert [host["address"] for host in layer["CONFIG"]["hosts"]] == [
        "redis://cache.internal:6380/2"
    ]
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


def test_postgresql_statements_are_bound_and_prepared_unless_switched_off() -> None:
    url = "postgres://app@db:5432/baccarat"
    options = database_from_env({"DATABASE_URL": url}, base_dir=BASE)["OPTIONS"]
    assert (options["server_side_binding"], options["prepare_threshold"]) == (True, 5)
    off = {"DATABASE_URL": url, "DATABASE_SERVER_SIDE_BINDING": "false"}
    options = database_from_env(off, base_dir=BASE)["OPTIONS"]
    assert (options["server_side_binding"], options["prepare_threshold"]) == (False, None)


def test_postgresql_connections_wait_two_seconds_for_a_lock_unless_told_otherwise() -> None:
    url = "postgres://app@db:5432/baccarat"
    options = database_from_env({"DATABASE_URL": url}, base_dir=BASE)["OPTIONS"]
    assert options["options"] == "-c lock_timeout=2000 -c statement_timeout=30000"
    owner = {"DATABASE_URL": url, "DATABASE_LOCK_TIMEOUT": "0", "DATABASE_STATEMENT_TIMEOUT": "0"}
    options = database_from_env(owner, base_dir=BASE)["OPTIONS"]
    assert "options" not in options
    with pytest.raises(ValueError, match="DATABASE_LOCK_TIMEOUT='soon'"):
        database_from_env({"DATABASE_URL": url, "DATABASE_LOCK_TIMEOUT": "soon"}, base_dir=BASE)
