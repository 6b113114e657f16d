"""The procedures a pit keeps alike (002 (e)(3), (j)(3)(i); 004 §5(b)), changed from the console
for every table at once with surveillance's notice, in force after it, and never undone by a
change filed for later (issue 27)."""

from __future__ import annotations

import datetime
from unittest import mock

import pytest
from django.utils import timezone

from casino.models import Pit
from tablegame import actions
from tablegame.actions import ActionError
from tablegame.actions.tables import file_pit_procedure
from tablegame.models import ProcedureNotice, Table
from tests.clients import logged_in, post_json
from tests.pit.test_console import local
from tests.tablegame.conftest import MANUAL, ready_table, table_for
from tests.values import present


def minutes(n: int) -> datetime.datetime:
    return timezone.now() + datetime.timedelta(minutes=n)


def section_42() -> list[Table]:
    return list(Table.objects.filter(profile__startswith="s42"))


def test_the_pits_shuffle_procedure_changes_from_the_console_and_is_dealt_after_its_notice(
    db, dealer, floor
):
    pit, client = Pit.objects.get(), logged_in("pitboss")
    mini = table_for("s42-mini")
    page = client.get(f"/floor/tables/{mini.pk}/rules/").content.decode()
    assert '<select name="shuffle" data-initial="feathered">' in page
    alone = {"options": {"shuffle": "laced"}, "effective_at": local(40)}
    status, answer = post_json(client, f"/floor/tables/{mini.pk}/rules/file/", alone)
    assert status == 409 and "change the procedure for the whole pit at once" in answer["error"]
    body = {"pit": pit.pk, "source": "002", "shuffle": "laced", "effective_at": local(10)}
    status, answer = post_json(client, "/floor/procedure/", body)
    assert status == 409 and "30 minutes before the shuffle procedure change" in answer["error"]
    body["effective_at"] = local(40)
    assert post_json(client, "/floor/procedure/", body) == (200, {"done": True})
    notices = ProcedureNotice.objects.all()
    assert {n.table for n in notices} == set(section_42())
    assert {n.changes for n in notices} == {"shuffle procedure"}
    assert {t.rules.shuffle.value for t in section_42()} == {"feathered"}  # not yet
    with mock.patch("django.utils.timezone.now", return_value=minutes(41)):
        assert {t.rules.shuffle.value for t in section_42()} == {"laced"}
        assert {t.rules.settlement.value for t in section_42()} == {"pay_then_vigorish_by_seat"}
        table = ready_table("s42-mini", dealer, floor)  # shuffled as the table's rules say
        assert "lace" in present(table.current_shoe()).shuffle
        actions.end_shoe(table, actor=dealer)
        actions.receive_decks(table, decks=8, new_decks=False, actor=dealer)
        with pytest.raises(ActionError):
            actions.shuffle_decks(table, steps=[*MANUAL, "feather"], actor=dealer)


def test_a_shuffle_change_stays_after_a_settlement_change_filed_before_it_for_later(
    db, dealer, floor
):
    pit = Pit.objects.get()
    settlement = file_pit_procedure(
        pit, settlement="vigorish_all_then_pay", effective_at=minutes(60), actor=floor
    )
    file_pit_procedure(pit, shuffle="laced_then_reshuffled", effective_at=minutes(40), actor=floor)
    at_the_hour = minutes(61)
    for table in section_42():
        rules = present(table.rules_record(at_the_hour)).submission
        assert (rules.settlement.value, rules.shuffle.value) == (
            "vigorish_all_then_pay",
            "laced_then_reshuffled",
        )
    for filing in settlement:  # as filed: what the settlement change changes
        filing.refresh_from_db()
        assert filing.changes == {"settlement": "vigorish_all_then_pay"}


def test_the_big_tables_keep_one_shuffle_procedure_of_their_text(db, dealer, floor):
    pit, client = Pit.objects.get(), logged_in("pitboss")
    big = table_for("ma-big")
    page = client.get(f"/floor/tables/{big.pk}/rules/").content.decode()
    assert '<select name="shuffle" data-initial="laced">' in page
    assert '<select name="settlement"' not in page  # 004 leaves it to each table
    body = {"pit": pit.pk, "source": "004", "shuffle": "feathered", "effective_at": local(40)}
    status, answer = post_json(client, "/floor/procedure/", body)
    assert status == 409 and "allows these shuffle procedures" in answer["error"]
    body["shuffle"] = "wash_and_three_dealers"
    assert post_json(client, "/floor/procedure/", body) == (200, {"done": True})
    with mock.patch("django.utils.timezone.now", return_value=minutes(41)):
        shuffles = {
            t.rules.shuffle.value for t in Table.objects.filter(profile__startswith="ma-big")
        }
        assert shuffles == {"wash_and_three_dealers"}
        assert table_for("s42-mini").rules.shuffle.value == "feathered"  # another text's tables


def test_a_minibaccarat_table_of_text_000_changes_its_own_shuffle_with_notice(db, dealer, floor):
    mini = table_for("ma-mini")
    later = minutes(31)
    actions.file_rules(
        mini, profile="ma-mini", options={"shuffle": "laced"}, effective_at=later, actor=floor
    )
    assert present(mini.rules_record(later)).submission.shuffle.value == "laced"
    assert table_for("ma-mini-ez").rules.shuffle.value == "feathered"
