"""ASGI entry point: HTTP through Django, WebSockets through Channels (each app's ``routing.py``).

A WebSocket must come from an allowed origin (ALLOWED_HOSTS) and is given the Django session's
user; the consumers refuse anonymous users and roles that may not listen.
"""

from __future__ import annotations

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

# Django must be set up before anything imports models (consumers, auth middleware).
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.urls import re_path  # noqa: E402

from fastpath.heap import freeze_loaded  # noqa: E402
from pit.routing import websocket_urlpatterns as pit_routes  # noqa: E402
from surveillance.routing import websocket_urlpatterns as surveillance_routes  # noqa: E402
from tablegame.consumers import no_such_socket  # noqa: E402
from tablegame.routing import websocket_urlpatterns as table_routes  # noqa: E402

# django-stubs' path() accepts only Django views and types-channels' URLRouter only its own
# pattern type, which path() cannot return: each routing.py ignores the one, this the other.
websocket_urlpatterns = [*table_routes, *pit_routes, *surveillance_routes]
# Last, any other path: accepted and closed with 4404, logged as a warning (not an exception).
no_such_route = re_path(r"", no_such_socket)  # type: ignore[arg-type]
every_route = [*websocket_urlpatterns, no_such_route]

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(URLRouter(every_route))  # type: ignore[arg-type]
        ),
    }
)

freeze_loaded()
