"""The table's WebSocket route (mounted by ``config/asgi.py``): live notices; see consumers."""

from __future__ import annotations

from django.urls import URLPattern, path

from tablegame.consumers import TableConsumer

websocket_urlpatterns: list[URLPattern] = [
    # A consumer is an ASGI app, which django-stubs' path() does not take (config/asgi.py).
    path("ws/tables/<int:table_id>/", TableConsumer.as_asgi()),  # type: ignore[arg-type]
]
