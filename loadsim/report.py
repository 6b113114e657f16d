"""What a run measured, worked out from the bots' log, the screens and the record.

Which notices a screen should have heard is read from the record (``casino.Event``) after the
run: every event of its tables after its first hello, whenever it came (in the measured window or
not). One it never heard is lost; of those, the report tells apart the ones the screen learned it
had missed, as the page script would, and reloaded for: by a gap (a later notice skipped them) or
by a hello (the heartbeat's, or a reopened socket's, said more than it had heard); the rest went
unnoticed. Heard more than once (duplicates), after a later one (late), and heard though the record
has no such event (not in the record: another run's notices on the same Redis) are counted too.
A card command is matched to its event by order:
the k-th card a bot dealt in the run is the k-th ``card_dealt`` event of its table after the run
began (the bot is the only one dealing there). Its card-to-every-screen time runs from sending the
command to its notice on the last of the table's screens (tablet, display, pit console and every
surveillance screen); a card some screen never heard counts as lost, not in the times.
"""

from __future__ import annotations

import json
import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from loadsim.dealer import Sent
from loadsim.reading import Done
from loadsim.screens import Screen

CARD_ROUTE = "round/cards/"
SETTLE_ROUTE = "round/settle/"
CARD_EVENT = "card_dealt"


@dataclass(frozen=True)
class Spread:
    """Milliseconds: the median, the 99th percentile and the worst, over ``count`` samples."""

    count: int
    p50: float
    p99: float
    max: float

    @classmethod
    def of(cls, seconds: Sequence[float]) -> Spread:
        if not seconds:
            return cls(0, math.nan, math.nan, math.nan)
        ordered = sorted(seconds)
        return cls(
            count=len(ordered),
            p50=1000 * percentile(ordered, 50),
            p99=1000 * percentile(ordered, 99),
            max=1000 * ordered[-1],
        )

    def text(self) -> str:
        if not self.count:
            return "none"
        return (
            f"p50 {self.p50:.1f} ms, p99 {self.p99:.1f} ms, max {self.max:.1f} ms (n={self.count})"
        )


def percentile(ordered: Sequence[float], pct: float) -> float:
    """Nearest-rank percentile of sorted values."""
    rank = max(1, math.ceil(pct / 100 * len(ordered)))
    return ordered[rank - 1]


