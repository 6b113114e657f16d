"""One simulation run: set up, start the server, make the tables ready, watch, play, measure.

1. The floor is made (or found) in the database and each table's situation read (this process).
2. The server starts (unless a URL is given).
3. Every bot makes its table ready over the API: open, seats, a shoe from receipt to burn, a
   round left in play finished. Not measured.
4. Every screen opens its socket and waits for its hello; the record's last sequences are noted.
5. The bots deal: a warm-up (a round's length at real pace, as they start their rounds spread
   over it), the measured window of ``seconds``, then each finishes its round.
6. The screens wait for the last notices (until each knows its tables' last events, bounded),
   close, and the record is read back.

Everything stops by itself: the window, each bot's round, the wait for notices and the server are
all bounded in time; the server subprocess is stopped whatever happens.
"""

from __future__ import annotations

import asyncio
import datetime
import os
import random
import signal
import tempfile
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass
from pathlib import Path

import aiohttp
import uvloop
from django.conf import settings
from django.contrib.auth.models import User
from django.utils import timezone

from casino.models import Casino
from loadsim import floor as floor_db
from loadsim import gaming_day
from loadsim.dealer import (
    FLOOR,
    ROUNDS_PER_HOUR,
    Answer,
    CommandLog,
    Dealer,
    Diverged,
    Pace,
)
from loadsim.faults import FaultRun, Watched, retrying_database
from loadsim.pages import (
    AccountingPage,
    ConsolePage,
    DisplayPage,
    Page,
    ProgressivesPage,
    Read,
    TabletPage,
    WallPage,
)
from loadsim.reading import Reader
from loadsim.report import Report, Spread, count_commands, count_notices, count_reads
from loadsim.screens import Screen, watch
from loadsim.server import (
    Server,
    named_processes_cpu,
    production_env,
    start_server,
)
from loadsim.transport import AUTHS, HttpTransport, session_headers, token_headers

SURVEILLANCE = "sim-surveillance"
ACCOUNTING = "sim-accounting"
#: Keep-alive connections the pages' reads share.
PAGE_CONNECTIONS = 64
#: Bots making their tables ready at once, and sockets opening at once.
READYING_AT_ONCE = 16
OPENING_AT_ONCE = 32
#: How long the screens may take to say hello, and to catch up once the bots are done.
HELLO_SECONDS = 120.0
DRAIN_STEP = 0.1
MOST_DRAIN_SECONDS = 10.0
#: At max pace, seconds of dealing before the window opens.
WARMUP_SECONDS = 2.0
#: A command with no answer after this long is sent again (with the same key).
COMMAND_TIMEOUT = 30.0


@dataclass(frozen=True)
class Options:
    tables: int
    pace: str
    """``real`` (about 200 rounds an hour per table) or ``max`` (as fast as answered)."""
    seconds: float
    url: str | None = None
    """A running server to use instead of starting one (no server CPU is measured then)."""
    ws_url: str | None = None
    """With ``url``: where its sockets are, if another server serves them."""
    server: str = "gunicorn+uvicorn"
    """``gunicorn+uvicorn`` (as docker-compose.yml runs it: HTTP on gunicorn's threads, sockets
    on uvicorn), ``uvicorn`` alone or ``daphne``."""
    workers: int = 2
    tables_per_pit: int = 10
    faults: FaultRun | None = None
    """Faults done to the server during the window, and how the floor came back
    (``loadsim.faults``, ``bench/faults.py``)."""
    surveillance_screens: int = 1
    seed: int | None = None
    cards_per_shoe: int | None = None
    """Cards dealt before the cut card comes out (default: all but 14 to 30)."""
    rounds_per_hour: float = ROUNDS_PER_HOUR
    auth: str = "session"
    """How the bots sign in: ``session`` (as the tablet: its session cookie and CSRF token) or
    ``token`` (an API token, as a script)."""
    pages: bool = True
    """Whether the screens send the reads their pages' scripts would (``loadsim.pages``); without,
    they only listen (the bench's figures before 2026-11-27)."""
    accounting_every: float = 60.0
    """Seconds between two reads of the day's report by the accounting user (0: none)."""
    gaming_day: bool = False
    """A gaming day in one run (``loadsim.gaming_day``): the floor in a casino of its own whose
    day ends halfway through the window, closed and checked after it."""


