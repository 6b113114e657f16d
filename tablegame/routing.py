"""WebSocket routes (mounted by ``config/asgi.py``): live notices for screens; see consumers."""

from __future__ import annotations

from django.urls import URLPattern, path

from tablegame.consumers import PitConsumer, SurveillanceConsumer, TableConsumer

websocket_urlpatterns: list[URLPattern] = [
    path("ws/tables/<int:table_id>/", TableConsumer.as_asgi()),
    path("ws/pits/<int:pit_id>/", PitConsumer.as_asgi()),
    path("ws/surveillance/", SurveillanceConsumer.as_asgi()),
]
