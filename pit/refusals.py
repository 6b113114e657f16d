"""The dealers' refusals on the pit console: the strip of the last few kept at the pits' tables.

A dealer's command refused for a reason surveillance must see (a card not in the shoe, a wager
after no more bets, a card not due, a wager over the limit) is kept (``tablegame.refusals``) and
told to the table's pit (``{"type": "refused"}`` on its socket) as to surveillance's wall. The
console shows the newest of its pits' (``templates/pit/_refusals.html``), read from the database
when the page loads and again on each such notice, and when a socket comes back (the channel
layer may drop a notice: what the strip shows is always what the database holds). The round's
review is surveillance's and accounting's, so a refusal links to it only for those who may open
it (``may.page_round_review``).
"""

from __future__ import annotations

import datetime

from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.cache import never_cache

from casino import access
from casino.models import Pit
from casino.supervision import pits_shown
from tablegame.models import TableRefusal

#: At most this many on the strip, the newest ...
SHOWN = 8
#: ... of the last this many hours.
HOURS = 12


def recent_refusals(pits: list[Pit]) -> list[TableRefusal]:
    """The refusals kept at the pits' tables in the last ``HOURS`` hours, newest first, at most
    ``SHOWN``, each with its table and casino (one query)."""
    if not pits:
        return []
    since = timezone.now() - datetime.timedelta(hours=HOURS)
    return list(
        TableRefusal.objects.filter(table__pit__in=pits, at__gte=since)
        .select_related("table__pit__casino")
        .order_by("-at", "-pk")[:SHOWN]
    )


@never_cache
@access.page("page:floor")
def refusals_strip(request: HttpRequest) -> HttpResponse:
    """The strip's list for the console's pits (``?pits=`` as the console)."""
    person = request.user
    assert isinstance(person, User)  # signed in (``access.page``)
    pits = pits_shown(person, request.GET.get("pits")).pits
    context = {"refusals": recent_refusals(pits), "hours": HOURS}
    return render(request, "pit/_refusals_list.html", context)
