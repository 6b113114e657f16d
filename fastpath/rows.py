"""Model instances from rows read with hand-written SQL, as the ORM makes them, and the writes.

The live path reads what a dealer's tap needs in one or two statements written once from the
models' columns (``tablegame.play.reading``, the API's tokens, the session). Compiling a queryset
costs more than the round trip itself; these helpers turn such a statement's columns back into
model instances (or their values), the fields' database converters applied, related objects left
to the caller. They work on the default database, the only one the project has.

The writes are statements made here (``insert_rows_statement``, ``update_rows_statements``,
``delete_rows_statement``, ``upsert_add_statements``) that ``run_all`` runs as one: a command's
changes and its record (``tablegame.play.writing``, the one writer). The pit's own actions write a
row at once (``insert``, ``update``, ``update_many``, ``insert_many``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from decimal import Decimal
from functools import cache, lru_cache
from typing import Any, TypeVar

from django.db import DEFAULT_DB_ALIAS, connection, connections, models
from django.db.backends.utils import CursorWrapper
from django.db.models import signals
from django.db.models.base import ModelState
from django.utils.dateparse import parse_datetime

M = TypeVar("M", bound=models.Model)

#: A statement and its parameters.
Statement = tuple[str, list[Any]]


_cursor: ContextVar[CursorWrapper | None] = ContextVar("rows_cursor", default=None)


@contextmanager
def one_cursor() -> Iterator[None]:
    """Inside this block, the statements written here run on one cursor (a command's lock, its
    read and its write): psycopg then makes the loaders of a column type once, not per
    statement, and the cursor once."""
    if _cursor.get() is not None:
        yield
        return
    with connection.cursor() as shared:
        token = _cursor.set(shared)
        try:
            yield
        finally:
            _cursor.reset(token)


@contextmanager
def cursor() -> Iterator[CursorWrapper]:
    """The block's cursor (``one_cursor``), else a new one."""
    shared = _cursor.get()
    if shared is not None:
        yield shared
        return
    with connection.cursor() as made:
        yield made


def _run(statements: Sequence[Statement]) -> None:
    """Run ``statements`` as one."""
    with cursor() as statement:
        statement.execute(_chained([sql for sql, _ in statements]), _values(statements))


def _values(statements: Sequence[Statement]) -> list[Any]:
    return [value for _, values in statements for value in values]


@cache
def fields(model: type[models.Model]) -> Sequence[models.Field[Any, Any]]:
    """The model's columns, in the order ``columns`` writes them and ``instance`` reads them."""
    return tuple(model._meta.concrete_fields)


def quoted(model_field: models.Field[Any, Any]) -> str:
    column = model_field.column
    assert column is not None  # a concrete field
    return connection.ops.quote_name(column)


#: What psycopg keeps parsed (``keep_statements_parsed``): statements up to this many bytes and
#: parameters, this many statements.
PARSED_LENGTH, PARSED_PARAMETERS, PARSED_STATEMENTS = 16_384, 1_000, 512


def keep_statements_parsed() -> None:
    """Have psycopg parse each statement of the live path once per process, not at every run.

    psycopg keeps a statement's parsed placeholders only when it is short (4,096 bytes) with
    few parameters (50), in a cache of 128 (``psycopg._queries``: ORMs make many one-off
    ``INSERT ... VALUES`` of varying length). A command's one write (its changes, events and
    record: 60 to 200 parameters) was parsed anew at every tap, about 2 % of a tap's CPU. The
    statements here are written once from the models and run at every tap; the cache is made
    larger so that they stay in it beside the ORM's. Called once, as the app is ready."""
    from psycopg import _queries

    _queries.MAX_CACHED_STATEMENT_LENGTH = max(_queries.MAX_CACHED_STATEMENT_LENGTH, PARSED_LENGTH)
    _queries.MAX_CACHED_STATEMENT_PARAMS = max(
        _queries.MAX_CACHED_STATEMENT_PARAMS, PARSED_PARAMETERS
    )
    if _queries._query2pg.cache_parameters()["maxsize"] < PARSED_STATEMENTS:
        _queries._query2pg = lru_cache(maxsize=PARSED_STATEMENTS)(_queries._query2pg_nocache)


