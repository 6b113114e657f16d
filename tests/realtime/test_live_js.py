"""The browser side of the protocol (static/js/live.js) run in Node with a scripted socket:
a lost notice (a gap), changes made while disconnected and a repeated hello past what the page
heard all make the page reload; nothing polls."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_a_gap_a_reconnect_after_missed_changes_or_a_hello_past_them_makes_the_page_reload():
    done = subprocess.run(
        [
            "node",
            str(Path(__file__).with_name("live_js_harness.js")),
            str(ROOT / "static" / "js" / "live.js"),
        ],
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    result = json.loads(done.stdout)
    assert result["told"] == [
        [7, "changed", 42],
        [7, "gap", 45],
        [7, "hello", 48],
        [7, "changed", 49],
        [7, "hello", 51],  # a repeated hello is read as the first: 50 and 51 were missed
    ]
    assert result["urls"] == ["ws://tables.test/ws/tables/7/"] * 2
    assert result["retries"] == 0  # a refusal (4403) is final
    assert result["intervals"] == 0  # no periodic "refresh": the server's hello is the safety net
