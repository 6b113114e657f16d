"""A gaming day's play checked against the record: rounds, wagers, steps and the day's tallies.

Settling a round writes three things in one transaction: its rows (the round, its wagers and its
steps), its event in the table's chain (``round_settled``, with ``house_money_settled`` before it,
or ``round_void``: hash-chained and covered by signed checkpoints), and what it adds to the day's
tallies (``tablegame.tallies.writes``), which the accounting report reads. The database refuses to
change the rows once settled and lets a tally only grow (migration 0013), and the record is
append-only (casino 0002); :func:`check_day` finds what got past them: a table's owner or a
superuser rewriting rows, or rows written without their events. For every table of the casino, the
rounds settled in the gaming day (by ``settled_at``, as the tallies count them) are paired in order
with the settlement events of the table's chain; each round's wagers and steps must be what its
event says, and the day's tallies what the events add up to (``tablegame.tallies.figures``: the very
functions settlement uses). Each disagreement names its table and round, or its tally.

``manage.py verify_record`` runs it for every day played (``--day`` for one); the day's close
refuses to close on a discrepancy.
"""

from __future__ import annotations

import datetime
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from casino.events import PayloadMismatch, payload_of
from casino.models import Casino, Event
from casino.verification import DayReport
from tablegame.events import HouseMoneySettled, RoundSettled, RoundVoid, TableEvent, WagerRecord
from tablegame.models import Round, RoundTally, SettlementStep, Table, Wager, WagerTally
from tablegame.tallies.figures import SUMS, SettledWager, round_figures, wager_groups
from tablegame.tallies.writes import days_played

#: A settlement event is written a moment after its round's ``settled_at``: the events are read
#: this far beyond the day's bounds, so that a round settled at its last instant finds its event.
EDGE = datetime.timedelta(minutes=5)
SETTLING = (
    TableEvent.HOUSE_MONEY_SETTLED.value,
    TableEvent.ROUND_SETTLED.value,
    TableEvent.ROUND_VOID.value,
)
#: The figures of a wager that its event records, compared one by one.
WAGER_FIGURES = ("result", "payout", "vigorish", "returned", "ridden", "fee", "award", "ride")
#: The figures of a wager tally and of a round tally.
WAGER_TALLY = ("n", *SUMS)
ROUND_TALLY = ("rounds", "voids", "hand_fees")
#: Rounds named per discrepancy of a tally, at most.
NAMED = 5


@dataclass(frozen=True)
class Discrepancy:
    """Where the rows and the record disagree, in words."""

    table: str
    what: str
    round: str = ""
    """``shoe 3 round 14``, when one round is concerned."""

    def __str__(self) -> str:
        where = f"{self.table} {self.round}".strip()
        return f"{where}: {self.what}"


@dataclass
class DayCheck:
    """What :func:`check_day` compared, and what disagrees."""

    casino: str
    day: datetime.date
    rounds: int = 0
    events: int = 0
    tallies: int = 0
    discrepancies: list[Discrepancy] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.discrepancies

    def summary(self) -> str:
        head = f"{self.rounds} rounds, {self.events} settlement events, {self.tallies} tally rows"
        if self.ok:
            return f"{head}: rows, record and tallies agree"
        count = len(self.discrepancies)
        return f"{head}: {count} DISCREPANC{'Y' if count == 1 else 'IES'}"


@dataclass
class _Settlement:
    """One round's settlement as the record tells it."""

    sequence: int
    at: datetime.datetime
    number: int
    void: bool
    wagers: list[WagerRecord] = field(default_factory=list)
    steps: list[tuple[str, int, str, Decimal]] = field(default_factory=list)
    winner: str = ""
    totals: tuple[int | None, int | None] = (None, None)


def day_reports(casino: Casino, days: Iterable[datetime.date] | None = None) -> Iterator[DayReport]:
    """:func:`check_day` for ``verify_record``: each day asked, or every day played."""
    for day in days_played(casino) if days is None else days:
        check = check_day(casino, day)
        yield DayReport(
            subject=f"{casino}, gaming day {day}",
            summary=check.summary(),
            discrepancies=tuple(str(d) for d in check.discrepancies),
        )


