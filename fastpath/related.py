"""A row's related row set, and a prefetched list read, by hand as the ORM keeps them.

A row read with hand-written SQL (an API token with its user) is given its related row where the
ORM would keep it after ``select_related``: ``row.parent`` then reads no more; a row whose list a
page prefetched answers from it (``Table.rules_record``). Django has no public way to do either;
the private parts used here are listed in the package's docstring and each has its test in
``tests/test_private_hooks.py``. Nothing here knows which models it is given.
"""

from __future__ import annotations

from typing import Any

from django.db import models


def relate(row: models.Model, name: str, other: models.Model) -> None:
    """``row.<name>`` is ``other``, as the ORM keeps a foreign key's row once read."""
    row._state.fields_cache[name] = other


def prefetched(parent: models.Model, name: str) -> list[Any] | None:
    """The row's kept (prefetched) list ``name``, None when not kept."""
    queryset = getattr(parent, "_prefetched_objects_cache", {}).get(name)
    return None if queryset is None else queryset._result_cache
