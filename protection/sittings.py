"""Players' sessions at the tables and their settled wagers, kept by the follower as it reads.

A player seated (``player_seated``) opens a session at that seat (closing one still open
there); the pit changing their name or card (``change``) restates the open one; leaving
(``player_left``) or the table closing ends it. Every wager settled (``round_settled``, and
House Money's own settlement) becomes a ``Wagered`` row of the session open at its seat, with
the exact edge of that wager for the round (``Edge``) and the theoretical win it makes, the
amount times the edge: a rating summed wager by wager, never an average bet times a nominal
edge. A wager whose edge is not known (Royal 9's meters, a round not priced) has none, and the
rating says so.

After a batch, each session that placed a side bet on a round its wager was the player's is
examined (``advantage.examine``) over every round it played; a flagged session marks its table
(``alerts.mark_findings``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal
from fractions import Fraction

from django.db.models import F

from baccarat.wagers import Result
from baccarat.wagertypes import WagerType
from protection.advantage import Bet, Finding, examine
from protection.chairs import priced_as
from protection.models import Edge, PlayerSession, Wagered
from protection.rules import RulesInForce
from tablegame import events
from tablegame.models import Table

#: The wagers on the layout's lines: a side bet is any other.
LINES = frozenset({WagerType.PLAYER.value, WagerType.BANKER.value, WagerType.TIE.value})
#: Places of the theoretical win kept per wager.
THEO_PLACES = Decimal("0.00000001")


@dataclass
class Sittings:
    """One batch's sessions and wagers, for the tables it reads."""

    rules: RulesInForce
    open: dict[tuple[int, int], PlayerSession] = field(default_factory=dict)
    new: list[PlayerSession] = field(default_factory=list)
    changed: dict[int, PlayerSession] = field(default_factory=dict)
    wagers: list[Wagered] = field(default_factory=list)
    rides: list[tuple[int, int, int, int, str]] = field(default_factory=list)
    """Wagers lost at tables that offer House Money, whose payout may have ridden on them:
    (table, shoe, round, seat, wager)."""

    @classmethod
    def of(cls, tables: Mapping[int, Table], rules: RulesInForce) -> Sittings:
        """The tables' open sessions (one query)."""
        found = PlayerSession.objects.filter(table_id__in=list(tables), left_at__isnull=True)
        return cls(rules=rules, open={(s.table_id, s.seat): s for s in found})

    def read(
        self, table: Table, payload: object, at: datetime, sequence: int, shoe: int | None
    ) -> None:
        """Take what ``payload`` says of players and wagers."""
        match payload:
            case events.PlayerSeated(seat=seat, player=player, card=card, change=True):
                session = self.open.get((table.pk, seat))
                if session is not None:
                    session.player, session.card = player, card or ""
                    self._touch(session)
                    return
                self._seat(table, seat, player, card, at, sequence)
            case events.PlayerSeated(seat=seat, player=player, card=card):
                self._leave(table.pk, seat, at)
                self._seat(table, seat, player, card, at, sequence)
            case events.PlayerLeft(seat=seat):
                self._leave(table.pk, seat, at)
            case events.TableClosed():
                for table_id, seat in [k for k in self.open if k[0] == table.pk]:
                    self._leave(table_id, seat, at)
            case events.HouseMoneySettled(round=number, wagers=settled) if shoe is not None:
                self._settled(table, shoe, number, settled, at, sequence, lost=set())
            case events.RoundSettled(round=number, wagers=settled) if shoe is not None:
                lost = {(w.seat, w.wager.value) for w in settled if w.result is Result.LOSE}
                self._settled(table, shoe, number, settled, at, sequence, lost=lost)

    def save(
        self, priced: Mapping[tuple[int, int, int], Edge]
    ) -> list[tuple[PlayerSession, set[str]]]:
        """Write the batch's sessions and wagers (the edges of rounds priced in earlier batches
        read in one query); returns the sessions to examine, each with the side wagers it
        placed on a round they were the player's."""
        if self.new:  # read again (the follower put back), the same seating is the same row
            PlayerSession.objects.bulk_create(
                self.new,
                update_conflicts=True,
                unique_fields=["table", "sequence"],
                update_fields=["player", "card", "left_at"],
            )
        if self.changed:
            PlayerSession.objects.bulk_update(
                list(self.changed.values()), ["player", "card", "left_at"]
            )
        if not self.wagers:
            self._rides()
            return []
        wanted = {(w.table_id, w.shoe, w.round) for w in self.wagers} - set(priced)
        edges = dict(priced)
        if wanted:  # a few rows more than wanted at most, not an OR of every key
            for e in Edge.objects.filter(**_within(wanted)):
                if (e.table_id, e.shoe, e.round) in wanted:
                    edges[(e.table_id, e.shoe, e.round)] = e
        examine_them: dict[int, tuple[PlayerSession, set[str]]] = {}
        for w in self.wagers:
            edge = edges.get((w.table_id, w.shoe, w.round))
            text = edge.edges.get(priced_as(w.wager, w.seat)) if edge is not None else None
            if text is not None:  # the pricing's exact text, as the edge keeps it
                exact = Fraction(text)
                w.edge, w.theoretical = text, _theoretical(w.amount, exact)
                if exact < 0 and w.wager not in LINES and w.session is not None:
                    entry = examine_them.setdefault(id(w.session), (w.session, set()))
                    entry[1].add(w.wager)
            if w.session is not None:
                w.session_id = w.session.pk
        Wagered.objects.bulk_create(self.wagers, ignore_conflicts=True)
        self._rides()
        return list(examine_them.values())

    def tables_changed(self) -> set[int]:
        """The tables where this batch seated, changed, or ended a session, or rated a wager of
        one (what the pit console's ratings panel shows of them moved)."""
        sessions = [*self.new, *self.changed.values()]
        return (
            {s.table_id for s in sessions}
            | {w.table_id for w in self.wagers if w.session is not None}
            | {table_id for table_id, *_ in self.rides}
        )

    def _rides(self) -> None:
        """House Money let ride on a wager that lost is lost with it (as accounting counts it,
        ``ride_back``): once (``ride_lost``), at tables that offer House Money only."""
        if not self.rides:
            return
        lost = set(self.rides)
        candidates = Wagered.objects.filter(
            **_within({(t, shoe, number) for t, shoe, number, _, _ in lost}),
            wager=WagerType.HOUSE_MONEY.value,
            ridden__gt=0,
            ride_lost=False,
        ).values_list("pk", "table_id", "shoe", "round", "seat", "ride")
        ids = [pk for pk, *key in candidates if tuple(key) in lost]
        if ids:
            Wagered.objects.filter(pk__in=ids).update(
                result=F("result") - F("ridden"), ride_lost=True
            )

    def _seat(
        self, table: Table, seat: int, player: str, card: str | None, at: datetime, sequence: int
    ) -> None:
        session = PlayerSession(
            table_id=table.pk,
            seat=seat,
            player=player,
            card=card or "",
            seated_at=at,
            gaming_day=table.pit.casino.gaming_day(at),
            sequence=sequence,
        )
        self.open[(table.pk, seat)] = session
        self.new.append(session)

    def _leave(self, table_id: int, seat: int, at: datetime) -> None:
        session = self.open.pop((table_id, seat), None)
        if session is not None:
            session.left_at = at
            self._touch(session)

    def _touch(self, session: PlayerSession) -> None:
        if session.pk is not None:
            self.changed[session.pk] = session

    def _settled(
        self,
        table: Table,
        shoe: int,
        number: int,
        settled: Iterable[events.WagerRecord],
        at: datetime,
        sequence: int,
        *,
        lost: set[tuple[int, str]],
    ) -> None:
        for w in settled:
            if w.amount is None:
                continue  # an older record without the amount: not rated
            net = w.payout - w.vigorish - w.fee
            if w.result is Result.LOSE:
                net -= w.amount - w.returned
            self.wagers.append(
                Wagered(
                    session=self.open.get((table.pk, w.seat)),
                    table_id=table.pk,
                    shoe=shoe,
                    round=number,
                    seat=w.seat,
                    wager=w.wager.value,
                    amount=w.amount,
                    result=net,
                    ride=w.ride.value if w.ride is not None else "",
                    ridden=w.ridden,
                    settled_at=at,
                    sequence=sequence,
                )
            )
        if lost and self.rules.at(table.pk, at)[1].offers(WagerType.HOUSE_MONEY):
            self.rides.extend((table.pk, shoe, number, seat, wager) for seat, wager in lost)