def column(model: type[models.Model], name: str) -> str:
    """The quoted column of the model's field ``name``."""
    field = model._meta.get_field(name)
    assert isinstance(field, models.Field)
    return quoted(field)


def table(model: type[models.Model]) -> str:
    """The model's quoted table name."""
    return connection.ops.quote_name(model._meta.db_table)


def columns(alias: str, model: type[models.Model]) -> str:
    """Every column of the model, as ``alias."column", ...``."""
    return ", ".join(f"{alias}.{quoted(f)}" for f in fields(model))


def instance(model: type[M], values: Sequence[Any]) -> M | None:
    """The row of ``model`` read as ``columns`` (None when an outer join found none)."""
    if values[0] is None:  # the primary key
        return None
    return _made(model, converted_row(model, values))


def converted_row(model: type[models.Model], values: Sequence[Any]) -> list[Any]:
    """A row's columns as read in ``columns``' order, converted as the ORM converts them (only
    the columns that have a converter are looked at: on PostgreSQL, its JSON columns)."""
    found = list(values)
    for index, converters in _converting(model):
        value = found[index]
        for converter, expression in converters:
            value = converter(value, expression, connection)
        found[index] = value
    return found


@cache
def _converting(
    model: type[models.Model],
) -> tuple[tuple[int, list[tuple[Callable[..., Any], Any]]], ...]:
    """The columns of ``model`` that have converters, by index, with them."""
    return tuple((i, found) for i, found in enumerate(_db_converters(model)) if found)


def from_json(model: type[M], data: dict[str, Any]) -> M:
    """The row of ``model`` as ``json_rows`` wrote it (read with ``decoded``)."""
    return _made(model, json_values(model, data))


def json_values(model: type[models.Model], data: Mapping[str, Any]) -> list[Any]:
    """The columns of ``model``'s row as ``json_rows`` wrote it (read with ``decoded``), in the
    order of ``fields``, converted: PostgreSQL's JSON carries each value typed (a money column's
    digits, read as a decimal), but for its times (text); SQLite's is each column as stored,
    converted as the ORM converts a column."""
    columns, converters = _json_reading(model, connection.vendor)
    return [
        value if convert is None or value is None else convert(value)
        for value, convert in zip([data[c] for c in columns], converters, strict=True)
    ]


def json_rows(model: type[models.Model], alias: str, where: str, order: str) -> str:
    """A scalar subquery: the rows of ``model`` (as ``alias``) that meet ``where``, in ``order``,
    as the text of a JSON array of objects by column (``from_json`` reads each), ``[]`` for none.
    PostgreSQL's ``row_to_json``, or SQLite's ``json_object`` of every column."""
    source = f"{table(model)} {alias} WHERE {where}"
    if connection.vendor == "postgresql":
        rows_json = f"json_agg(row_to_json({alias}) ORDER BY {order})"
        return f"(SELECT coalesce({rows_json}, '[]')::text FROM {source})"
    pairs = ", ".join(f"'{f.column}', {alias}.{quoted(f)}" for f in fields(model))
    return (
        f"(SELECT coalesce(json_group_array(json_object({pairs})), '[]') "
        f"FROM (SELECT * FROM {source} ORDER BY {order}) {alias})"
    )


def json_row(model: type[models.Model], alias: str) -> str:
    """The JSON object of one row of ``model`` joined as ``alias``, by column (``from_json``
    reads it): PostgreSQL's ``row_to_json``, SQLite's ``json_object`` of every column."""
    if connection.vendor == "postgresql":
        return f"row_to_json({alias})"
    pairs = ", ".join(f"'{f.column}', {alias}.{quoted(f)}" for f in fields(model))
    return f"json_object({pairs})"


def as_json(text: str) -> str:
    """The JSON text of a scalar subquery (``json_rows``) as JSON, to nest in another."""
    return f"({text})::json" if connection.vendor == "postgresql" else f"json({text})"


