"""Deferred vigorish collected, or turned into a Complimentary Vigorish Form request (000
§12(d)(2), 002 (c)(3); ``tablegame.play.seats``), run the one way (``tablegame.commands``)."""

from __future__ import annotations

from typing import Any

from tablegame.actions.run import command
from tablegame.commands import Done
from tablegame.models import VigorishMarker


def _marker(done: Done, inputs: dict[str, Any]) -> VigorishMarker:
    return VigorishMarker.objects.get(pk=inputs["marker_id"])


collect_marker = command("collect_marker", _marker)
request_vigorish_form = command("request_vigorish_form", _marker)