def simulate(options: Options, *, say: Callable[[str], None] = print) -> Report:
    """Run the simulation and measure it."""
    if options.pace not in ("real", "max"):
        raise ValueError("The pace is real or max.")
    if options.auth not in AUTHS:
        raise ValueError(f"The bots sign in by {' or '.join(AUTHS)}.")
    # Stopped by a signal (a time limit): still stop the server, in a finally below.
    main = threading.current_thread() is threading.main_thread()
    before = signal.signal(signal.SIGTERM, _stop_now) if main else None
    try:
        return _simulate(options, say)
    finally:
        if main:
            signal.signal(signal.SIGTERM, before)


def _simulate(options: Options, say: Callable[[str], None]) -> Report:
    started = time.monotonic()
    casino_name = floor_db.SIM_CASINO
    if options.gaming_day:  # a casino of its own: its day's figures are this run's alone
        casino_name = f"{floor_db.SIM_CASINO} {timezone.now():%Y-%m-%d %H:%M:%S}"
    floor = floor_db.prepare_floor(
        options.tables, tables_per_pit=options.tables_per_pit, casino_name=casino_name
    )
    situations = {t.id: floor_db.situation(t.id) for t in floor.tables}
    say(f"floor ready: {len(floor.tables)} tables in {len(floor.pits)} pits")
    server: Server | None = None
    if options.url is None:
        log = Path(tempfile.gettempdir()) / f"simulate-server-{os.getpid()}.log"
        server = start_server(
            kind=options.server,
            workers=options.workers,
            env=production_env(
                os.environ, database_url=floor_db.database_url(), secret_key=settings.SECRET_KEY
            ),
            log=log,
            cwd=Path(settings.BASE_DIR),
        )
        say(f"server up at {server.url} ({options.server}, {options.workers} workers, log {log})")
    try:
        url = server.url if server else (options.url or "").rstrip("/")
        # uvloop, as uvicorn runs the sockets: the bots and screens share the server's cores.
        with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
            return runner.run(_run(options, floor, situations, url, server, started, say))
    finally:
        if server is not None:
            server.stop()


def _stop_now(signum: int, frame: object) -> None:
    raise SystemExit(f"stopped by signal {signum}")


