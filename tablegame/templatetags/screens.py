"""What the pages embed for their scripts, from its source (``{% load screens %}``):
``{% event_kinds %}`` the map of what each kind of table event changes (``tablegame.kinds``:
``Live.touches``, static/js/live.js), ``{% labels %}`` the engine's words and the suits'
symbols (``tablegame.selectors.labels``), ``{% significant_kinds %}`` the events and refusals
surveillance is shown as they happen (``tablegame.kinds.SIGNIFICANT``)."""

from __future__ import annotations

from django import template
from django.utils.html import json_script
from django.utils.safestring import SafeString

from tablegame.kinds import event_kinds as kinds_map
from tablegame.kinds import significant_kinds as significant_map
from tablegame.selectors import labels as engine_labels

register = template.Library()


@register.simple_tag
def event_kinds() -> SafeString:
    """The map as a JSON script element, ``#event-kinds``."""
    return json_script(kinds_map(), "event-kinds")


@register.simple_tag
def labels() -> SafeString:
    """The labels as a JSON script element, ``#labels``."""
    return json_script(engine_labels(), "labels")


@register.simple_tag
def significant_kinds() -> SafeString:
    """The significant events and refusals as a JSON script element, ``#significant-kinds``."""
    return json_script(significant_map(), "significant-kinds")
