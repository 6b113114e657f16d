"""Model instances from rows read with hand-written SQL, as the ORM makes them.

The live path reads what a dealer's tap needs in one or two statements written once from the
models' columns (``tablegame.live``, the API's tokens). Compiling a queryset costs more than the
round trip itself; these helpers turn such a statement's columns back into model instances: the
fields' database converters applied, related objects left to the caller.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from decimal import Decimal
from functools import cache
from typing import Any, TypeVar

from django.db import connection, models
from django.utils.dateparse import parse_datetime

M = TypeVar("M", bound=models.Model)


@cache
def fields(model: type[models.Model]) -> Sequence[models.Field[Any, Any]]:
    """The model's columns, in the order ``columns`` writes them and ``instance`` reads them."""
    return tuple(model._meta.concrete_fields)


def quoted(model_field: models.Field[Any, Any]) -> str:
    column = model_field.column
    assert column is not None  # a concrete field
    return connection.ops.quote_name(column)


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
    converted = [_from_db(f, v) for f, v in zip(fields(model), values, strict=True)]
    return model.from_db(connection.alias, [f.attname for f in fields(model)], converted)


def from_json(model: type[M], data: dict[str, Any]) -> M:
    """The row of ``model`` as ``row_to_json`` wrote it (read with ``parse_float=Decimal``)."""
    names, columns, converters = _json_reading(model)
    values = [
        value if convert is None or value is None else convert(value)
        for value, convert in zip([data[c] for c in columns], converters, strict=True)
    ]
    return model.from_db(connection.alias, names, values)


@cache
def _json_reading(
    model: type[models.Model],
) -> tuple[list[str], list[str], list[Callable[[Any], Any] | None]]:
    """Each field's name, column, and how its JSON value becomes a Python one (None: as is)."""
    converters: list[Callable[[Any], Any] | None] = []
    for model_field in fields(model):
        if isinstance(model_field, models.DateTimeField):
            converters.append(parse_datetime)
        elif isinstance(model_field, models.DecimalField):
            converters.append(Decimal)
        else:
            converters.append(None)
    return (
        [f.attname for f in fields(model)],
        [f.column or "" for f in fields(model)],
        converters,
    )


def _from_db(model_field: models.Field[Any, Any], value: Any) -> Any:
    for converter in model_field.get_db_converters(connection):
        value = converter(value, None, connection)
    return value


def insert(obj: M) -> M:
    """``obj.save()`` of a new row as one statement written once per model: the fields'
    ``pre_save`` and database preparation as the ORM does them, the primary key read back; no
    signals (the models written this way have none)."""
    sql, written = _insert_statement(type(obj))
    return _inserted(obj, sql, _prepared(obj, written, adding=True))


def update(obj: models.Model, names: Sequence[str]) -> None:
    """``obj.save(update_fields=names)`` as one statement written once per model and fields."""
    sql, written = _update_statement(type(obj), tuple(names))
    with connection.cursor() as cursor:
        cursor.execute(sql, [*_prepared(obj, written, adding=False), obj.pk])


def update_and_insert(obj: models.Model, names: Sequence[str], new: M) -> M:
    """``update(obj, names)`` then ``insert(new)``, in one statement on PostgreSQL (the update
    in a ``WITH``): a card dealt and the shoe it came out of, one round trip."""
    if connection.vendor != "postgresql":
        update(obj, names)
        return insert(new)
    update_sql, updated = _update_statement(type(obj), tuple(names))
    insert_sql, written = _insert_statement(type(new))
    values = [
        *_prepared(obj, updated, adding=False),
        obj.pk,
        *_prepared(new, written, adding=True),
    ]
    return _inserted(new, f"WITH updated AS ({update_sql}) {insert_sql}", values)


def update_many(objs: Sequence[models.Model], names: Sequence[str]) -> None:
    """``bulk_update(objs, names)`` in one statement whatever their number; on PostgreSQL an
    ``UPDATE ... FROM (VALUES ...)`` written here (the ORM's ``CASE WHEN`` per row and field
    costs more to compile than to run), elsewhere the ORM's."""
    if not objs:
        return
    model = type(objs[0])
    if connection.vendor != "postgresql":
        model._default_manager.bulk_update(objs, names, batch_size=len(objs))
        return
    pk = _pk(model)
    written = _written(model, tuple(names))
    typed = ", ".join(f"CAST(%s AS {f.db_type(connection)})" for f in [pk, *written])
    plain = ", ".join(["%s"] * (len(written) + 1))
    rows_sql = ", ".join([f"({typed})", *[f"({plain})"] * (len(objs) - 1)])
    names_sql = ", ".join(quoted(f) for f in [pk, *written])
    sets = ", ".join(f"{quoted(f)} = v.{quoted(f)}" for f in written)
    sql = (
        f"UPDATE {table(model)} SET {sets} FROM (VALUES {rows_sql}) AS v({names_sql}) "
        f"WHERE {table(model)}.{quoted(pk)} = v.{quoted(pk)}"
    )
    values = [value for obj in objs for value in [obj.pk, *_prepared(obj, written, adding=False)]]
    with connection.cursor() as cursor:
        cursor.execute(sql, values)


def _prepared(
    obj: models.Model, written: Sequence[models.Field[Any, Any]], *, adding: bool
) -> list[Any]:
    """The values of ``written`` as ``save()`` sends them: ``pre_save``, then prepared."""
    return [f.get_db_prep_save(f.pre_save(obj, adding), connection) for f in written]


def _inserted(new: M, sql: str, values: Sequence[Any]) -> M:
    """Run an ``INSERT ... RETURNING`` of ``new`` and keep its primary key, as ``save()`` does."""
    with connection.cursor() as cursor:
        cursor.execute(sql, values)
        row = cursor.fetchone()
    assert row is not None
    new.pk = row[0]
    new._state.adding, new._state.db = False, connection.alias
    return new


def _pk(model: type[models.Model]) -> models.Field[Any, Any]:
    pk = model._meta.pk
    assert pk is not None
    return pk


def _written(model: type[models.Model], names: tuple[str, ...]) -> Sequence[models.Field[Any, Any]]:
    """The model's fields named (by name or attribute name), in the model's order."""
    written = tuple(f for f in fields(model) if f.name in names or f.attname in names)
    assert len(written) == len(names), f"{model.__name__} has no field among {names}"
    return written


@cache
def _insert_statement(model: type[models.Model]) -> tuple[str, Sequence[models.Field[Any, Any]]]:
    pk = _pk(model)
    written = tuple(f for f in fields(model) if f is not pk)
    return (
        f"INSERT INTO {table(model)} ({', '.join(quoted(f) for f in written)}) "
        f"VALUES ({', '.join(['%s'] * len(written))}) RETURNING {quoted(pk)}",
        written,
    )


@cache
def _update_statement(
    model: type[models.Model], names: tuple[str, ...]
) -> tuple[str, Sequence[models.Field[Any, Any]]]:
    written = _written(model, names)
    sets = ", ".join(f"{quoted(f)} = %s" for f in written)
    return f"UPDATE {table(model)} SET {sets} WHERE {quoted(_pk(model))} = %s", written