@dataclass
class Report:
    tables: int
    pits: int
    screens: int
    pace: str
    seconds: float
    """The measured window."""
    server: str
    auth: str = "session"
    """How the bots signed in: ``session`` (as the tablet) or ``token``."""
    setup_seconds: float = 0.0
    tables_playing: int = 0
    rounds: int = 0
    commands: int = 0
    rounds_per_second: float = 0.0
    commands_per_second: float = 0.0
    command_latency: Spread = field(default_factory=lambda: Spread.of(()))
    card_to_every_screen: Spread = field(default_factory=lambda: Spread.of(()))
    card_to_screen_by_kind: dict[str, Spread] = field(default_factory=dict)
    cards_unmatched: int = 0
    """Cards of tables whose commands and events could not be paired (a resync)."""
    notices_expected: int = 0
    """Events the screens should have been told of: per screen, those of its tables after its
    first hello."""
    notices_lost: int = 0
    """Of them, never heard (whatever the screen learned later)."""
    notices_lost_by_kind: dict[str, int] = field(default_factory=dict)
    notices_recovered_by_gap: int = 0
    """Lost, and the screen saw the gap in a later notice (the page reloads the table)."""
    notices_recovered_by_hello: int = 0
    """Lost, and a later hello said more than the screen had heard (the page reloads the table)."""
    notices_lost_unnoticed: int = 0
    """Lost, and the screen never learned it (until a later hello or notice, after the run)."""
    tables_recovered_by_hello: int = 0
    """Hellos that told a screen it had lost notices of a table, one per table they did."""
    hellos_repeated: int = 0
    """Hellos after a screen's first: the server's heartbeat, and reopened sockets'."""
    late: int = 0
    """Notices heard after a later one of their table."""
    not_in_record: int = 0
    """Events heard that the record does not have after the screen's hello."""
    duplicates: int = 0
    disconnects: int = 0
    screens_refused: list[str] = field(default_factory=list)
    failed_commands: dict[str, int] = field(default_factory=dict)
    """Commands that were not done, by HTTP status (0: no answer)."""
    refusals: list[str] = field(default_factory=list)
    resyncs: int = 0
    gave_up: int = 0
    by_route: dict[str, Spread] = field(default_factory=dict)
    cpu_seconds: dict[str, float] = field(default_factory=dict)
    """Over the window: ``server``, ``load generator``, ``postgresql``, ``redis``."""
    cpu_ms_per_command: dict[str, float] = field(default_factory=dict)
    loop_lag: Spread = field(default_factory=lambda: Spread.of(()))
    """How late the load generator's own event loop woke up (its notes of arrival are as late)."""
    load_average: str = ""
    pages: bool = False
    """Whether the screens were pages sending their scripts' reads."""
    page_reads: int = 0
    """Reads the pages sent in the window (``loadsim.pages``; none when they only listen)."""
    page_reads_per_second: float = 0.0
    reads_by_what: dict[str, Spread] = field(default_factory=dict)
    """Each kind of read's own time, request to answer."""
    reads_by_cause: dict[str, int] = field(default_factory=dict)
    """Why the pages sent them: ``notice``, ``answer``, ``gap``, ``hello``, ``load``."""
    reads_failed: dict[str, int] = field(default_factory=dict)
    """Reads not answered 200, by what and status."""
    memory_mb: dict[str, tuple[float, float]] = field(default_factory=dict)
    """Each server process's resident memory at the window's start and end, in MB."""
    gaming_day: dict[str, Any] | None = None
    """With ``--gaming-day``: the close of the run's day and its checks (``gaming_day``)."""
    gaming_day_ok: bool | None = None
    recovered: Spread = field(default_factory=lambda: Spread.of(()))
    """A page that learned it missed notices (a gap, a hello), to the answer of its read: the
    time it showed something stale."""

    def as_json(self) -> str:
        return json.dumps(asdict(self), indent=2, default=str)

    def text(self) -> str:
        cpu = ", ".join(
            f"{name} {seconds:.1f} s ({self.cpu_ms_per_command.get(name, math.nan):.1f} ms/command)"
            for name, seconds in self.cpu_seconds.items()
        )
        lines = [
            f"{self.tables} tables ({self.tables_playing} playing) in {self.pits} pits, "
            f"{self.screens} screens, {self.pace} pace, {self.seconds:.0f} s measured, "
            f"server {self.server}, bots signed in by {self.auth} "
            f"(setup {self.setup_seconds:.0f} s)",
            f"rounds: {self.rounds} ({self.rounds_per_second:.2f}/s); commands: {self.commands} "
            f"({self.commands_per_second:.1f}/s)",
            f"command latency: {self.command_latency.text()}",
            f"card to every screen: {self.card_to_every_screen.text()}",
            *(f"  card to {kind}: {s.text()}" for kind, s in self.card_to_screen_by_kind.items()),
            f"notices lost: {self.notices_lost} of {self.notices_expected}"
            f"{f' {self.notices_lost_by_kind}' if self.notices_lost_by_kind else ''}; of them "
            f"recovered by a gap {self.notices_recovered_by_gap}, by a hello "
            f"{self.notices_recovered_by_hello} ({self.tables_recovered_by_hello} tables), "
            f"unnoticed {self.notices_lost_unnoticed}",
            f"  late {self.late}, duplicates {self.duplicates}, not in the record "
            f"{self.not_in_record}; hellos repeated {self.hellos_repeated}, disconnects "
            f"{self.disconnects}, screens refused {len(self.screens_refused)}",
            f"commands not done: {self.failed_commands or 0}; resyncs {self.resyncs}, "
            f"bots that gave up {self.gave_up}; cards unpaired {self.cards_unmatched}",
            f"CPU: {cpu}",
            f"load generator's loop lag: {self.loop_lag.text()}; load average {self.load_average}",
            "by command: "
            + "; ".join(
                f"{route} {s.count}x p50 {s.p50:.0f} p99 {s.p99:.0f} ms"
                for route, s in self.by_route.items()
            ),
        ]
        if self.pages:
            lines.append(
                f"page reads: {self.page_reads} ({self.page_reads_per_second:.1f}/s) "
                f"by cause {self.reads_by_cause}; failed {self.reads_failed or 0}; "
                f"recovered from a gap or hello: {self.recovered.text()}"
            )
            lines += [f"  {what}: {s.text()}" for what, s in self.reads_by_what.items()]
        if self.memory_mb:
            lines.append(
                "memory (MB, window start -> end): "
                + ", ".join(f"{n} {a:.0f}->{b:.0f}" for n, (a, b) in self.memory_mb.items())
            )
        if self.gaming_day is not None:
            g = self.gaming_day
            lines.append(
                f"gaming day {g['day']}: {'closed' if g['closed'] else 'NOT closed'}, "
                f"{g['rounds']} rounds, {g['wagers']} wagers, ${g['wagered']} wagered, "
                f"house result ${g['tracked']}; tables tied to the recount "
                f"{g['tables_tied']} of {g['tables']}, wager types tied {g['wager_types_tied']}; "
                f"chains verified {g['chains_verified']} of {g['chains']}"
                + (f"; DIFFERENCES {g['differences'][:5]}" if g["differences"] else "")
                + (f"; BROKEN {g['broken'][:3]}" if g["broken"] else "")
            )
        lines += [f"  refused: {line}" for line in self.refusals[:5]]
        lines += [f"  screen refused: {line}" for line in self.screens_refused[:5]]
        return "\n".join(lines)


