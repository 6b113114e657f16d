"""The register of a pit's Complimentary Vigorish Forms, as its forms page shows it.

Read by the pit's forms page (``pit.views_forms``), for the clerk, the pit boss and the dealer
alike; the actions that change what it shows are ``tablegame.vigorish_forms.actions``.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Count, Q
from django.utils import timezone

from casino.models import Pit
from tablegame.models import VigorishMarker
from tablegame.vigorish_forms.models import VigorishForm, VigorishFormSeries


def forms_register(pit: Pit) -> dict[str, Any]:
    """The pit's Complimentary Vigorish Forms: the series received and how each number is
    accounted for, the vigorish waiting for a form, and the forms still in the pit's hands or
    forwarded this gaming day."""
    day = pit.casino.gaming_day(timezone.now())
    series = list(
        VigorishFormSeries.objects.filter(pit=pit)
        .select_related("received_by")
        .annotate(
            void=Count("forms", filter=Q(forms__status=VigorishForm.Status.VOID)),
            used=Count("forms"),
        )
    )
    waiting = list(
        VigorishMarker.objects.filter(table__pit=pit, status=VigorishMarker.Status.FORM_REQUESTED)
        .exclude(forms__status__in=_LIVE_FORM_STATES)
        .select_related("table", "resolved_by")
        .order_by("resolved_at")
    )
    forms = list(
        VigorishForm.objects.filter(pit=pit)
        .filter(Q(forwarded_at__isnull=True) | Q(gaming_day=day))
        .select_related(
            "table", "dealer", "pit_boss", "clerk", "prepared_by", "voided_by", "void_pit_boss"
        )
        .order_by("-number")
    )
    return {
        "pit": pit,
        "gaming_day": day,
        "series": series,
        "unused": sum(s.unused for s in series),
        "waiting": waiting,
        "forms": forms,
        "to_forward": [f for f in forms if f.gaming_day == day and f.forwarded_at is None],
    }


_LIVE_FORM_STATES = [s for s in VigorishForm.Status.values if s != VigorishForm.Status.VOID]
