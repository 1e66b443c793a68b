"""Reading a game's odds panel the way a person does (issue 28): the line per player with
its percentages, no text lying on other text or under a box, nothing cut at the panel's edge.

`read_panel(page)` measures the panel (#overlay) in the page as it is: every visible text
node's boxes (Range.getClientRects), whether any two of them intersect, whether the element
on top at the middle of each is the text's own element (or inside it: nothing painted over
it), whether any text runs past its own element's sides or the panel's, and whether any box
inside the panel scrolls or clips sideways (scrollWidth > clientWidth where overflow is not
visible). `panel_at(page, width)` does it at a viewport width, opening the phone's drawer.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from tests.web.conftest import SCREENSHOTS

READ = (Path(__file__).parent / "panel_reading.js").read_text(encoding="utf-8")
"""The measuring function (an expression page.evaluate calls)."""


def read_panel(page: Any) -> dict[str, Any]:
    return dict(page.evaluate(READ))


def panel_at(page: Any, width: int, height: int = 800, shot: str | None = None) -> dict[str, Any]:
    """The panel read at `width` px (the phone's drawer opened, then shut again); with
    DOMINO_SCREENSHOTS set, docs/screenshots/SHOT.png of the page as it is then."""
    size = page.viewport_size
    page.set_viewport_size({"width": width, "height": height})
    drawer = page.locator(".drawer-tab")
    opened = False
    if drawer.is_visible() and drawer.get_attribute("aria-expanded") == "false":
        drawer.click()
        opened = True
    page.wait_for_timeout(400)  # the drawer's slide (0.2 s) and a layout
    if shot and os.environ.get("DOMINO_SCREENSHOTS"):
        page.mouse.move(0, 0)
        page.evaluate("window.scrollTo(0, 0); document.getElementById('overlay').scrollTop = 0")
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"{shot}.png"), full_page=not opened)
    read = read_panel(page)
    if opened:
        drawer.click()
    page.set_viewport_size(size)
    return read


PERCENT = re.compile(r"\d+(\.\d+)?%")


def assert_reads_well(read: dict[str, Any], players: set[str], what: str) -> None:
    """A line per player with a percentage; no overlap, nothing covered, cut or sideways."""
    lines = dict(read["gists"])
    assert players <= set(lines), (what, read["gists"])
    for holder in players:
        assert PERCENT.search(lines[holder]), (what, lines[holder])
    assert read["count"] > 10, (what, read["count"])
    assert read["overlaps"] == [], (what, read["overlaps"][:5])
    assert read["covered"] == [], (what, read["covered"][:5])
    assert read["outside"] == [], (what, read["outside"][:5])
    assert read["clipped"] == [], (what, read["clipped"][:5])
    assert read["page"]["scroll"] <= read["page"]["inner"], (what, read["page"])
