"""What the tablet's browser tests share: tapping cards, and checking that the screen fits the
tablet, that every target is big enough and that its text can be read (WCAG AA)."""

from __future__ import annotations

import subprocess
import tarfile
from pathlib import Path
from typing import Any

#: The two tablet sizes: landscape and portrait.
SIZES = {"landscape": (1024, 768), "portrait": (768, 1024)}
#: axe-core from the npm registry, unpacked under var/ (not in git).
AXE_VERSION = "4.14.1"
AXE = Path(__file__).resolve().parents[2] / "var" / f"axe-core-{AXE_VERSION}" / "axe.min.js"


def tap_card(page: Any, card: str) -> None:
    """Tap the card's key on the pad (one key a card: 7H is the key 7♥), once it is not lit
    from a tap of the same card just before (a second touch then is a double tap)."""
    page.click(f"#deck button[data-card='{card}']:not(.just)")


def deal(page: Any, cards: list[str]) -> None:
    """Tap each card in, waiting until the tablet shows it before the next."""
    before = page.locator("#p-cards .playing, #b-cards .playing").count()
    for n, card in enumerate(cards, start=1):
        tap_card(page, card)
        page.wait_for_function(
            "n => document.querySelectorAll('#p-cards .playing, #b-cards .playing').length >= n",
            arg=before + n,
        )


def overflow(page: Any) -> dict[str, int]:
    """How far the page runs past the window (0, 0: the dealer never scrolls)."""
    result: dict[str, int] = page.evaluate(
        """() => ({
            down: document.documentElement.scrollHeight - window.innerHeight,
            across: document.documentElement.scrollWidth - window.innerWidth,
        })"""
    )
    return result


CHECKS = (Path(__file__).with_name("dealer_screen.js")).read_text()


def small_targets(page: Any) -> list[str]:
    """Visible buttons, fields, seats and summaries of the tablet under 44 by 44 px."""
    found: list[str] = page.evaluate(CHECKS, "small targets")
    return found


def low_contrast(page: Any) -> list[str]:
    """Text of the tablet below WCAG AA contrast (4.5:1, 3:1 large), from the colours Chromium
    computed, backgrounds blended through their transparency."""
    found: list[str] = page.evaluate(CHECKS, "low contrast")
    return found


def axe_script() -> str | None:
    """axe-core's script, fetched with ``npm pack`` the first time; None if npm cannot get it."""
    if not AXE.exists():
        AXE.parent.mkdir(parents=True, exist_ok=True)
        try:
            done = subprocess.run(
                ["npm", "pack", f"axe-core@{AXE_VERSION}", "--pack-destination", str(AXE.parent)],
                capture_output=True,
                text=True,
                timeout=120,
                check=False,
            )
        except (OSError, subprocess.TimeoutExpired):
            return None
        packed = AXE.parent / f"axe-core-{AXE_VERSION}.tgz"
        if done.returncode != 0 or not packed.exists():
            return None
        with tarfile.open(packed) as archive:
            member = archive.extractfile("package/axe.min.js")
            if member is None:
                return None
            AXE.write_bytes(member.read())
    return AXE.read_text()


def axe_violations(page: Any, script: str) -> list[str]:
    """axe-core's WCAG 2 A and AA violations on the tablet (and its dialog when open)."""
    if not page.evaluate("() => Boolean(window.axe)"):
        page.add_script_tag(content=script)
    found: list[str] = page.evaluate(
        """async () => {
          const result = await axe.run(document, {
            runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21aa", "wcag22aa"] },
          });
          const where = (v) => v.nodes.map((n) => n.target.join(" ")).join(", ");
          return result.violations.map((v) => `${v.id}: ${where(v)}`);
        }"""
    )
    return found


def screen_faults(page: Any, axe: str | None) -> dict[str, Any]:
    """Everything wrong with the screen as shown now (empty lists: nothing)."""
    faults: dict[str, Any] = {
        "overflow": {k: v for k, v in overflow(page).items() if v > 0},
        "small targets": small_targets(page),
        "low contrast": low_contrast(page),
    }
    if axe is not None:
        faults["axe"] = axe_violations(page, axe)
    return {k: v for k, v in faults.items() if v}
