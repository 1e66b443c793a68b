"""Log lines go to the stderr of the moment: a command run in-process with its stderr
captured (then closed) must not leave later lines writing to a closed file."""

from __future__ import annotations

import io
import sys

from server.logs import configure, log


def test_a_closed_stderr_from_an_earlier_run_is_not_written_to() -> None:
    saved = sys.stderr
    first, later = io.StringIO(), io.StringIO()
    try:
        sys.stderr = first
        configure("INFO")  # as `serve` or `worker` does, inside a test's captured stderr
        first.close()
        sys.stderr = later
        log("still_here", n=1)
    finally:
        sys.stderr = saved
    text = later.getvalue()
    assert "event=still_here n=1" in text
    assert "Logging error" not in text
