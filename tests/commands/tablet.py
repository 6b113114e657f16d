"""A table's tablet that checks every command it sends against what was committed.

After each command it reads the table again as a screen that joins would (``GET
/api/tables/<id>/``, which must equal the state built afresh from the rows), reads the table's
rows, and checks:

1. a command done answers what it committed: each part it sends whole (``changed``) equals the
   fresh read's, each key of the round it patches (``patched``) equals the fresh round's, its
   ``sequence`` is the fresh state's, its events follow the last one read without a gap, and
   the tablet's state with the answer put in place is the fresh state;
2. the screens hear it once, after commit: one notice, the answer less what the broadcast
   withholds (``broadcast.WITHHELD``), to the table's, its pit's and surveillance's groups; a
   refused command is told to no table's screens;
3. the table's record verifies (``casino.record.verify_chain``);
4. a refused command changed nothing: the fresh read and the rows are as before it, and no event
   was recorded;

and, when asked, that the same Idempotency-Key sent again is answered the same, to the byte,
and changes nothing.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any

from django.db.models import Model, QuerySet
from django.http import HttpResponse
from rest_framework.test import APIClient

from casino.models import Event
from casino.page_commands import HEADER, KEY_REUSED, REPLAYED_HEADER
from casino.record import verify_chain
from tablegame.broadcast import SURVEILLANCE_GROUP, WITHHELD, Notice, pit_group, table_group
from tablegame.models import (
    Card,
    DeckChange,
    Irregularity,
    MustHitProgressive,
    MustHitWin,
    ProgressiveEntry,
    ProgressiveMeter,
    Round,
    RoundTally,
    Seat,
    SettlementStep,
    Shoe,
    Table,
    TableLimit,
    TableRules,
    VigorishMarker,
    Wager,
    WagerTally,
)
from tablegame.play.parts import table_state_now
from tests.api.conftest import apply_answer

#: ``django_capture_on_commit_callbacks``: runs what a command left for after its commit.
Capture = Callable[..., AbstractContextManager[list[Callable[[], object]]]]
Rows = dict[str, list[dict[str, Any]]]


@dataclass(frozen=True)
class Sent:
    """One command as sent, and its answer as received."""

    route: str
    body: dict[str, Any]
    key: str
    by: str
    """Who sent it: ``dealer`` or ``floor``."""
    status: int
    content: bytes

    @property
    def answer(self) -> dict[str, Any]:
        answer: dict[str, Any] = json.loads(self.content)
        return answer

    @property
    def done(self) -> bool:
        return self.status == 200


class Unexpected(AssertionError):
    """A command the test knew to be legal was refused, or one it knew to be illegal was done."""


def rows_of(table: Table) -> Rows:
    """Every row the table's commands write, as plain values (the record by its head): all that
    the table's state is read from."""
    rounds = Round.objects.filter(table=table)

    def rows(query: QuerySet[Any, Any]) -> list[dict[str, Any]]:
        return list(query.order_by("pk").values())

    def of(model: type[Model], **where: Any) -> list[dict[str, Any]]:
        return rows(model._default_manager.filter(**where))

    head = Event.objects.filter(chain_id=table.chain_id).order_by("-sequence")
    return {
        "table": of(Table, pk=table.pk),
        "seats": of(Seat, table=table),
        "limits": of(TableLimit, table=table),
        "rules": of(TableRules, table=table),
        "shoes": of(Shoe, table=table),
        "deck_change": of(DeckChange, table=table),
        "rounds": rows(rounds),
        "cards": of(Card, round__in=rounds),
        "wagers": of(Wager, round__in=rounds),
        "steps": of(SettlementStep, round__in=rounds),
        "irregularities": of(Irregularity, round__in=rounds),
        "markers": of(VigorishMarker, table=table),
        "meters": of(ProgressiveMeter, table=table),
        "must_hit": of(MustHitProgressive, links__table=table),
        "must_hit_wins": of(MustHitWin, table=table),
        "ledger": of(ProgressiveEntry, table=table),
        "wager_tallies": of(WagerTally, table=table),
        "round_tallies": of(RoundTally, table=table),
        "record": [dict(row) for row in head.values("sequence", "hash")[:1]],
    }


