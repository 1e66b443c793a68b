"""The browser tests' fixtures (the real server in a subprocess, Debian's chromium), for the
conformance suite's browser smoke."""

from tests.web.conftest import browser, context, web_server  # noqa: F401
