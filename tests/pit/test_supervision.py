"""Who supervises which pit: a console shows its person's pits, all of them only when asked."""

from __future__ import annotations

import pytest

from casino.models import Casino, Event, Pit, PitSupervision
from pit.alerts import watch
from tablegame import actions
from tablegame.actions.dealers import relieve_dealer
from tablegame.models import Table
from tests.clients import logged_in, post_json
from tests.pages_floor.shown import shown_text
from tests.pit.conftest import person
from tests.tablegame.conftest import ready_table
from tests.values import present


def second_pit() -> tuple[Pit, Table]:
    """Pit 2 of the demo casino, with one table of its own."""
    pit = Pit.objects.create(casino=Casino.objects.get(), name="Pit 2")
    table = Table(pit=pit, name="P2-1", profile="s42-mini-4", seat_count=7)
    table.full_clean()
    table.save()
    return pit, table


def test_a_console_shows_the_pits_its_person_supervises(db, staff):
    second_pit()
    page = shown_text(logged_in("floor").get("/floor/").content.decode())
    assert "MB-1" in page and "Your pits: Pit 1" in page
    assert "P2-1" not in page  # not this person's pit


def test_every_pit_only_when_the_person_asks(db, staff):
    second_pit()
    page = shown_text(logged_in("floor").get("/floor/?pits=all").content.decode())
    assert "MB-1" in page and "P2-1" in page and "All pits (2)" in page


def test_a_person_who_supervises_no_pit_is_told_how_to_get_one(db, staff):
    person("floor2", "floorperson")
    page = shown_text(logged_in("floor2").get("/floor/").content.decode())
    assert "You supervise no pit yet" in page and "MB-1" not in page


@pytest.mark.parametrize(
    ("asked", "said"),
    [
        ("9999", "There is no pit 9999: showing your own pits."),
        ("1,x", "Choose pits by their numbers, such as 1,3, or all: showing your own pits."),
        ("9" * 40, "Choose pits by their numbers, such as 1,3, or all: showing your own pits."),
        ("99999999999", "There is no pit 99999999999: showing your own pits."),
        ("\x00", "Choose pits by their numbers, such as 1,3, or all: showing your own pits."),
    ],
)
def test_a_choice_of_pits_that_names_none_says_so_and_shows_ones_own(db, staff, asked, said):
    answer = logged_in("floor").get("/floor/", {"pits": asked})
    page = shown_text(answer.content.decode())
    assert answer.status_code == 200 and said in page and "MB-1" in page


def test_the_floor_gives_a_pit_to_a_person_and_takes_it_back(db, staff):
    pit, _ = second_pit()
    client = logged_in("pitboss")
    assert post_json(client, "/dealers/supervise/", {"pit": pit.pk, "person": "floor"}) == (
        200,
        {"done": True},
    )
    assert "P2-1" in shown_text(logged_in("floor").get("/floor/").content.decode())
    status, answer = post_json(client, "/dealers/supervise/", {"pit": pit.pk, "person": "floor"})
    assert (status, answer["error"]) == (409, "floor already supervises Pit 2.")
    assert post_json(client, "/dealers/unsupervise/", {"pit": pit.pk, "person": "floor"})[0] == 200
    assert "P2-1" not in shown_text(logged_in("floor").get("/floor/").content.decode())
    told = Event.objects.filter(chain__pit=pit, chain__scope="pit").order_by("sequence")
    assert [(e.action, e.data["supervisor"], present(e.actor).username) for e in told] == [
        ("supervisor_assigned", "floor", "pitboss"),
        ("supervisor_relieved", "floor", "pitboss"),
    ]
    ended = PitSupervision.objects.get(pit=pit)
    assert present(ended.relieved_by).username == "pitboss" and ended.relieved_at is not None


def test_only_the_console_people_supervise_and_only_supervisors_assign(db, staff):
    pit, _ = second_pit()
    status, answer = post_json(
        logged_in("floor"), "/dealers/supervise/", {"pit": pit.pk, "person": "dealer"}
    )
    assert status == 409 and "does not work at the pit console" in answer["error"]
    status, answer = post_json(
        logged_in("clerk"), "/dealers/supervise/", {"pit": pit.pk, "person": "clerk"}
    )
    assert status == 403
    for body in ({"pit": "1", "person": "floor"}, {"pit": 2**40, "person": "floor"}):
        assert post_json(logged_in("floor"), "/dealers/supervise/", body)[0] == 409
    floor = logged_in("floor")
    assert post_json(floor, "/dealers/supervise/", [1])[0] == 400  # not a command's body
    assert post_json(floor, "/dealers/supervise/", {"pit": pit.pk, "person": "nobody"}) == (
        409,
        {"error": "Say who."},
    )


def test_the_dealers_page_lists_who_supervises_each_pit(db, staff):
    page = shown_text(logged_in("floor").get("/dealers/").content.decode())
    assert "Who supervises which pit" in page
    assert "clerk" in page and "floor" in page and "pitboss" in page


def test_the_alerts_panel_shows_the_alerts_of_the_persons_pits(db, staff, dealer, floor):
    _, other = second_pit()
    actions.open_table(other, actor=floor)  # open with no dealer: an alert in Pit 2
    table = ready_table("s42-mini", dealer, floor)
    relieve_dealer(table, actor=floor)  # and one in Pit 1
    watch()
    mine = logged_in("floor").get("/alerts/").content.decode()
    everything = logged_in("floor").get("/alerts/?pits=all").content.decode()
    assert table.name in mine and other.name not in mine
    assert table.name in everything and other.name in everything


def test_the_console_reads_a_fixed_number_of_queries_whatever_the_casino_holds(
    db, staff, django_assert_max_num_queries
):
    for n in range(5):
        pit = Pit.objects.create(casino=Casino.objects.get(), name=f"Other {n}")
        for t in range(3):
            Table.objects.create(pit=pit, name=f"O{n}-{t}", profile="s42-mini", seat_count=7)
    client = logged_in("floor")
    with django_assert_max_num_queries(14):
        page = client.get("/floor/").content.decode()
    assert "O0-1" not in page  # nor read