def _within(keys: set[tuple[int, int, int]]) -> dict[str, set[int]]:
    """A filter of rows keyed by table, shoe and round that holds ``keys`` (and perhaps a few
    more, which the caller leaves out): three lists, not an OR of every key."""
    return {
        "table_id__in": {k[0] for k in keys},
        "shoe__in": {k[1] for k in keys},
        "round__in": {k[2] for k in keys},
    }


def _theoretical(amount: Decimal, edge: Fraction) -> Decimal:
    exact = Fraction(amount) * edge
    return (Decimal(exact.numerator) / Decimal(exact.denominator)).quantize(THEO_PLACES)


def examine_sessions(
    sessions: Iterable[tuple[PlayerSession, set[str]]],
) -> list[tuple[PlayerSession, dict[str, Finding]]]:
    """Each session's side wagers named examined over every round it played (two queries a
    session), kept on the session with its other findings (``findings``, one update for all)."""
    out: list[tuple[PlayerSession, dict[str, Finding]]] = []
    for session, wagers in sessions:
        rows = list(
            Wagered.objects.filter(session=session).values_list("shoe", "round", "wager", "amount")
        )
        rounds = sorted({(shoe, number) for shoe, number, _, _ in rows})
        edges = {
            (e.shoe, e.round): e
            for e in Edge.objects.filter(
                table_id=session.table_id, shoe__in={shoe for shoe, _ in rounds}
            )
        }
        amounts: dict[tuple[int, int, str], Decimal] = defaultdict(Decimal)
        for shoe, number, wager, amount in rows:
            amounts[(shoe, number, wager)] += amount
        found: dict[str, Finding] = {}
        for wager in sorted(wagers):
            bets = []
            for shoe, number in rounds:
                edge = edges.get((shoe, number))
                exact = edge.edge(wager, session.seat) if edge is not None else None
                if exact is not None:
                    bets.append(Bet(shoe, number, amounts[(shoe, number, wager)], exact))
            found[wager] = examine(bets, seed=session.pk or 0)
        session.findings = {
            **session.findings,
            **{wager: finding_data(f) for wager, f in found.items()},
        }
        out.append((session, found))
    if out:
        PlayerSession.objects.bulk_update([session for session, _ in out], ["findings"])
    return out


def finding_data(finding: Finding) -> dict[str, object]:
    """A finding as plain JSON, as the session keeps it."""
    return {
        "rounds": finding.rounds,
        "bets": finding.bets,
        "theirs": [list(r) for r in finding.theirs],
        "average_theirs": None if finding.average_theirs is None else str(finding.average_theirs),
        "average_other": None if finding.average_other is None else str(finding.average_other),
        "p_value": finding.p_value,
        "flagged": finding.flagged,
    }
