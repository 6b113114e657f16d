"""Every private attribute of Django, psycopg and channels-redis the speed machinery uses, one
test each: the attribute is there and behaves as used. requirements.txt pins those libraries
exactly; the day an upgrade moves one of these, its test fails before a tap does.

Where each is used: the bottom layer ``fastpath`` (whose docstring lists its own):
``fastpath.rows`` (psycopg's statement cache, the instances it makes), ``fastpath.related``
(the caches of the state in play, kept by ``tablegame.live`` and ``tablegame.work``) and
``fastpath.postgresql.base`` (the pool's idle time); above it, ``casino.sessions`` (the
request's user made lazily), ``tablegame.broadcast``
(notices pipelined) and ``tablegame.api.commands`` (the user unwrapped)."""

from __future__ import annotations

import asyncio
import inspect
from functools import partial
from typing import Any

import pytest
from django.contrib.auth import middleware as auth_middleware
from django.contrib.auth.models import AnonymousUser, User
from django.db import DEFAULT_DB_ALIAS
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models.base import ModelState
from django.test import RequestFactory
from django.utils.functional import LazyObject, SimpleLazyObject, empty

from casino.models import Pit
from fastpath import rows
from tablegame.models import Round, Table, Wager


def test_psycopg_keeps_its_parsed_statements_in_queries_module() -> None:
    from psycopg import _queries

    assert isinstance(_queries.MAX_CACHED_STATEMENT_LENGTH, int)
    assert isinstance(_queries.MAX_CACHED_STATEMENT_PARAMS, int)
    assert "maxsize" in _queries._query2pg.cache_parameters()
    assert callable(_queries._query2pg_nocache)
    rows.keep_statements_parsed()
    assert _queries._query2pg.cache_parameters()["maxsize"] >= rows.PARSED_STATEMENTS
    assert _queries.MAX_CACHED_STATEMENT_LENGTH >= rows.PARSED_LENGTH
    source = inspect.getsource(_queries)
    # The cached parser is looked up by name at each call, so swapping it takes effect.
    assert "_query2pg(" in source and "MAX_CACHED_STATEMENT_PARAMS" in source


def test_model_state_says_where_a_row_was_read_from() -> None:
    state = ModelState()
    assert state.adding is True and state.db is None
    state.adding, state.db = False, DEFAULT_DB_ALIAS
    assert isinstance(state.fields_cache, dict)


def test_an_instance_made_without_init_is_one_the_orm_would_make() -> None:
    values = [rows.fields(Pit)[0].get_default() or 1] + [
        f.get_default() for f in rows.fields(Pit)[1:]
    ]
    made = rows._made(Pit, values)
    orm = Pit.from_db(DEFAULT_DB_ALIAS, rows._attnames(Pit), values)
    assert {k: v for k, v in made.__dict__.items() if k != "_state"} == {
        k: v for k, v in orm.__dict__.items() if k != "_state"
    }
    assert (made._state.adding, made._state.db) == (orm._state.adding, orm._state.db)


@pytest.mark.django_db
def test_a_related_row_kept_in_fields_cache_is_not_read_again(
    django_assert_num_queries: Any,
) -> None:
    pit = Pit(pk=7, name="Pit 7")
    table = Table(pk=3, name="T", pit_id=7)
    table._state.fields_cache["pit"] = pit
    with django_assert_num_queries(0):
        assert table.pit is pit


@pytest.mark.django_db
def test_a_prefetched_list_is_read_from_the_cache_prefetch_related_keeps(
    django_assert_num_queries: Any,
) -> None:
    from fastpath.related import prefetched

    game = Round(pk=5, table_id=1, number=1)
    assert prefetched(game, "wagers") is None
    wager = Wager(pk=9, round_id=5, seat=1, type="player")
    queryset = Wager.objects.filter(round_id=5)
    queryset._result_cache = [wager]
    game._prefetched_objects_cache = {"wagers": queryset}  # type: ignore[attr-defined]
    with django_assert_num_queries(0):
        assert prefetched(game, "wagers") == [wager]


def test_authentication_keeps_the_user_on_the_request_as_cached_user() -> None:
    request: Any = RequestFactory().get("/")
    user = User(pk=1, username="someone")
    request._cached_user = user
    assert auth_middleware.get_user(request) is user


def test_a_lazy_objects_wrapped_value_is_empty_until_used() -> None:
    lazy = SimpleLazyObject(partial(AnonymousUser))
    assert lazy._wrapped is empty
    assert lazy.is_anonymous
    assert isinstance(lazy._wrapped, AnonymousUser)
    assert issubclass(SimpleLazyObject, LazyObject)


def test_a_database_wrapper_closes_through_close() -> None:
    assert callable(vars(BaseDatabaseWrapper)["_close"])
    assert "self._close()" in inspect.getsource(BaseDatabaseWrapper.close)


def test_a_psycopg_connection_takes_an_attribute_of_ours() -> None:
    import psycopg

    assert psycopg.Connection.__dictoffset__ != 0  # instances have a __dict__: no slots only


def test_the_redis_pubsub_layer_names_groups_and_shards_as_broadcast_uses() -> None:
    from channels_redis.pubsub import RedisPubSubChannelLayer  # type: ignore[import-untyped]

    async def inspect_layer() -> None:
        layer = RedisPubSubChannelLayer(hosts=["redis://127.0.0.1:6379/14"])
        here = layer._get_layer()
        channel = here._get_group_channel_name("table-1")
        shard = here._get_shard(channel)
        assert callable(shard._ensure_redis)
        assert hasattr(shard, "_redis")

    asyncio.run(inspect_layer())
