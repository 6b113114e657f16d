"""``fastpath.rows`` makes from hand-written SQL the same instances the ORM makes."""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth.models import User
from django.db import connection, models

from fastpath import rows
from tablegame import actions
from tablegame.models import Card, Round, Shoe, Table, TableRules, Wager
from tests.tablegame.conftest import dealer, floor, ready_table, staff

__all__ = ["dealer", "floor", "staff"]

pytestmark = pytest.mark.django_db


def values(obj: models.Model) -> dict[str, Any]:
    return {f.attname: getattr(obj, f.attname) for f in rows.fields(type(obj))}


def read_back(model: type[models.Model], pk: int) -> tuple[models.Model, models.Model]:
    """The row read as ``columns`` into ``instance``, and as ``row_to_json`` into ``from_json``."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {rows.columns('x', model)} FROM {rows.table(model)} x WHERE x.id = %s", [pk]
        )
        plain = rows.instance(model, cursor.fetchone())
        cursor.execute(
            f"SELECT row_to_json(x)::text FROM {rows.table(model)} x WHERE x.id = %s", [pk]
        )
        data = json.loads(cursor.fetchone()[0], parse_float=Decimal)
    assert plain is not None
    return plain, rows.from_json(model, data)


def test_rows_read_back_as_the_orm_reads_them(dealer: User, floor: User) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("row_to_json is PostgreSQL's")
    table = ready_table("ma-mini", dealer, floor)
    actions.open_round(table, actor=dealer)
    actions.place_wager(table, seat=1, wager="banker", amount="25.50", actor=dealer)
    actions.no_more_bets(table, actor=dealer)
    actions.deal_card(table, card="9H", actor=dealer)
    game = Round.objects.get(table=table)
    for model, pk in (
        (Table, table.pk),
        (Shoe, game.shoe_id),
        (Round, game.pk),
        (TableRules, game.rules_id),
        (Wager, Wager.objects.get(round=game).pk),
        (Card, Card.objects.get(round=game).pk),
    ):
        orm = model.objects.get(pk=pk)
        for made in read_back(model, pk):
            assert type(made) is model
            assert values(made) == values(orm), model.__name__
            assert (made._state.adding, made._state.db) == (False, orm._state.db)
            assert made == orm  # same row
    shoe, _ = read_back(Shoe, game.shoe_id)
    assert isinstance(shoe, Shoe) and sum(shoe.remaining.values()) > 400  # JSON read as a dict


def orm_prepared(obj: models.Model, written: tuple[models.Field[Any, Any], ...]) -> list[Any]:
    return [f.get_db_prep_save(f.pre_save(obj, True), connection) for f in written]


def sent(values: list[Any]) -> list[tuple[type, Any]]:
    """What psycopg is handed: each value's type and value (a ``Jsonb`` wrapper, its object)."""
    return [(type(v), getattr(v, "obj", v)) for v in values]


@pytest.mark.parametrize(
    "model", [m for m in apps.get_models() if m._meta.app_label in ("casino", "tablegame")]
)
def test_a_row_is_sent_as_the_orm_would_send_it(model: type[models.Model]) -> None:
    """``_prepared`` sends a value as it is only where the ORM's preparation would return it
    unchanged: every field of every model, with its default, None, and values of other types."""
    written = rows._written_of(f for f in rows.fields(model) if not f.primary_key)
    kinds = written.kinds
    obj = model()
    assert sent(rows._prepared(obj, written, adding=True)) == sent(orm_prepared(obj, written))
    odd: dict[type, list[Any]] = {
        int: [None, 7, True, Decimal("3"), "12"],
        str: [None, "Banker", Card.Hand.PLAYER, 5],
        bool: [None, True, 0, 1],
    }
    for f, kind in zip(written, kinds, strict=True):
        for value in odd.get(kind[0], []) if kind is not None else []:
            setattr(obj, f.attname, value)
            expected = sent(orm_prepared(obj, written))
            assert sent(rows._prepared(obj, written, adding=True)) == expected, (f.name, value)
        setattr(obj, f.attname, model().__dict__.get(f.attname))
    assert any(kind is not None for kind in kinds) or not written
