"""A row's related rows and prefetched lists, set and read by hand as the ORM keeps them.

What a command read in one statement or wrote itself is kept where the ORM would keep it after
``select_related`` or ``prefetch_related``: ``row.parent`` and ``parent.children.all()`` then
read no more. Django has no public way to set these; the private
parts written here are listed in the package's docstring and each has its test in
``tests/test_private_hooks.py``. Nothing here knows which models it is given.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from django.db import models


def relate(row: models.Model, name: str, other: models.Model) -> None:
    """``row.<name>`` is ``other``, as the ORM keeps a foreign key's row once read."""
    row._state.fields_cache[name] = other


def prefetched(parent: models.Model, name: str) -> list[Any] | None:
    """The row's kept (prefetched) list ``name``, None when not kept."""
    queryset = getattr(parent, "_prefetched_objects_cache", {}).get(name)
    return None if queryset is None else queryset._result_cache


def prefetch(parent: models.Model, name: str, found: list[Any]) -> None:
    """Set ``found`` as the row's prefetched relation ``name`` (as ``prefetch_related`` does):
    the queryset the related manager would make, without making the manager. Its filter on the
    row is Django's deferred one, as the manager leaves it: applied only if a call chains on
    it (``parent.children.filter(...)``), which then reads the database for this row alone."""
    model, field = _relation(type(parent), name)
    queryset: Any = model._default_manager.get_queryset()  # its private parts are set here
    queryset._hints = {"instance": parent}
    queryset._deferred_filter = (False, (), {field.name: parent})
    queryset._known_related_objects = {field: {parent.pk: parent}}
    queryset._result_cache = found
    queryset._prefetch_done = True
    kept: dict[str, Any] = parent.__dict__.setdefault("_prefetched_objects_cache", {})
    kept[name] = queryset


def forget(parent: models.Model, *names: str) -> None:
    """The row's kept lists ``names``, if kept, dropped: read again when next asked for."""
    kept: dict[str, Any] = getattr(parent, "_prefetched_objects_cache", {})
    for name in names:
        kept.pop(name, None)


@cache
def _relation(parent: type[models.Model], name: str) -> tuple[type[models.Model], Any]:
    """The model of the row's relation ``name`` and its foreign key to the row."""
    relation = parent._meta.get_field(name)
    assert isinstance(relation, models.ManyToOneRel)
    model = relation.related_model
    assert isinstance(model, type)
    return model, relation.field