def count_commands(report: Report, sent: Sequence[Sent], start: float, until: float) -> None:
    """Rates over the window, latency of the commands done, and those not done."""
    window = [s for s in sent if s.measured and start <= s.sent < until]
    done = [s for s in window if s.status == 200]
    report.commands = len(done)
    report.commands_per_second = len(done) / report.seconds
    report.rounds = sum(1 for s in done if s.route == SETTLE_ROUTE)
    report.rounds_per_second = report.rounds / report.seconds
    report.command_latency = Spread.of([s.took for s in done])
    by_route: dict[str, list[float]] = defaultdict(list)
    for s in done:
        by_route[s.route].append(s.took)
    report.by_route = {route: Spread.of(took) for route, took in sorted(by_route.items())}
    failed: dict[str, int] = defaultdict(int)
    for s in sent:
        if s.measured and s.status != 200:
            failed[str(s.status)] += 1
    report.failed_commands = dict(failed)


def count_notices(
    report: Report,
    screens: Sequence[Screen],
    events: dict[int, list[tuple[int, str]]],
    sent: Sequence[Sent],
    start: float,
    until: float,
) -> None:
    """Notices lost on every screen (all the run's), how many of them the screen learned it had
    missed, and the time each card sent in the window took to reach all its table's screens."""
    lost_by_kind: dict[str, int] = defaultdict(int)
    for screen in screens:
        for table in screen.tables:
            if table not in screen.hello:
                continue  # this screen was never open: counted as refused
            heard = screen.seen.get(table, {})
            expected = [seq for seq, _ in events.get(table, ()) if seq > screen.hello[table]]
            report.notices_expected += len(expected)
            report.not_in_record += len(
                {n for n in heard if n > screen.hello[table]} - set(expected)
            )
            missed = screen.missed.get(table, [])
            lost = [seq for seq in expected if seq not in heard]
            report.tables_recovered_by_hello += sum(
                1
                for how, after, upto in missed
                if how == "hello" and any(after < seq <= upto for seq in lost)
            )
            for seq in lost:
                report.notices_lost += 1
                lost_by_kind[screen.kind] += 1
                how = next((h for h, after, upto in missed if after < seq <= upto), None)
                if how == "gap":
                    report.notices_recovered_by_gap += 1
                elif how == "hello":
                    report.notices_recovered_by_hello += 1
                else:
                    report.notices_lost_unnoticed += 1
        report.hellos_repeated += screen.hellos
        report.late += screen.late
        report.duplicates += screen.duplicates
        report.disconnects += screen.disconnects
    report.notices_lost_by_kind = {k: v for k, v in lost_by_kind.items() if v}

    watching: dict[int, list[Screen]] = defaultdict(list)
    for screen in screens:
        for table in screen.hello:
            watching[table].append(screen)
    cards_sent: dict[int, list[float]] = defaultdict(list)
    for s in sent:
        if s.measured and s.route == CARD_ROUTE and s.status == 200:
            cards_sent[s.table].append(s.sent)
    every: list[float] = []
    by_kind: dict[str, list[float]] = defaultdict(list)
    for table, sends in cards_sent.items():
        card_events = [seq for seq, kind in events.get(table, ()) if kind == CARD_EVENT]
        if len(card_events) != len(sends):
            report.cards_unmatched += len(sends)
            continue
        for sequence, at in zip(card_events, sends, strict=True):
            if not start <= at < until:
                continue
            arrivals: list[tuple[str, float]] = []
            for screen in watching[table]:
                arrived = screen.seen.get(table, {}).get(sequence)
                if arrived is None:
                    break
                arrivals.append((screen.kind, arrived - at))
            else:
                if arrivals:
                    every.append(max(took for _, took in arrivals))
                for kind, took in arrivals:
                    by_kind[kind].append(took)
    report.card_to_every_screen = Spread.of(every)
    report.card_to_screen_by_kind = {k: Spread.of(v) for k, v in sorted(by_kind.items())}


def count_reads(report: Report, done: Sequence[Done], start: float, until: float) -> None:
    """The pages' reads sent in the window: how many, why, how long each kind took, those that
    failed, and how long a page that missed notices took to show the table again."""
    window = [d for d in done if start <= d.at < until]
    report.page_reads = len(window)
    report.page_reads_per_second = len(window) / report.seconds
    by_what: dict[str, list[float]] = defaultdict(list)
    causes: dict[str, int] = defaultdict(int)
    failed: dict[str, int] = defaultdict(int)
    for d in window:
        by_what[d.what].append(d.took)
        causes[d.cause] += 1
        if d.status != 200:
            failed[f"{d.what} {d.status}"] += 1
    report.reads_by_what = {what: Spread.of(took) for what, took in sorted(by_what.items())}
    report.reads_by_cause = dict(sorted(causes.items()))
    report.reads_failed = dict(failed)
    report.recovered = Spread.of([d.since for d in window if d.cause in ("gap", "hello")])
