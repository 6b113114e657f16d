"""The settle and gamemath commands end to end, as a regulator or floorperson runs them."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


EXAMPLE = {
    "profile": "ma-mini-ez",
    "player": ["2H", "3S", "KD"],
    "banker": ["3C", "KS", "4H"],
    "wagers": [{"seat": 1, "type": "banker", "amount": "100"}],
}


def test_settle_prints_the_issue_example_with_the_banker_wager_pushed_on_a_dragon_7():
    done = run("settle", stdin=json.dumps(EXAMPLE))
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["player_total"] == 5
    assert result["banker_total"] == 7
    assert result["winner"] == "banker"
    assert result["tags"] == ["dragon7"]
    assert result["wagers"] == [
        {
            "seat": 1,
            "type": "banker",
            "amount": "100.00",
            "outcome": "push",
            "payout": "0.00",
            "vigorish": "0.00",
        }
    ]


def test_settle_lists_losers_then_commission_and_payments_from_the_highest_seat():
    data = {
        "profile": "ma-mini",
        "player": ["4H", "2S"],
        "banker": ["9C", "KS"],
        "wagers": [
            {"seat": 2, "type": "banker", "amount": "100"},
            {"seat": 5, "type": "player", "amount": "40"},
            {"seat": 7, "type": "banker", "amount": "17"},
        ],
    }
    done = run("settle", stdin=json.dumps(data))
    assert done.returncode == 0, done.stderr
    order = [(s["action"], s["seat"], s["amount"]) for s in json.loads(done.stdout)["order"]]
    assert order == [
        ("collect", 5, "40.00"),
        ("collect_vigorish", 7, "1.00"),
        ("pay", 7, "17.00"),
        ("collect_vigorish", 2, "5.00"),
        ("pay", 2, "100.00"),
    ]


@pytest.mark.parametrize(
    ("round_", "message"),
    [
        ({**EXAMPLE, "player": ["2H", "3S"]}, "must draw on 5"),
        ({**EXAMPLE, "player": ["2H", "3S", "XX"]}, "'XX' is not a card"),
        ({**EXAMPLE, "profile": "vegas"}, "Unknown rules profile 'vegas'"),
        (
            {
                **EXAMPLE,
                "profile": "s42-mini",
                "wagers": [{"seat": 1, "type": "dragon7", "amount": "5"}],
            },
            "does not offer the Dragon 7 wager",
        ),
        ({**EXAMPLE, "wagers": [{"seat": 1, "type": "banker", "amount": "0"}]}, "more than zero"),
        ({**EXAMPLE, "wagers": [{"seat": 1, "type": "banker", "amount": "-5"}]}, "more than zero"),
    ],
)
def test_settle_refuses_bad_rounds_with_one_clear_line_and_no_traceback(round_, message):
    done = run("settle", stdin=json.dumps(round_))
    assert done.returncode != 0
    assert done.stdout == ""
    assert message in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert "Traceback" not in done.stderr


def test_settle_refuses_input_that_is_not_json():
    done = run("settle", stdin="{not json")
    assert done.returncode != 0
    assert "not valid JSON" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_gamemath_gives_the_published_eight_deck_edges_as_json():
    done = run("gamemath", "--profile", "ma-mini", "--decks", "8", "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert round(data["house_edge"]["banker"] * 100, 2) == 1.06
    assert round(data["house_edge"]["player"] * 100, 2) == 1.24
    assert round(data["probabilities"]["tie"], 6) == 0.095156


def test_gamemath_reads_one_composition_a_line_and_writes_one_json_object_a_line(tmp_path):
    shoes = tmp_path / "shoes.txt"
    shoes.write_text("32,32,32,32,32,32,32,32,32,32,32,32,32\n4,4,4,4,4,4,4,4,4,4,4,4,4\n")
    done = run("gamemath", "--profile", "ma-mini-ez", "--ranks-file", str(shoes))
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(lines) == 2
    assert lines[0]["house_edge"]["dragon7"] != lines[1]["house_edge"]["dragon7"]
    assert round(lines[0]["house_edge"]["dragon7"] * 100, 2) == 7.61


def test_gamemath_exact_mode_prints_fractions_that_sum_to_one():
    from fractions import Fraction

    done = run(
        "gamemath", "--profile", "s42-mini", "--ranks", ",".join(["4"] * 13), "--json", "--exact"
    )
    assert done.returncode == 0, done.stderr
    p = {k: Fraction(v) for k, v in json.loads(done.stdout)["probabilities"].items()}
    assert p["banker"] + p["player"] + p["tie"] == 1


def test_gamemath_refuses_a_composition_of_twelve_counts():
    done = run("gamemath", "--profile", "ma-mini", "--ranks", ",".join(["4"] * 12))
    assert done.returncode != 0
    assert "13" in done.stderr
    assert "Traceback" not in done.stderr


def refusal(done: subprocess.CompletedProcess[str]) -> str:
    """The one line a refused command writes on stderr (non-zero exit, nothing on stdout)."""
    assert done.returncode != 0
    assert done.stdout == ""
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    return lines[0]


def _round(wager: str = '{"seat": 1, "type": "banker", "amount": "100"}', **extra: str) -> str:
    """The example round as JSON text, with a wager and extra keys written as-is."""
    more = "".join(f', "{key}": {value}' for key, value in extra.items())
    return (
        '{"profile": "ma-big", "player": ["2H", "3S", "KD"], "banker": ["3C", "KS", "4H"], '
        f'"wagers": [{wager}]{more}}}'
    )


@pytest.mark.parametrize(
    ("text", "line"),
    [
        (
            _round('{"seat": 1, "type": "banker", "amount": "1e30"}'),
            "settle: An amount of money is at most 9999999999.99, not 1e30.",
        ),
        (
            _round('{"seat": 1, "type": "banker", "amount": 1e30}'),
            "settle: An amount of money is at most 9999999999.99, not 1E+30.",
        ),
        (
            _round('{"seat": 1, "type": "banker", "amount": "1' + "0" * 39 + '"}'),
            "settle: An amount of money is at most 9999999999.99, not 1" + "0" * 39 + ".",
        ),
        (
            _round('{"seat": 1, "type": "banker", "amount": "NaN"}'),
            "settle: 'NaN' is not an amount of money.",
        ),
        (
            _round('{"seat": 1, "type": "banker", "amount": NaN}'),
            "settle: The input is not valid JSON (NaN is not a JSON number).",
        ),
        (
            _round(options='{"house_money_ride_portion": "NaN"}'),
            "settle: 'NaN' is not a valid value for the option 'house_money_ride_portion'.",
        ),
        (
            _round(options='{"commission_rate": "sNaN"}'),
            "settle: 'sNaN' is not a valid value for the option 'commission_rate'.",
        ),
        (
            _round(options='{"tie_odds": 1e30}'),
            "settle: '1E+30' is not a valid value for the option 'tie_odds'.",
        ),
        (
            _round(progressives='{"royal9": "1e30"}'),
            "settle: An amount of money is at most 9999999999.99, not 1e30.",
        ),
        (
            "[" * 100_000 + "]" * 100_000,
            "settle: The input is not valid JSON (it is nested too deeply).",
        ),
        (
            "1" * 5_000,
            "settle: The input is not valid JSON "
            "(a number of 5000 digits is more than any amount or count).",
        ),
    ],
)
def test_settle_refuses_what_cannot_be_in_one_line(text, line):
    assert refusal(run("settle", stdin=text)) == line


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (
            ["--profile", "ma-mini", "--ranks", ",".join(["33"] + ["32"] * 12)],
            "gamemath: Massachusetts Minibaccarat is dealt from at most 8 decks: "
            "8 decks hold 32 Aces, not 33.",
        ),
        (
            ["--profile", "ca-commission-free", "--decks", "1"],
            "gamemath: California Commission-Free Baccarat is dealt from a shoe of 8 decks, not 1.",
        ),
        (
            ["--profile", "ma-big", "--decks", "7"],
            "gamemath: Massachusetts Baccarat (big table) is dealt from a shoe of 6 or 8 decks, "
            "not 7.",
        ),
        (
            ["--profile", "ma-mini", "--decks", "1e30"],
            "gamemath: --decks takes a whole number of decks, not '1e30'.",
        ),
        (
            ["--profile", "ma-mini", "--ranks", ",".join(["1" * 5_000] * 13)],
            "gamemath: The count of Aces has 5000 digits: no shoe holds it.",
        ),
    ],
)
def test_gamemath_refuses_a_shoe_that_cannot_be_in_one_line(args, line):
    assert refusal(run("gamemath", *args, "--json")) == line


def test_gamemath_names_the_line_of_a_shoe_that_cannot_be(tmp_path):
    shoes = tmp_path / "shoes.txt"
    shoes.write_text(",".join(["4"] * 13) + "\n" + ",".join(["33"] * 13) + "\n")
    done = run("gamemath", "--profile", "ma-mini", "--ranks-file", str(shoes))
    assert done.returncode != 0
    assert len(done.stdout.splitlines()) == 1  # the first shoe's answer
    assert done.stderr == (
        f"gamemath: {shoes}, line 2: Massachusetts Minibaccarat is dealt from at most 8 decks: "
        "8 decks hold 32 Aces, not 33.\n"
    )