def json_array() -> str:
    """The function that makes a JSON array of its arguments."""
    return "json_build_array" if connection.vendor == "postgresql" else "json_array"


def json_list(value: str, source: str, order: str, *, json_values: bool = False) -> str:
    """A scalar subquery: ``value`` of each row of ``source`` (``FROM`` onwards), in ``order``, as
    the text of a JSON array (``json_values``: each value is JSON itself, an array made in SQL)."""
    if connection.vendor == "postgresql":
        return f"(SELECT coalesce(json_agg({value} ORDER BY {order}), '[]')::text FROM {source})"
    item = "json(v)" if json_values else "v"  # SQLite: JSON made in a subquery reads as text
    return (
        f"(SELECT coalesce(json_group_array({item}), '[]') "
        f"FROM (SELECT {value} AS v FROM {source} ORDER BY {order}))"
    )


def converted(model: type[models.Model], name: str, value: Any) -> Any:
    """One column's value as read by hand-written SQL, converted as the ORM converts it."""
    field = model._meta.get_field(name)
    index = list(fields(model)).index(field)  # type: ignore[arg-type]
    return _converted(value, _db_converters(model)[index])


#: JSON as ``json_rows`` writes it: PostgreSQL's numbers read as decimals (its JSON carries a
#: money column's digits), SQLite's as floats (what it stores; the column's converter rounds
#: them to the field's places, as the ORM does).
_DECIMALS, _FLOATS = json.JSONDecoder(parse_float=Decimal), json.JSONDecoder()


def decoded(text: str) -> Any:
    """The JSON text of ``json_rows`` or ``json_list`` as Python values, for ``from_json``."""
    return (_DECIMALS if connection.vendor == "postgresql" else _FLOATS).decode(text)


def _converted(value: Any, converters: Sequence[tuple[Callable[..., Any], Any]]) -> Any:
    for converter, expression in converters:
        value = converter(value, expression, connection)
    return value


@cache
def _db_converters(model: type[models.Model]) -> list[list[tuple[Callable[..., Any], Any]]]:
    """Each field's converters and the column they convert, as the ORM applies them: the
    backend's (SQLite stores times as text, money as numbers), then the field's own
    (``from_db_value``)."""
    found = []
    for f in fields(model):
        column = f.get_col(model._meta.db_table)
        converters = [*connection.ops.get_db_converters(column), *f.get_db_converters(connection)]
        found.append([(converter, column) for converter in converters])
    return found


def _made(model: type[M], values: Sequence[Any]) -> M:
    """``model.from_db`` of every field's value, in the order of ``fields``: for a plain model
    (no ``pre_init``/``post_init`` receivers, no file fields) the instance's attributes are set
    as ``Model.__init__`` would set them, without its per-field work (a tap makes dozens)."""
    if not _plain(model):
        return model.from_db(DEFAULT_DB_ALIAS, _attnames(model), values)
    made = model.__new__(model)
    made.__dict__.update(zip(_attnames(model), values, strict=True))
    state = made._state = ModelState()
    state.adding, state.db = False, DEFAULT_DB_ALIAS
    return made


@cache
def _attnames(model: type[models.Model]) -> list[str]:
    return [f.attname for f in fields(model)]


@cache
def _plain(model: type[models.Model]) -> bool:
    """Nothing listens to the model's making, and setting its fields runs no code of theirs."""
    listened = signals.pre_init.has_listeners(model) or signals.post_init.has_listeners(model)
    return not listened and not any(isinstance(f, models.FileField) for f in fields(model))


@cache
def _json_reading(
    model: type[models.Model], vendor: str
) -> tuple[list[str], list[Callable[[Any], Any] | None]]:
    """Each field's column, and how its JSON value becomes a Python one (None: as is)."""
    converters: list[Callable[[Any], Any] | None] = []
    if vendor != "postgresql":
        for found in _db_converters(model):
            converters.append(_chain(found) if found else None)
        return [f.column or "" for f in fields(model)], converters
    for model_field in fields(model):
        if isinstance(model_field, models.DateTimeField):
            converters.append(parse_datetime)
        elif isinstance(model_field, models.DecimalField):
            converters.append(Decimal)
        else:
            converters.append(None)
    return [f.column or "" for f in fields(model)], converters


