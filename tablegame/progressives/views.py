"""The table's progressive strip, as JSON: what ``static/js/progressive_strip.js`` reads on the
table's display and tablet (``templates/progressives/_strip.html``) when a notice cannot say what
changed. The strip belongs to the table, so its endpoint is routed from ``tablegame.urls``.
"""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse
from django.shortcuts import get_object_or_404
from django.views.decorators.cache import never_cache

from casino import access
from tablegame.models import Table
from tablegame.progressives.screens import table_progressives


@never_cache
@access.page("page:progressives-state", json=True)
def table_progressives_state(request: HttpRequest, table_id: int) -> JsonResponse:
    """One table's meters, Personal King-9s, prizes and pending wins (display and tablet)."""
    return JsonResponse(table_progressives(get_object_or_404(Table, pk=table_id)))
