"""A pytest plugin loaded before Django's settings (``-p tests.redis_per_worker`` in
``pyproject.toml``'s addopts): under pytest-xdist (``make test-fast`` runs two workers), each
worker uses a Redis database of its own, the one after REDIS_URL's by its number (``gw0`` that
database, ``gw1`` the next), as each uses a PostgreSQL database of its own (pytest-django's
``test_<name>_gw0``...). The channel layer's prefix names the database (``config.env``), so the
workers' notices and Celery queues never meet. Without xdist, nothing changes."""

from __future__ import annotations

import os
from urllib.parse import urlsplit, urlunsplit


def redis_url_of_worker(url: str, worker: str) -> str:
    """``url`` with its database number moved on by the worker's (``gw1``: one more)."""
    parts = urlsplit(url)
    database = int(parts.path.strip("/") or "0") + int(worker.removeprefix("gw"))
    return urlunsplit(parts._replace(path=f"/{database}"))


_worker, _url = os.environ.get("PYTEST_XDIST_WORKER"), os.environ.get("REDIS_URL")
if _worker and _url:
    os.environ["REDIS_URL"] = redis_url_of_worker(_url, _worker)
