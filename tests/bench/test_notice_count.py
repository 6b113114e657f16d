"""How ``simulate`` counts what the screens heard against the record (``loadsim.screens`` and
``loadsim.report``): a notice never heard is lost, and the report tells whether the screen learned
it had missed it, by a gap (a later notice) or by a hello (the heartbeat), or never did."""

from __future__ import annotations

import json

from loadsim.report import Report, count_notices
from loadsim.screens import Screen

TABLE = 7


def hello(sequence: int) -> str:
    return json.dumps({"type": "hello", "table": TABLE, "sequence": sequence})


def notice(sequence: int, *events: int) -> str:
    change = {"events": [{"sequence": e} for e in events or (sequence,)]}
    return json.dumps({"type": "changed", "table": TABLE, "sequence": sequence, "change": change})


def counted(frames: list[str], record_upto: int) -> Report:
    screen = Screen("tablet", f"ws/tables/{TABLE}/", "dealer", frozenset({TABLE}))
    for frame in frames:
        screen.take(frame)
    report = Report(tables=1, pits=1, screens=1, pace="max", seconds=1.0, server="test")
    events = {TABLE: [(n, "card_dealt") for n in range(11, record_upto + 1)]}
    count_notices(report, [screen], events, [], 0.0, 1.0)
    return report


def test_every_notice_heard_once_is_nothing_lost():
    report = counted([hello(10), notice(11), notice(13, 12, 13), hello(13)], record_upto=13)
    assert (report.notices_expected, report.notices_lost) == (3, 0)
    assert (report.hellos_repeated, report.duplicates, report.late) == (1, 0, 0)


def test_a_notice_lost_before_another_is_recovered_by_the_gap():
    report = counted([hello(10), notice(11), notice(14)], record_upto=14)  # 12 and 13 lost
    assert report.notices_lost == 2
    assert (report.notices_recovered_by_gap, report.notices_lost_unnoticed) == (2, 0)


def test_the_last_notice_lost_is_recovered_by_the_next_hello():
    report = counted([hello(10), notice(11), hello(11), hello(13)], record_upto=13)
    assert report.notices_lost == 2  # 12 and 13: lost, then recovered
    assert report.notices_recovered_by_hello == 2
    assert report.tables_recovered_by_hello == 1
    assert (report.notices_recovered_by_gap, report.notices_lost_unnoticed) == (0, 0)


def test_a_last_notice_lost_and_no_hello_since_goes_unnoticed():
    report = counted([hello(10), notice(11)], record_upto=12)
    assert (report.notices_lost, report.notices_lost_unnoticed) == (1, 1)
    assert report.notices_lost_by_kind == {"tablet": 1}


def test_duplicates_late_ones_and_strangers_are_counted_apart():
    frames = [hello(10), notice(11), notice(11), notice(13), notice(12), notice(99)]
    report = counted(frames, record_upto=13)
    assert report.notices_lost == 0  # 12 came, after 13: late, not lost
    assert (report.duplicates, report.late, report.not_in_record) == (1, 1, 1)
