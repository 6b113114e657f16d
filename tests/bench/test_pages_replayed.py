"""The load simulator replays every request the page scripts make: a request call added to a
script in ``static/js/`` fails here until ``loadsim.pages.REPLAYED`` says where the run makes it
(or why a floor's steady load does not)."""

from __future__ import annotations

import re
from pathlib import Path

from loadsim import pages

JS = Path(__file__).resolve().parents[2] / "static" / "js"
#: Scripts whose requests are the others' means, not requests of their own.
MEANS = {"http.js", "live.js"}
#: Ways of reaching the server besides ``Http``: a page must use ``Http`` (its key, its CSRF
#: token) and ``Live`` (the sockets), so these are found and refused.
RAW = re.compile(r"\bfetch\(|XMLHttpRequest|new WebSocket\(|sendBeacon\(|EventSource\(")
CALL = re.compile(r"\b(?:window\.)?Http\.(?:getJSON|getText|reader|post|request)\(")


def calls(text: str) -> list[str]:
    """Each ``Http`` call of a script, as written (to its closing parenthesis)."""
    found = []
    for start in CALL.finditer(text):
        depth, end = 0, start.end() - 1
        for end in range(start.end() - 1, len(text)):
            if text[end] == "(":
                depth += 1
            elif text[end] == ")":
                depth -= 1
                if depth == 0:
                    break
        found.append(text[start.start() : end + 1])
    return found


def plain(call: str) -> str:
    return re.sub(r"\s+", " ", call).strip()


def scripts() -> dict[str, str]:
    return {p.name: p.read_text() for p in sorted(JS.glob("*.js")) if p.name not in MEANS}


def test_every_request_of_a_page_script_is_replayed_or_said_why_not() -> None:
    named = {(script, plain(call)) for script, call in pages.REPLAYED}
    found = {(name, plain(call)) for name, text in scripts().items() for call in calls(text)}
    assert found, "no request found: the pattern no longer reads the scripts"
    assert sorted(found - named) == [], "requests no page replay names (loadsim.pages.REPLAYED)"
    assert sorted(named - found) == [], "REPLAYED names requests no script makes any more"


def test_no_script_reaches_the_server_but_through_http_js_and_live_js() -> None:
    raw = {name: RAW.findall(text) for name, text in scripts().items() if RAW.search(text)}
    assert raw == {}


def test_each_replay_named_is_a_method_of_the_simulator() -> None:
    for where in pages.REPLAYED.values():
        if "." not in where or " " in where:
            continue  # a reason, or the dealer bot
        owner, method = where.split(".")
        assert callable(getattr(getattr(pages, owner), method)), where
