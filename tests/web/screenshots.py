"""Regenerate docs/screenshots/*.png: `python -m tests.web.screenshots`.

The browser tests take the screenshots at fixed moments of real games (lobby, the table with
the overlay after our first move, the phone-width table, double-nine with the pool, a
spectator, the replay viewer) when DOMINO_SCREENSHOTS is set; this runs them that way. Deals
are random, so the tiles differ from run to run; the views and moments are the same.
"""

from __future__ import annotations

import os
import subprocess
import sys

from tests.web.conftest import ROOT, SCREENSHOTS

VIEWS = [
    "tests/web/test_browser.py",
    "tests/web/test_advice.py",
    "tests/web/test_reading_the_odds.py",
    "tests/web/test_playing_together.py",
    "tests/web/test_replay_board.py",
    "tests/web/test_every_variant.py",
    "tests/web/test_chat.py",
    "tests/web/test_panels.py",
    "tests/web/test_rules_pages.py",
    "tests/web/test_uno_plays_layer.py",
]
"""The tests that take the screenshots (desktop, and each at phone width): the dominoes
pages', the lobby and a table of every game (test_every_variant, at 360 px), and each game's
odds panel after a few moves (test_panels, at 1280 px and 360 px with the drawer open)."""


def main() -> int:
    env = {**os.environ, "DOMINO_SCREENSHOTS": "1"}
    code = subprocess.call(
        [sys.executable, "-m", "pytest", "-q", "-s", "-m", "browser", *VIEWS], cwd=ROOT, env=env
    )
    for path in sorted(SCREENSHOTS.glob("*.png")):
        print(path.relative_to(ROOT))
    return code


if __name__ == "__main__":
    sys.exit(main())
