"""WSGI entry point: every HTTP request (pages and the API), served by gunicorn's threads.

Production runs HTTP here and WebSockets through ``config.asgi`` (uvicorn), with nginx routing
``/ws/`` to the one and the rest to the other (``deploy/nginx.conf``). A synchronous Django view
under WSGI runs on the thread that took the request, with no hop between an event loop and a
worker thread per middleware; that is most of what a dealer's tap costs (bench/RESULTS.md).
"""

from __future__ import annotations

import os

from django.core.wsgi import get_wsgi_application

from fastpath.heap import freeze_loaded

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

application = get_wsgi_application()

freeze_loaded()
