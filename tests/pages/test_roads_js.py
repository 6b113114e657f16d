"""static/js/roads.js, the display's port of baccarat/roads.py, answers what the Python answers:
run in Chromium on the known-answer shoes of tests/rules/test_roads.py and the display tests, and
on a few hundred random shoes (seeded) with long streaks, leading ties, pairs and Naturals."""

from __future__ import annotations

import ast
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from baccarat.outcome import Winner
from baccarat.roads import Result, roads
from tests.chromium import CHROMIUM_ARGS
from tests.pages.test_display import LONG_SHOE, SHOE
from tests.rules.test_roads import shoe

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "static/js/roads.js"
RULES_TESTS = ROOT / "tests/rules/test_roads.py"
SEED = 20261127


def _literal(node: ast.expr, constants: dict[str, str]) -> str:
    """The tokens written as a string, a module constant, or a string times a number."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.Name) and node.id in constants:
        return constants[node.id]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
        left, right = node.left, node.right
        if isinstance(right, ast.Constant) and isinstance(right.value, int):
            return _literal(left, constants) * right.value
    raise AssertionError(f"a shoe this test cannot read: {ast.unparse(node)}")


def known_answer_shoes() -> list[str]:
    """Every shoe the rules' roads tests write (``shoe("...")``), read from their source, so a
    known answer added there is checked here too; and the display tests' shoes."""
    tree = ast.parse(RULES_TESTS.read_text())
    constants = {
        target.id: node.value.value
        for node in tree.body
        if isinstance(node, ast.Assign)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
        for target in node.targets
        if isinstance(target, ast.Name)
    }
    found = [
        _literal(node.args[0], constants)
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "shoe"
        and node.args
    ]
    return list(dict.fromkeys([*found, SHOE, LONG_SHOE]))


def _result(rng: random.Random, winner: Winner) -> Result:
    natural = rng.random() < 0.3
    known = rng.random() < 0.8  # the totals, when the display has them
    player = rng.randrange(10) if known else None
    banker = rng.randrange(10) if known else None
    return Result(
        winner=winner,
        player_pair=rng.random() < 0.1,
        banker_pair=rng.random() < 0.1,
        natural=natural,
        player_total=player,
        banker_total=banker,
    )


def random_shoes(count: int = 300, seed: int = SEED) -> list[list[Result]]:
    """Shoes of every kind: as dealt (about 46 % Banker, 45 % Player, 9 % ties), streaky ones
    with dragon tails up to 16 long that nest and turn early, and ones that open with ties."""
    rng = random.Random(seed)
    hands = [Winner.BANKER, Winner.PLAYER, Winner.TIE]
    shoes: list[list[Result]] = []
    for n in range(count):
        kind = n % 3
        if kind == 0:  # as dealt
            winners = rng.choices(hands, weights=[45.9, 44.6, 9.5], k=rng.randrange(0, 91))
        elif kind == 1:  # streaks, ties between them now and then
            winners = []
            for _ in range(rng.randrange(1, 25)):
                winners += [rng.choice(hands[:2])] * rng.choice([1, 1, 2, 3, 5, 6, 7, 8, 12, 16])
                if rng.random() < 0.2:
                    winners += [Winner.TIE] * rng.randrange(1, 4)
        else:  # ties first, then choppy or streaky
            winners = [Winner.TIE] * rng.randrange(1, 6)
            for _ in range(rng.randrange(0, 20)):
                winners += rng.choices(hands, weights=[45, 45, 10]) * rng.randrange(1, 9)
        shoes.append([_result(rng, w) for w in winners])
    return shoes


def as_js(results: list[Result]) -> list[dict[str, Any]]:
    """Results as the display holds them (with the round number, which roads.js ignores)."""
    return [
        {
            "round": number,
            "winner": r.winner.value,
            "player_pair": r.player_pair,
            "banker_pair": r.banker_pair,
            "natural": r.natural,
            "player_total": r.player_total,
            "banker_total": r.banker_total,
        }
        for number, r in enumerate(results, start=1)
    ]


def every_shoe() -> list[list[Result]]:
    return [shoe(tokens) for tokens in known_answer_shoes()] + random_shoes()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium through Playwright; these tests read no database."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS
        )
        yield chromium
        chromium.close()


def js_roads(browser: Any, shoes: list[list[Result]], script: str | None = None) -> list[Any]:
    """``Roads.roads`` of each shoe, run in a blank page with roads.js (or ``script``)."""
    page = browser.new_page()
    try:
        page.set_content("<!doctype html><html><body></body></html>")
        page.add_script_tag(content=script if script is not None else SCRIPT.read_text())
        # As JSON text both ways: Playwright's own serialization of a few hundred shoes is slow.
        answer = page.evaluate(
            "text => JSON.stringify(JSON.parse(text).map(results => window.Roads.roads(results)))",
            json.dumps([as_js(s) for s in shoes]),
        )
        return json.loads(answer)  # type: ignore[no-any-return]
    finally:
        page.close()