async def _run(
    options: Options,
    floor: floor_db.Floor,
    situations: dict[int, floor_db.Situation],
    url: str,
    server: Server | None,
    started: float,
    say: Callable[[str], None],
) -> Report:
    rng = random.Random(options.seed)
    log = CommandLog()
    if options.auth == "session":
        headers = session_headers(floor.staff.sessions)
    else:
        headers = token_headers(floor.staff.tokens)
    http = HttpTransport(
        url,
        headers,
        connections=options.tables + READYING_AT_ONCE,
        timeout=COMMAND_TIMEOUT,
    )
    real = options.pace == "real"

    async def resync(table_id: int) -> floor_db.Situation:
        return await retrying_database(floor_db.situation, table_id)

    dealers = [
        Dealer(
            table,
            http,
            log,
            random.Random(rng.random()),
            pace=Pace(rng, real=real, rounds_per_hour=options.rounds_per_hour),
            resync=resync,
            cards_per_shoe=options.cards_per_shoe,
        )
        for table in floor.tables
    ]
    report = Report(
        tables=len(floor.tables),
        pits=len(floor.pits),
        screens=0,
        pace=options.pace,
        seconds=options.seconds,
        server=f"{options.server} x{options.workers}" if server else url,
        auth=options.auth,
        pages=options.pages,
    )
    page_http = HttpTransport(
        url, session_headers(floor.staff.sessions), connections=PAGE_CONNECTIONS, timeout=60.0
    )
    reader = Reader(page_http) if options.pages else None
    screens_http = aiohttp.ClientSession(
        connector=aiohttp.TCPConnector(limit=0),  # a socket holds its connection while open
        cookie_jar=aiohttp.DummyCookieJar(),
    )
    stop = asyncio.Event()
    watchers: list[asyncio.Task[None]] = []
    try:
        playing = await _make_ready(dealers, situations, say)
        report.tables_playing = len(playing)
        if not playing:
            raise NoTableReady(
                "No table could be made ready: the server refused each (see the lines above)."
            )
        screens = _screens(floor, reader, {d.table.id: d for d in playing})
        report.screens = len(screens)
        sockets_url = server.sockets_url if server else (options.ws_url or url).rstrip("/")
        since = timezone.now() - datetime.timedelta(seconds=5)  # before any hello
        watchers = await _open(
            screens, screens_http, sockets_url, floor.staff.sessions, stop, reader
        )
        watchers += _clocks(screens, reader, stop)
        report.screens_refused = [f"{s.kind} {s.path}: {s.refused}" for s in screens if s.refused]
        base = await asyncio.to_thread(floor_db.in_thread, floor_db.last_sequences, floor.tables)
        for screen in screens:  # what each screen should hear starts at its own first hello
            for table, sequence in screen.hello.items():
                base[table] = min(base[table], sequence)
        report.setup_seconds = time.monotonic() - started
        say(f"{len(playing)} tables ready, {len(screens)} screens open; dealing now")

        # The bots start their first rounds spread over a round's length (at real pace), so the
        # window opens once every table is dealing: the floor in its steady state.
        warmup = 3600 / options.rounds_per_hour if real else WARMUP_SECONDS
        day: datetime.date | None = None
        if options.gaming_day:  # the casino's day ends halfway through the window
            ends = timezone.now() + datetime.timedelta(seconds=warmup + options.seconds / 2)
            day = await asyncio.to_thread(floor_db.in_thread, _day_ending, floor, ends)
            say(f"gaming day {day} ends at {ends:%H:%M} UTC, in the window")
        log.measuring = True
        start = time.monotonic() + warmup
        until = start + options.seconds
        bots = [asyncio.create_task(d.play(until)) for d in playing]
        await asyncio.sleep(warmup)
        lag: list[float] = []
        ticker = asyncio.create_task(_watch_loop(lag))
        if reader is not None and options.accounting_every > 0:
            books = AccountingPage(ACCOUNTING, every=options.accounting_every)
            first = random.uniform(0, books.every)
            watchers.append(
                asyncio.create_task(_every(books, books.read, books.every, first, reader, stop))
            )
        cpu_before = _cpu(server)
        memory_before = server.memory() if server else {}
        faults = None
        if options.faults is not None and server is not None:
            watched = Watched(server, screens, floor.tables, log)
            faults = asyncio.create_task(options.faults.run(watched, until))
        await asyncio.sleep(options.seconds)
        if faults is not None:
            await faults
        cpu_after = _cpu(server)
        memory_after = server.memory() if server else {}
        ticker.cancel()
        grace = 2 * 3600 / options.rounds_per_hour + 30 if real else 60.0
        done, late = await asyncio.wait(bots, timeout=grace)
        for task in late:
            task.cancel()
        await asyncio.gather(*late, return_exceptions=True)
        for task in done:
            if task.exception() is not None:
                log.refused(f"a bot stopped: {task.exception()!r}")
        head = await asyncio.to_thread(floor_db.in_thread, floor_db.last_sequences, floor.tables)
        await _drain(screens, head)
    finally:
        stop.set()
        for task in watchers:
            task.cancel()
        await asyncio.gather(*watchers, return_exceptions=True)
        if reader is not None:
            await reader.close()
        await screens_http.close()
        await page_http.close()
        await http.close()

    events = await asyncio.to_thread(
        floor_db.in_thread, floor_db.events_after, floor.tables, base, since
    )
    count_commands(report, log.sent, start, until)
    count_notices(report, screens, events, log.sent, start, until)
    if reader is not None:
        count_reads(report, reader.done, start, until)
    report.refusals, report.resyncs, report.gave_up = log.refusals, log.resyncs, log.gave_up
    report.loop_lag = Spread.of(lag)
    report.cpu_seconds = {k: cpu_after[k] - cpu_before[k] for k in cpu_before}
    report.cpu_ms_per_command = {
        k: 1000 * v / report.commands for k, v in report.cpu_seconds.items() if report.commands
    }
    report.load_average = " ".join(Path("/proc/loadavg").read_text().split()[:3])
    report.memory_mb = {
        name: (before, memory_after.get(name, 0.0)) for name, before in memory_before.items()
    }
    if day is not None:
        say(f"closing gaming day {day} and checking it")
        check = await asyncio.to_thread(floor_db.in_thread, _close_the_day, floor, day)
        check.memory_mb = report.memory_mb
        report.gaming_day = asdict(check)
        report.gaming_day_ok = check.ok
    return report