def _chain(found: Sequence[tuple[Callable[..., Any], Any]]) -> Callable[[Any], Any]:
    return lambda value: _converted(value, found)


def insert(obj: M) -> M:
    """``obj.save()`` of a new row as one statement written once per model: the fields'
    ``pre_save`` and database preparation as the ORM does them, the primary key read back; no
    signals (the models written this way have none)."""
    sql, written = _insert_statement(type(obj))
    return _inserted(obj, sql, _prepared(obj, written, adding=True))


def columns_written(model: type[models.Model]) -> list[str]:
    """Every column of the model but its key: what ``update`` writes of a whole row."""
    return [f.attname for f in fields(model) if not f.primary_key]


def update(obj: models.Model, names: Sequence[str]) -> None:
    """``obj.save(update_fields=names)`` as one statement written once per model and fields."""
    sql, written = _update_statement(type(obj), tuple(names))
    _run([(sql, [*_prepared(obj, written, adding=False), obj.pk])])


def update_many(objs: Sequence[models.Model], names: Sequence[str]) -> None:
    """``bulk_update(objs, names)`` in one statement whatever their number on PostgreSQL
    (``update_rows_statements``)."""
    if objs:
        run_all(update_rows_statements(type(objs[0]), objs, names))


def insert_many(objs: Sequence[models.Model]) -> None:
    """New rows of one model, their keys left to the database and not read back: one
    statement."""
    if objs:
        run_all([insert_rows_statement(type(objs[0]), objs)])


def insert_rows_statement(
    model: type[models.Model], found: Sequence[Any], *, keyed: bool = False
) -> Statement:
    """One ``INSERT`` of ``found`` (values with the model's attributes), their keys given
    (``keyed``: ``next_keys``) or left to the database."""
    sql, written = _insert_statement(model, keyed)
    head = sql.partition(" VALUES ")[0]
    row = f"({', '.join(['%s'] * len(written))})"
    text = f"{head} VALUES {', '.join([row] * len(found))}"
    return text, [value for obj in found for value in _prepared(obj, written, adding=True)]


def next_keys(counts: Mapping[type[models.Model], int]) -> list[list[int]]:
    """Keys for new rows of each model, ``counts`` of each, taken now (one statement): from the
    key's sequence on PostgreSQL; on SQLite, whose transactions hold the database's write lock
    from their start, past the largest key used."""
    parts = []
    values: list[Any] = []
    for model, count in counts.items():
        name = model._meta.db_table
        if connection.vendor == "postgresql":
            parts.append(
                "(SELECT json_agg(nextval(pg_get_serial_sequence(%s, %s)))::text "
                "FROM generate_series(1, %s))"
            )
            values += [connection.ops.quote_name(name), _pk(model).column, count]
        else:
            parts.append(
                f"max(coalesce((SELECT max({quoted(_pk(model))}) FROM {table(model)}), 0), "
                "coalesce((SELECT seq FROM sqlite_sequence WHERE name = %s), 0))"
            )
            values.append(name)
    with cursor() as run:
        run.execute(f"SELECT {', '.join(parts)}", values)
        found = run.fetchone()
    assert found is not None
    if connection.vendor == "postgresql":
        return [json.loads(text) for text in found]
    return [
        list(range(last + 1, last + 1 + count))
        for last, count in zip(found, counts.values(), strict=True)
    ]


