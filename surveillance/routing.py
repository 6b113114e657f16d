"""Surveillance's WebSocket route (mounted by ``config/asgi.py``)."""

from __future__ import annotations

from django.urls import URLPattern, path

from surveillance.consumers import SurveillanceConsumer

websocket_urlpatterns: list[URLPattern] = [
    path("ws/surveillance/", SurveillanceConsumer.as_asgi()),
]
