"""``{% event_kinds %}``: the map of what each kind of table event changes (``tablegame.kinds``),
embedded as ``<script id="event-kinds" type="application/json">`` for the page's scripts
(``Live.touches``, static/js/live.js)."""

from __future__ import annotations

from django import template
from django.utils.html import json_script
from django.utils.safestring import SafeString

from tablegame.kinds import event_kinds as kinds_map

register = template.Library()


@register.simple_tag
def event_kinds() -> SafeString:
    """The map as a JSON script element, ``#event-kinds``."""
    return json_script(kinds_map(), "event-kinds")
