"""Advantage-play alerts on surveillance's wall: a wager favourable to the players, a lost count.

A table is marked (``tablegame.marks``, source ``protection``) from the round a wager's exact
edge turns below zero until none is, or the shoe ends; the mark names the wagers and the round
it turned, and is restated only when the wagers change (not every round), so the wall is told
what is new. A count the record contradicts (``shoe_count.CountLost``) is marked too: the edges
of that shoe are not computed, and surveillance is told so rather than shown nothing. A player
whose side bets the advantage test flags (``advantage``) marks the table too, with the rounds
that show it, until they leave.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import Any

from django.urls import reverse

from baccarat.wagertypes import WagerType
from protection.advantage import Finding
from protection.chairs import chair_of, label, order, wager_of
from protection.models import Edge, Follow, PlayerSession
from protection.sittings import Sittings
from tablegame.marks.raising import Raise, settle_marks
from tablegame.models import Table

SOURCE = "protection"
FAVOURABLE = "favourable"
LOST = "lost"


def mark_tables(
    follows: Iterable[Follow], tables: Mapping[int, Table], edges: Iterable[Edge]
) -> None:
    """Bring each followed table's marks up to date with its pricings, in round order
    (``Follow.alerted`` remembers, per wager, the round since which it is the players': no query
    for a table whose alerts did not change)."""
    priced: dict[int, list[Edge]] = {}
    for edge in edges:
        priced.setdefault(edge.table_id, []).append(edge)
    for f in follows:
        told = dict(f.alerted) if isinstance(f.alerted, dict) else {}
        shoe, since = told.get("shoe"), dict(told.get("since", {}))
        lost_told = bool(told.get("lost"))
        latest: Edge | None = None
        for edge in sorted(priced.get(f.table_id, ()), key=lambda e: (e.shoe, e.round)):
            if edge.shoe != shoe:
                shoe, since = edge.shoe, {}
            since = {w: since.get(w, edge.round) for w in edge.favourable}
            latest = edge
        if latest is None and (f.shoe is None or f.lost):
            since = {}  # the shoe is over, or its count lost: nothing stands
        unchanged = sorted(since) == sorted(told.get("since", {})) and bool(f.lost) == lost_told
        f.alerted = {"shoe": shoe, "since": since, "lost": bool(f.lost)}
        if unchanged:
            continue
        table = tables[f.table_id]
        wanted = [_favourable(table, shoe, since, latest)] if since else []
        if f.lost:
            wanted.append(
                Raise(key=LOST, words=f"Edges not computed: {f.lost}.", link=_page(table.pk))
            )
        settle_marks(table.pk, table.pit_id, SOURCE, wanted, within={FAVOURABLE, LOST})


def _favourable(
    table: Table, shoe: int | None, since: dict[str, int], latest: Edge | None
) -> Raise:
    """The mark of the wagers that favour the players, each with the round it turned; Royal 9's
    chairs in one part, with the best of them now."""
    parts = []
    chairs = {key: turned for key, turned in since.items() if chair_of(key) is not None}
    for wager, turned in sorted(since.items(), key=lambda item: (item[1], order(item[0]))):
        if wager not in chairs:
            parts.append(f"{label(wager)} since round {turned}{_now(latest, wager)}")
    if len(chairs) == 1:
        ((key, turned),) = chairs.items()
        parts.append(f"{label(key)} since round {turned}{_now(latest, key)}")
    elif chairs:
        keys = sorted(chairs, key=order)
        best = min(keys, key=lambda k: _edge_of(latest, k))
        parts.append(
            f"{label(wager_of(keys[0]))} at chairs {', '.join(str(chair_of(k)) for k in keys)} "
            f"since round "
            f"{min(chairs.values())}{_now(latest, best)}"
            + (f" at chair {chair_of(best)}" if latest is not None else "")
        )
    first = min(since.values())
    return Raise(
        key=FAVOURABLE,
        words=f"Shoe {shoe}: favours the players: " + "; ".join(parts),
        shoe=shoe,
        round=first,
        link=_page(table.pk),
    )


def _edge_of(latest: Edge | None, key: str) -> Fraction:
    text = latest.edges.get(key) if latest is not None else None
    return Fraction(text) if text is not None else Fraction(0)


def _now(latest: Edge | None, key: str) -> str:
    text = latest.edges.get(key) if latest is not None else None
    return f", now {percent(Fraction(text))}" if text is not None else ""


def _page(table_id: int) -> str:
    return reverse("protection:table", args=[table_id])


def percent(edge: Fraction) -> str:
    """A house edge as a signed percentage, two places, with a true minus sign: "\u22121.52 %"
    (below zero: the player's)."""
    hundredths = round(edge * 10_000)
    sign = "\u2212" if hundredths < 0 else ""
    whole, part = divmod(abs(hundredths), 100)
    return f"{sign}{whole}.{part:02d} %"


def player_key(session: PlayerSession) -> str:
    return f"player:{session.pk}"


def mark_findings(
    tables: Mapping[int, Table],
    sittings: Sittings,
    examined: list[tuple[PlayerSession, dict[str, Finding]]],
) -> None:
    """Mark the table of each session flagged by the advantage test, restated as its rounds
    grow with every wager flagged in the session (not only those examined now), and clear the
    mark of a flagged player who left."""
    for session, found in examined:
        if not any(f.flagged for f in found.values()):
            continue
        flagged = {w: d for w, d in session.findings.items() if d.get("flagged")}
        table = tables[session.table_id]
        words = _findings_words(f"Seat {session.seat}, {session.who}: ", flagged)
        last = max(tuple(r) for d in flagged.values() for r in d["theirs"])
        raised = Raise(
            key=player_key(session), words=words, shoe=last[0], round=last[1], link=_page(table.pk)
        )
        settle_marks(table.pk, table.pit_id, SOURCE, [raised], within={raised.key})
    for session in sittings.changed.values():
        if session.left_at is not None and any(f.get("flagged") for f in session.findings.values()):
            table = tables[session.table_id]
            settle_marks(table.pk, table.pit_id, SOURCE, [], within={player_key(session)})


#: What a mark's words may hold (``TableMark.words``).
WORDS_HELD = 300


def _findings_words(lead: str, flagged: dict[str, dict[str, Any]]) -> str:
    """Every wager flagged, with its rounds; shorter when that does not fit the mark (the
    table's page lists every round), and never cut in the middle: the wagers that do not fit
    are counted."""
    ordered = sorted(flagged.items())
    full = lead + "; ".join(_finding_words(w, d) for w, d in ordered)
    if len(full) <= WORDS_HELD:
        return full
    parts = [_finding_brief(w, d) for w, d in ordered]
    for kept in range(len(parts), 0, -1):
        rest = len(parts) - kept
        tail = f"; and {rest} more flagged (the table's page)" if rest else ""
        words = lead + "; ".join(parts[:kept]) + tail
        if len(words) <= WORDS_HELD:
            return words
    return (lead + f"{len(parts)} side wagers flagged (the table's page)")[:WORDS_HELD]


def _finding_brief(wager: str, finding: dict[str, Any]) -> str:
    shoe, number = max(tuple(r) for r in finding["theirs"])
    return (
        f"{WagerType(wager).label} bets follow the edge: {len(finding['theirs'])} on the "
        f"player's rounds, the last {shoe}/{number}, ${finding['average_theirs']} on average"
    )


def _finding_words(wager: str, finding: dict[str, Any]) -> str:
    """A finding as the session keeps it (``sittings.finding_data``), in words."""
    theirs = finding["theirs"]
    rounds = ", ".join(f"{shoe}/{number}" for shoe, number in theirs[:8])
    more = f" and {len(theirs) - 8} more" if len(theirs) > 8 else ""
    other = finding["average_other"]
    return (
        f"{WagerType(wager).label} bets follow the edge: {len(theirs)} on rounds it was the "
        f"player's (shoe/round {rounds}{more}), ${finding['average_theirs']} on average there "
        f"against {'nothing' if other is None else f'${other}'} on the others"
    )
