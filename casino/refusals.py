"""Every refusal of the access policy that reaches a person as a 403 is kept in the record of
sign-ins and refusals (issue 28: "every failure leaves a trace"), for surveillance to query
(``/surveillance/signins/``): who, what they tried (the policy's ``what`` and its words), the
path, the address and when.

Where the policy's no becomes a 403 it calls ``refused`` (or ``refused_request``): a page
(``casino.access.page``), the API (``tablegame.api.permissions.Policy``) and a table, pit or
surveillance socket closed with 4403 (``tablegame.consumers``). An allowed request costs nothing;
a refusal costs one insert. ``decide`` itself records nothing: templates, buttons and actions ask
it too, and their no reaches nobody as a refusal.

Bounded: a person (a visitor: an address) refused the same thing more than ``KEPT_PER_MINUTE``
times in one minute has the first ``KEPT_PER_MINUTE`` kept one by one, and the rest counted on the
last one kept (``AccessRefusal.more``: one UPDATE of that row, nothing inserted), so a script
hammering a page cannot fill the disk. The count of each minute is kept in Django's cache (an
atomic increment); with a cache per process (the default, local memory) the bound is per process.
Never raises: a refusal is answered whether or not it could be kept (a failure is logged).
"""

from __future__ import annotations

import ipaddress
import logging
from typing import Any

from django.contrib.auth.models import User
from django.core.cache import cache
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils import timezone

from casino import access
from casino.models_refusals import AccessRefusal
from casino.signin import client_address, seen_address

log = logging.getLogger(__name__)

#: Refusals of one person and one thing kept one by one in a minute; the rest are counted.
KEPT_PER_MINUTE = 10
#: How long a minute's count stays in the cache (past its minute, for refusals on their way).
COUNT_SECONDS = 120


def refused(
    user: access.Person,
    what: str,
    *,
    channel: str,
    path: str = "",
    address: str = "",
) -> None:
    """Keep the refusal of ``what`` to ``user`` (``channel``: ``AccessRefusal.Channel``)."""
    try:
        _keep(user, what, channel=channel, path=path, address=address)
    except Exception:
        log.warning("refusal of %s at %s not kept", what, path, exc_info=True)


def refused_request(request: HttpRequest, what: str, *, channel: str) -> None:
    """Keep the refusal of ``what`` to the request's user, at its path and address."""
    refused(
        getattr(request, "user", None),
        what,
        channel=channel,
        path=request.path,
        address=client_address(request),
    )


def scope_address(scope: dict[str, Any]) -> str:
    """A socket's client address, as ``casino.signin.client_address`` reads a request's."""
    client = scope.get("client") or ("",)
    headers = {name.decode("latin-1").lower(): value for name, value in scope.get("headers", ())}
    return seen_address(
        str(client[0] or ""),
        forwarded_for=headers.get("x-forwarded-for", b"").decode("latin-1"),
        real_ip=headers.get("x-real-ip", b"").decode("latin-1"),
    )


def minute_count(key: str) -> int:
    """One more of ``key`` this minute, counted in Django's cache (an atomic increment): the
    count now. ``key`` names the minute (``...:202611291107``)."""
    cache.add(key, 0, timeout=COUNT_SECONDS)
    try:
        return int(cache.incr(key))
    except ValueError:  # the count expired between add and incr: a new minute's first
        cache.set(key, 1, timeout=COUNT_SECONDS)
        return 1


def counted_on_last(rows: QuerySet[Any], key: str, count: int) -> bool:
    """Past ``KEPT_PER_MINUTE`` of ``key`` this minute: the extra is counted on the last row kept
    (its ``more``, one UPDATE), and nothing more is kept (True)."""
    if count <= KEPT_PER_MINUTE:
        return False
    last = cache.get(f"{key}:last")
    extra = count - KEPT_PER_MINUTE
    if last is not None:  # the count only grows: a late increment never lowers it
        rows.filter(pk=last, more__lt=extra).update(more=extra)
    return True


def keep_last(key: str, count: int, pk: int) -> None:
    """The last row kept of ``key`` this minute, for ``counted_on_last``."""
    if count == KEPT_PER_MINUTE:
        cache.set(f"{key}:last", pk, timeout=COUNT_SECONDS)


def _valid(address: str) -> str | None:
    try:
        return str(ipaddress.ip_address(address))
    except ValueError:
        return None


def _keep(user: access.Person, what: str, *, channel: str, path: str, address: str) -> None:
    now = timezone.now()
    known = user if isinstance(user, User) else None
    who = f"user:{known.pk}" if known is not None else f"address:{address}"
    key = f"refusals:{who}:{what}:{now:%Y%m%d%H%M}"
    count = minute_count(key)
    if counted_on_last(AccessRefusal.objects.all(), key, count):
        return
    rule = access.RULES.get(what)
    row = AccessRefusal.objects.create(
        at=now,
        user=known,
        username=known.get_username() if known is not None else "",
        what=what[:100],
        doing=(rule.doing if rule is not None else "")[:200],
        channel=channel,
        path=path[:300],
        address=_valid(address),
    )
    keep_last(key, count, row.pk)
