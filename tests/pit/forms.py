"""Helpers for the Complimentary Vigorish Forms' tests."""

from __future__ import annotations

from django.contrib.auth.models import User

from casino.models import Pit
from tablegame.models import VigorishForm
from tablegame.vigorish_forms import actions as forms


def a_void_form(pit: Pit, clerk: User) -> VigorishForm:
    """A series of ten received, and its first form spoiled: VOID."""
    forms.receive_form_series(pit, first_number=4501, last_number=4510, actor=clerk)
    return forms.void_blank_vigorish_form(pit, reason="Torn in the printer.", actor=clerk)
