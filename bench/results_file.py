"""``bench/RESULTS.md`` is shared: each script owns the block between its own two markers."""

from __future__ import annotations

from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "RESULTS.md"


def write_block(begin: str, end: str, text: str, *, new_block_first: bool) -> None:
    """Replace the script's block (between ``begin`` and ``end``) of RESULTS.md with ``text``,
    keeping the rest; a block not there yet goes first or last (``new_block_first``)."""
    block = f"{begin}\n{text.rstrip()}\n{end}\n"
    old = RESULTS.read_text() if RESULTS.exists() else ""
    if begin in old and end in old:
        head, rest = old.split(begin, 1)
        tail = rest.split(end, 1)[1].lstrip("\n")
        new = head + block + ("\n" + tail if tail else "")
    elif not old:
        new = block
    elif new_block_first:
        new = block + "\n" + old
    else:
        new = old.rstrip("\n") + "\n\n" + block
    RESULTS.write_text(new)
