"""The speed machinery's one start-up step, as the apps are ready (it has no models)."""

from __future__ import annotations

from django.apps import AppConfig


class FastpathConfig(AppConfig):
    """Has psycopg keep the live path's statements parsed (``rows.keep_statements_parsed``)."""

    name = "fastpath"

    def ready(self) -> None:
        from fastpath import rows

        rows.keep_statements_parsed()
