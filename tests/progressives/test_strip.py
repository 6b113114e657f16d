"""The table's progressive strip (display and tablet): its JSON is the table's own route, for staff
only, and the table's screens use nothing of the apps above tablegame (pit, surveillance,
accounting): no template of theirs, no URL they route."""

from __future__ import annotations

from decimal import Decimal

from django.contrib.auth.models import User
from django.template import loader
from django.template.defaulttags import URLNode
from django.template.loader_tags import ExtendsNode, IncludeNode
from django.test import Client
from django.urls import NoReverseMatch, resolve, reverse

from tests.progressives.conftest import big_table, royal9_round

HIGHER_APPS = ("pit", "surveillance", "accounting")
TABLE_SCREENS = ("dealer.html", "display.html")


def test_the_strip_is_read_from_the_table_s_route(db, dealer, floor):
    table = big_table(dealer, floor)
    royal9_round(table, dealer)  # three $5 wagers: the Star takes $0.90
    url = reverse("table-progressives", args=[table.pk])
    assert url == f"/tables/{table.pk}/progressives.json"
    client = Client()
    client.force_login(floor)
    data = client.get(url).json()
    assert data["table"] == {"id": table.pk, "name": table.name}
    star = next(m for m in data["royal9"] if m["name"] == "Star")
    assert Decimal(star["amount"]) == Decimal("50000.90")
    for page in (f"/display/{table.pk}/", f"/dealer/{table.pk}/"):
        client.force_login(dealer if page.startswith("/dealer/") else floor)
        assert f'data-url="{url}"' in client.get(page).content.decode(), page


def test_the_strip_is_for_staff_with_a_role(db, dealer, floor):
    table = big_table(dealer, floor)
    url = reverse("table-progressives", args=[table.pk])
    assert Client().get(url)["Location"] == f"/login/?next={url}"
    client = Client()
    client.force_login(User.objects.create_user("visitor"))
    answer = client.get(url)
    assert answer.status_code == 403 and "error" in answer.json()


def _templates(name: str, seen: set[str]) -> None:
    """``name`` and every template it extends or includes (by a name written in it)."""
    if name in seen:
        return
    seen.add(name)
    nodes = loader.get_template(name).template.nodelist  # type: ignore[attr-defined]
    for node in nodes.get_nodes_by_type(IncludeNode):
        _templates(str(node.template.var), seen)
    for node in nodes.get_nodes_by_type(ExtendsNode):
        _templates(str(node.parent_name.var), seen)


def _view_module(name: str) -> str:
    for args in ([], [1], [1, 1]):
        try:
            return str(resolve(reverse(name, args=args)).func.__module__)
        except NoReverseMatch:
            continue
    raise AssertionError(f"{name} does not reverse")


def test_the_table_s_screens_use_no_template_or_url_of_a_higher_app(db):
    names: set[str] = set()
    for screen in TABLE_SCREENS:
        _templates(screen, names)
    assert "progressives/_strip.html" in names
    assert not [n for n in names if n.startswith(tuple(f"{app}/" for app in HIGHER_APPS))]
    for name in names:
        nodes = loader.get_template(name).template.nodelist  # type: ignore[attr-defined]
        for node in nodes.get_nodes_by_type(URLNode):
            module = _view_module(str(node.view_name.var))
            assert not module.startswith(HIGHER_APPS), (name, node.view_name.var, module)
