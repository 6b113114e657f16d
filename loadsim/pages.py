"""The pages a floor has open, and the requests each makes, as its script makes them.

A page here is what its script in ``static/js/`` does with what it hears: when it loads, when its
socket says hello, when a notice arrives and when a notice cannot say what changed. Each class
decides, from a frame, which reads (:class:`Read`) its page would send, and nothing else; the
run (``loadsim.run``) sends them over HTTP and times them. Live's own bookkeeping
(``static/js/live.js``: the sequences seen, a gap, a hello that differs) is :class:`Live`.

:data:`REPLAYED` names every request a page script makes and where it is replayed, or why not
(a person's tap on a page no one leaves open is not part of a floor's steady load);
``tests/bench/test_pages_replayed.py`` fails when a script makes a request this does not name.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

from tablegame.kinds import touches

#: Every request call in ``static/js/`` (script, the call as written), and where the run makes
#: it: ``Class.method``, or "not replayed: why".
REPLAYED: dict[tuple[str, str], str] = {
    ("dealer.js", "Http.getJSON(api)"): "TabletPage.read_state",
    ("dealer.js", "Http.post(api + route, data, { key })"): "the dealer bot (loadsim.dealer)",
    ("progressive_strip.js", "Http.getJSON(strip.dataset.url)"): "Strip.read",
    ("display.js", "window.Http.getJSON(body.dataset.roadsUrl)"): "DisplayPage.read_roads",
    ("floor.js", "Http.getText(tile.dataset.url)"): "ConsolePage.read_tile",
    ("floor.js", "Http.post(url, bodyOf(button, tile))"): (
        "the bots send the floor's commands (verifications) over the API, as the console's "
        "buttons do"
    ),
    (
        "alerts.js",
        'Http.reader(panel.dataset.url, panel.querySelector("[data-alerts-list]"))',
    ): "ConsolePage.read_alerts",
    (
        "console_refusals.js",
        'Http.reader(strip.dataset.url, strip.querySelector("[data-refusals-list]"))',
    ): "ConsolePage.read_refusals",
    (
        "panels.js",
        'Http.reader(section.dataset.url, section.querySelector("[data-panel-body]"))',
    ): "ConsolePage.read_ratings",
    (
        "alerts.js",
        'Http.post("/alerts/acknowledge/", { alert: Number(button.dataset.acknowledge) })',
    ): ("not replayed: a supervisor acknowledging an alert, now and then"),
    ("progressives.js", "Http.getText(`/progressives/pits/${pit}/`)"): "ProgressivesPage.read_pit",
    ("progressives.js", "Http.post(`/progressives/${command}/`, body)"): (
        "not replayed: the floor setting up a meter or paying a win, now and then"
    ),
    ("surveillance_wall.js", "Http.getText(tile.dataset.url)"): "WallPage.read_tile",
    ("surveillance_wall.js", "Http.getJSON(wall.dataset.sequencesUrl)"): (
        "not replayed: the wall polls only while its socket is down"
    ),
    ("surveillance_notices.js", "Http.getText(box.dataset.url)"): "WallPage.read_notices",
    (
        "surveillance_notices.js",
        'Http.post("/surveillance/notices/acknowledge/", '
        "{ notice: Number(button.dataset.acknowledge) })",
    ): "not replayed: surveillance acknowledging a notice of a procedure change, now and then",
    ("dealers.js", 'Http.post("/dealers/assign/", { table, dealer })'): (
        "not replayed: the dealers' page is opened to move people, not left open"
    ),
    ("dealers.js", 'Http.post("/dealers/relieve/", { table: Number(button.dataset.relieve) })'): (
        "not replayed: the dealers' page is opened to move people, not left open"
    ),
    ("dealers.js", 'Http.post("/dealers/supervise/", { pit, person })'): (
        "not replayed: the dealers' page is opened to move people, not left open"
    ),
    (
        "dealers.js",
        'Http.post("/dealers/unsupervise/", '
        "{ pit: Number(button.dataset.unsupervise), person: button.dataset.person })",
    ): "not replayed: the dealers' page is opened to move people, not left open",
    ("pit_forms.js", "Http.getText(`/floor/forms/?partial=1${asked}`)"): (
        "not replayed: the forms page is opened to sign or file a form (its register reads "
        "again only when a form or a marker changes)"
    ),
    ("pit_forms.js", "Http.post(`/floor/forms/${button.dataset.command}/`, bodyFor(button))"): (
        "not replayed: signing or filing a form, now and then"
    ),
    ("pit_rules.js", "Http.post(url, body)"): (
        "not replayed: a Rules Submission filed, now and then"
    ),
    ("dealer.js", "Http.getJSON(`${api}players/recent/`)"): (
        "the dealer bot, as it opens the seat dialog for each player it seats "
        "(loadsim.dealer.Dealer.seat): while it readies its table, the only time the bots seat "
        "players (they keep them for the run: no player leaves or comes mid-shoe)"
    ),
    ("surveillance_significant.js", "Http.getText(strip().dataset.url)"): "WallPage.read_strip",
    ("surveillance_wall.js", "Http.getJSON(wall.dataset.marksUrl)"): "WallPage.read_marks",
    ("protection.js", "Http.getText(url.pathname + url.search)"): (
        "not replayed: a table's protection page, opened by surveillance for a table at a "
        "time (every 3 s, 204 and one query while nothing new is priced)"
    ),
    ("protection_ratings.js", "Http.getText(holder.dataset.url)"): (
        "not replayed: today's ratings page, a few open on a floor, read every 15 s"
    ),
}


@dataclass(frozen=True)
class Read:
    """One request a page sends."""

    what: str
    """What it reads, for the report: ``tablet state``, ``console tile``..."""
    path: str
    table: int | None = None
    """The table it is about, if one."""
    cause: str = "notice"
    """Why the page sends it: ``load`` (the page opens), ``answer`` (a command's answer did not
    follow the page), ``notice`` (a notice that does not carry what it shows), ``gap`` or
    ``hello`` (notices missed: the page recovers), ``timer`` (the page's own clock)."""
    again: bool = True
    """Asked for while the same read is on its way: sent once more when it comes back (most
    scripts' ``inFlight``/``again``); False: the ask is dropped (the script's ``reading``)."""


@dataclass
class Live:
    """``live.js``'s bookkeeping of one socket: the last sequence seen of each table, and why a
    page is told of a frame (``changed``, ``gap``, ``hello``)."""

    seen: dict[int, int] = field(default_factory=dict)

    def hello(self, tables: Iterable[tuple[int, int]]) -> list[int]:
        """A hello's tables whose sequence differs from the one seen (they were missed)."""
        differs = [table for table, sequence in tables if self.seen.get(table) != sequence]
        for table, sequence in tables:
            self.seen[table] = sequence
        return differs

    def changed(self, message: dict[str, Any]) -> str:
        """``changed``, or ``gap`` when the notice's first event does not follow the last seen."""
        table, sequence = message["table"], message["sequence"]
        last = self.seen.get(table)
        change = message.get("change")
        events = change.get("events") if isinstance(change, dict) else None
        first = events[0]["sequence"] if events else sequence
        if last is None or sequence > last:
            self.seen[table] = sequence
        return "gap" if last is not None and first > last + 1 else "changed"


def caused(reads: list[Read], cause: str) -> list[Read]:
    """The reads, sent for ``cause``."""
    return [replace(read, cause=cause) for read in reads]


def hello_tables(message: dict[str, Any]) -> list[tuple[int, int]]:
    """The (table, sequence) pairs of a hello, from a table, pit or surveillance socket."""
    found = [(message["table"], message["sequence"])] if "sequence" in message else []
    found += [(line["table"], line["sequence"]) for line in message.get("tables", ())]
    return found


def events_of(message: dict[str, Any]) -> list[dict[str, Any]] | None:
    change = message.get("change")
    events = change.get("events") if isinstance(change, dict) else None
    return events if isinstance(events, list) else None


def parts_of(message: dict[str, Any]) -> set[str]:
    change = message.get("change")
    if not isinstance(change, dict):
        return set()
    return {*change.get("changed", ()), *change.get("patched", ())}


class Page:
    """What every page has: its person, its socket, Live's bookkeeping."""

    kind: str = ""
    user: str = ""
    socket: str = ""

    def __init__(self) -> None:
        self.live = Live()

    def opened(self) -> list[Read]:
        """The reads of the page's load."""
        return []

    def loaded(self, body: bytes) -> None:
        """What the page's load answered (the sequences it shows)."""

    def frame(self, message: dict[str, Any]) -> list[Read]:
        """A frame of the page's socket: the reads it makes the page send."""
        kind = message.get("type")
        if kind == "hello":
            return caused(self.on_hello(self.live.hello(hello_tables(message))), "hello")
        if kind == "changed":
            reason = self.live.changed(message)
            reads = self.on_change(message["table"], reason, message)
            return caused(reads, reason) if reason == "gap" else reads
        return self.on_other(message)

    def on_hello(self, differs: list[int]) -> list[Read]:
        return [read for table in differs for read in self.on_change(table, "hello", None)]

    def on_change(self, table: int, reason: str, message: dict[str, Any] | None) -> list[Read]:
        return []

    def on_other(self, message: dict[str, Any]) -> list[Read]:
        return []

    def answered(self, read: Read, status: int, body: bytes) -> list[Read]:
        """A read came back: what its answer makes the page do."""
        return []


def _sequences(pattern: str, body: bytes) -> dict[int, int]:
    return {int(t): int(s) for t, s in re.findall(pattern, body.decode(errors="replace"))}


# -- The table's own screens --------------------------------------------------------------------


class Strip:
    """``progressive_strip.js`` on a tablet or display: read at the socket's first hello where
    the table has progressives, then only for what a notice does not carry."""

    READ_AFTER: ClassVar[dict[str, tuple[str, ...]]] = {
        "changes": ("rules",),
        "also": ("progressives",),
    }

    def __init__(self, table: int, has: bool) -> None:
        self.table, self.has = table, has
        self.live = Live()  # its own watch of the page's socket, with no sequence known

    def read(self) -> Read:
        return Read("progressive strip", f"/tables/{self.table}/progressives.json", self.table)

    def hello(self, message: dict[str, Any]) -> list[Read]:
        """Its first hello reads the strip (where the table has progressives); a later one,
        only if it differs."""
        first = not self.live.seen
        differs = self.live.hello(hello_tables(message))
        if not (differs and self.has):
            return []
        return [replace(self.read(), cause="load" if first else "hello")]

    def on_change(self, reason: str, message: dict[str, Any] | None) -> list[Read]:
        if reason == "hello":
            return []  # told by ``hello``
        if message is not None:
            reason = self.live.changed(message)
        events = events_of(message) if message else None
        if reason != "changed" or events is None:
            return [self.read()] if self.has else []
        if touches(events, **self.READ_AFTER):
            self.has = True
            return [self.read()]
        return []

    def on_other(self, message: dict[str, Any]) -> list[Read]:
        if message.get("type") == "meter" and message.get("read"):
            return [self.read()]
        return []


class TabletPage(Page):
    """``dealer.js``: the state read once, each command's answer put in place, a notice put in
    place when it follows; the state read again when it does not (or after a refusal)."""

    kind = "tablet"

    def __init__(self, table: int, dealer: str, *, progressives: bool) -> None:
        super().__init__()
        self.table, self.user = table, dealer
        self.socket = f"ws/tables/{table}/"
        self.sequence: int | None = None
        self.strip = Strip(table, progressives)

    def read_state(self) -> Read:
        return Read("tablet state", f"/api/tables/{self.table}/", self.table)

    def opened(self) -> list[Read]:
        return caused([Read("tablet page", f"/dealer/{self.table}/"), self.read_state()], "load")

    def answered(self, read: Read, status: int, body: bytes) -> list[Read]:
        if read.what != "tablet state" or status != 200:
            return []
        found = json.loads(body).get("sequence")
        if isinstance(found, int) and (self.sequence is None or found >= self.sequence):
            self.sequence = found
            self.live.seen.setdefault(self.table, found)
        return []

    def command_answered(self, status: int, text: bytes) -> list[Read]:
        """The dealer's own command: its answer put in place, or the state read again (after a
        refusal too; no answer at all leaves the page as it was)."""
        body = json.loads(text) if status == 200 else None
        if not isinstance(body, dict):
            return caused([self.read_state()], "answer") if status else []
        if self.sequence is not None and body["sequence"] <= self.sequence:
            return []  # its notice came first
        events = body.get("events") or []
        if self.sequence is None or not events or events[0]["sequence"] != self.sequence + 1:
            return caused([self.read_state()], "answer")
        self.sequence = body["sequence"]
        return []

    def frame(self, message: dict[str, Any]) -> list[Read]:
        strip = self.strip.hello(message) if message.get("type") == "hello" else []
        return [*strip, *super().frame(message)]

    def on_change(self, table: int, reason: str, message: dict[str, Any] | None) -> list[Read]:
        reads = self.strip.on_change(reason, message)
        if reason == "changed" and message is not None:
            if self.sequence is not None and message["sequence"] <= self.sequence:
                return reads
            events = events_of(message)
            change = message.get("change") or {}
            if (
                events
                and change.get("changed") is not None
                and not change.get("withheld")  # last round's wagers: read over HTTP
                and self.sequence is not None
                and events[0]["sequence"] == self.sequence + 1
            ):
                self.sequence = message["sequence"]
                return reads
        return [*reads, self.read_state()]

    def on_other(self, message: dict[str, Any]) -> list[Read]:
        return self.strip.on_other(message)


class DisplayPage(Page):
    """``display.js``: the roads from the results it holds; a settled round's notice adds one,
    with no request; ``roads.json`` only when it cannot know."""

    kind = "display"

    def __init__(self, table: int, user: str, *, progressives: bool) -> None:
        super().__init__()
        self.table, self.user = table, user
        self.socket = f"ws/tables/{table}/"
        self.strip = Strip(table, progressives)

    def read_roads(self) -> Read:
        return Read("display roads", f"/display/{self.table}/roads.json", self.table)

    def frame(self, message: dict[str, Any]) -> list[Read]:
        strip = self.strip.hello(message) if message.get("type") == "hello" else []
        return [*strip, *super().frame(message)]

    def opened(self) -> list[Read]:
        return [Read("display page", f"/display/{self.table}/", cause="load")]

    def loaded(self, body: bytes) -> None:
        found = re.search(rb'"sequence": (\d+)', body)
        if found:
            self.live.seen[self.table] = int(found.group(1))

    def on_change(self, table: int, reason: str, message: dict[str, Any] | None) -> list[Read]:
        reads = self.strip.on_change(reason, message)
        events = events_of(message) if message else None
        if reason != "changed" or events is None:
            return [*reads, self.read_roads()]
        parts = parts_of(message) if message else set()
        actions = {e.get("action") for e in events}
        if "round_settled" in actions and not {"round", "shoe"} <= parts:
            return [*reads, self.read_roads()]
        if "decks_received" in actions and "shoe" not in parts:
            return [*reads, self.read_roads()]
        return reads

    def on_other(self, message: dict[str, Any]) -> list[Read]:
        return self.strip.on_other(message)


# -- The pit -----------------------------------------------------------------------------------


class ConsolePage(Page):
    """``floor.js``, ``alerts.js``, ``console_refusals.js`` and ``panels.js``: a supervisor's
    console of one pit; a tile patched from each notice, read again only for what a notice does
    not carry; the alerts, the refusals strip and the ratings panel (game protection's, through
    ``tablegame.panels``) read on load, on their own notices, and after notices were missed."""

    kind = "pit console"
    NOT_CARRIED = frozenset({"rules", "limits", "deck_change"})
    READ_AFTER: ClassVar[dict[str, tuple[str, ...]]] = {
        "changes": ("rules",),
        "also": ("notices", "seat_count"),
    }

    def __init__(self, pit: int, user: str) -> None:
        super().__init__()
        self.pit, self.user = pit, user
        self.socket = f"ws/pits/{pit}/"

    def read_tile(self, table: int) -> Read:
        return Read("console tile", f"/floor/tables/{table}/tile/", table)

    def read_alerts(self) -> Read:
        return Read("console alerts", "/alerts/")

    def read_refusals(self) -> Read:
        return Read("console refusals", "/floor/refusals/")

    def read_ratings(self) -> Read:
        return Read("console ratings", f"/protection/pits/{self.pit}/ratings/")

    def opened(self) -> list[Read]:
        reads = [Read("console page", "/floor/"), self.read_alerts()]
        return caused([*reads, self.read_refusals(), self.read_ratings()], "load")

    def loaded(self, body: bytes) -> None:
        self.live.seen.update(_sequences(r'data-table="(\d+)" data-sequence="(\d+)"', body))

    def on_change(self, table: int, reason: str, message: dict[str, Any] | None) -> list[Read]:
        events = events_of(message) if message else None
        if reason != "changed":  # missed: what the strip's and the panel's notices said too
            return [self.read_tile(table), self.read_ratings(), self.read_refusals()]
        if events is None:
            return [self.read_tile(table)]
        if parts_of(message) & self.NOT_CARRIED if message else False:
            return [self.read_tile(table)]
        if touches(events, **self.READ_AFTER):
            return [self.read_tile(table)]
        return []

    def on_other(self, message: dict[str, Any]) -> list[Read]:
        read = {
            "alert": self.read_alerts,
            "refused": self.read_refusals,
            "panel": self.read_ratings,
        }
        found = read.get(str(message.get("type")))
        return [found()] if found else []


class ProgressivesPage(Page):
    """``progressives.js``: the pit's meters from the notices of its Royal 9 tables; the pit's
    section read again only for a win, a payment, a link or a gap."""

    kind = "progressives"
    READ_AFTER: ClassVar[dict[str, tuple[str, ...]]] = {"also": ("progressives",)}

    def __init__(self, pit: int, user: str, royal9: Iterable[int]) -> None:
        super().__init__()
        self.pit, self.user = pit, user
        self.socket = f"ws/pits/{pit}/meters/"  # the notices of the pit's tables with meters
        self.royal9 = frozenset(royal9)

    def read_pit(self) -> Read:
        return Read("progressives pit", f"/progressives/pits/{self.pit}/")

    def opened(self) -> list[Read]:
        return [Read("progressives page", f"/progressives/?pits={self.pit}", cause="load")]

    def loaded(self, body: bytes) -> None:
        found = re.search(rb'data-sequences="([^"]*)"', body)
        if found:
            text = found.group(1).decode().replace("&quot;", '"')
            self.live.seen.update({int(k): int(v) for k, v in json.loads(text or "{}").items()})

    def on_change(self, table: int, reason: str, message: dict[str, Any] | None) -> list[Read]:
        if table not in self.royal9:
            return []
        events = events_of(message) if message else None
        if reason != "changed" or events is None:
            return [self.read_pit()]
        if touches(events, **self.READ_AFTER):
            return [self.read_pit()]
        return []


# -- Surveillance and accounting ---------------------------------------------------------------


class WallPage(Page):
    """``surveillance_wall.js``, ``surveillance_notices.js`` and ``surveillance_significant.js``:
    every table's tile patched from its notices through a whole round and a shoe's procedure; a
    tile read again for new decks or a shoe's end, an irregularity, a simulated round or a gap;
    the notices of procedure changes read again when one is filed or acknowledged; the
    significant events' strip read again on a hello that differs or a gap (its new events come
    live); every ``MARKS_EVERY`` seconds the tables' marks checked, and a tile whose marks
    differ read again."""

    kind = "surveillance"
    MARKS_EVERY = 30.0
    """Seconds between two checks of the marks (``surveillance_wall.js``'s ``MARKS_EVERY``)."""
    READ_AFTER: ClassVar[dict[str, tuple[str, ...]]] = {
        "changes": ("rules", "limits", "deck_change"),
        "also": ("notices", "seat_count", "layout"),
    }
    NOTICES: ClassVar[dict[str, tuple[str, ...]]] = {"also": ("notices",)}

    def __init__(self, user: str) -> None:
        super().__init__()
        self.user = user
        self.socket = "ws/surveillance/"
        self.unpatchable: set[int] = set()
        """Tables whose tile, as last read, shows no round, or a round's irregularities: the
        next round is drawn by reading the tile (``drawRound``)."""
        self.marks: dict[int, str] = {}
        """Each tile's marks as last read (its ``data-marks``: ``selectors.marks_key``)."""

    def _tiles(self, body: bytes) -> None:
        for chunk in body.split(b'<article class="stile')[1:]:
            found = re.search(rb'data-table="(\d+)"', chunk)
            if found is None:
                continue
            table = int(found.group(1))
            marks = re.search(rb'data-marks="([^"]*)"', chunk)
            self.marks[table] = html.unescape(marks.group(1).decode()) if marks else ""
            if b'data-field="review"' in chunk and b'class="irregular"' not in chunk:
                self.unpatchable.discard(table)
            else:
                self.unpatchable.add(table)

    def answered(self, read: Read, status: int, body: bytes) -> list[Read]:
        if read.what == "wall tile" and status == 200:
            self._tiles(body)
        if read.what == "wall marks" and status == 200:
            now: dict[str, str] = json.loads(body)["tables"]
            differ = [t for t, shown in self.marks.items() if shown != now.get(str(t), "")]
            return caused([self.read_tile(table) for table in differ], "timer")
        return []

    def read_tile(self, table: int) -> Read:
        return Read("wall tile", f"/surveillance/tables/{table}/tile/", table)

    def read_notices(self) -> Read:
        return Read("wall notices", "/surveillance/notices/?partial=1&compact=1")

    def read_strip(self) -> Read:
        """The significant events' strip (asked again while on its way: dropped)."""
        return Read("wall significant", "/surveillance/significant/?partial=1", again=False)

    def read_marks(self) -> Read:
        """The open marks of every table (``/surveillance/marks/``), on the page's clock."""
        return Read("wall marks", "/surveillance/marks/", cause="timer")

    def on_hello(self, differs: list[int]) -> list[Read]:
        strip = [self.read_strip()] if differs else []  # once, whatever the tables that differ
        return [*super().on_hello(differs), *strip]

    def opened(self) -> list[Read]:
        return [Read("wall page", "/surveillance/", cause="load")]

    def loaded(self, body: bytes) -> None:
        self.live.seen.update(_sequences(r'data-table="(\d+)" data-sequence="(\d+)"', body))
        self._tiles(body)

    def on_change(self, table: int, reason: str, message: dict[str, Any] | None) -> list[Read]:
        events = events_of(message) if message else None
        notices = [self.read_notices()] if reason != "changed" or events is None else []
        if events and touches(events, **self.NOTICES):
            notices = [self.read_notices()]
        strip = [self.read_strip()] if reason == "gap" else []
        if reason != "changed" or events is None or message is None:
            return [self.read_tile(table), *notices, *strip]
        change = message.get("change") or {}
        game = change.get("round") or {}
        if (
            touches(events, **self.READ_AFTER)
            or game.get("irregularities")
            or game.get("simulated")
            or (change.get("shoe") or {}).get("held_card")
            or (game and table in self.unpatchable)
        ):
            return [self.read_tile(table), *notices]
        return notices


class AccountingPage(Page):
    """An accounting user who reads the gaming day's report now and then (no socket: the
    report is a page read when wanted)."""

    kind = "accounting"

    def __init__(self, user: str, *, every: float) -> None:
        super().__init__()
        self.user, self.every = user, every

    def read(self) -> Read:
        return Read("accounting day report", "/accounting/", cause="timer")