def told(answer: dict[str, Any]) -> dict[str, Any]:
    """What the screens should hear of a command's answer: all of it, less the parts the
    broadcast withholds (named in ``withheld``)."""
    withheld = [name for name in WITHHELD if name in answer]
    if not withheld:
        return answer
    change = {name: part for name, part in answer.items() if name not in withheld}
    change["changed"] = [name for name in answer["changed"] if name not in withheld]
    change["withheld"] = withheld
    return change


def table_notices(queued: list[Notice]) -> list[Notice]:
    """The notices of a table's change (not a meter's, a mark's or a refusal's)."""
    return [n for n in queued if n.message["type"] == "table.changed"]


class CheckedTablet:
    """The tablet of one table: every command sent through it is checked (module docstring).

    ``state`` is the fresh read after the last command, ``rows`` the table's rows then."""

    def __init__(
        self,
        table: Table,
        clients: dict[str, APIClient],
        notices: list[Notice],
        capture: Capture,
    ) -> None:
        self.table = table
        self.clients = clients
        self.notices = notices
        self.capture = capture
        self.path = f"/api/tables/{table.pk}/"
        self.state = self.read()
        self.rows = rows_of(table)
        self.last: Sent | None = None
        self.sent = 0
        """Commands sent, again or not."""

    def read(self, *, afresh: bool = True) -> dict[str, Any]:
        """The whole state as a screen that joins reads it (``afresh``: which must be the state
        built afresh from the rows, the snapshot kept of it not stale; after a command that
        recorded an event the snapshot is built again anyway)."""
        response = self.clients["dealer"].get(self.path)
        assert response.status_code == 200, response.content
        state: dict[str, Any] = json.loads(response.content)
        if afresh:
            fresh = Table.objects.select_related("pit").get(pk=self.table.pk)
            assert state == json.loads(json.dumps(table_state_now(fresh.pk))), (
                "the kept state is stale"
            )
        return state

    def send(
        self,
        route: str,
        body: dict[str, Any] | None = None,
        *,
        by: str = "dealer",
        expect: bool | None = None,
    ) -> Sent:
        """POST a command with a new Idempotency-Key and check it (``expect``: True, it must be
        done; False, refused; None, either)."""
        body = body or {}
        key = uuid.uuid4().hex
        response, queued = self._posted(route, body, key=key, by=by)
        sent = Sent(route, body, key, by, response.status_code, response.content)
        what = f"{route} {json.dumps(body)} by {by}"
        if sent.done:
            self._check_done(sent, queued, what)
        else:
            assert 400 <= sent.status < 500, f"{what}: {sent.status} {sent.content[:300]!r}"
            assert "error" in sent.answer, f"{what}: a refusal without its words"
            self._unchanged(queued, what)
        self.last = sent
        if expect is not None and sent.done != expect:
            got = f"{sent.status} {sent.content.decode()[:300]}"
            raise Unexpected(f"{what}: expected {'done' if expect else 'refused'}, got {got}")
        return sent

    def _posted(
        self, route: str, body: dict[str, Any], *, key: str, by: str
    ) -> tuple[HttpResponse, list[Notice]]:
        """POST, running what the command left for after its commit as its commit would: the
        response, and the notices it queued for the screens."""
        self.sent += 1
        mark = len(self.notices)
        with self.capture(execute=True):
            response = self.clients[by].post(
                self.path + route, body, format="json", headers={HEADER: key}
            )
        return response, self.notices[mark:]

    def _check_done(self, sent: Sent, queued: list[Notice], what: str) -> None:
        before, answer = self.state, sent.answer
        parts = [*answer["changed"], *answer["patched"]]
        assert set(answer) == {"sequence", "events", "changed", "patched", *parts}, what
        assert answer["patched"] in ([], ["round"]), what
        numbers = [event["sequence"] for event in answer["events"]]
        assert numbers, f"{what}: done, and no event recorded"
        first = before["sequence"] + 1
        assert numbers == list(range(first, first + len(numbers))), f"{what}: events {numbers}"
        after = self.read(afresh=False)
        # 1. The answer is what was committed.
        assert answer["sequence"] == numbers[-1] == after["sequence"], what
        for name in answer["changed"]:
            differ = _differ(answer[name], after[name])
            assert not differ, f"{what}: the answer's {name} is not the table's: {differ}"
        if answer["patched"]:
            fresh = after["round"]
            assert fresh is not None, f"{what}: a round patched, and none in play"
            for key, value in answer["round"].items():
                differ = _differ({key: value}, {key: fresh[key]})
                assert not differ, f"{what}: the answer's round is not the table's: {differ}"
        kept = apply_answer(before, answer)
        stale = [name for name in after if kept.get(name) != after[name]]
        assert not stale, f"{what}: the tablet's state with the answer in place is stale: {stale}"
        # 2. The screens hear the answer, once, after commit, less what is withheld.
        notices = table_notices(queued)
        assert len(notices) == 1, f"{what}: {len(notices)} table notices"
        message = notices[0].message
        frame = json.loads(message["text"])
        action = answer["events"][-1]["action"]
        assert (message["table"], message["sequence"], message["action"]) == (
            self.table.pk,
            answer["sequence"],
            action,
        ), what
        assert notices[0].groups == (
            table_group(self.table.pk),
            pit_group(self.table.pit_id),
            SURVEILLANCE_GROUP,
        ), what
        assert frame["change"] == told(answer), f"{what}: the screens heard another change"
        # 3. The record verifies.
        report = verify_chain(self.table.chain_id)
        assert report.ok, f"{what}: the record does not verify: {report}"
        self.state, self.rows = after, rows_of(self.table)

    def resend(self) -> Sent:
        """The last command sent again with its key, as a tablet does when no answer came: the
        same answer, to the byte, and nothing changed."""
        last = self.last
        assert last is not None
        response, queued = self._posted(last.route, last.body, key=last.key, by=last.by)
        what = f"{last.route} {json.dumps(last.body)} sent again"
        assert response.status_code == last.status, f"{what}: {response.content[:300]!r}"
        assert response.content == last.content, f"{what}: another answer to the same key"
        if last.done:
            assert response.headers.get(REPLAYED_HEADER) == "true", what
        self._unchanged(queued, what)
        return last

    def reuse_key(self) -> None:
        """Another command sent with the last command's key: refused, and nothing changed."""
        last = self.last
        assert last is not None
        route = "round/settle/" if last.route == "round/no-more-bets/" else "round/no-more-bets/"
        response, queued = self._posted(route, {}, key=last.key, by=last.by)
        what = f"{route} with the key of {last.route}"
        assert response.status_code == 409, f"{what}: {response.content[:300]!r}"
        assert json.loads(response.content) == {"error": KEY_REUSED}, what
        self._unchanged(queued, what)

    def _unchanged(self, queued: list[Notice], what: str) -> None:
        """A refusal (or a repeat) changed nothing, and no table's screen heard of it."""
        assert not table_notices(queued), f"{what}: a table notice for a change never made"
        # The rows as they were (the whole state is made of them: ``rows_of``), and what a screen
        # that joins reads.
        rows = rows_of(self.table)
        changed = [name for name in rows if rows[name] != self.rows[name]]
        assert not changed, f"{what}: rows changed: {changed}"
        assert self.read(afresh=False) == self.state, f"{what}: the table state changed"
        assert verify_chain(self.table.chain_id).ok, f"{what}: the record does not verify"


def _differ(sent: Any, fresh: Any) -> str:
    """Where a part sent differs from the fresh one (nothing: ""): its keys that differ, with
    both values."""
    if sent == fresh:
        return ""
    if isinstance(sent, dict) and isinstance(fresh, dict):
        keys = sorted(set(sent) | set(fresh))
        return "; ".join(
            f"{key}: {sent.get(key)!r} != {fresh.get(key)!r}"
            for key in keys
            if sent.get(key) != fresh.get(key)
        )
    return f"{sent!r} != {fresh!r}"
