"""The screenshots: every link on docs/web.md and the README resolves to a file in
docs/screenshots/, and every screenshot there is linked from docs/web.md (issue 16)."""

from __future__ import annotations

import re

from tests.web.conftest import ROOT, SCREENSHOTS

WEB_LINK = re.compile(r"\]\((screenshots/[^)\s]+)\)")
README_LINK = re.compile(r"\]\((docs/screenshots/[^)\s]+)\)")


def test_every_screenshot_link_resolves_and_every_screenshot_is_linked() -> None:
    page = (ROOT / "docs" / "web.md").read_text(encoding="utf-8")
    links = [f"docs/{link}" for link in WEB_LINK.findall(page)]
    assert links, "docs/web.md links no screenshot"
    readme = README_LINK.findall((ROOT / "README.md").read_text(encoding="utf-8"))
    missing = [link for link in [*links, *readme] if not (ROOT / link).is_file()]
    assert missing == [], missing
    on_disk = {f"docs/screenshots/{p.name}" for p in SCREENSHOTS.glob("*.png")}
    assert on_disk - set(links) == set(), sorted(on_disk - set(links))
    views = {link.rsplit("/", 1)[1].removesuffix(".png") for link in links}
    # desktop and phone of every view (the ones made at one width name it)
    desktop = {v for v in views if not v.endswith("-phone") and not v.startswith("line-snake")
               and v not in ("table-phone", "table-phone-drawer")}
    assert desktop and all(f"{v}-phone" in views for v in desktop), sorted(
        v for v in desktop if f"{v}-phone" not in views)