def _day_ending(floor: floor_db.Floor, at: datetime.datetime) -> datetime.date:
    return gaming_day.ending_at(Casino.objects.get(pk=floor.casino_id), at)


def _close_the_day(floor: floor_db.Floor, day: datetime.date) -> gaming_day.DayCheck:
    accountant = User.objects.get(username=ACCOUNTING)
    return gaming_day.close_and_check(
        Casino.objects.get(pk=floor.casino_id), day, accountant=accountant
    )


class NoTableReady(RuntimeError):
    """Not one table of the floor could be brought to a shoe in play: nothing to deal."""


async def _make_ready(
    dealers: list[Dealer], situations: dict[int, floor_db.Situation], say: Callable[[str], None]
) -> list[Dealer]:
    """Every table between rounds with a shoe in play; those that could not be are left out."""
    gate = asyncio.Semaphore(READYING_AT_ONCE)
    ready: list[Dealer] = []

    async def one(dealer: Dealer) -> None:
        async with gate:
            try:
                await dealer.get_ready(situations[dealer.table.id])
                ready.append(dealer)
            except Diverged as error:
                say(f"{dealer.table.name} could not be made ready: {error}")

    await asyncio.gather(*(one(d) for d in dealers))
    ready.sort(key=lambda d: d.table.id)
    return ready


def _screens(
    floor: floor_db.Floor, reader: Reader | None, dealers: dict[int, Dealer]
) -> list[Screen]:
    """Every screen a floor has open, each a page: per table its tablet (its dealer's) and its
    display; per pit the console and the progressives page of its floorperson; the wall."""
    screens: list[Screen] = []

    def add(page: Page, tables: Iterable[int]) -> Screen:
        screen = Screen(page.kind, page.socket, page.user, frozenset(tables), page=page)
        screen.reader = reader
        screens.append(screen)
        return screen

    for t in floor.tables:
        tablet = TabletPage(t.id, t.dealer, progressives=t.progressives)
        add(tablet, [t.id])
        bot = dealers.get(t.id)
        if bot is not None and reader is not None:
            bot.answered = _answers_to(tablet, reader)
        add(DisplayPage(t.id, FLOOR, progressives=t.progressives), [t.id])
    for index, pit in enumerate(floor.pits):
        tables = [t for t in floor.tables if t.pit_id == pit]
        person = floor_db.pit_floorperson(index)
        add(ConsolePage(pit, person), [t.id for t in tables])
        royal9 = [t.id for t in tables if t.progressives]
        add(ProgressivesPage(pit, person, royal9), royal9)
    add(WallPage(SURVEILLANCE), [t.id for t in floor.tables])
    return screens