def check_day(casino: Casino, day: datetime.date) -> DayCheck:
    """Every table's play of gaming ``day`` checked against the record and the tallies."""
    check = DayCheck(casino=str(casino), day=day)
    start, end = casino.gaming_day_bounds(day)
    tables = Table.objects.filter(pit__casino=casino).order_by("name", "pk")
    for table in tables:
        _check_table(check, table, day, start, end)
    return check


def _check_table(
    check: DayCheck,
    table: Table,
    day: datetime.date,
    start: datetime.datetime,
    end: datetime.datetime,
) -> None:
    name = table.name
    rounds: list[dict[str, Any]] = [
        dict(r)
        for r in Round.objects.filter(table=table, settled_at__gte=start, settled_at__lt=end)
        .order_by("settled_at", "pk")
        .values(
            "pk", "number", "state", "shoe_id", "shoe__number", "shoe__decks", "rules_id",
            "winner", "player_total", "banker_total", "settled_at",
        )
    ]  # fmt: skip
    ids = [r["pk"] for r in rounds]
    wagers: dict[int, list[dict[str, Any]]] = defaultdict(list)
    steps: dict[int, list[tuple[str, int, str, Decimal]]] = defaultdict(list)
    for start_at in range(0, len(ids), 1000):
        batch = ids[start_at : start_at + 1000]
        for placed in Wager.objects.filter(round_id__in=batch).values():
            wagers[placed["round_id"]].append(dict(placed))
        for s in SettlementStep.objects.filter(round_id__in=batch).values_list(
            "round_id", "action", "seat", "wager_type", "amount"
        ):
            steps[s[0]].append(s[1:])
    settlements, problems = _settlements(table, start - EDGE, end + EDGE)
    check.rounds += len(rounds)
    check.events += len(settlements)
    for problem in problems:
        check.discrepancies.append(Discrepancy(name, problem))
    expected_wagers: dict[tuple[Any, ...], dict[str, Any]] = {}
    expected_rounds: dict[tuple[Any, ...], dict[str, Any]] = {}
    contributors: dict[tuple[Any, ...], list[str]] = defaultdict(list)
    position = 0
    for game in rounds:
        label = f"shoe {game['shoe__number']} round {game['number']}"
        void = game["state"] == Round.State.VOID
        found = next(
            (
                index
                for index in range(position, len(settlements))
                if (settlements[index].number, settlements[index].void) == (game["number"], void)
            ),
            None,
        )
        if found is None:
            check.discrepancies.append(
                Discrepancy(name, "settled in the rows, but the record holds no settlement", label)
            )
            continue
        for skipped in settlements[position:found]:
            _extra(check, name, skipped, start, end)
        position = found + 1
        settlement = settlements[found]
        for problem in _compare(game, wagers[game["pk"]], steps[game["pk"]], settlement):
            check.discrepancies.append(Discrepancy(name, problem, label))
        _expect(
            game,
            settlement,
            wagers[game["pk"]],
            expected_wagers,
            expected_rounds,
            contributors,
            label,
        )
    for skipped in settlements[position:]:
        _extra(check, name, skipped, start, end)
    check.tallies += _compare_tallies(
        check, name, table, day, expected_wagers, expected_rounds, contributors
    )


def _settlements(
    table: Table, since: datetime.datetime, until: datetime.datetime
) -> tuple[list[_Settlement], list[str]]:
    """The table's settlement events between two instants, in the chain's order (House Money's
    wagers and steps joined to their round's)."""
    found: list[_Settlement] = []
    problems: list[str] = []
    house_money: dict[int, tuple[list[WagerRecord], list[tuple[str, int, str, Decimal]]]] = {}
    events = (
        Event.objects.filter(
            chain_id=table.chain_id,
            created_at__gte=since,
            created_at__lt=until,
            action__in=SETTLING,
        )
        .order_by("sequence")
        .values_list("sequence", "action", "data", "created_at")
    )
    for sequence, action, data, at in events.iterator(chunk_size=2000):
        try:
            payload = payload_of(action, data)
        except PayloadMismatch as error:
            problems.append(f"event {sequence} ({action}) cannot be read: {error}")
            continue
        if isinstance(payload, HouseMoneySettled):
            house_money[payload.round] = (list(payload.wagers), _step_keys(payload.steps))
            continue
        if isinstance(payload, RoundSettled):
            earlier_wagers, earlier_steps = house_money.pop(payload.round, ([], []))
            found.append(
                _Settlement(
                    sequence=sequence,
                    at=at,
                    number=payload.round,
                    void=False,
                    wagers=[*earlier_wagers, *payload.wagers],
                    steps=[*earlier_steps, *_step_keys(payload.steps)],
                    winner=payload.winner.value,
                    totals=(payload.player_total, payload.banker_total),
                )
            )
        elif isinstance(payload, RoundVoid):
            house_money.pop(payload.round, None)
            found.append(
                _Settlement(
                    sequence=sequence,
                    at=at,
                    number=payload.round,
                    void=True,
                    steps=_step_keys(payload.steps),
                )
            )
    return found, problems