def update_rows_statements(
    model: type[models.Model], found: Sequence[Any], names: Sequence[str]
) -> list[Statement]:
    """``UPDATE`` of the fields ``names`` of each of ``found`` (by its ``id``): one statement on
    PostgreSQL whatever their number (``UPDATE ... FROM (VALUES ...)``), one each elsewhere."""
    written = _written(model, tuple(names))
    pk = _pk(model)
    if len(found) == 1 or connection.vendor != "postgresql":
        sql, _ = _update_statement(model, tuple(names))
        return [(sql, [*_prepared(obj, written, adding=False), obj.id]) for obj in found]
    typed = ", ".join(f"CAST(%s AS {f.db_type(connection)})" for f in [pk, *written])
    plain = ", ".join(["%s"] * (len(written) + 1))
    rows_sql = ", ".join([f"({typed})", *[f"({plain})"] * (len(found) - 1)])
    names_sql = ", ".join(quoted(f) for f in [pk, *written])
    sets = ", ".join(f"{quoted(f)} = v.{quoted(f)}" for f in written)
    sql = (
        f"UPDATE {table(model)} SET {sets} FROM (VALUES {rows_sql}) AS v({names_sql}) "
        f"WHERE {table(model)}.{quoted(pk)} = v.{quoted(pk)}"
    )
    values = [v for obj in found for v in [obj.id, *_prepared(obj, written, adding=False)]]
    return [(sql, values)]


def delete_rows_statement(model: type[models.Model], keys: Sequence[int]) -> Statement:
    """``DELETE`` of the rows of ``model`` with these keys."""
    marks = ", ".join(["%s"] * len(keys))
    return f"DELETE FROM {table(model)} WHERE {quoted(_pk(model))} IN ({marks})", list(keys)


def run_all(statements: Sequence[Statement]) -> None:
    """Run ``statements`` in order: on PostgreSQL as one (each but the last in a ``WITH``), one
    round trip; elsewhere one after the other."""
    if not statements:
        return
    if connection.vendor != "postgresql":
        with cursor() as run:
            for sql, values in statements:
                run.execute(sql, values)
        return
    _run(statements)


@dataclass(frozen=True)
class Addition:
    """Rows whose figures ``upsert_add`` adds to the rows of ``model`` with the same ``key``.

    Each row maps every field written (by name or attribute name, ``table_id``) to its value;
    the rows' keys differ (one statement changes a row once)."""

    model: type[models.Model]
    key: tuple[str, ...]
    rows: Sequence[Mapping[str, Any]]


def upsert_add_statements(*additions: Addition) -> list[Statement]:
    """For each ``Addition``, one ``INSERT ... VALUES ... ON CONFLICT (key) DO UPDATE SET f =
    t.f + EXCLUDED.f`` (PostgreSQL's and SQLite's alike), whatever the number of rows."""
    return [_upsert_add_statement(a) for a in additions if a.rows]


def _upsert_add_statement(addition: Addition) -> tuple[str, list[Any]]:
    model, rows = addition.model, addition.rows
    written = _written(model, tuple(rows[0]))
    keys = set(_written(model, addition.key))
    added = [f for f in written if f not in keys]
    assert added, f"{model.__name__}: nothing to add besides the key"
    row_sql = ", ".join("%s" for _ in written)
    values: list[Any] = []
    for row in rows:
        for f in written:
            value = row[f.attname] if f.attname in row else row[f.name]
            values.append(f.get_db_prep_save(value, connection))
    sets = ", ".join(f"{quoted(f)} = t.{quoted(f)} + EXCLUDED.{quoted(f)}" for f in added)
    statement = (
        f"INSERT INTO {table(model)} AS t ({', '.join(quoted(f) for f in written)}) "
        f"VALUES {', '.join([f'({row_sql})'] * len(rows))} "
        f"ON CONFLICT ({', '.join(quoted(f) for f in written if f in keys)}) DO UPDATE SET {sets}"
    )
    return statement, values


def _chained(statements: Sequence[str]) -> str:
    """Data-changing statements run as one: each but the last in a ``WITH`` (PostgreSQL)."""
    *before, last = statements
    if not before:
        return last
    return f"WITH {', '.join(f'w{i} AS ({text})' for i, text in enumerate(before))} {last}"


