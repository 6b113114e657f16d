"""Surveillance's WebSocket route (mounted by ``config/asgi.py``)."""

from __future__ import annotations

from django.urls import URLPattern, path

from surveillance.consumers import SurveillanceConsumer

websocket_urlpatterns: list[URLPattern] = [
    # A consumer is an ASGI app, which django-stubs' path() does not take (config/asgi.py).
    path("ws/surveillance/", SurveillanceConsumer.as_asgi()),  # type: ignore[arg-type]
]