def _answers_to(tablet: TabletPage, reader: Reader) -> Callable[[Answer], None]:
    """The dealer's commands' answers, put in place on the table's tablet page."""

    def answered(answer: Answer) -> None:
        reader.send(tablet, tablet.command_answered(answer.status, answer.body))

    return answered


async def _every(
    page: Page,
    read: Callable[[], Read],
    every: float,
    first: float,
    reader: Reader,
    stop: asyncio.Event,
) -> None:
    """The page's ``read`` every ``every`` seconds, the first after ``first``, until ``stop``:
    what a page reads on its own clock (accounting's report, the wall's marks)."""
    await asyncio.sleep(first)
    while not stop.is_set():
        reader.send(page, [read()])
        await asyncio.sleep(every)


def _clocks(
    screens: list[Screen], reader: Reader | None, stop: asyncio.Event
) -> list[asyncio.Task[None]]:
    """What the open pages read on their own clocks from their load on: each wall its marks
    every ``WallPage.MARKS_EVERY`` seconds (``setInterval(checkMarks, ...)``)."""
    if reader is None:
        return []
    walls = [s.page for s in screens if isinstance(s.page, WallPage) and not s.refused]
    return [
        asyncio.create_task(
            _every(wall, wall.read_marks, wall.MARKS_EVERY, wall.MARKS_EVERY, reader, stop)
        )
        for wall in walls
    ]


async def _open(
    screens: list[Screen],
    http: aiohttp.ClientSession,
    url: str,
    sessions: dict[str, str],
    stop: asyncio.Event,
    reader: Reader | None,
) -> list[asyncio.Task[None]]:
    """Open every screen's page (its reads, when the pages are replayed) and then its socket, a
    few at a time, and wait for their hellos (all within ``HELLO_SECONDS``; a screen with none
    by then is counted as refused)."""
    gate = asyncio.Semaphore(OPENING_AT_ONCE)
    cookie_name = settings.SESSION_COOKIE_NAME
    deadline = time.monotonic() + HELLO_SECONDS

    async def one(screen: Screen) -> None:
        cookie = f"{cookie_name}={sessions[screen.user]}"
        async with gate:
            if reader is not None and screen.page is not None:
                await reader.load(screen.page)
            task = asyncio.create_task(watch(screen, http, base_url=url, cookie=cookie, stop=stop))
            tasks.append(task)
            try:
                await asyncio.wait_for(screen.ready.wait(), max(0.1, deadline - time.monotonic()))
            except TimeoutError:
                screen.refused = screen.refused or "no hello"

    tasks: list[asyncio.Task[None]] = []
    await asyncio.gather(*(one(s) for s in screens))
    return tasks


async def _drain(screens: list[Screen], head: dict[int, int]) -> None:
    """Wait until every open screen knows the last event of each of its tables (``head``, read
    from the record once the bots are done), by a notice or a hello; at most
    ``MOST_DRAIN_SECONDS``. What has not come by then counts as lost (a notice that late is)."""
    deadline = time.monotonic() + MOST_DRAIN_SECONDS

    def behind() -> bool:
        return any(
            screen.last[table] < head[table]
            for screen in screens
            for table in screen.last
            if table in head
        )

    while behind() and time.monotonic() < deadline:
        await asyncio.sleep(DRAIN_STEP)


async def _watch_loop(lag: list[float]) -> None:
    """How late this process's event loop wakes (every 50 ms)."""
    while True:
        before = time.monotonic()
        await asyncio.sleep(0.05)
        lag.append(max(0.0, time.monotonic() - before - 0.05))


def _cpu(server: Server | None) -> dict[str, float]:
    cpu = {
        "server": server.cpu_seconds() if server else 0.0,
        **({f"server: {part}": s for part, s in server.cpu_by_part().items()} if server else {}),
        "load generator": time.process_time(),
        "postgresql": named_processes_cpu(["postgres"]),
        "redis": named_processes_cpu(["redis-server"]),
    }
    if server is None:
        del cpu["server"]
    return cpu