def _step_keys(steps: Iterable[Any]) -> list[tuple[str, int, str, Decimal]]:
    return [(s.action.value, s.seat, s.wager.value if s.wager else "", s.amount) for s in steps]


def _extra(
    check: DayCheck,
    table: str,
    settlement: _Settlement,
    start: datetime.datetime,
    end: datetime.datetime,
) -> None:
    """A settlement event no settled round of the day matches (one of the edges' is another
    day's)."""
    if start <= settlement.at < end:
        what = "void" if settlement.void else "settlement"
        check.discrepancies.append(
            Discrepancy(
                table,
                f"the record holds a {what} (event {settlement.sequence}, "
                f"{settlement.at:%H:%M:%S}) that no settled round of the rows shows",
                f"round {settlement.number}",
            )
        )


def _compare(
    game: dict[str, Any],
    wagers: Sequence[dict[str, Any]],
    steps: Sequence[tuple[str, int, str, Decimal]],
    settlement: _Settlement,
) -> list[str]:
    """How one round's rows differ from its settlement event."""
    problems: list[str] = []
    if not settlement.void:
        if game["winner"] != settlement.winner:
            problems.append(
                f"winner {game['winner']!r} in the rows, {settlement.winner!r} in the record"
            )
        totals = (game["player_total"], game["banker_total"])
        if totals != settlement.totals:
            problems.append(f"totals {totals} in the rows, {settlement.totals} in the record")
        recorded = {(w.seat, w.wager.value): w for w in settlement.wagers}
        rows = {(w["seat"], w["type"]): w for w in wagers}
        for key in sorted(set(rows) | set(recorded)):
            seat, kind = key
            row, record = rows.get(key), recorded.get(key)
            if row is None:
                problems.append(f"seat {seat} {kind}: in the record, not in the rows")
                continue
            if record is None:
                problems.append(f"seat {seat} {kind}: in the rows, not in the record")
                continue
            for figure, in_rows, in_record in _figures(row, record):
                if in_rows != in_record:
                    problems.append(
                        f"seat {seat} {kind}: {figure} {in_rows} in the rows, {in_record} in "
                        "the record"
                    )
    else:
        returned = Counter((s[1], s[2], s[3]) for s in settlement.steps if s[0] == "return")
        placed = Counter((w["seat"], w["type"], w["amount"]) for w in wagers)
        if returned != placed:
            problems.append("the wagers in the rows are not those the record's void returned")
    if Counter(steps) != Counter(settlement.steps):
        problems.append("its settlement steps in the rows are not those of the record")
    return problems


def _figures(row: dict[str, Any], record: WagerRecord) -> list[tuple[str, Any, Any]]:
    pairs = [
        ("result", row["result"], record.result.value),
        ("payout", row["payout"], record.payout),
        ("vigorish", row["vigorish"], record.vigorish),
        ("returned", row["returned"], record.returned),
        ("ridden", row["ridden"], record.ridden),
        ("fee", row["fee"], record.fee),
        ("award", row["award"], record.award.value if record.award else ""),
        ("ride", row["ride"], record.ride.value if record.ride else ""),
    ]
    if record.amount is not None:
        pairs.append(("amount", row["amount"], record.amount))
    return pairs


def _settled_wagers(
    settlement: _Settlement, wagers: Sequence[dict[str, Any]]
) -> list[SettledWager]:
    """The round's wagers as the record settled them; a record older than the wager's amount in
    it takes the amount from the row (its other figures are checked)."""
    placed = {(w["seat"], w["type"]): w["amount"] for w in wagers}
    return [
        SettledWager(
            seat=w.seat,
            type=w.wager.value,
            result=w.result.value,
            amount=w.amount
            if w.amount is not None
            else placed.get((w.seat, w.wager.value), Decimal(0)),
            payout=w.payout,
            vigorish=w.vigorish,
            returned=w.returned,
            fee=w.fee,
            award=w.award.value if w.award else "",
            ride=w.ride.value if w.ride else "",
            ridden=w.ridden,
        )
        for w in settlement.wagers
    ]


