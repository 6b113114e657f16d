"""The page scripts' shared requests (static/js/http.js), run in Node with a scripted fetch."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def run() -> Any:
    done = subprocess.run(
        [
            "node",
            str(Path(__file__).with_name("http_js_harness.js")),
            str(ROOT / "static/js/http.js"),
        ],
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    return json.loads(done.stdout)


def test_a_command_carries_the_csrf_token_and_a_fresh_idempotency_key(run: Any) -> None:
    first, second, retried = run["sent"][:3]
    assert first["method"] == "POST"
    assert first["headers"]["X-CSRFToken"] == "tok+en"  # the csrftoken cookie, decoded
    assert first["headers"]["Content-Type"] == "application/json"
    assert json.loads(first["body"]) == {"seat": 1}
    assert [s["headers"]["Idempotency-Key"] for s in (first, second, retried)] == [
        "uuid-1",
        "uuid-2",
        "uuid-1",  # a retried tap sends its key again
    ]
    assert run["first"] == {
        "ok": True,
        "status": 200,
        "data": {"sequence": 3},
        "error": None,
        "loggedOut": False,
        "retryAfter": None,
    }
    assert all(s["cache"] == "no-store" for s in run["sent"])


def test_a_double_tap_shares_the_first_tap_s_key_until_it_is_answered(run: Any) -> None:
    first, tapped, later = run["doubleTap"]
    assert first == tapped  # the server does it once, and answers both the same
    assert later != first  # answered: the same command again is a new one


def test_a_refusal_comes_back_in_the_servers_words(run: Any) -> None:
    assert run["refused"]["ok"] is False
    assert run["refused"]["status"] == 409
    assert run["refused"]["error"] == "No more bets: the wager is refused."
    assert run["broken"]["error"] == "The server refused (500)."


def test_no_answer_and_a_lost_session_are_told_apart(run: Any) -> None:
    assert (run["down"]["status"], run["down"]["ok"]) == (0, False)
    assert run["down"]["error"].startswith("No answer from the server")
    assert run["loggedOut"]["loggedOut"] is True
    assert run["loggedOut"]["ok"] is False
    assert run["tile"]["data"] == "<div>tile</div>"
    assert run["sent"][-1]["headers"]["Accept"] == "text/html"


def test_cookies_and_keys_without_crypto_random_uuid(run: Any) -> None:
    assert run["missing"] == ""
    first, second = run["fallbackKeys"]
    assert first != second
    assert all(
        re.fullmatch(r"[0-9a-f]+-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}", k) for k in (first, second)
    )
