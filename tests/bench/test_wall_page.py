"""The surveillance wall as ``simulate`` replays it (``loadsim.pages.WallPage``): the tables'
marks checked on the page's clock, a tile read again only where the marks differ; the
significant events' strip read again once on a hello that differs and on a gap, never for a
notice that follows; a strip read asked for while one is on its way is dropped, as the script
drops it (``loadsim.reading.Reader``)."""

from __future__ import annotations

import asyncio
import json
from typing import cast

from loadsim.pages import Read, WallPage
from loadsim.reading import Reader
from loadsim.transport import HttpTransport

STRIP = "/surveillance/significant/?partial=1"


def tile(table: int, sequence: int, marks: str) -> bytes:
    return (
        f'<article class="stile open" id="table-{table}" data-table="{table}" '
        f'data-sequence="{sequence}" data-marks="{marks}"><p data-field="review"></p></article>'
    ).encode()


def wall() -> WallPage:
    page = WallPage("sim-surveillance")
    page.loaded(b"<main>" + tile(1, 10, "") + tile(2, 20, "12.0") + tile(3, 30, "") + b"</main>")
    return page


def paths(reads: list[Read]) -> list[str]:
    return [read.path for read in reads]


def notice(table: int, sequence: int, *events: int) -> dict[str, object]:
    change = {"events": [{"sequence": e, "action": "card_dealt"} for e in events]}
    return {"type": "changed", "table": table, "sequence": sequence, "change": change}


def test_the_marks_check_reads_again_only_the_tiles_whose_marks_differ():
    page = wall()
    check = page.read_marks()
    assert (check.path, check.cause) == ("/surveillance/marks/", "timer")
    answer = json.dumps({"tables": {"2": "12.1", "3": "14.0"}}).encode()
    reads = page.answered(check, 200, answer)
    assert paths(reads) == ["/surveillance/tables/2/tile/", "/surveillance/tables/3/tile/"]
    assert {read.cause for read in reads} == {"timer"}


def test_a_tile_read_again_shows_its_marks_to_the_next_check():
    page = wall()
    page.answered(page.read_tile(2), 200, tile(2, 21, "12.1"))
    answer = json.dumps({"tables": {"2": "12.1"}}).encode()
    assert page.answered(page.read_marks(), 200, answer) == []


def test_marks_the_server_could_not_give_read_nothing():
    page = wall()
    assert page.answered(page.read_marks(), 503, b"busy") == []


def test_a_hello_that_differs_reads_the_strip_once_and_one_that_does_not_reads_nothing():
    page = wall()
    same = {"type": "hello", "tables": [{"table": 1, "sequence": 10}, {"table": 2, "sequence": 20}]}
    assert page.frame(same) == []
    moved = {
        "type": "hello",
        "tables": [{"table": 1, "sequence": 11}, {"table": 2, "sequence": 21}],
    }
    assert paths(page.frame(moved)).count(STRIP) == 1


def test_a_gap_reads_the_strip_and_a_notice_that_follows_does_not():
    page = wall()
    assert STRIP not in paths(page.frame(notice(1, 11, 11)))
    gap = page.frame(notice(1, 14, 14))
    assert STRIP in paths(gap)
    assert {read.cause for read in gap} == {"gap"}


class HeldAnswers:
    """A transport whose answers wait until let go, counting what was asked."""

    def __init__(self) -> None:
        self.asked: list[str] = []
        self.go = asyncio.Event()

    async def read(self, path: str, *, user: str) -> tuple[int, bytes]:
        self.asked.append(path)
        await self.go.wait()
        return 200, b"<section></section>"


def test_a_strip_read_asked_while_one_is_on_its_way_is_dropped_and_a_tile_read_sent_again():
    async def run() -> list[str]:
        held = HeldAnswers()
        reader = Reader(cast(HttpTransport, held))
        page = wall()
        for _ in range(2):
            reader.send(page, [page.read_strip(), page.read_tile(1)])
        await asyncio.sleep(0)
        held.go.set()
        while reader._tasks:
            await asyncio.sleep(0.01)
        return held.asked

    asked = asyncio.run(run())
    assert asked.count(STRIP) == 1
    assert asked.count("/surveillance/tables/1/tile/") == 2
