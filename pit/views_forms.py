"""The Complimentary Vigorish Forms of the pit: the register page, each form as a PDF, and one
JSON endpoint per form action (the page's script posts to them; a refusal is ``{"error": ...}``).

Each person acts on their own screen, logged in: the clerk receives series and prepares forms,
the dealer, pit boss and clerk sign, the dealer deposits the original, the pit boss and clerk
who signed witness it, and the clerk forwards the duplicates (``tablegame.vigorish_forms.actions``).
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import Any

from django.contrib.auth.models import User
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.csrf import ensure_csrf_cookie

from casino import access
from casino.models import Pit
from casino.page_commands import page_command
from casino.roles import Actor
from casino.supervision import pits_shown
from pit.form_pdf import form_pdf
from tablegame.actions import ActionError, NotAllowed
from tablegame.dealers import assigned_table
from tablegame.vigorish_forms import actions
from tablegame.vigorish_forms.models import VigorishForm
from tablegame.vigorish_forms.register import forms_register


@access.page("page:vigorish_forms")
@ensure_csrf_cookie
def forms_page(request: HttpRequest) -> HttpResponse:
    """The forms of the person's pits (``?pits=`` as the console; a dealer's, the pit of their
    table): series, vigorish waiting for a form, the forms of the day; ``?partial=1`` gives just
    the registers, for the page's script to put in place."""
    person = request.user
    assert isinstance(person, User)  # signed in (``access.page``)
    shown = pits_shown(person, request.GET.get("pits"))
    pits = shown.pits
    own = assigned_table(person) if not pits and not shown.asked else None
    if own is not None:
        pits = [own.pit]
    registers = [forms_register(pit) for pit in pits]
    partial = bool(request.GET.get("partial"))
    return render(
        request,
        "pit/_forms_register.html" if partial else "pit/forms.html",
        {
            "registers": registers,
            "role": access.floor_role(person),
            "shown": shown,
            "own_table": own,
        },
    )


@access.page("page:vigorish_form_pdf")
def form_pdf_view(request: HttpRequest, form_id: int) -> HttpResponse:
    """The form's original and duplicate, as the paper form."""
    form = (
        VigorishForm.objects.select_related(
            "pit__casino",
            "table",
            "prepared_by",
            "dealer",
            "pit_boss",
            "clerk",
            "patron_part_by",
            "deposited_by",
            "voided_by",
            "void_pit_boss",
            "forwarded_by",
        )
        .filter(pk=form_id)
        .first()
    )
    if form is None:
        raise Http404("There is no such form.")
    response = HttpResponse(form_pdf(form), content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="vigorish-form-{form.printed_number}.pdf"'
    return response


# --- The actions, one endpoint each -------------------------------------------------------------

Body = dict[str, Any]


def _number(body: Body, key: str, missing: str) -> int:
    value = body.get(key)
    if isinstance(value, str) and _digits(value.strip()):
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 2**31:
        raise ActionError(missing)
    return value


def _digits(text: str) -> bool:
    """ASCII digits that an id column can hold (not "²", not 5,000 of them)."""
    return text.isascii() and text.isdigit() and len(text) < 10


def _text(body: Body, key: str) -> str:
    value = body.get(key, "")
    if not isinstance(value, str):
        raise ActionError(f"The {key.replace('_', ' ')} is text.")
    return value


def _pit(body: Body) -> Pit:
    pit = Pit.objects.filter(pk=_number(body, "pit", "Choose a pit.")).first()
    if pit is None:
        raise ActionError("There is no such pit.")
    return pit


def _form(body: Body) -> int:
    return _number(body, "form", "Choose a form.")


def _day(body: Body) -> datetime.date | None:
    text = _text(body, "gaming_day").strip()
    if not text:
        return None
    try:
        return datetime.date.fromisoformat(text)
    except ValueError:
        raise ActionError("The gaming day is a date: YYYY-MM-DD.") from None


def _endpoint(what: str, run: Callable[[Actor, Body], object]) -> Callable[..., HttpResponse]:
    """A POST endpoint for one action (``casino.page_commands``): the policy first, then the
    action; JSON answers."""

    def command(body: Body, actor: Actor) -> None:
        run(actor, body)

    command.__name__ = what.removeprefix("command:")
    return page_command(what, forbidden=(NotAllowed,))(command)


receive_series = _endpoint(
    "command:receive_form_series",
    lambda actor, body: actions.receive_form_series(
        _pit(body),
        first_number=_number(body, "first", "Give the series' first number."),
        last_number=_number(body, "last", "Give the series' last number."),
        actor=actor,
    ),
)
prepare = _endpoint(
    "command:prepare_vigorish_form",
    lambda actor, body: actions.prepare_vigorish_form(
        _number(body, "marker", "Choose the vigorish to document."),
        patron_name=_text(body, "patron_name"),
        actor=actor,
    ),
)
void_blank = _endpoint(
    "command:void_blank_vigorish_form",
    lambda actor, body: actions.void_blank_vigorish_form(
        _pit(body), reason=_text(body, "reason"), actor=actor
    ),
)
sign = _endpoint(
    "command:sign_vigorish_form",
    lambda actor, body: actions.sign_vigorish_form(_form(body), actor=actor),
)
patron = _endpoint(
    "command:record_patron_signature",
    lambda actor, body: actions.record_patron_signature(
        _form(body),
        signature=_text(body, "signature"),
        statement=_text(body, "statement"),
        actor=actor,
    ),
)
deposit = _endpoint(
    "command:deposit_vigorish_form",
    lambda actor, body: actions.deposit_vigorish_form(_form(body), actor=actor),
)
witness = _endpoint(
    "command:witness_vigorish_deposit",
    lambda actor, body: actions.witness_vigorish_deposit(_form(body), actor=actor),
)
void = _endpoint(
    "command:void_vigorish_form",
    lambda actor, body: actions.void_vigorish_form(
        _form(body), reason=_text(body, "reason"), actor=actor
    ),
)
sign_void = _endpoint(
    "command:sign_void_vigorish_form",
    lambda actor, body: actions.sign_void_vigorish_form(_form(body), actor=actor),
)
forward = _endpoint(
    "command:forward_vigorish_duplicates",
    lambda actor, body: actions.forward_vigorish_duplicates(
        _pit(body), gaming_day=_day(body), actor=actor
    ),
)
