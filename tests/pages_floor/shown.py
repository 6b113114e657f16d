"""What a person sees of a page as the server draws it: its text without the parts marked
``hidden`` (a console tile draws every part its state may show and hides those it does not)."""

from __future__ import annotations

import re
from html.parser import HTMLParser

#: Elements without an end tag: they never open a hidden part.
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}


class _Shown(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.depth = 0  # open elements inside a hidden one (0: shown)
        self.skip = 0  # inside <script> or <style>

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in VOID:
            return
        if self.depth or any(name == "hidden" for name, _ in attrs):
            self.depth += 1
        if tag in ("script", "style"):
            self.skip += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID:
            return
        if self.depth:
            self.depth -= 1
        if tag in ("script", "style") and self.skip:
            self.skip -= 1

    def handle_data(self, data: str) -> None:
        if not self.depth and not self.skip:
            self.parts.append(data)


def shown_text(html: str) -> str:
    """The page's visible text, its whitespace collapsed."""
    parser = _Shown()
    parser.feed(html)
    return re.sub(r"\s+", " ", "".join(parser.parts))
