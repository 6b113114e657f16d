"""Model instances from rows read with hand-written SQL, as the ORM makes them.

The live path reads what a dealer's tap needs in one or two statements written once from the
models' columns (``tablegame.live``, the API's tokens). Compiling a queryset costs more than the
round trip itself; these helpers turn such a statement's columns back into model instances: the
fields' database converters applied, related objects left to the caller.
"""

from __future__ import annotations

from collections.abc import Sequence
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
    values = [_from_json(f, data[f.column or ""]) for f in fields(model)]
    return model.from_db(connection.alias, [f.attname for f in fields(model)], values)


def _from_db(model_field: models.Field[Any, Any], value: Any) -> Any:
    for converter in model_field.get_db_converters(connection):
        value = converter(value, None, connection)
    return value


def _from_json(model_field: models.Field[Any, Any], value: Any) -> Any:
    if value is None:
        return None
    if isinstance(model_field, models.DateTimeField):
        return parse_datetime(value)
    if isinstance(model_field, models.DecimalField):
        return Decimal(value)
    return value
