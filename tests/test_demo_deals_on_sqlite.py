"""The embedded demo (``make run``: SQLite, no Redis) deals a round over the API as a tablet does,
and game protection's follower prices it.

The live path reads a command's state in play in one statement written for both databases
(``tablegame.play.reading``); each answer is made from what it read and changed. Run in a
subprocess with the demo's settings.
"""

from __future__ import annotations

from pathlib import Path

from tests.record.test_sqlite_triggers import run

SCRIPT = """
from django.contrib.auth.models import User
from rest_framework.test import APIClient
from tests.tablegame.conftest import ready_table

dealer, floor = User.objects.get(username="dealer"), User.objects.get(username="floor")
table = ready_table("ma-mini", dealer, floor)
client = APIClient(SERVER_NAME="127.0.0.1")
client.force_login(dealer)
steps = [
    ("round/open/", {}),
    ("round/wagers/", {"seat": 1, "type": "banker", "amount": "100"}),
    ("round/wagers/", {"seat": 2, "type": "player", "amount": "50"}),
    ("round/no-more-bets/", {}),
    *(("round/cards/", {"card": card}) for card in ("4H", "9C", "2S", "KS")),
    ("round/settle/", {}),
]
for number, (route, body) in enumerate(steps):
    answer = client.post(
        f"/api/tables/{table.pk}/{route}", body, format="json", HTTP_IDEMPOTENCY_KEY=f"k{number}"
    )
    print(route, answer.status_code)
    if route == "round/wagers/":  # the answer holds the wager just placed, as it was recorded
        placed = [(w["seat"], w["type"], w["amount"]) for w in answer.json()["round"]["wagers"]]
        print("answered", placed)
again = client.post(
    f"/api/tables/{table.pk}/round/settle/", {}, format="json", HTTP_IDEMPOTENCY_KEY="k8"
)
print("again", again.status_code, again.headers.get("Idempotent-Replayed"))
state = client.get(f"/api/tables/{table.pk}/").json()
print("announcement", state["round"]["announcement"])
wagers = state["round"]["wagers"]
print("wagers", [(w["seat"], w["result"], w["payout"], w["vigorish"]) for w in wagers])
"""


def test_the_embedded_demo_deals_and_settles_a_round_over_the_api(tmp_path: Path) -> None:
    database = tmp_path / "db.sqlite3"
    for command in (("migrate", "--noinput"), ("seed_demo",)):
        done = run(*command, database=database)
        assert done.returncode == 0, done.stderr
    played = run("shell", "--no-imports", "-c", SCRIPT, database=database)
    assert played.returncode == 0, played.stderr
    lines = played.stdout.splitlines()
    codes = [line.split()[-1] for line in lines if line.startswith("round/")]
    assert codes == ["200"] * 9, played.stdout
    # Each wager's answer, which the tablet adds its next chip to, holds every wager placed
    # (SQLite once answered the first wager of a round without it: the demo lost the chip).
    answered = [line for line in lines if line.startswith("answered")]
    assert answered == [
        "answered [(1, 'banker', '100.00')]",
        "answered [(2, 'player', '50.00'), (1, 'banker', '100.00')]",
    ], played.stdout
    assert "again 200 true" in lines
    assert "announcement Banker wins, 9 over 6" in lines
    # Banker's $100 win is paid in full and its 5 % commission collected (text 000).
    assert "wagers [(2, 'lose', '0.00', '0.00'), (1, 'win', '100.00', '5.00')]" in lines, (
        played.stdout
    )
    # Game protection's follower (``make run`` starts ``manage.py protect``) prices the rounds
    # on SQLite too: the first after the burn, the second after the first settled.
    protected = run("protect", "--once", database=database)
    assert protected.returncode == 0, protected.stderr
    assert "priced 2 rounds." in protected.stdout, protected.stdout
