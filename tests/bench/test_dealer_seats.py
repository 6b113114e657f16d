"""The dealer bot seats a player as the tablet does: the seat dialog opens first, reading the
players who sat at the table lately (``players/recent/``), then the player is seated; a read
refused is told in the run's refusals and seats the player still (``loadsim.dealer``)."""

from __future__ import annotations

import asyncio
import random
from typing import Any

from loadsim.dealer import Answer, CommandLog, Dealer, Pace
from loadsim.floor import SimTable

TABLE = SimTable(
    id=4, name="MB-0004", pit_id=1, chain_id=9, profile="ma-mini", seat_count=7, dealer="sim-d"
)


class Recorded:
    """A transport that answers every request with ``status`` (commands: 200), in order."""

    def __init__(self, status: int) -> None:
        self.status = status
        self.sent: list[tuple[str, str, str]] = []

    async def get(self, path: str, *, user: str) -> tuple[int, Any]:
        self.sent.append(("GET", path, user))
        return self.status, {"players": []} if self.status == 200 else None

    async def post(self, path: str, body: dict[str, Any], *, user: str, key: str) -> Answer:
        self.sent.append(("POST", path, user))
        return Answer(200)


def seated(status: int) -> tuple[Recorded, CommandLog, Dealer]:
    http, log = Recorded(status), CommandLog()
    rng = random.Random(1)

    async def resync(table_id: int) -> Any:
        raise AssertionError("no resync")

    pace = Pace(rng, real=False, rounds_per_hour=200)
    dealer = Dealer(TABLE, http, log, rng, pace=pace, resync=resync)
    asyncio.run(dealer.seat(3))
    return http, log, dealer


def test_the_seat_dialog_reads_the_recent_players_before_the_player_is_seated():
    http, log, dealer = seated(200)
    assert http.sent == [
        ("GET", "/api/tables/4/players/recent/", "sim-d"),
        ("POST", "/api/tables/4/seats/3/sit/", "sim-d"),
    ]
    assert (dealer.seats, log.refusals) == ([3], [])


def test_a_recent_players_read_refused_is_told_and_the_player_seated_still():
    http, log, dealer = seated(403)
    assert [method for method, _, _ in http.sent] == ["GET", "POST"]
    assert log.refusals == ["MB-0004 players/recent/ 403"]
    assert dealer.seats == [3]
