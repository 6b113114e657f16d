"""Templates keep the layers of the code (``pyproject.toml``'s import-linter contracts):
baccarat <- casino <- tablegame <- (pit | surveillance | accounting | protection) <- config <-
loadsim. A template may use (include, extend, link to by URL name, load a static file of) its own
layer's or a lower one's, never a higher one's nor a sibling app's: pit, surveillance, accounting
and protection never use each other's.

A template's layer is its directory's app (``templates/pit/`` is pit's); a template at the top of
``templates/`` has its owner in ``TOP_LEVEL``: the layer whose views render it. A URL's layer is
its view's module, as the resolver has it; Django's own views (login, logout, the admin) belong
to no layer. A static file's layer is in ``STATIC``."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from django.conf import settings
from django.urls import URLPattern, URLResolver, get_resolver

TEMPLATES = Path(settings.BASE_DIR) / "templates"

#: Each layer's rank: a layer uses only its own and lower ranks; apps of one rank are siblings.
RANK = {
    "baccarat": 0,
    "casino": 1,
    "tablegame": 2,
    "pit": 3,
    "surveillance": 3,
    "accounting": 3,
    "protection": 3,
    "config": 4,
    "loadsim": 5,
}

#: The owners of the templates at the top of ``templates/``: the layer whose views render them.
TOP_LEVEL = {
    "base.html": "casino",  # the frame every page extends: the sign-out, the way home ("/")
    "403.html": "config",  # Django's refusal page, of the site
    "500.html": "config",  # config.request_id.server_error
    "503.html": "config",  # config.middleware: the database away
    "registration/login.html": "config",  # Django's LoginView, routed by config.urls
    "home.html": "config",  # config.views_home: links to every app's screens
    "dealer.html": "tablegame",  # tablegame.views_dealer
    "dealer_refused.html": "tablegame",
    "display.html": "tablegame",  # tablegame.views_display
    "progressives/_strip.html": "tablegame",  # a table's meters, on its tablet and display
    "round_review.html": "tablegame",  # tablegame.views_review: read by surveillance and accounting
    "floor.html": "pit",  # pit.views.floor
    "floor_tables.html": "pit",
}

#: The owners of the static files the templates load.
STATIC = {
    "css/site.css": "casino",
    "js/http.js": "casino",  # requests for every page's script
    "js/live.js": "tablegame",  # the tables' sockets
    "css/dealer.css": "tablegame",
    "js/dealer.js": "tablegame",
    "css/display.css": "tablegame",
    "js/display.js": "tablegame",
    "js/roads.js": "tablegame",
    "css/round_review.css": "tablegame",
    "css/cards.css": "tablegame",  # cards and hands: the round review and the wall
    "js/progressive_strip.js": "tablegame",  # a table's meters (tablegame.progressives)
    "css/floor.css": "pit",
    "js/floor.js": "pit",
    "js/alerts.js": "pit",
    "js/console_refusals.js": "pit",  # the dealers' refusals on the console (pit.refusals)
    "js/panels.js": "pit",  # the console's panels other apps draw (tablegame.panels)
    "js/dealers.js": "pit",
    "js/pit_forms.js": "pit",
    "js/pit_rules.js": "pit",
    "css/progressives.css": "pit",
    "js/progressives.js": "pit",
    "css/surveillance.css": "surveillance",
    "js/surveillance_wall.js": "surveillance",
    "js/surveillance_notices.js": "surveillance",
    "js/surveillance_significant.js": "surveillance",
    "css/accounting.css": "accounting",
    "css/protection.css": "protection",
    "js/protection.js": "protection",
    "js/protection_ratings.js": "protection",
}

USES = re.compile(
    r"""\{%\s*(?P<tag>include|extends|url|static)\s+(?P<q>["'])(?P<name>[^"']+)(?P=q)"""
)


def layer_of_template(name: str) -> str:
    if "/" in name and name.split("/", 1)[0] in RANK:
        return name.split("/", 1)[0]
    assert name in TOP_LEVEL, f"{name}: give it an owner in TOP_LEVEL"
    return TOP_LEVEL[name]


def url_layers() -> dict[str, str | None]:
    """Each URL name (with its namespaces) and the layer of its view (None: Django's own)."""
    found: dict[str, str | None] = {}

    def walk(patterns: list[URLPattern | URLResolver], spaces: tuple[str, ...]) -> None:
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                space = (*spaces, pattern.namespace) if pattern.namespace else spaces
                walk(pattern.url_patterns, space)
            elif pattern.name:
                view = pattern.callback
                view = getattr(view, "view_class", None) or getattr(view, "cls", None) or view
                package = view.__module__.split(".", 1)[0]
                layer = package if package in RANK else None
                found.setdefault(":".join((*spaces, pattern.name)), layer)

    walk(get_resolver().url_patterns, ())
    return found


def uses() -> Iterator[tuple[str, str, str | None]]:
    """(template, what it uses, that one's layer) for every template under ``templates/``."""
    urls = url_layers()
    for path in sorted(TEMPLATES.rglob("*.html")):
        name = path.relative_to(TEMPLATES).as_posix()
        for found in USES.finditer(path.read_text()):
            tag, used = found["tag"], found["name"]
            if tag in ("include", "extends"):
                yield name, f"template {used}", layer_of_template(used)
            elif tag == "url":
                assert used in urls, f"{name}: no URL named {used}"
                yield name, f"url {used}", urls[used]
            else:
                assert used in STATIC, f"{name}: give {used} an owner in STATIC"
                yield name, f"static {used}", STATIC[used]


def breaks(owner: str, used: str | None) -> bool:
    if used is None or used == owner:
        return False
    return RANK[used] >= RANK[owner]


def test_every_template_has_a_layer():
    for path in TEMPLATES.rglob("*.html"):
        layer_of_template(path.relative_to(TEMPLATES).as_posix())


def test_no_template_uses_a_template_url_or_static_file_of_a_higher_layer_or_a_sibling():
    found = sorted(
        f"{name} ({layer_of_template(name)}) uses {what} ({used})"
        for name, what, used in uses()
        if breaks(layer_of_template(name), used)
    )
    assert not found, "\n".join(found)


def test_the_rule_sees_a_sibling_and_a_higher_layer():
    assert breaks("pit", "surveillance") and breaks("tablegame", "pit")
    assert breaks("casino", "config")
    assert not breaks("pit", "tablegame") and not breaks("config", "pit")
    assert not breaks("casino", None)
