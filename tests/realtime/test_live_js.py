"""The browser side of the protocol (static/js/live.js) run in Node with a scripted socket:
a lost notice (a gap) and changes made while disconnected both make the page reload."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_a_gap_or_a_reconnect_after_missed_changes_makes_the_page_reload():
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
    ]
    assert result["urls"] == ["ws://tables.test/ws/tables/7/"] * 2
    assert result["retries"] == 0  # a refusal (4403) is final
