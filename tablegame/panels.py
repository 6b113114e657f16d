"""Panels of the pit console that an app beside the pit adds: the seam between the layers.

The pit console (``pit/``) shows the tables of a pit; what another app of the top layer knows of
them (game protection's ratings of the players seated) is that app's, which the pit may not
import (the apps of the top layer never import each other). Such an app registers a panel here
in its ``AppConfig.ready()``: its name, its title, the URL name of its own view that draws it for
one pit (an HTML fragment, reversed with the pit's id), and the rule of the access policy that
view asks for. The console shows a panel only to a person that rule lets read it
(:func:`shown`), reads it over HTTP, and reads it again when the app says it changed
(:func:`changed`: a notice to the pit's screens after commit, ``broadcast.announce_panel``).

Nothing here knows what a panel shows, and the pit knows no app that registers one.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from django.db import transaction
from django.urls import reverse

from casino import access
from tablegame.broadcast import announce_panel


@dataclass(frozen=True, slots=True)
class Panel:
    """A panel of the pit console, drawn by the app that registers it."""

    name: str
    """Its key on the page and in its notices: ``"ratings"``."""
    title: str
    """What the console calls it until it is read: ``"Players' ratings"``."""
    url_name: str
    """The URL name of the view that draws it for a pit (reversed with ``pit_id``)."""
    access: str
    """The rule of ``casino.access.RULES`` its view asks for: who may see it."""


@dataclass(frozen=True, slots=True)
class ShownPanel:
    """A panel as one pit's console shows it to one person."""

    panel: Panel
    url: str

    @property
    def name(self) -> str:
        return self.panel.name

    @property
    def title(self) -> str:
        return self.panel.title


_panels: dict[str, Panel] = {}


def register(panel: Panel) -> None:
    """Add ``panel`` to the console (again under its name: replaced). Its access rule must be
    one of the policy's (``access.UnknownWhat`` if not)."""
    access.rule(panel.access)
    _panels[panel.name] = panel


def registered() -> list[Panel]:
    """The panels registered, by name."""
    return [_panels[name] for name in sorted(_panels)]


def shown(person: access.Person, pit_id: int) -> list[ShownPanel]:
    """The panels ``person`` may read for the pit, each with its URL (no query: the person's
    role is remembered on them)."""
    return [
        ShownPanel(panel, reverse(panel.url_name, kwargs={"pit_id": pit_id}))
        for panel in registered()
        if access.decide(person, panel.access).allowed
    ]


def changed(name: str, pits: dict[int, set[int]]) -> None:
    """Tell the screens of each pit (``pits``: pit -> its tables whose part of the panel
    changed) that panel ``name`` changed, once the transaction commits. Run in a transaction."""
    for pit_id, tables in sorted(pits.items()):
        transaction.on_commit(functools.partial(announce_panel, name, pit_id, sorted(tables)))
