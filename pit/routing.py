"""The pit's WebSocket route (mounted by ``config/asgi.py``)."""

from __future__ import annotations

from django.urls import URLPattern, path

from pit.consumers import PitConsumer, PitMetersConsumer

websocket_urlpatterns: list[URLPattern] = [
    # A consumer is an ASGI app, which django-stubs' path() does not take (config/asgi.py).
    path("ws/pits/<int:pit_id>/", PitConsumer.as_asgi()),  # type: ignore[arg-type]
    path("ws/pits/<int:pit_id>/meters/", PitMetersConsumer.as_asgi()),  # type: ignore[arg-type]
]