def _prepared(obj: models.Model, written: Written, *, adding: bool) -> list[Any]:
    """The values of ``written`` as ``save()`` sends them: ``pre_save``, then prepared.

    A field of a plain kind (``Written.kinds``) holding None or a value of that kind's own type
    is sent as its preparation would send it, without the preparation's calls (a tap writes a
    few hundred values); any other value is prepared."""
    values: list[Any] = []
    db = None
    for f, kind in zip(written, written.kinds, strict=True):
        if kind is not None:
            value = getattr(obj, f.attname)
            if value is None:
                values.append(None)
                continue
            own, wrap = kind
            if type(value) is own:
                values.append(value if wrap is None else wrap(value))
                continue
        if db is None:  # the connection itself, not the proxy: the fields ask it a lot
            db = connections[DEFAULT_DB_ALIAS]
        values.append(f.get_db_prep_save(f.pre_save(obj, adding), db))
    return values


#: Field classes whose ``pre_save`` reads the attribute and whose preparation returns None as
#: None, and a value of this type as it is (the class itself, not subclasses, which may
#: prepare more). Integer fields are then typed by the backend (``adapt_integerfield_value``).
_SENT_AS_IS: dict[type[models.Field[Any, Any]], type] = {
    models.AutoField: int,
    models.BigAutoField: int,
    models.SmallAutoField: int,
    models.IntegerField: int,
    models.BigIntegerField: int,
    models.SmallIntegerField: int,
    models.PositiveIntegerField: int,
    models.PositiveSmallIntegerField: int,
    models.PositiveBigIntegerField: int,
    models.CharField: str,
    models.TextField: str,
    models.BooleanField: bool,
}

Kind = tuple[type, Callable[[Any], Any] | None]


class Written(tuple[models.Field[Any, Any], ...]):
    """Fields a statement writes, in the model's order, with how each one's value is sent
    (``kinds``: per field, the type whose values are sent as they are, or as the backend types
    an integer; None: always prepared). Made once per statement (``_written``,
    ``_insert_statement``)."""

    kinds: tuple[Kind | None, ...]


def _written_of(found: Iterable[models.Field[Any, Any]]) -> Written:
    written = Written(found)
    written.kinds = _kinds_of(written)
    return written


def _kinds_of(written: Sequence[models.Field[Any, Any]]) -> tuple[Kind | None, ...]:
    """Per field, its ``Written.kinds``: a foreign key is its target's."""

    def kind(f: models.Field[Any, Any]) -> Kind | None:
        if type(f) is models.ForeignKey:
            return kind(f.target_field)
        own = _SENT_AS_IS.get(type(f))
        if own is None:
            return None
        typed = getattr(connection.ops, "integerfield_type_map", {}).get(f.get_internal_type())
        return own, typed

    return tuple(kind(f) for f in written)


def _inserted(new: M, sql: str, values: Sequence[Any]) -> M:
    """Run an ``INSERT ... RETURNING`` of ``new`` and keep its primary key, as ``save()`` does."""
    with cursor() as statement:
        statement.execute(sql, values)
        row = statement.fetchone()
    assert row is not None
    new.pk = row[0]
    new._state.adding, new._state.db = False, DEFAULT_DB_ALIAS
    return new


def _pk(model: type[models.Model]) -> models.Field[Any, Any]:
    pk = model._meta.pk
    assert pk is not None
    return pk


@cache
def _written(model: type[models.Model], names: tuple[str, ...]) -> Written:
    """The model's fields named (by name or attribute name), in the model's order."""
    written = _written_of(f for f in fields(model) if f.name in names or f.attname in names)
    assert len(written) == len(names), f"{model.__name__} has no field among {names}"
    return written


@cache
def _insert_statement(model: type[models.Model], keyed: bool = False) -> tuple[str, Written]:
    """The model's ``INSERT`` of one row, its key read back (``keyed``: the key given)."""
    pk = _pk(model)
    written = _written_of(f for f in fields(model) if keyed or f is not pk)
    return (
        f"INSERT INTO {table(model)} ({', '.join(quoted(f) for f in written)}) "
        f"VALUES ({', '.join(['%s'] * len(written))}) RETURNING {quoted(pk)}",
        written,
    )


@cache
def _update_statement(model: type[models.Model], names: tuple[str, ...]) -> tuple[str, Written]:
    written = _written(model, names)
    sets = ", ".join(f"{quoted(f)} = %s" for f in written)
    return f"UPDATE {table(model)} SET {sets} WHERE {quoted(_pk(model))} = %s", written
