"""`python -m clients.bench.kernel_tools [--endings N] [--seed S] [--rounds R]`."""

from __future__ import annotations

import argparse
import sys

from clients.bench.kernel_tools import add_arguments, run

parser = argparse.ArgumentParser(prog="python -m clients.bench.kernel_tools",
                                 description="numba against Cython on the Texas 42 kernel's "
                                             "last two tricks (docs/kernel-tools.md)")
add_arguments(parser)
sys.exit(run(parser.parse_args()))