def _expect(
    game: dict[str, Any],
    settlement: _Settlement,
    wagers: Sequence[dict[str, Any]],
    expected_wagers: dict[tuple[Any, ...], dict[str, Any]],
    expected_rounds: dict[tuple[Any, ...], dict[str, Any]],
    contributors: dict[tuple[Any, ...], list[str]],
    label: str,
) -> None:
    """Add what the record says this round added to the day's tallies, and name the round
    (``label``) among each tally's contributors."""
    if not settlement.void:
        for group in wager_groups(_settled_wagers(settlement, wagers)):
            key = (
                game["rules_id"],
                game["shoe__decks"],
                group["type"],
                group["result"],
                group["award"],
            )
            total = expected_wagers.setdefault(key, {"n": 0} | dict.fromkeys(SUMS, Decimal(0)))
            for name in ("n", *SUMS):
                total[name] += group[name]
            contributors[("wager", *key)].append(label)
    figures = round_figures(
        void=settlement.void, steps=[(a, k, amount) for a, _seat, k, amount in settlement.steps]
    )
    total = expected_rounds.setdefault(
        (game["shoe_id"],), {"rounds": 0, "voids": 0, "hand_fees": Decimal(0)}
    )
    for name in ("rounds", "voids", "hand_fees"):
        total[name] += figures[name]
    contributors[("round", game["shoe_id"])].append(label)


def _compare_tallies(
    check: DayCheck,
    name: str,
    table: Table,
    day: datetime.date,
    expected_wagers: dict[tuple[Any, ...], dict[str, Any]],
    expected_rounds: dict[tuple[Any, ...], dict[str, Any]],
    contributors: dict[tuple[Any, ...], list[str]],
) -> int:
    """Compare the stored tallies of the table's day with what the record adds up to."""
    stored_wagers = {
        (t.rules_id, t.decks, t.type, t.result, t.award): t
        for t in WagerTally.objects.filter(table=table, day=day)
    }
    stored_rounds = {
        (t.shoe_id,): t
        for t in RoundTally.objects.filter(table=table, day=day).select_related("shoe")
    }
    shoes = {key[0]: t.shoe.number for key, t in stored_rounds.items()}
    for key in sorted(set(stored_wagers) | set(expected_wagers), key=str):
        wrong = _differences(stored_wagers.get(key), expected_wagers.get(key), WAGER_TALLY)
        if wrong:
            award = f" {key[4]}" if key[4] else ""
            check.discrepancies.append(
                Discrepancy(
                    name,
                    f"the tally of {key[2]} {key[3]}{award} ({key[1]} decks) holds {wrong}"
                    + _named(contributors.get(("wager", *key), [])),
                )
            )
    for key in sorted(set(stored_rounds) | set(expected_rounds), key=str):
        wrong = _differences(stored_rounds.get(key), expected_rounds.get(key), ROUND_TALLY)
        if wrong:
            check.discrepancies.append(
                Discrepancy(
                    name,
                    f"the round tally of shoe {shoes.get(key[0], f'id {key[0]}')} holds {wrong}"
                    + _named(contributors.get(("round", key[0]), [])),
                )
            )
    return len(stored_wagers) + len(stored_rounds)


def _differences(
    stored: WagerTally | RoundTally | None, want: dict[str, Any] | None, figures: Sequence[str]
) -> str:
    """The figures a tally row holds that the record does not add up to, in words."""
    have = {f: getattr(stored, f) for f in figures} if stored else dict.fromkeys(figures, 0)
    expected = want or dict.fromkeys(figures, 0)
    return ", ".join(
        f"{f} {have[f]} where the record adds up to {expected[f]}"
        for f in figures
        if have[f] != expected[f]
    )


def _named(rounds: Sequence[str]) -> str:
    if not rounds:
        return ""
    more = len(rounds) - NAMED
    listed = ", ".join(rounds[:NAMED]) + (f" and {more} more" if more > 0 else "")
    return f" (rounds: {listed})"
