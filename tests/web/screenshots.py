"""Regenerate docs/screenshots/*.png: `python -m tests.web.screenshots`.

The browser tests take the screenshots at fixed moments of real games (each page of every
game at 1280 px and, as NAME-phone.png, at 360 px) when DOMINO_SCREENSHOTS is set; this runs
every test file that takes one, that way. Deals
are random, so the tiles differ from run to run; the views and moments are the same.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys

from tests.web.conftest import ROOT, SCREENSHOTS


def views() -> list[str]:
    """Every browser test file that takes a screenshot (calls `screenshot(`, or reads a panel
    with `panel_at(..., shot=NAME)`): a new page's test adds its views here by taking them,
    with no list to keep in step."""
    here = ROOT / "tests" / "web"
    return sorted(str(path.relative_to(ROOT)) for path in here.glob("test_*.py")
                  if re.search(r"screenshot\(|\bshot=", path.read_text(encoding="utf-8")))


def main() -> int:
    env = {**os.environ, "DOMINO_SCREENSHOTS": "1"}
    code = subprocess.call(
        [sys.executable, "-m", "pytest", "-q", "-s", "-m", "browser", *views()], cwd=ROOT, env=env
    )
    for path in sorted(SCREENSHOTS.glob("*.png")):
        print(path.relative_to(ROOT))
    return code


if __name__ == "__main__":
    sys.exit(main())