def canonical(data: Any) -> str:
    """JSON text that tells apart what ``==`` would not (``true`` and ``1``, ``1`` and ``1.0``)."""
    return json.dumps(data, sort_keys=True)


def differences(shoes: list[list[Result]], answers: list[Any]) -> list[str]:
    """Each shoe whose roads differ, with the first road that differs."""
    found = []
    for results, answer in zip(shoes, answers, strict=True):
        expected = roads(results).as_data()
        if canonical(answer) != canonical(expected):
            road = next(
                (n for n in expected if canonical(answer.get(n)) != canonical(expected[n])),
                "keys",
            )
            tokens = "".join(r.winner.value[0].upper() for r in results)
            found.append(f"{tokens!r}: {road} {answer.get(road)!r} != {expected.get(road)!r}")
    return found


def test_the_known_answer_shoes_are_read_from_the_rules_tests() -> None:
    tokens = known_answer_shoes()
    assert len(tokens) >= 12
    assert "BBPBBBPPBPPPBBB" in tokens  # the worked example, a constant there
    assert "BP" * 6 in tokens  # the choppy shoe, a string times a number there


def test_roads_js_answers_as_baccarat_roads_on_the_known_answer_shoes(browser: Any) -> None:
    shoes = [shoe(tokens) for tokens in known_answer_shoes()]
    assert differences(shoes, js_roads(browser, shoes)) == []


def test_roads_js_answers_as_baccarat_roads_on_three_hundred_random_shoes(browser: Any) -> None:
    shoes = random_shoes()
    assert differences(shoes, js_roads(browser, shoes)) == []
    # What they hold: dragon tails, early turns, tails along the top row, leading ties, pairs
    # and Naturals, and blue and red on every derived road.
    boards = [roads(s) for s in shoes]
    assert max(max(s, default=0) for s in (b.big_road.streaks for b in boards)) >= 16
    assert any(c.row < 5 and c.depth > c.row for b in boards for c in b.big_road.cells)
    assert any(c.row == 0 and c.depth > 0 for b in boards for c in b.big_road.cells)
    assert sum(b.big_road.leading_ties > 0 for b in boards) >= 100
    assert all(sum(getattr(b.tally, n) for b in boards) > 100 for n in ("banker_pairs", "naturals"))
    assert any(b.big_road.cells == () for b in boards)  # empty, or ties only


# Changes to roads.js that a faithful port must not make: each one breaks one rule of the roads.
MUTANTS = {
    "a tail that turns one row late": ("row + 1 < rows", "row + 1 <= rows"),
    "no early turn above an older tail": (
        '!taken.has(col + "," + (row + 1))',
        "true",
    ),
    "no push past a tail along the top row": (
        'while (taken.has(start + ",0")) start += 1;',
        "",
    ),
    "leading ties dropped": ("else leadingTies += 1;", "else leadingTies += 0;"),
    "a new column compared with the wrong one": (
        "streaks[c - 1] === streaks[c - 1 - cycle]",
        "streaks[c - 1] === streaks[c - cycle]",
    ),
    "a straight drop drawn blue": (
        "red = streaks[c - cycle] !== depth;",
        "red = streaks[c - cycle] > depth;",
    ),
    "the start point one entry late": (
        "(c === cycle && depth === 0)",
        "(c === cycle && depth <= 1)",
    ),
    "a Natural not counted": ("if (r.natural) counts.naturals += 1;", ""),
    "a pair not shown on the bead plate": (
        "player_pair: Boolean(r.player_pair),",
        "player_pair: false,",
    ),
    "ties counted on the next win": ("if (ties.length) ties[ties.length - 1] += 1;", "if (false);"),
    "a Natural as a number": ("natural: Boolean(r.natural),", "natural: r.natural ? 1 : 0,"),
    "a missing total left out": ("player_total: orNull(r.player_total),", ""),
}


@pytest.mark.parametrize("mutant", list(MUTANTS))
def test_the_comparison_fails_for_a_port_that_differs(browser: Any, mutant: str) -> None:
    old, new = MUTANTS[mutant]
    source = SCRIPT.read_text()
    assert source.count(old) == 1, f"roads.js changed: update the mutant {mutant!r}"
    shoes = every_shoe()
    assert differences(shoes, js_roads(browser, shoes, source.replace(old, new))) != []
