"""Text on the printed forms in every patron's script, fitted to its box.

The PDF's standard fonts (Helvetica) have Latin glyphs only: a Chinese, Greek, Hebrew or Cyrillic
name printed as ■. Each style here is a chain of fonts shipped with the app (``fonts/``, each with
its licence; a Docker image has no host fonts), tried character by character in order and embedded
(subset) in the PDF:

- DejaVu Sans: Latin, Greek, Cyrillic, Armenian, Georgian, Hebrew, Arabic (with its presentation
  forms);
- Droid Sans Fallback: Chinese and Japanese (CJK ideographs, kana);
- Nanum Gothic: Korean (Hangul).

Right-to-left text is shaped (Arabic letters joined: ``arabic_reshaper``) and put in visual order
by the Unicode bidirectional algorithm (``python-bidi``) before it is drawn. A character that no
font of the chain has (Thai or Devanagari, say, have none here) is never drawn as ■ or a blank: it
is printed as its code point, ``[U+0E01]``, and ``missing`` names it, so a test can fail on it.
"""

from __future__ import annotations

import functools
import unicodedata
from dataclasses import dataclass
from pathlib import Path

import arabic_reshaper  # type: ignore[import-untyped]
from bidi import get_display  # type: ignore[import-untyped]
from django.conf import settings
from reportlab.pdfbase import pdfmetrics  # type: ignore[import-untyped]
from reportlab.pdfbase.ttfonts import TTFont  # type: ignore[import-untyped]
from reportlab.pdfgen.canvas import Canvas  # type: ignore[import-untyped]

#: The fonts shipped with the app, each with its licence.
FONTS_DIR: Path = Path(settings.BASE_DIR) / "fonts"
#: Each style's chain, first choice first.
STYLES: dict[str, tuple[str, ...]] = {
    "regular": ("DejaVuSans.ttf", "DroidSansFallbackFull.ttf", "NanumGothic.ttf"),
    # The bold and oblique faces lack some of the regular's scripts (Arabic's joined forms).
    "bold": (
        "DejaVuSans-Bold.ttf",
        "DejaVuSans.ttf",
        "DroidSansFallbackFull.ttf",
        "NanumGothic.ttf",
    ),
    "oblique": (
        "DejaVuSans-Oblique.ttf",
        "DejaVuSans.ttf",
        "DroidSansFallbackFull.ttf",
        "NanumGothic.ttf",
    ),
}


@dataclass(frozen=True)
class Run:
    """A piece of a line drawn in one font, in visual order."""

    font: str
    text: str


@functools.cache
def _font(filename: str) -> TTFont:
    """The font registered with reportlab under its file's name (once per process)."""
    name = filename.removesuffix(".ttf")
    font = TTFont(name, str(FONTS_DIR / filename))
    pdfmetrics.registerFont(font)
    return font


def chain(style: str) -> list[TTFont]:
    """The fonts of ``style``, first choice first."""
    return [_font(filename) for filename in STYLES[style]]


def _covering(char: str, fonts: list[TTFont]) -> TTFont | None:
    code = ord(char)
    return next((f for f in fonts if code in f.face.charToGlyph), None)


def _visual(text: str) -> str:
    """``text`` as drawn left to right: NFC, Arabic letters joined, right-to-left runs reversed."""
    return str(get_display(arabic_reshaper.reshape(unicodedata.normalize("NFC", text))))


def _invisible(char: str) -> bool:
    """A control or format character (a bidirectional mark, a joiner): nothing to draw."""
    return unicodedata.category(char) in ("Cc", "Cf")


def missing(text: str, style: str = "regular") -> list[str]:
    """The characters of ``text`` that no font of ``style`` has (``["U+0E01"]``)."""
    fonts = chain(style)
    found = {
        f"U+{ord(char):04X}"
        for char in _visual(text)
        if not _invisible(char) and _covering(char, fonts) is None
    }
    return sorted(found)


def runs(text: str, style: str = "regular") -> list[Run]:
    """``text`` (one line, in logical order) as runs of one font each, in visual order. A space
    or a mark stays in the font of the run before it when that font has it; a character no font
    has is spelt ``[U+XXXX]`` in the first font."""
    fonts = chain(style)
    out: list[Run] = []
    for char in _visual(text):
        if _invisible(char):
            continue
        previous = pdfmetrics.getFont(out[-1].font) if out else None
        neutral = char.isspace() or unicodedata.category(char).startswith("M")
        found = _covering(char, fonts)
        if neutral and previous is not None and ord(char) in previous.face.charToGlyph:
            font, shown = previous, char
        elif found is not None:
            font, shown = found, char
        else:
            font, shown = fonts[0], f"[U+{ord(char):04X}]"
        if out and out[-1].font == font.fontName:
            out[-1] = Run(font.fontName, out[-1].text + shown)
        else:
            out.append(Run(font.fontName, shown))
    return out


def width(text: str, size: float, style: str = "regular") -> float:
    """How wide ``text`` is drawn at ``size`` points."""
    return sum((_advance(r, size) for r in runs(text, style)), 0.0)


def _advance(run: Run, size: float) -> float:
    return float(pdfmetrics.stringWidth(run.text, run.font, size))


def draw(
    canvas: Canvas, x: float, y: float, text: str, size: float, style: str = "regular"
) -> float:
    """Draw one line at (``x``, ``y``), left-aligned; returns its width."""
    at = x
    for run in runs(text, style):
        canvas.setFont(run.font, size)
        canvas.drawString(at, y, run.text)
        at += _advance(run, size)
    return at - x


def draw_right(
    canvas: Canvas, right: float, y: float, text: str, size: float, style: str = "regular"
) -> float:
    """Draw one line ending at ``right``; returns its width."""
    return draw(canvas, right - width(text, size, style), y, text, size, style)


def wrap(text: str, size: float, room: float, style: str = "regular") -> list[str]:
    """``text`` broken into lines no wider than ``room``: between words, and inside a word (or a
    run of ideographs, which has no spaces) only where it is wider than a line."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        candidate = f"{line} {word}" if line else word
        if width(candidate, size, style) <= room:
            line = candidate
            continue
        if line:
            lines.append(line)
        line = ""
        for char in word:
            if line and width(line + char, size, style) > room:
                lines.append(line)
                line = ""
            line += char
    if line:
        lines.append(line)
    return lines


@dataclass(frozen=True)
class Fitted:
    """Text laid out in a box: its size and its lines."""

    size: float
    lines: list[str]


def fit(
    text: str,
    room: float,
    *,
    size: float,
    smallest: float,
    lines: int = 1,
    style: str = "regular",
) -> Fitted:
    """The largest size from ``size`` down to ``smallest`` (by half points) at which ``text`` is
    one line no wider than ``room``; failing that, the largest at which it wraps between words
    into at most ``lines`` lines; failing that, every line it wraps into at ``smallest``."""
    sizes = [size - step / 2 for step in range(int((size - smallest) * 2) + 1)]
    for candidate in sizes:
        if width(text, candidate, style) <= room:
            return Fitted(candidate, [text] if text else [])
    words = text.split()
    for candidate in sizes:
        if any(width(word, candidate, style) > room for word in words):
            continue  # a word would be broken
        wrapped = wrap(text, candidate, room, style)
        if len(wrapped) <= lines:
            return Fitted(candidate, wrapped)
    return Fitted(smallest, wrap(text, smallest, room, style))
