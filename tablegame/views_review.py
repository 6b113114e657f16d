"""The round review page: a past round told card by card from the record (``tablegame.review``).

It is tablegame's because two sibling apps read it, surveillance (from its wall and round search)
and accounting (from its day report), and neither may link to the other. So the page names no
page of theirs: the way back is the caller's. A caller's link carries its own address in
``?back=`` (``/surveillance/rounds/?table=3``, ``/accounting/?day=...``), and the page shows it as
"Back" only if it is a path of this site (``local_path``); anything else (another site, ``//``,
a scheme, a backslash or control character) is dropped, so the parameter cannot send anyone
away. Without it the page has base.html's way home.

Who may open it is ``page:round-review`` in ``casino.access``: surveillance, and accounting from
its reports.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.http import url_has_allowed_host_and_scheme

from casino import access
from tablegame.review import round_for_review, round_review

#: The longest ``?back=`` kept: a page's address with its query, not a document.
BACK_LIMIT = 2000


def local_path(back: str) -> str:
    """``back`` if it is a path of this site (``/...``), else ``""``."""
    if not back.startswith("/") or back.startswith("//") or len(back) > BACK_LIMIT:
        return ""
    if any(not (" " < c < "\x7f") for c in back) or "\\" in back:
        return ""  # browsers drop tabs and newlines and read "\" as "/": "/\t/evil" is "//evil"
    return back if url_has_allowed_host_and_scheme(back, allowed_hosts=None) else ""


@access.page("page:round-review")
def round_review_page(request: HttpRequest, round_id: int) -> HttpResponse:
    """A round told event by event from the record, with the hash chain checked."""
    game = round_for_review(round_id)
    if game is None:
        raise Http404(f"There is no round {round_id}.")
    back = local_path(request.GET.get("back", ""))
    return render(request, "round_review.html", {"review": round_review(game), "back": back})
